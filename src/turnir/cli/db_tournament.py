"""``turnir tournament new|list|show|finish|set`` and ``turnir judge add|list``: tournaments in the
database."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from turnir.cli.db_common import actor_name, command, console, progress_bar
from turnir.cli.options import (
    ActorOption,
    BestOfOption,
    JsonOption,
    PointsOption,
    RoundsOption,
    SeedOption,
    TopBestOfOption,
    TopOption,
    TournamentArg,
    command_group,
)
from turnir.cli.output import write_json
from turnir.cli.session import database, opened
from turnir.domain.model import RulesLevel, StaffRole, Status, TournamentFormat
from turnir.errors import UserError

if TYPE_CHECKING:
    from turnir.services.common import TournamentInfo
    from turnir.services.judges import JudgeInfo

tournament_app = command_group()
judge_app = command_group()


def describe(info: TournamentInfo) -> str:
    s = info.settings
    rounds = s.swiss_rounds if s.swiss_rounds is not None else "ceil(log2 N)"
    top = f", top {s.top_size}" if s.top_size else ""
    return (f"#{info.id} {info.name}: {info.format.value}, {info.rules_level.value}, "
            f"{info.status.value}; {info.players} players, {info.rounds} round(s) played; "
            f"{rounds} Swiss rounds{top}, best of {s.best_of}; seed {info.seed}; "
            f"version {info.version}")


def role_name(judge: JudgeInfo) -> str:
    return judge.role.value.replace("_", " ")


@command(tournament_app, "new")
def new(
    name: Annotated[str, typer.Argument(help="The tournament's name.")],
    players: Annotated[Path | None, typer.Option(help="Register the players of this CSV.")]
    = None,
    rounds: RoundsOption = None,
    best_of: BestOfOption = 3,
    top: TopOption = 0,
    top_best_of: TopBestOfOption = 3,
    points: PointsOption = "3/1/0/3",
    format: Annotated[TournamentFormat, typer.Option(help="Kind of event.")]
    = TournamentFormat.SWISS,
    rules_level: Annotated[RulesLevel, typer.Option(help="Rules level (J-7).")]
    = RulesLevel.AMATEUR,
    seed: SeedOption = None,
    organizer: Annotated[str | None, typer.Option(
        help="The web login that becomes its organizer (issue 10: roles are per tournament).")]
    = None,
    actor: ActorOption = None,
) -> None:
    """Create a tournament in the database (and register players from a CSV)."""
    from turnir.cli.parsing import settings_of
    from turnir.formats.players_csv import read_players_csv
    from turnir.services.players import register_players
    from turnir.services.tournaments import create_tournament

    who = actor_name(actor)
    settings = settings_of(points, best_of=best_of, top_best_of=top_best_of, rounds=rounds,
                           top=top)
    lines = read_players_csv(players) if players is not None else []
    with database() as db:
        info = create_tournament(db, name=name, actor=who, settings=settings, format=format,
                                 rules_level=rules_level, seed=seed, organizer_login=organizer)
        if lines:
            with progress_bar("registering players") as bar:
                register_players(db, info.id, lines, actor=who, progress=bar)
    console.print(f"Created tournament #{info.id} {info.name!r}"
                  + (f" with {len(lines)} players" if lines else "") + f", seed {info.seed}.")


@command(tournament_app, "list")
def list_(
    status: Annotated[Status | None, typer.Option(help="Only tournaments in this status.")]
    = None,
    as_json: JsonOption = False,
) -> None:
    """List the tournaments in the database, newest first."""
    from rich.table import Table

    from turnir.services.tournaments import list_tournaments

    with database() as db:
        found = list_tournaments(db, status=status)
    if as_json:
        write_json([
            {"id": i.id, "name": i.name, "format": i.format.value, "status": i.status.value,
             "players": i.players, "rounds": i.rounds, "created_at": i.created_at.isoformat()}
            for i in found
        ])
        return
    table = Table(title="Tournaments")
    for header in ("#", "Name", "Format", "Status", "Players", "Rounds", "Created"):
        table.add_column(header)
    for i in found:
        table.add_row(str(i.id), i.name, i.format.value, i.status.value, str(i.players),
                      str(i.rounds), f"{i.created_at:%Y-%m-%d %H:%M}")
    console.print(table)


@command(tournament_app, "show")
def show(tournament: TournamentArg) -> None:
    """A tournament's settings, state and current round."""
    from turnir.cli.render import pairings_table
    from turnir.services.judges import list_judges
    from turnir.services.tournaments import get_tournament

    with opened(tournament) as (db, tid):
        details = get_tournament(db, tid)
        judges = list_judges(db, tid)
    console.print(describe(details.info), highlight=False)
    t = details.tournament
    console.print(f"Phase: {t.phase.value}; Swiss rounds planned: {t.swiss_rounds_planned}")
    for judge in judges:
        flag = " (official representative)" if judge.official_representative else ""
        console.print(f"{role_name(judge)}: {judge.name}{flag}")
    if t.current_round is not None:
        console.print(pairings_table(t, t.current_round))


@command(tournament_app, "finish")
def finish(
    tournament: TournamentArg,
    early: Annotated[bool, typer.Option(help="Close it before all rounds are played.")]
    = False,
    actor: ActorOption = None,
) -> None:
    """Close the tournament: nothing changes in it afterwards."""
    from turnir.cli.render import final_table
    from turnir.services.tournaments import finish_tournament, get_tournament

    with opened(tournament) as (db, tid):
        info = finish_tournament(db, tid, actor=actor_name(actor), early=early)
        details = get_tournament(db, tid)
    console.print(f"Tournament #{info.id} {info.name!r} is finished.")
    if details.tournament.phase.value == "finished":
        console.print(final_table(details.tournament))


class OnOff(StrEnum):
    on = "on"
    off = "off"


@command(tournament_app, "set")
def set_(
    tournament: TournamentArg,
    robot: Annotated[OnOff | None, typer.Option(
        help="on: the online judge robot may link games and record results (issue 10).")]
    = None,
    actor: ActorOption = None,
) -> None:
    """Change a tournament's setting: --robot on|off (the robot's online results)."""
    from turnir.services.online import robot_allowed, set_robot_allowed

    with opened(tournament) as (db, tid):
        if robot is None:
            allowed = robot_allowed(db, tid)
        else:
            allowed = set_robot_allowed(db, tid, robot is OnOff.on, actor=actor_name(actor))
    console.print(f"Tournament #{tid}: the online robot "
                  + ("may record results (--robot on)." if allowed
                     else "may not record results (--robot off)."))


@command(judge_app, "add")
def judge_add(
    tournament: TournamentArg,
    name: Annotated[str, typer.Argument(
        help="The judge's name (default with --account: the account's name).")] = "",
    role: Annotated[StaffRole, typer.Option(help="The role.")] = StaffRole.FLOOR_JUDGE,
    official: Annotated[bool, typer.Option(help="An official representative (J-5).")] = False,
    account: Annotated[str | None, typer.Option(
        help="The web login acting in this role: only a linked login has the role's rights "
             "on the web.")] = None,
    actor: ActorOption = None,
) -> None:
    """Give someone a role in the tournament (with --account, a web login too)."""
    from turnir.services.judges import add_judge

    if not name.strip() and account is None:
        raise UserError("name the judge, or give --account LOGIN", code="no_judge_name")
    with opened(tournament) as (db, tid):
        judge = add_judge(db, tid, name=name, role=role, actor=actor_name(actor),
                          official_representative=official, login=account)
    login = f" (login {judge.login})" if judge.login else ""
    console.print(f"{judge.name} is {role_name(judge)}{login}.")


@command(judge_app, "list")
def judge_list(tournament: TournamentArg) -> None:
    """The tournament's judges."""
    from turnir.services.judges import list_judges

    with opened(tournament) as (db, tid):
        judges = list_judges(db, tid)
    for judge in judges:
        flag = " (official representative)" if judge.official_representative else ""
        login = f", login {judge.login}" if judge.login else ", no login"
        console.print(f"#{judge.id} {role_name(judge)}: {judge.name}{flag}{login}")


@command(judge_app, "unlink")
def judge_unlink(
    tournament: TournamentArg,
    judge: Annotated[int, typer.Argument(help="The staff member's number (`turnir judge list`).")],
    actor: ActorOption = None,
) -> None:
    """Take the web login off a staff role: it loses the role; the judge stays named."""
    from turnir.services.judges import remove_staff

    with opened(tournament) as (db, tid):
        found = remove_staff(db, tid, judge, actor=actor_name(actor))
    console.print(f"{found.name} is {role_name(found)} without a login now.")

"""``turnir tournament new|list|show|finish|set`` and ``turnir judge add|list``: tournaments in the
database."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from turnir.cli import render
from turnir.cli.db_common import (
    ActorOption,
    TournamentArg,
    actor_name,
    console,
    database,
    fail,
    guarded,
    progress_bar,
    tournament_id,
)
from turnir.cli.output import write
from turnir.cli.parsing import parse_points
from turnir.domain.model import Settings
from turnir.formats.players_csv import read_players_csv
from turnir.services.common import RulesLevel, Status, TournamentFormat, TournamentInfo
from turnir.services.judges import JudgeRole, add_judge, list_judges, remove_staff
from turnir.services.players import register_players
from turnir.services.tournaments import (
    create_tournament,
    finish_tournament,
    get_tournament,
    list_tournaments,
)

tournament_app = typer.Typer(help="Tournaments in the database: new, list, show, finish.",
                             no_args_is_help=True)
judge_app = typer.Typer(help="The judges of a tournament and their roles.", no_args_is_help=True)


def describe(info: TournamentInfo) -> str:
    s = info.settings
    rounds = s.swiss_rounds if s.swiss_rounds is not None else "ceil(log2 N)"
    top = f", top {s.top_size}" if s.top_size else ""
    return (f"#{info.id} {info.name}: {info.format.value}, {info.rules_level.value}, "
            f"{info.status.value}; {info.players} players, {info.rounds} round(s) played; "
            f"{rounds} Swiss rounds{top}, best of {s.best_of}; seed {info.seed}; "
            f"version {info.version}")


@tournament_app.command("new")
def new(
    name: Annotated[str, typer.Argument(help="The tournament's name.")],
    players: Annotated[Path | None, typer.Option(help="Register the players of this CSV.")]
    = None,
    rounds: Annotated[int | None, typer.Option(help="Swiss rounds (default ceil(log2 N)).")]
    = None,
    best_of: Annotated[int, typer.Option(help="Games per Swiss match: 1, 3 or 5.")] = 3,
    top: Annotated[int, typer.Option(help="Players in the top: 0, 2, 4, 8, …")] = 0,
    top_best_of: Annotated[int, typer.Option(help="Games per top match: 1, 3 or 5.")] = 3,
    points: Annotated[str, typer.Option(help="Match points win/draw/loss[/bye].")] = "3/1/0/3",
    format: Annotated[TournamentFormat, typer.Option(help="Kind of event.")]
    = TournamentFormat.SWISS,
    rules_level: Annotated[RulesLevel, typer.Option(help="Rules level (J-7).")]
    = RulesLevel.AMATEUR,
    seed: Annotated[int | None, typer.Option(help="Random seed (default: drawn now).")] = None,
    organizer: Annotated[str | None, typer.Option(
        help="The web login that becomes its organizer (issue 10: roles are per tournament).")]
    = None,
    actor: ActorOption = None,
) -> None:
    """Create a tournament in the database (and register players from a CSV)."""
    who = actor_name(actor)
    with database() as db:
        def create() -> tuple[TournamentInfo, int]:
            settings = Settings(points=parse_points(points), best_of=best_of,
                                top_best_of=top_best_of, swiss_rounds=rounds, top_size=top)
            lines = read_players_csv(players) if players is not None else None
            info = create_tournament(db, name=name, actor=who, settings=settings, format=format,
                                     rules_level=rules_level, seed=seed,
                                     organizer_login=organizer)
            if lines:
                with progress_bar("registering players") as bar:
                    register_players(db, info.id, lines, actor=who, progress=bar)
            return info, len(lines or ())

        info, count = guarded(create)
        console.print(f"Created tournament #{info.id} {info.name!r}"
                      + (f" with {count} players" if count else "") + f", seed {info.seed}.")


@tournament_app.command("list")
def list_(
    status: Annotated[Status | None, typer.Option(help="Only tournaments in this status.")]
    = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """List the tournaments in the database, newest first."""
    with database() as db:
        found = guarded(lambda: list_tournaments(db, status=status))
    if as_json:
        write(json.dumps([
            {"id": i.id, "name": i.name, "format": i.format.value, "status": i.status.value,
             "players": i.players, "rounds": i.rounds, "created_at": i.created_at.isoformat()}
            for i in found
        ], ensure_ascii=False, indent=2) + "\n")
        return
    table = Table(title="Tournaments")
    for header in ("#", "Name", "Format", "Status", "Players", "Rounds", "Created"):
        table.add_column(header)
    for i in found:
        table.add_row(str(i.id), i.name, i.format.value, i.status.value, str(i.players),
                      str(i.rounds), f"{i.created_at:%Y-%m-%d %H:%M}")
    console.print(table)


@tournament_app.command("show")
def show(tournament: TournamentArg) -> None:
    """A tournament's settings, state and current round."""
    with database() as db:
        tid = tournament_id(db, tournament)
        details = guarded(lambda: get_tournament(db, tid))
        judges = guarded(lambda: list_judges(db, tid))
    console.print(describe(details.info), highlight=False)
    t = details.tournament
    console.print(f"Phase: {t.phase.value}; Swiss rounds planned: {t.swiss_rounds_planned}")
    for judge in judges:
        flag = " (official representative)" if judge.official_representative else ""
        console.print(f"{judge.role.value.replace('_', ' ')}: {judge.name}{flag}")
    if t.current_round is not None:
        console.print(render.pairings_table(t, t.current_round))


@tournament_app.command("finish")
def finish(
    tournament: TournamentArg,
    early: Annotated[bool, typer.Option(help="Close it before all rounds are played.")]
    = False,
    actor: ActorOption = None,
) -> None:
    """Close the tournament: nothing changes in it afterwards."""
    with database() as db:
        tid = tournament_id(db, tournament)
        info = guarded(lambda: finish_tournament(db, tid, actor=actor_name(actor), early=early))
        details = guarded(lambda: get_tournament(db, tid))
    console.print(f"Tournament #{info.id} {info.name!r} is finished.")
    if details.tournament.phase.value == "finished":
        console.print(render.final_table(details.tournament))


class OnOff(StrEnum):
    on = "on"
    off = "off"


@tournament_app.command("set")
def set_(
    tournament: TournamentArg,
    robot: Annotated[OnOff | None, typer.Option(
        help="on: the online judge robot may link games and record results (issue 10).")]
    = None,
    actor: ActorOption = None,
) -> None:
    """Change a tournament's setting: --robot on|off (the robot's online results)."""
    from turnir.services.online import robot_allowed, set_robot_allowed

    with database() as db:
        tid = tournament_id(db, tournament)
        if robot is None:
            allowed = guarded(lambda: robot_allowed(db, tid))
        else:
            wanted = robot is OnOff.on
            allowed = guarded(lambda: set_robot_allowed(db, tid, wanted,
                                                        actor=actor_name(actor)))
    console.print(f"Tournament #{tid}: the online robot "
                  + ("may record results (--robot on)." if allowed
                     else "may not record results (--robot off)."))


@judge_app.command("add")
def judge_add(
    tournament: TournamentArg,
    name: Annotated[str, typer.Argument(
        help="The judge's name (default with --account: the account's name).")] = "",
    role: Annotated[JudgeRole, typer.Option(help="The role.")] = JudgeRole.FLOOR_JUDGE,
    official: Annotated[bool, typer.Option(help="An official representative (J-5).")] = False,
    account: Annotated[str | None, typer.Option(
        help="The web login acting in this role: only a linked login has the role's rights "
             "on the web.")] = None,
    actor: ActorOption = None,
) -> None:
    """Give someone a role in the tournament (with --account, a web login too)."""
    if not name.strip() and account is None:
        raise fail("name the judge, or give --account LOGIN")
    with database() as db:
        tid = tournament_id(db, tournament)
        judge = guarded(lambda: add_judge(db, tid, name=name, role=role, actor=actor_name(actor),
                                          official_representative=official, login=account))
    login = f" (login {judge.login})" if judge.login else ""
    console.print(f"{judge.name} is {judge.role.value.replace('_', ' ')}{login}.")


@judge_app.command("list")
def judge_list(tournament: TournamentArg) -> None:
    """The tournament's judges."""
    with database() as db:
        tid = tournament_id(db, tournament)
        judges = guarded(lambda: list_judges(db, tid))
    for judge in judges:
        flag = " (official representative)" if judge.official_representative else ""
        login = f", login {judge.login}" if judge.login else ", no login"
        console.print(f"#{judge.id} {judge.role.value.replace('_', ' ')}: {judge.name}{flag}"
                      f"{login}")


@judge_app.command("unlink")
def judge_unlink(
    tournament: TournamentArg,
    judge: Annotated[int, typer.Argument(help="The staff member's number (`turnir judge list`).")],
    actor: ActorOption = None,
) -> None:
    """Take the web login off a staff role: it loses the role; the judge stays named."""
    with database() as db:
        tid = tournament_id(db, tournament)
        found = guarded(lambda: remove_staff(db, tid, judge, actor=actor_name(actor)))
    console.print(f"{found.name} is {found.role.value.replace('_', ' ')} without a login now.")

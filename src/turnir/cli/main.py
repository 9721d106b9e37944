"""The ``turnir`` command line: parse, call one use case, render (STYLE habit 8).

Two kinds of commands: the file commands work on an offline tournament file (``new FILE``,
``pair FILE`` …); the database commands (``tournament``, ``player``, ``round``, ``judge``, ``log``,
``export``, ``import``, ``db``; modules ``db_*.py``) work on the database of docs/storage.md.
``result`` and ``standings`` serve both: the first argument is a file when it is an existing
path or ends in ``.json``, otherwise a stored tournament (number or name).

A ``UserError`` becomes a message on stderr and exit code 2; the tournament file is then left
untouched (every write is atomic and happens only after the whole change succeeded), and so is
the database (every change is one transaction).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from turnir.cli import audit_log, db_data
from turnir.cli import backup as backup_cli
from turnir.cli.db_common import choose_language, command, guard, refuse_existing
from turnir.cli.lazy import LazyGroup, lazy_group
from turnir.cli.options import (
    BestOfOption,
    CurrentRoundArg,
    EditNoteOption,
    ForceOption,
    JsonOption,
    JudgeCorrectOption,
    LateByesOption,
    NewPlayerArg,
    PlayerRefArg,
    PointsOption,
    RoundsOption,
    SeedOption,
    SwapRoundArg,
    TopBestOfOption,
    TopOption,
    command_group,
)
from turnir.cli.output import SafeConsole, write_json
from turnir.compose import serve
from turnir.errors import UserError

if TYPE_CHECKING:
    from turnir.domain.tournament import Tournament

app = command_group(
    name="turnir",
    help="Tournament reporter for the Berserk card game: Swiss rounds, top, standings.",
    add_completion=False,
    pretty_exceptions_show_locals=False,
    cls=LazyGroup,
)
console = SafeConsole()

FileArg = Annotated[Path, typer.Argument(help="The tournament JSON file.")]


@app.callback()
def main_options(
    lang: Annotated[str | None, typer.Option(
        "--lang", help="The language of messages: ru or en (default: Russian, English when "
                       "LANG is English).")] = None,
) -> None:
    """Tournament reporter for the Berserk card game: Swiss rounds, top, standings."""
    choose_language(lang)


def change(path: Path, action: Callable[[Tournament], Tournament]) -> Tournament:
    """Read the file, apply ``action``, write it back atomically; nothing written on error."""
    from turnir.formats.tournament_file import read_tournament, write_tournament

    t = action(read_tournament(path))
    write_tournament(path, t)
    return t


def load(path: Path) -> Tournament:
    from turnir.formats.tournament_file import read_tournament

    return read_tournament(path)


def print_pairings(t: Tournament, number: int | None = None) -> None:
    """The pairings of round ``number`` (default: the current round)."""
    from turnir.cli import render

    rnd = t.round(number) if number is not None else t.current_round
    if rnd is None:
        raise UserError("no round has been paired yet", code="no_round")
    console.print(render.pairings_table(t, rnd))


@command(app)
def new(
    file: FileArg,
    players: Annotated[Path, typer.Option(
        help="Players file (CSV or .xlsx): name[,city,club,byes].")],
    name: Annotated[str | None, typer.Option(help="Tournament name (default: file name).")]
    = None,
    rounds: RoundsOption = None,
    best_of: BestOfOption = 3,
    top: TopOption = 0,
    top_best_of: TopBestOfOption = 3,
    points: PointsOption = "3/1/0/3",
    seed: SeedOption = None,
    force: ForceOption = False,
) -> None:
    """Create a tournament file from a players file (CSV or .xlsx)."""
    import secrets

    from turnir.cli.parsing import settings_of
    from turnir.domain.model import Player
    from turnir.domain.tournament import new_tournament
    from turnir.formats.players_csv import read_players_csv
    from turnir.formats.tournament_file import write_tournament

    refuse_existing(file, force=force)
    roster = [Player(id=i, name=ln.name, city=ln.city, club=ln.club,
                     granted_byes=ln.granted_byes(swiss_rounds=rounds))
              for i, ln in enumerate(read_players_csv(players), start=1)]
    settings = settings_of(points, best_of=best_of, top_best_of=top_best_of, rounds=rounds,
                           top=top)
    t = new_tournament(name or file.stem, roster, settings=settings,
                       seed=seed if seed is not None else secrets.randbits(48))
    write_tournament(file, t)
    console.print(
        f"Created {file}: {len(t.players)} players, {t.swiss_rounds_planned} Swiss rounds"
        + (f", top {t.settings.top_size}" if t.settings.top_size else "")
        + f", seed {t.seed}."
    )


@command(app)
def pair(file: FileArg) -> None:
    """Pair the next round: Swiss, or the top once the Swiss part is over."""
    from turnir.domain.tournament import pair_next_round

    print_pairings(change(file, pair_next_round))


@command(app)
def repair(file: FileArg) -> None:
    """Undo the last round (no results yet) and pair it again with a new lot."""
    from turnir.domain.tournament import repair_last_round

    print_pairings(change(file, repair_last_round))


@command(app)
def undo(file: FileArg) -> None:
    """Remove the last round when it has no results yet."""
    from turnir.domain.tournament import undo_last_round

    t = change(file, undo_last_round)
    console.print(f"Round {len(t.rounds) + 1} undone; {len(t.rounds)} round(s) remain.")


TargetArg = Annotated[str, typer.Argument(
    help="A tournament file (an existing path or *.json), or a tournament in the database "
         "(its number or name).")]


def is_file(target: str) -> bool:
    """The first argument names a tournament file when it exists or ends in .json."""
    return Path(target).exists() or target.lower().endswith(".json")


@command(app)
def result(
    target: TargetArg,
    round: Annotated[int, typer.Argument(help="Round number.")],
    table: Annotated[int, typer.Argument(help="Table number.")],
    score: Annotated[str, typer.Argument(help="Game wins A-B[-draws], or ID.")],
    correct: JudgeCorrectOption = False,
    expected_version: Annotated[int | None, typer.Option(
        help="Database: the pairing's version you saw; refused when it changed since.")] = None,
    key: Annotated[str | None, typer.Option(
        help="Database: a request key; the same key again changes nothing.")] = None,
    actor: Annotated[str | None, typer.Option(help="Database: who records it.")] = None,
) -> None:
    """Record a match result: ``turnir result t.json 1 3 2-1`` or ``turnir result Cup 1 3 2-1``.

    On a stored tournament the same result again changes nothing.
    """
    if not is_file(target):
        db_data.record(target, round, table, score, correct=correct,
                       expected_version=expected_version, key=key, actor=actor)
        return
    from turnir.domain.results import parse_result
    from turnir.domain.tournament import record_result

    t = change(Path(target), lambda t: record_result(t, round, table, parse_result(score),
                                                     correction=correct))
    line = t.round(round).pairing_at(table)
    assert line.b is not None and line.result is not None
    console.print(f"Round {round} table {table}: {t.player(line.a).name} "
                  f"{line.result.score} {t.player(line.b).name}")


@command(app)
def drop(file: FileArg, player: Annotated[str, typer.Argument(help="Number or name.")]) -> None:
    """Drop a player: not paired any more, results kept."""
    from turnir.domain.tournament import drop_player

    dropped: list[str] = []

    def apply(t: Tournament) -> Tournament:
        p = t.find_player(player)
        dropped.append(p.name)
        return drop_player(t, p.id)

    change(file, apply)
    console.print(f"{dropped[0]} dropped.")


@command(app)
def late(
    file: FileArg,
    name: NewPlayerArg,
    byes: LateByesOption = False,
    city: str = "",
    club: str = "",
) -> None:
    """Late entry: add a player from the next round on."""
    from turnir.cli.render import joined_line
    from turnir.domain.tournament import add_late_player

    t = change(file, lambda t: add_late_player(t, name, byes_for_missed_rounds=byes,
                                               city=city, club=club))
    p = t.players[-1]
    console.print(joined_line(p.name, p.id, p.joined_round, byes=byes))


@command(app)
def swap(
    file: FileArg,
    round: SwapRoundArg,
    first: PlayerRefArg,
    second: PlayerRefArg,
    note: EditNoteOption = "",
) -> None:
    """Manual pairing edit: two players exchange their seats (logged)."""
    from turnir.domain.tournament import swap_players

    def apply(t: Tournament) -> Tournament:
        a, b = t.find_player(first), t.find_player(second)
        return swap_players(t, round, a.id, b.id, note=note)

    print_pairings(change(file, apply), round)


@command(app)
def pairings(
    file: FileArg,
    round: CurrentRoundArg = None,
) -> None:
    """Show a round's pairings."""
    print_pairings(load(file), round)


@command(app)
def standings(
    target: TargetArg,
    as_json: JsonOption = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Database: CSV output.")] = False,
) -> None:
    """Standings with every tiebreak column; final places once the top is over."""
    from turnir.cli.render import print_standings

    if not is_file(target):
        db_data.standings(target, as_json=as_json, as_csv=as_csv)
        return
    print_standings(console, load(Path(target)), as_json=as_json)


@command(app)
def schema() -> None:
    """Print the JSON Schema of the tournament file."""
    from turnir.formats.tournament_file import json_schema

    write_json(json_schema())


@command(app)
def demo(
    players: Annotated[int, typer.Option(help="Number of players.")] = 32,
    seed: Annotated[int, typer.Option(help="Random seed.")] = 2026,
) -> None:
    """Simulate a whole tournament and print it round by round."""
    from turnir.demo import simulate_demo

    simulate_demo(console, players=players, seed=seed)


def _mount_commands() -> None:
    """The database commands (docs/storage.md), each group in its own module, imported only
    when the command line names it (``turnir.cli.lazy``)."""
    for name, module, attribute, help in (
        ("tournament", "db_tournament", "tournament_app",
         "Tournaments in the database: new, list, show, finish."),
        ("player", "db_player", "player_app", "Players of a tournament in the database."),
        ("round", "db_round", "round_app", "Rounds of a tournament in the database."),
        ("judge", "db_tournament", "judge_app", "The judges of a tournament and their roles."),
        ("db", "db_data", "db_app", "The database itself: where it is, migrations."),
        ("robot", "robot", "robot_app", "The online judge robot."),
        ("penalty", "penalty", "penalty_app", "Penalties and judging: give, list, appeal, "
         "report, technical results, the catalogue, suspensions."),
        ("rating", "rating", "rating_app", "The rating database: submit tournaments, "
         "histories, the leaderboard, import and export."),
        ("user", "users", "user_app", "Web accounts: organizers, judges, players."),
        ("schedule", "schedule", "schedule_app", "Recurring tournaments: add, list, run."),
        ("deck", "decks", "deck_app", "Deck lists: check, register, show, list."),
        ("deck-checks", "deck_checks", "deck_checks_app",
         "Random deck checks in a round: draw by lot, add, done, list."),
        ("format", "formats", "format_app", "Constructed formats: ban lists, starter decks, a "
         "tournament's format."),
        ("cards", "cards", "cards_app", "The card catalogue: import, find, list, sample."),
        ("draft", "draft", "draft_app", "Drafts: the plan, seating at draft tables, a "
         "simulated draft."),
    ):
        lazy_group(name, f"turnir.cli.{module}", attribute, help)
    app.command("log")(guard(audit_log.log))
    app.command("export")(guard(db_data.export))
    app.command("import")(guard(db_data.import_))
    app.command("serve")(serve)
    backup_cli.mount(app)  # backup, restore (docs/backup.md)


_mount_commands()


def main() -> None:
    app()


if __name__ == "__main__":
    main()

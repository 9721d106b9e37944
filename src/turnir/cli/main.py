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

import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, TypeVar

import typer

from turnir.cli import audit_log, db_data, render
from turnir.cli.db_player import player_app
from turnir.cli.db_round import round_app
from turnir.cli.db_tournament import judge_app, tournament_app
from turnir.cli.output import SafeConsole, error_line, write
from turnir.cli.parsing import parse_points
from turnir.cli.penalty import penalty_app
from turnir.cli.rating import rating_app
from turnir.cli.robot import robot_app
from turnir.cli.users import user_app
from turnir.domain.model import Player, Settings
from turnir.domain.results import parse_result
from turnir.domain.tournament import (
    Phase,
    Tournament,
    add_late_player,
    drop_player,
    new_tournament,
    pair_next_round,
    record_result,
    repair_last_round,
    swap_players,
    undo_last_round,
)
from turnir.errors import UserError
from turnir.formats.players_csv import read_players_csv
from turnir.formats.tournament_file import json_schema, read_tournament, write_tournament
from turnir.web.serve import serve

app = typer.Typer(
    name="turnir",
    help="Tournament reporter for the Berserk card game: Swiss rounds, top, standings.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
console = SafeConsole()
err_console = SafeConsole(stderr=True)

FileArg = Annotated[Path, typer.Argument(help="The tournament JSON file.")]
T = TypeVar("T")


def fail(message: str) -> typer.Exit:
    err_console.print(error_line(message), highlight=False, soft_wrap=True)
    return typer.Exit(code=2)


def change(path: Path, action: Callable[[Tournament], Tournament]) -> Tournament:
    """Read the file, apply ``action``, write it back atomically; nothing written on error."""
    try:
        t = action(read_tournament(path))
        write_tournament(path, t)
    except UserError as error:
        raise fail(error.message) from None
    return t


def load(path: Path) -> Tournament:
    try:
        return read_tournament(path)
    except UserError as error:
        raise fail(error.message) from None


@app.command()
def new(
    file: FileArg,
    players: Annotated[Path, typer.Option(
        help="Players file (CSV or .xlsx): name[,city,club,byes].")],
    name: Annotated[str | None, typer.Option(help="Tournament name (default: file name).")]
    = None,
    rounds: Annotated[int | None, typer.Option(help="Swiss rounds (default ceil(log2 N)).")]
    = None,
    best_of: Annotated[int, typer.Option(help="Games per Swiss match: 1, 3 or 5.")] = 3,
    top: Annotated[int, typer.Option(help="Players in the top: 0, 2, 4, 8, …")] = 0,
    top_best_of: Annotated[int, typer.Option(help="Games per top match: 1, 3 or 5.")] = 3,
    points: Annotated[str, typer.Option(help="Match points win/draw/loss[/bye].")] = "3/1/0/3",
    seed: Annotated[int | None, typer.Option(help="Random seed (default: drawn now).")] = None,
    force: Annotated[bool, typer.Option(help="Overwrite an existing file.")] = False,
) -> None:
    """Create a tournament file from a players file (CSV or .xlsx)."""
    if file.exists() and not force:
        raise fail(f"{file} already exists (use --force to overwrite)")
    try:
        lines = read_players_csv(players)
        roster = [
            Player(id=i, name=ln.name, city=ln.city, club=ln.club,
                   granted_byes=ln.granted_byes(swiss_rounds=rounds))
            for i, ln in enumerate(lines, start=1)
        ]
        settings = Settings(points=parse_points(points), best_of=best_of,
                            top_best_of=top_best_of, swiss_rounds=rounds, top_size=top)
        t = new_tournament(name or file.stem, roster, settings=settings,
                           seed=seed if seed is not None else secrets.randbits(48))
        write_tournament(file, t)
    except UserError as error:
        raise fail(error.message) from None
    console.print(
        f"Created {file}: {len(t.players)} players, {t.swiss_rounds_planned} Swiss rounds"
        + (f", top {t.settings.top_size}" if t.settings.top_size else "")
        + f", seed {t.seed}."
    )


@app.command()
def pair(file: FileArg) -> None:
    """Pair the next round: Swiss, or the top once the Swiss part is over."""
    t = change(file, pair_next_round)
    rnd = t.current_round
    assert rnd is not None
    console.print(render.pairings_table(t, rnd))


@app.command()
def repair(file: FileArg) -> None:
    """Undo the last round (no results yet) and pair it again with a new lot."""
    t = change(file, repair_last_round)
    rnd = t.current_round
    assert rnd is not None
    console.print(render.pairings_table(t, rnd))


@app.command()
def undo(file: FileArg) -> None:
    """Remove the last round when it has no results yet."""
    t = change(file, undo_last_round)
    console.print(f"Round {len(t.rounds) + 1} undone; {len(t.rounds)} round(s) remain.")


TargetArg = Annotated[str, typer.Argument(
    help="A tournament file (an existing path or *.json), or a tournament in the database "
         "(its number or name).")]


def is_file(target: str) -> bool:
    """The first argument names a tournament file when it exists or ends in .json."""
    return Path(target).exists() or target.lower().endswith(".json")


@app.command()
def result(
    target: TargetArg,
    round: Annotated[int, typer.Argument(help="Round number.")],
    table: Annotated[int, typer.Argument(help="Table number.")],
    score: Annotated[str, typer.Argument(help="Game wins A-B[-draws], or ID.")],
    correct: Annotated[bool, typer.Option(help="Replace an existing result (judge).")] = False,
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
    file = Path(target)

    def apply(t: Tournament) -> Tournament:
        return record_result(t, round, table, parse_result(score), correction=correct)

    t = change(file, apply)
    line = t.round(round).pairing_at(table)
    assert line.b is not None and line.result is not None
    console.print(f"Round {round} table {table}: {t.player(line.a).name} "
                  f"{line.result.score} {t.player(line.b).name}")


@app.command()
def drop(file: FileArg, player: Annotated[str, typer.Argument(help="Number or name.")]) -> None:
    """Drop a player: not paired any more, results kept."""
    dropped: list[str] = []

    def apply(t: Tournament) -> Tournament:
        p = t.find_player(player)
        dropped.append(p.name)
        return drop_player(t, p.id)

    change(file, apply)
    console.print(f"{dropped[0]} dropped.")


@app.command()
def late(
    file: FileArg,
    name: Annotated[str, typer.Argument(help="The new player's name.")],
    byes: Annotated[bool, typer.Option(help="Grant byes for the rounds already played.")]
    = False,
    city: str = "",
    club: str = "",
) -> None:
    """Late entry: add a player from the next round on."""
    t = change(file, lambda t: add_late_player(t, name, byes_for_missed_rounds=byes,
                                               city=city, club=club))
    p = t.players[-1]
    console.print(f"{p.name} joined as #{p.id} from round {p.joined_round}"
                  + (" with byes for the rounds played." if byes else "."))


@app.command()
def swap(
    file: FileArg,
    round: Annotated[int, typer.Argument(help="Round number (the current round).")],
    first: Annotated[str, typer.Argument(help="Player number or name.")],
    second: Annotated[str, typer.Argument(help="Player number or name.")],
    note: Annotated[str, typer.Option(help="Why (kept in the round's edit log).")] = "",
) -> None:
    """Manual pairing edit: two players exchange their seats (logged)."""

    def apply(t: Tournament) -> Tournament:
        a, b = t.find_player(first), t.find_player(second)
        return swap_players(t, round, a.id, b.id, note=note)

    t = change(file, apply)
    console.print(render.pairings_table(t, t.round(round)))


@app.command()
def pairings(
    file: FileArg,
    round: Annotated[int | None, typer.Argument(help="Round (default: current).")] = None,
) -> None:
    """Show a round's pairings."""
    t = load(file)
    try:
        rnd = t.round(round) if round is not None else t.current_round
    except UserError as error:
        raise fail(error.message) from None
    if rnd is None:
        raise fail("no round has been paired yet")
    console.print(render.pairings_table(t, rnd))


@app.command()
def standings(
    target: TargetArg,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Database: CSV output.")] = False,
) -> None:
    """Standings with every tiebreak column; final places once the top is over."""
    if not is_file(target):
        db_data.standings(target, as_json=as_json, as_csv=as_csv)
        return
    t = load(Path(target))
    if as_json:
        write(json.dumps(render.standings_json(t), ensure_ascii=False, indent=2))
        write("\n")
        return
    console.print(render.standings_table(t))
    if t.phase is Phase.FINISHED:
        console.print(render.final_table(t))


@app.command()
def schema() -> None:
    """Print the JSON Schema of the tournament file."""
    write(json.dumps(json_schema(), ensure_ascii=False, indent=2) + "\n")


@app.command()
def demo(
    players: Annotated[int, typer.Option(help="Number of players.")] = 32,
    seed: Annotated[int, typer.Option(help="Random seed.")] = 2026,
) -> None:
    """Simulate a whole tournament and print it round by round."""
    from turnir.demo import simulate_demo

    try:
        simulate_demo(console, players=players, seed=seed)
    except UserError as error:
        raise fail(error.message) from None


def _mount_database_commands() -> None:
    """The database commands (docs/storage.md), each group in its own module."""
    app.add_typer(tournament_app, name="tournament")
    app.add_typer(player_app, name="player")
    app.add_typer(round_app, name="round")
    app.add_typer(judge_app, name="judge")
    app.add_typer(db_data.db_app, name="db")
    app.command("log")(audit_log.log)
    app.command("export")(db_data.export)
    app.command("import")(db_data.import_)


_mount_database_commands()


app.add_typer(robot_app, name="robot", help="The online judge robot.")
app.add_typer(penalty_app, name="penalty")
app.add_typer(rating_app, name="rating")
app.add_typer(user_app, name="user")
app.command("serve")(serve)


def main() -> None:
    app()

"""Database commands around the data: ``turnir result`` and ``turnir standings`` on a stored
tournament, ``turnir export``, ``turnir import``, ``turnir db upgrade|where``."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from turnir.cli.db_common import actor_name, command, console, progress_bar, refuse_existing
from turnir.cli.options import ActorOption, ForceOption, TournamentArg, command_group
from turnir.cli.session import database, opened
from turnir.errors import UserError

if TYPE_CHECKING:
    from turnir.services.players import PlayerInfo
    from turnir.services.results import ResultStatus

db_app = command_group()


def record(ref: str, round_number: int, table: int, score: str, *, correct: bool,
           expected_version: int | None, key: str | None, actor: str | None) -> None:
    """``turnir result TOURNAMENT ROUND TABLE SCORE`` on a stored tournament."""
    from turnir.domain.results import parse_result
    from turnir.services.queries import get_standings
    from turnir.services.results import record_result

    with opened(ref) as (db, tid):
        done = record_result(db, tid, round_number, table, parse_result(score),
                             actor=actor_name(actor), correction=correct,
                             expected_version=expected_version, idempotency_key=key)
        names = get_standings(db, tid).tournament
    console.print(f"Round {round_number} table {table}: {names.player(done.a).name} "
                  f"{done.result.score} {names.player(done.b).name} ({result_word(done.status)}"
                  f"; version {done.version}).")


def result_word(status: ResultStatus) -> str:
    """What happened to a recorded result."""
    from turnir.services.results import ResultStatus

    return {ResultStatus.RECORDED: "recorded", ResultStatus.CORRECTED: "corrected",
            ResultStatus.UNCHANGED: "already recorded, unchanged"}[status]


def standings(ref: str, *, as_json: bool, as_csv: bool) -> None:
    """``turnir standings TOURNAMENT`` on a stored tournament."""
    from turnir.cli.render import print_standings
    from turnir.services.queries import get_standings

    with opened(ref) as (db, tid):
        view = get_standings(db, tid)
    print_standings(console, view.tournament, as_json=as_json, as_csv=as_csv)


class ExportKind(StrEnum):
    TOURNAMENT = "tournament"
    PLAYERS = "players"
    STANDINGS = "standings"


def export(
    tournament: TournamentArg,
    output: Annotated[Path, typer.Argument(help="The file to write (.json or .csv).")],
    kind: Annotated[ExportKind | None, typer.Option(
        help="What to write (default: tournament for .json, standings for .csv).")] = None,
    force: ForceOption = False,
) -> None:
    """Write a stored tournament as the offline JSON file, or its players or standings as CSV."""
    from turnir.formats.tournament_file import write_atomic
    from turnir.services.queries import get_standings
    from turnir.services.transfer import export_players_csv, export_tournament, standings_csv

    chosen = kind or (ExportKind.TOURNAMENT if output.suffix.lower() == ".json"
                      else ExportKind.STANDINGS)
    refuse_existing(output, force=force)
    with opened(tournament) as (db, tid):
        if chosen is ExportKind.TOURNAMENT:
            with progress_bar("exporting") as bar:
                content = export_tournament(db, tid, progress=bar)
        elif chosen is ExportKind.PLAYERS:
            content = export_players_csv(db, tid)
        else:
            content = standings_csv(get_standings(db, tid).tournament)
    write_atomic(output, content)
    console.print(f"Wrote the {chosen.value} of tournament #{tid} to {output}.")


def import_(
    file: Annotated[Path, typer.Argument(
        help="A tournament file (.json) or a players file (.csv, .xlsx).")],
    into: Annotated[str | None, typer.Option(
        help="For a players file: the tournament to register them in.")] = None,
    name: Annotated[str | None, typer.Option(help="A new name for an imported tournament.")]
    = None,
    actor: ActorOption = None,
) -> None:
    """Import an offline tournament file as a new tournament, or players into a tournament."""
    if file.suffix.lower() in (".csv", ".xlsx", ".txt"):
        if into is None:
            raise UserError("a players file goes into a tournament: add --into TOURNAMENT",
                            code="no_tournament")
        added, tid = register_file(into, file, actor_name(actor))
        console.print(f"Registered {len(added)} players in tournament #{tid}.")
        return
    from turnir.formats.tournament_file import read_tournament_text
    from turnir.services.transfer import import_tournament

    text = read_tournament_text(file)
    with database() as db, progress_bar("importing") as bar:
        info = import_tournament(db, text, actor=actor_name(actor), source=str(file),
                                 name=name, progress=bar)
    console.print(f"Imported {file} as tournament #{info.id} {info.name!r}: "
                  f"{info.players} players, {info.rounds} round(s).")


def register_file(ref: str, file: Path, actor: str) -> tuple[list[PlayerInfo], int]:
    """Register every player of a players file in the tournament ``ref`` (all of them, or
    none when a line is wrong): the players and the tournament's number."""
    from turnir.formats.players_csv import read_players_csv
    from turnir.services.players import register_players

    with opened(ref) as (db, tid), progress_bar("registering players") as bar:
        lines = read_players_csv(file)
        return register_players(db, tid, lines, actor=actor, progress=bar), tid


@command(db_app, "upgrade")
def db_upgrade() -> None:
    """Create the database or migrate it to this version's schema."""
    from turnir.compose import database_url, open_database, upgrade_database

    db = open_database(database_url(), migrate=False)
    try:
        before, after = upgrade_database(db)
    finally:
        db.close()
    if before == after:
        console.print(f"{db.describe()}: already at schema {after}.")
    else:
        console.print(f"{db.describe()}: migrated from {before or 'nothing'} to schema "
                      f"{after}.")


@command(db_app, "where")
def db_where() -> None:
    """Print the database URL in effect (TURNIR_DATABASE_URL or the per-user file)."""
    from turnir.compose import database_url, open_database

    db = open_database(database_url(), migrate=False)
    console.print(db.describe(), highlight=False, soft_wrap=True)
    db.close()

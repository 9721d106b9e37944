"""Database commands around the data: ``turnir result`` and ``turnir standings`` on a stored
tournament, ``turnir export``, ``turnir import``, ``turnir db upgrade|where``."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

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
from turnir.domain.results import parse_result
from turnir.errors import UserError
from turnir.formats.players_csv import read_players_csv
from turnir.formats.tabular import read_file_bytes
from turnir.formats.tournament_file import MAX_BYTES as MAX_TOURNAMENT_BYTES
from turnir.formats.tournament_file import write_atomic
from turnir.services.common import TournamentInfo
from turnir.services.players import register_players
from turnir.services.queries import get_standings
from turnir.services.results import ResultStatus, record_result
from turnir.services.transfer import (
    export_players_csv,
    export_tournament,
    import_tournament,
    standings_csv,
)
from turnir.storage.database import Database, database_url
from turnir.storage.migrate import upgrade

db_app = typer.Typer(help="The database itself: where it is, migrations.", no_args_is_help=True)


def record(tournament: str, round_number: int, table: int, score: str, *, correct: bool,
           expected_version: int | None, key: str | None, actor: str | None) -> None:
    """``turnir result TOURNAMENT ROUND TABLE SCORE`` on a stored tournament."""
    with database() as db:
        tid = tournament_id(db, tournament)
        done = guarded(lambda: record_result(
            db, tid, round_number, table, parse_result(score), actor=actor_name(actor),
            correction=correct, expected_version=expected_version, idempotency_key=key,
        ))
        names = guarded(lambda: get_standings(db, tid).tournament)
    what = {ResultStatus.RECORDED: "recorded", ResultStatus.CORRECTED: "corrected",
            ResultStatus.UNCHANGED: "already recorded, unchanged"}[done.status]
    console.print(f"Round {round_number} table {table}: {names.player(done.a).name} "
                  f"{done.result.score} {names.player(done.b).name} ({what}; version "
                  f"{done.version}).")


def standings(tournament: str, *, as_json: bool, as_csv: bool) -> None:
    """``turnir standings TOURNAMENT`` on a stored tournament."""
    with database() as db:
        tid = tournament_id(db, tournament)
        view = guarded(lambda: get_standings(db, tid))
    t = view.tournament
    if as_json:
        write(json.dumps(render.standings_json(t), ensure_ascii=False, indent=2))
        write("\n")
        return
    if as_csv:
        write(standings_csv(t))
        return
    console.print(render.standings_table(t))
    if t.phase.value == "finished":
        console.print(render.final_table(t))


class ExportKind(StrEnum):
    TOURNAMENT = "tournament"
    PLAYERS = "players"
    STANDINGS = "standings"


def export(
    tournament: TournamentArg,
    output: Annotated[Path, typer.Argument(help="The file to write (.json or .csv).")],
    kind: Annotated[ExportKind | None, typer.Option(
        help="What to write (default: tournament for .json, standings for .csv).")] = None,
    force: Annotated[bool, typer.Option(help="Overwrite an existing file.")] = False,
) -> None:
    """Write a stored tournament as the offline JSON file, or its players or standings as CSV."""
    chosen = kind or (ExportKind.TOURNAMENT if output.suffix.lower() == ".json"
                      else ExportKind.STANDINGS)
    if output.exists() and not force:
        raise fail(f"{output} already exists (use --force to overwrite)")
    with database() as db:
        tid = tournament_id(db, tournament)

        def text() -> str:
            if chosen is ExportKind.TOURNAMENT:
                with progress_bar("exporting") as bar:
                    return export_tournament(db, tid, progress=bar)
            if chosen is ExportKind.PLAYERS:
                return export_players_csv(db, tid)
            return standings_csv(get_standings(db, tid).tournament)

        content = guarded(text)
    guarded(lambda: write_atomic(output, content))
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
    who = actor_name(actor)
    with database() as db:
        if file.suffix.lower() in (".csv", ".xlsx", ".txt"):
            if into is None:
                raise fail("a players file goes into a tournament: add --into TOURNAMENT")
            tid = tournament_id(db, into)

            def players() -> int:
                lines = read_players_csv(file)
                with progress_bar("registering players") as bar:
                    return len(register_players(db, tid, lines, actor=who, progress=bar))

            count = guarded(players)
            console.print(f"Registered {count} players in tournament #{tid}.")
            return

        def tournament() -> TournamentInfo:
            data = read_file_bytes(file, max_bytes=MAX_TOURNAMENT_BYTES)
            try:
                text = data.decode("utf-8-sig")
            except UnicodeDecodeError as error:
                raise UserError(f"{file}: cannot read it ({error})", code="bad_file") from None
            with progress_bar("importing") as bar:
                return import_tournament(db, text, actor=who, source=str(file), name=name,
                                         progress=bar)

        info = guarded(tournament)
    console.print(f"Imported {file} as tournament #{info.id} {info.name!r}: "
                  f"{info.players} players, {info.rounds} round(s).")


@db_app.command("upgrade")
def db_upgrade() -> None:
    """Create the database or migrate it to this version's schema."""
    db = guarded(lambda: Database.open(database_url(), migrate=False))
    try:
        report = guarded(lambda: upgrade(db))
    finally:
        db.close()
    if report.before == report.after:
        console.print(f"{db.describe()}: already at schema {report.after}.")
    else:
        console.print(f"{db.describe()}: migrated from {report.before or 'nothing'} to schema "
                      f"{report.after}.")


@db_app.command("where")
def db_where() -> None:
    """Print the database URL in effect (TURNIR_DATABASE_URL or the per-user file)."""
    db = guarded(lambda: Database.open(database_url(), migrate=False))
    console.print(db.describe(), highlight=False, soft_wrap=True)
    db.close()

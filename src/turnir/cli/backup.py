"""``turnir backup FILE [--portable]`` and ``turnir restore FILE [--replace]``
(``turnir.services.backup``; ``docs/backup.md``).

A backup is taken while the server runs; a restore is the operator's command (stop the web
server first: the data changes under it). A refused restore prints the problem and exits 2
with the database unchanged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from turnir.cli.db_common import actor_name, command, console, refuse_existing
from turnir.cli.options import ForceOption
from turnir.cli.session import database

BackupFileArg = Annotated[Path, typer.Argument(help="The backup file.")]


def _size(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:,.1f} KB"
    return f"{size / 1024 / 1024:,.1f} MB"


def backup(
    file: BackupFileArg,
    portable: Annotated[bool, typer.Option(
        "--portable", help="The portable file (gzip JSON lines): restores onto SQLite or "
                           "PostgreSQL. Default: the database kind's own snapshot.")] = False,
    force: ForceOption = False,
) -> None:
    """Back up the whole database into FILE, consistent while the server runs and writes."""
    from turnir.services.backup import make_backup

    refuse_existing(file, force=force)
    with database() as db:
        report = make_backup(db, file, portable=portable)
    counted = (f", {report.tables} tables, {report.rows:,} rows"
               if report.rows is not None else "")
    console.print(f"Backed up {db.describe()} to {file} ({report.kind}{counted}, "
                  f"{_size(report.size)}, {report.seconds:.1f} s).", highlight=False)


def restore(
    file: BackupFileArg,
    replace: Annotated[bool, typer.Option(
        "--replace", help="Empty a database that holds data first (in the same "
                          "transaction). Without it only an empty database is restored "
                          "into.")] = False,
) -> None:
    """Restore a backup into the database: a snapshot onto its own kind, a portable file onto
    either. The whole file is checked before anything changes."""
    from turnir.services.backup import restore as restore_file

    with database() as db:
        report = restore_file(db, file, replace=replace, actor=actor_name(None))
    rows = f", {report.rows:,} rows" if report.rows is not None else ""
    migrated = "; migrated to this turnir's schema" if report.migrated else ""
    console.print(f"Restored {file} into {db.describe()} ({report.kind}, schema "
                  f"{report.revision}{rows}, {report.seconds:.1f} s){migrated}.",
                  highlight=False)


def mount(app: typer.Typer) -> None:
    """Register both commands on the ``turnir`` app."""
    command(app, "backup")(backup)
    command(app, "restore")(restore)

"""Backups and restores of the whole database (``turnir backup`` / ``turnir restore``, the
site organizers' download; ``docs/backup.md``).

- ``make_backup(db, FILE)``: the database kind's own snapshot (SQLite's online backup API,
  PostgreSQL's ``pg_dump``: ``turnir.storage.backup_native``); ``portable=True``: the
  portable file (``turnir.formats.backup_file``) with every table's rows read in one read
  transaction (``reading``: one snapshot; ``REPEATABLE READ`` on PostgreSQL), so it is
  consistent while the server writes. Written next to ``FILE`` and renamed over it at the end:
  a failed backup leaves no half file.
- ``restore(db, FILE)``: a native snapshot back onto its own kind; a portable file onto either
  kind. Everything is checked first — the whole file (gzip, every line, the counts, the
  checksum), its schema revision, the target being empty unless ``replace`` — and only then is
  anything changed; a portable restore is one transaction (empty, insert every row with its
  id, move the sequences), so a file that fails half-way changes nothing either.

Schema revisions: a file of a newer turnir is refused. A portable file or a PostgreSQL dump
of an older schema is refused too (restore it with the turnir that wrote it, then upgrade); an
older SQLite snapshot is restored as it is and then migrated up (``turnir db upgrade``'s
migrations), since the file replaces the whole database.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from turnir.domain.accounts import AccountRole
from turnir.errors import ForbiddenError, UserError
from turnir.formats.backup_file import (
    Header,
    backup_chunks,
    check_backup,
    not_a_backup,
    read_backup,
    read_header,
    write_backup,
)
from turnir.services.common import Database, Tx, changing, reading
from turnir.storage import backup_native, backup_repo
from turnir.storage.accounts_repo import account_by_id
from turnir.storage.migrate import current_revision, head_revision, upgrade

PORTABLE = "portable"


@dataclass(frozen=True, slots=True)
class BackupReport:
    file: Path
    kind: str
    """``sqlite``, ``postgresql`` (a native snapshot) or ``portable``."""
    size: int
    """The file's size in bytes."""
    tables: int | None
    """Portable: the tables written; ``None`` for a native snapshot."""
    rows: int | None
    seconds: float


@dataclass(frozen=True, slots=True)
class RestoreReport:
    kind: str
    revision: str
    """The schema revision of the file."""
    rows: int | None
    """Portable: the rows restored."""
    migrated: bool
    """An older SQLite snapshot was migrated up to this turnir's schema."""
    seconds: float


# ----- backing up -----------------------------------------------------------------------------


def _header(db: Database, tx: Tx) -> Header:
    specs = backup_repo.table_specs()
    counts = backup_repo.row_counts(tx, specs)
    return Header(revision=current_revision(tx) or "", dialect=db.dialect,
                  created_at=db.clock.now(), tables=tuple(zip(specs, counts, strict=True)))


def portable_chunks(db: Database) -> Iterator[bytes]:
    """The portable file in compressed pieces, every row read in one read transaction."""
    with reading(db) as tx:
        header = _header(db, tx)
        yield from backup_chunks(header, lambda spec: backup_repo.rows(tx, spec))


def _write_portable(db: Database, part: Path) -> tuple[int, int]:
    with reading(db) as tx, part.open("wb") as out:
        header = _header(db, tx)
        write_backup(out, header, lambda spec: backup_repo.rows(tx, spec))
    return len(header.tables), header.total_rows


def make_backup(db: Database, file: Path, *, portable: bool = False) -> BackupReport:
    """A consistent backup of the whole database into ``file`` (see the module docstring)."""
    started = time.monotonic()
    part = file.with_name(f".{file.name}.{os.getpid()}.part")
    tables = rows = None
    try:
        if portable:
            tables, rows = _write_portable(db, part)
        elif db.is_sqlite:
            backup_native.sqlite_snapshot(db, part)
        else:
            backup_native.pg_dump(db, part)
        part.replace(file)
    finally:
        part.unlink(missing_ok=True)
    return BackupReport(file=file, kind=PORTABLE if portable else db.dialect,
                        size=file.stat().st_size, tables=tables, rows=rows,
                        seconds=time.monotonic() - started)


def portable_download(db: Database, *, account_id: int | None) -> Iterator[bytes]:
    """The site organizers' download: the role checked now, the file streamed after."""
    with reading(db) as tx:
        if account_id is None or AccountRole(account_by_id(tx, account_id).role) \
                is not AccountRole.ORGANIZER:
            raise ForbiddenError("only a site organizer downloads the backup",
                                 code="forbidden")
    return portable_chunks(db)


# ----- restoring ------------------------------------------------------------------------------


def _check_revision(revision: str | None, source: str, *, older_ok: bool = False) -> str:
    if revision is None:
        raise not_a_backup(source)
    age = backup_native.revision_age(revision)
    if age == "unknown":
        raise UserError("the backup file {file} has schema {revision}, newer than this turnir "
                        "knows; upgrade turnir", code="backup_too_new", file=source,
                        revision=revision)
    if age == "older" and not older_ok:
        raise UserError("the backup file {file} has schema {revision}, older than this "
                        "turnir's {head}; restore it with the turnir that wrote it, then "
                        "upgrade", code="backup_too_old", file=source, revision=revision,
                        head=head_revision())
    return revision


def _refuse_filled(db: Database, tx: Tx, *, replace: bool) -> None:
    filled = backup_repo.filled_tables(tx)
    if filled and not replace:
        raise UserError("the database {database} is not empty ({tables}); restore into an "
                        "empty database, or give --replace to replace what it holds",
                        code="restore_not_empty", database=db.describe(),
                        tables=", ".join(filled[:5]) + (" …" if len(filled) > 5 else ""))


def _restore_portable(db: Database, path: Path, source: str, *, replace: bool,
                      actor: str) -> tuple[str, int]:
    revision = _check_revision(read_header(path, source=source).revision, source)
    header = check_backup(path, source=source)  # the whole file, before anything changes
    if [spec for spec, _count in header.tables] != backup_repo.table_specs():
        raise UserError("the backup file {file} holds other tables than schema {revision}",
                        code="backup_tables", file=source, revision=revision)
    with changing(db, None, actor) as change:
        _refuse_filled(db, change.conn, replace=replace)
        with backup_repo.triggers_off(change.conn):
            backup_repo.empty_all(change.conn)
            for spec, batch in read_backup(path, source=source):  # checked again as it goes
                backup_repo.insert_rows(change.conn, spec, batch)
        backup_repo.reset_sequences(change.conn)
    return revision, header.total_rows


def _restore_native(db: Database, path: Path, source: str, kind: str, *,
                    replace: bool) -> tuple[str, bool]:
    if kind != db.dialect:
        raise UserError("a snapshot of {kind} restores only onto {kind}; move to another "
                        "database kind with a portable backup (--portable)",
                        code="backup_wrong_kind", kind=_KIND_NAMES[kind])
    if kind == "sqlite":
        found = backup_native.sqlite_file_revision(path, source=source)
    else:
        found = backup_native.pg_file_revision(db, path, source=source)
    revision = _check_revision(found, source, older_ok=kind == "sqlite")
    with reading(db) as tx:
        _refuse_filled(db, tx, replace=replace)
    db.engine.dispose()
    if kind == "sqlite":
        backup_native.sqlite_restore(db, path)
    else:
        backup_native.pg_restore(db, path)
    db.engine.dispose()
    migrated = revision != head_revision()
    if migrated:
        upgrade(db)
    return revision, migrated


_KIND_NAMES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


def restore(db: Database, file: Path, *, replace: bool = False,
            actor: str = "restore") -> RestoreReport:
    """Restore ``file`` into ``db`` (see the module docstring); nothing changes on a refusal."""
    started = time.monotonic()
    source = str(file)
    try:
        kind = backup_native.file_kind(file)
    except OSError as error:
        raise UserError("cannot read {path}: {reason}", code="unreadable", path=source,
                        reason=error.strerror or str(error)) from None
    if kind is None:
        raise not_a_backup(source)
    rows: int | None = None
    migrated = False
    if kind == PORTABLE:
        revision, rows = _restore_portable(db, file, source, replace=replace, actor=actor)
    else:
        revision, migrated = _restore_native(db, file, source, kind, replace=replace)
    return RestoreReport(kind=kind, revision=revision, rows=rows, migrated=migrated,
                         seconds=time.monotonic() - started)

"""Native snapshots (``turnir backup FILE``; ``docs/backup.md``): each database kind's own
consistent copy, taken while the server runs and writes.

- **SQLite**: the online backup API (``sqlite3.Connection.backup``) in one step: it reads
  every page inside one read transaction, so the copy is the database at one moment while
  writers go on in WAL mode. The copy is switched to a rollback journal (one self-contained
  file) and checked with ``PRAGMA integrity_check``. A restore copies the file into the
  target database through the same API (the target's write lock held throughout).
- **PostgreSQL**: ``pg_dump --format=custom`` (one ``REPEATABLE READ`` snapshot of its own),
  ``pg_restore --clean --if-exists --single-transaction`` back. The connection goes through
  libpq's environment (``PGHOST``, ``PGPORT``, ``PGUSER``, ``PGPASSWORD``, ``PGSSLMODE``) and
  a quoted ``dbname=…`` conninfo: no password on a command line, nothing read as an option.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy.engine import make_url

from turnir.errors import UserError
from turnir.storage.database import Database

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"
_TIMEOUT_S = 6 * 3600


def revision_age(revision: str) -> str:
    """``current`` (this turnir's schema), ``older`` (one of its migrations) or ``unknown``
    (a newer turnir's, or none of ours)."""
    from alembic.script import ScriptDirectory

    from turnir.storage.migrate import SCRIPT_LOCATION, head_revision

    if revision == head_revision():
        return "current"
    try:
        found = ScriptDirectory(str(SCRIPT_LOCATION)).get_revision(revision)
    except Exception:  # alembic raises several kinds for an unknown revision
        return "unknown"
    return "older" if found is not None else "unknown"


def file_kind(path: Path) -> str | None:
    """``sqlite``, ``postgresql`` or ``portable`` by the file's first bytes; else ``None``."""
    with path.open("rb") as stream:
        start = stream.read(16)
    if start.startswith(SQLITE_MAGIC):
        return "sqlite"
    if start.startswith(PG_MAGIC):
        return "postgresql"
    if start.startswith(b"\x1f\x8b"):
        return "portable"
    return None


# ----- SQLite ---------------------------------------------------------------------------------


def _sqlite_path(db: Database) -> str:
    database = db.engine.url.database or ""
    if not database or database == ":memory:" or database.startswith("file:"):
        raise UserError("only a database kept in a file can be backed up",
                        code="backup_no_file")
    return str(Path(database).expanduser())


def sqlite_snapshot(db: Database, target: Path) -> None:
    """The database as it is now, into the new file ``target`` (see the module docstring)."""
    source = sqlite3.connect(_sqlite_path(db), timeout=30)
    copy = sqlite3.connect(str(target))
    try:
        source.backup(copy, pages=-1)  # one step: one read transaction, one moment
        copy.execute("PRAGMA journal_mode = DELETE")
        checked = copy.execute("PRAGMA integrity_check").fetchall()
        if checked != [("ok",)]:  # pragma: no cover - SQLite copied a page it read wrong
            raise RuntimeError(f"the snapshot fails its integrity check: {checked}")
    finally:
        copy.close()
        source.close()


def sqlite_file_revision(path: Path, *, source: str) -> str | None:
    """Check an SQLite snapshot whole (``PRAGMA integrity_check``); its schema revision."""
    damaged = UserError("the snapshot {file} is damaged: {reason}", code="backup_damaged",
                        file=source, reason="integrity check")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        raise damaged from None
    try:
        if conn.execute("PRAGMA integrity_check").fetchall() != [("ok",)]:
            raise damaged
        found = conn.execute("SELECT version_num FROM alembic_version").fetchall()
    except sqlite3.Error as error:
        raise UserError("the snapshot {file} is damaged: {reason}", code="backup_damaged",
                        file=source, reason=str(error)) from None
    finally:
        conn.close()
    return str(found[0][0]) if found else None


def sqlite_restore(db: Database, path: Path) -> None:
    """Copy the snapshot ``path`` over the database (through the backup API, under its write
    lock: other connections wait, then see the restored database)."""
    snapshot = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    target = sqlite3.connect(_sqlite_path(db), timeout=30)
    try:
        snapshot.backup(target, pages=-1)
        target.execute("PRAGMA journal_mode = WAL")
    finally:
        target.close()
        snapshot.close()


# ----- PostgreSQL -----------------------------------------------------------------------------


def _quoted(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _pg_connection(db: Database) -> tuple[dict[str, str], str]:
    """The environment and the ``dbname=…`` conninfo for libpq's tools."""
    url = make_url(db.engine.url.render_as_string(hide_password=False))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    for key, value in (("PGHOST", url.host), ("PGPORT", url.port),
                       ("PGUSER", url.username), ("PGPASSWORD", url.password)):
        if value is not None:
            env[key] = str(value)
    for option, key in (("sslmode", "PGSSLMODE"), ("host", "PGHOST")):
        given = url.query.get(option)
        if isinstance(given, str):
            env[key] = given
    return env, f"dbname={_quoted(url.database or '')}"


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise UserError("{program} is not installed (Debian: the postgresql-client package)",
                        code="backup_tool_missing", program=name)
    return found


def _run(db: Database, arguments: list[str], *, text_out: bool = False) -> str:
    env, _conninfo = _pg_connection(db)
    done = subprocess.run(arguments, env=env, capture_output=True, timeout=_TIMEOUT_S,
                          check=False)
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise UserError("{program} failed: {reason}", code="backup_tool_failed",
                        program=Path(arguments[0]).name,
                        reason=(reason[-1] if reason else str(done.returncode))[:500])
    return done.stdout.decode("utf-8", "replace") if text_out else ""


def pg_dump(db: Database, target: Path) -> None:
    """``pg_dump --format=custom`` of the database into the new file ``target``."""
    _env, conninfo = _pg_connection(db)
    _run(db, [_tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges",
              f"--file={target}", f"--dbname={conninfo}"])


_COPY = re.compile(r"^COPY (?:public\.)?alembic_version \(version_num\) FROM stdin;\n"
                   r"(?P<rows>.*?)^\\\.$", re.M | re.S)


def pg_file_revision(db: Database, path: Path, *, source: str) -> str | None:
    """Check that ``pg_restore`` reads the dump's table of contents; its schema revision."""
    try:
        _run(db, [_tool("pg_restore"), "--list", str(path)])
        script = _run(db, [_tool("pg_restore"), "--data-only", "--table=alembic_version",
                           "--file=-", str(path)], text_out=True)
    except UserError as error:
        raise UserError("the snapshot {file} is damaged: {reason}", code="backup_damaged",
                        file=source, reason=str(error.params.get("reason", ""))) from None
    found = _COPY.search(script)
    if found is None:
        return None
    lines = [line for line in found.group("rows").splitlines() if line.strip()]
    return lines[0].strip() if lines else None


def pg_restore(db: Database, path: Path) -> None:
    """``pg_restore --clean --if-exists`` in one transaction: all of it, or nothing."""
    _env, conninfo = _pg_connection(db)
    _run(db, [_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--no-privileges",
              "--single-transaction", "--exit-on-error", f"--dbname={conninfo}", str(path)])

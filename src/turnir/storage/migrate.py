"""Schema migrations, run programmatically (``turnir db upgrade``; docs/storage.md).

The Alembic scripts ship inside the package (``turnir/storage/migrations``). ``upgrade`` runs
them in one transaction that holds the database's write lock (``BEGIN IMMEDIATE`` on SQLite, an
advisory lock on PostgreSQL), so two processes opening a new database at once migrate it once.
``ensure_schema`` is what every command does on opening: a new, empty database is created and
migrated; an older schema is refused with a hint to run ``turnir db upgrade``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, text

from turnir.errors import UserError
from turnir.storage.database import Database

SCRIPT_LOCATION = Path(__file__).resolve().parent / "migrations"
_PG_MIGRATION_LOCK = 7_413_001
"""The PostgreSQL advisory lock key held while migrating."""


def _config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(SCRIPT_LOCATION))
    config.attributes["connection"] = connection
    return config


def _scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(_config())


@cache
def head_revision() -> str:
    """The newest revision shipped (read once a process: loading the scripts compiles every
    migration file, about 60 ms, and every ``Database.open`` asks)."""
    head = _scripts().get_current_head()
    if head is None:  # pragma: no cover - the package always ships a revision
        raise RuntimeError("no migrations shipped")
    return head


def current_revision(conn: Connection) -> str | None:
    return MigrationContext.configure(conn).get_current_revision()


@dataclass(frozen=True, slots=True)
class UpgradeReport:
    before: str | None
    """The schema revision before (``None``: a new database)."""
    after: str


def upgrade(db: Database) -> UpgradeReport:
    """Migrate ``db`` to the newest schema; nothing happens when it is there already."""
    with db.write() as conn:
        if not db.is_sqlite:
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATION_LOCK})
        before = current_revision(conn)
        head = head_revision()
        if before != head:
            _check_known(db, before)
            command.upgrade(_config(conn), "head")
    return UpgradeReport(before, head)


def _check_known(db: Database, revision: str | None) -> None:
    if revision is None:
        return
    try:
        _scripts().get_revision(revision)
    except Exception:  # alembic raises several kinds for an unknown revision
        raise UserError(
            "the database {database} has schema {revision}, newer than this turnir knows; "
            "upgrade turnir",
            code="schema_too_new", database=db.describe(), revision=revision,
        ) from None


def ensure_schema(db: Database) -> None:
    """Create and migrate a new database; refuse one at an older or unknown schema."""
    with db.read() as conn:
        current = current_revision(conn)
    head = head_revision()
    if current == head:
        return
    if current is None:
        upgrade(db)
        return
    _check_known(db, current)
    raise UserError(
        "the database {database} has an older schema ({revision}); run `turnir db upgrade`",
        code="schema_old", database=db.describe(), revision=current,
    )

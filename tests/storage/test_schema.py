"""The schema: migrations build exactly the tables the code declares, on SQLite and PostgreSQL;
a new database is created on first use; the audit log is physically append-only; the table
constraints refuse half-written rows."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import insert, inspect, select, text, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from tests.db_fixtures import create_pg_database, drop_pg_database
from tests.services.builders import ORGANIZER, event, play_round
from turnir.errors import UserError
from turnir.storage.database import (
    Database,
    database_url,
    default_database_path,
    normalise_url,
    sqlite_synchronous,
)
from turnir.storage.direct import DirectStatement
from turnir.storage.migrate import head_revision, upgrade
from turnir.storage.tables import Base, audit_log, pairings, tournaments


def test_migrations_build_exactly_the_declared_schema(db: Database) -> None:
    with db.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []
        assert context.get_current_revision() == head_revision()


def test_upgrade_twice_changes_nothing(db: Database) -> None:
    report = upgrade(db)
    assert report.before == report.after == head_revision()


def test_a_new_sqlite_database_is_created_and_migrated_on_first_use(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folder" / "turnir.db"
    db = Database.open(f"sqlite:///{path}")
    try:
        assert path.exists()
        assert set(Base.metadata.tables) <= set(inspect(db.engine).get_table_names())
        with db.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30000
    finally:
        db.close()


def test_a_new_postgresql_database_is_migrated_on_first_use(pg_server_url: str) -> None:
    url = create_pg_database(pg_server_url, "turnir_first_use")
    try:
        db = Database.open(url)
        assert set(Base.metadata.tables) <= set(inspect(db.engine).get_table_names())
        db.close()
    finally:
        drop_pg_database(pg_server_url, "turnir_first_use")


def test_an_unknown_schema_revision_is_refused(db: Database) -> None:
    with db.write() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = 'ffff'"))
    with pytest.raises(UserError, match="newer than this turnir"):
        Database.open(db.engine.url.render_as_string(hide_password=False))


def test_default_path_and_url() -> None:
    env = {"XDG_DATA_HOME": "/data/x"}
    assert default_database_path(env) == Path("/data/x/turnir/turnir.db")
    assert database_url(env) == "sqlite:////data/x/turnir/turnir.db"
    assert default_database_path({}) == Path.home() / ".local/share/turnir/turnir.db"
    assert database_url({"TURNIR_DATABASE_URL": "postgresql://u@h/db"}) == \
        "postgresql+psycopg://u@h/db"
    assert normalise_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"
    assert sqlite_synchronous({}) == "NORMAL"
    assert sqlite_synchronous({"TURNIR_SQLITE_SYNCHRONOUS": "full"}) == "FULL"
    with pytest.raises(UserError, match="TURNIR_SQLITE_SYNCHRONOUS"):
        sqlite_synchronous({"TURNIR_SQLITE_SYNCHRONOUS": "sometimes"})


def test_unsupported_or_unreadable_urls_are_user_errors() -> None:
    with pytest.raises(UserError, match="only sqlite"):
        Database.open("mysql://u@h/db")
    with pytest.raises(UserError, match="cannot read"):
        Database.open("::not a url::")


def _one_audit_row(db: Database) -> None:
    with db.write() as conn:
        conn.execute(insert(audit_log).values(at=datetime.now(UTC), actor="a", action="x",
                                              entity="e", entity_id="1", chain=0, seq=1,
                                              digest="0" * 64))


def test_audit_log_refuses_update_and_delete(db: Database) -> None:
    _one_audit_row(db)
    with pytest.raises(DBAPIError, match="append-only"), db.write() as conn:
        conn.execute(update(audit_log).values(actor="someone else"))
    with pytest.raises(DBAPIError, match="append-only"), db.write() as conn:
        conn.execute(audit_log.delete())
    with db.read() as conn:
        assert conn.execute(select(audit_log.c.actor)).scalars().all() == ["a"]


def test_audit_log_refuses_truncate_on_postgresql(db: Database) -> None:
    _one_audit_row(db)
    statement = "TRUNCATE audit_log" if not db.is_sqlite else "DELETE FROM audit_log"
    with pytest.raises(DBAPIError, match="append-only"), db.write() as conn:
        conn.execute(text(statement))


def test_half_written_results_are_refused_by_the_schema(db: Database) -> None:
    tid = event(db, 4, rounds=1)
    play_round(db, tid)
    with pytest.raises(IntegrityError), db.write() as conn:
        conn.execute(update(pairings).where(pairings.c.table_no == 1).values(outcome=None))
    with pytest.raises(IntegrityError), db.write() as conn:
        conn.execute(update(pairings).where(pairings.c.table_no == 1).values(a=99))
    with pytest.raises(IntegrityError), db.write() as conn:
        conn.execute(update(tournaments).values(best_of=2))


def test_direct_statements_store_values_as_core_does(db: Database) -> None:
    at = datetime(2026, 3, 1, 12, 30, 15, 123456, tzinfo=UTC)
    direct = DirectStatement(insert(audit_log), column_keys=(
        "tournament_id", "at", "actor", "action", "entity", "entity_id", "before", "after",
        "chain", "seq", "digest"))
    row = {"tournament_id": None, "at": at, "actor": ORGANIZER, "action": "x", "entity": "e",
           "entity_id": "1", "before": None, "after": {"score": "2-1", "list": [1, 2]},
           "chain": 0, "digest": "0" * 64}
    with db.write() as conn:
        direct.execute(conn, {**row, "seq": 1})
        conn.execute(insert(audit_log).values(**row, seq=2))
    with db.read() as conn:
        stored = conn.execute(select(audit_log.c.at, audit_log.c.actor, audit_log.c.before,
                                     audit_log.c.after).order_by(audit_log.c.id)).all()
        raw = conn.exec_driver_sql("SELECT at, before FROM audit_log ORDER BY id").all()
    assert stored[0] == stored[1]
    assert stored[0].after == {"score": "2-1", "list": [1, 2]}
    assert stored[0].before is None
    assert raw[0] == raw[1]
    assert stored[0].at.replace(tzinfo=UTC) == at

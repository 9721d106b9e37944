"""The statements on ``site_secrets`` (``turnir.storage.tables_site``): the values the whole
deployment agrees on. Like every repository they never commit; the service owns the
transaction."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from turnir.storage.tables_site import site_secrets

t = site_secrets.c


def read_secret(conn: Connection, name: str) -> str | None:
    """The value kept under ``name``, or ``None``."""
    found = conn.execute(select(t.value).where(t.name == name)).scalar()
    return None if found is None else str(found)


def keep_secret(conn: Connection, name: str, value: str, at: datetime) -> str:
    """Keep ``value`` under ``name`` unless a value is kept there already (the first writer
    wins, on SQLite and PostgreSQL alike: ``INSERT … ON CONFLICT DO NOTHING``); the value kept
    now, the caller's or the first writer's."""
    dialect = conn.dialect.name
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    conn.execute(insert(site_secrets).values(name=name, value=value, created_at=at)
                 .on_conflict_do_nothing(index_elements=["name"]))
    kept = read_secret(conn, name)
    assert kept is not None  # inserted or already there
    return kept

"""The statements on ``form_tokens`` (``turnir.storage.tables_site``): the creating forms'
one-time tokens claimed lately (``turnir.web.form_once``, ``turnir.services.form_tokens``).
Like every repository they never commit; the service owns the transaction.

Every call does a bounded amount of work: a claim inserts one row if its key is absent (the
first of two concurrent claims wins on SQLite and PostgreSQL: ``INSERT … ON CONFLICT DO
NOTHING``), and forgetting deletes at most ``FORGET_BATCH`` rows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Connection, delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from turnir.storage.tables_site import form_tokens

t = form_tokens.c
FORGET_BATCH = 100
"""The most rows one call forgets (the expired ones, then those over the count kept)."""


@dataclass(frozen=True, slots=True)
class TokenRow:
    """A claimed key: pending (``finished`` false) or finished with the page it led to."""

    key: str
    claimed_at: datetime
    keep_until: datetime
    finished: bool
    url: str | None


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive UTC datetimes; PostgreSQL aware ones."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def claim(conn: Connection, key: str, at: datetime, keep_until: datetime) -> bool:
    """Insert ``key`` as pending unless it is there; whether this call inserted it (an expired
    row of the same key is dropped first, so its key is free again)."""
    conn.execute(delete(form_tokens).where(t.key == key, t.keep_until <= at))
    insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
    done = conn.execute(insert(form_tokens)
                        .values(key=key, claimed_at=at, keep_until=keep_until, finished=False)
                        .on_conflict_do_nothing(index_elements=["key"]).returning(t.key))
    return done.first() is not None  # RETURNING: a row only when this call inserted it


def read(conn: Connection, key: str) -> TokenRow | None:
    row = conn.execute(select(t.key, t.claimed_at, t.keep_until, t.finished, t.url)
                       .where(t.key == key)).one_or_none()
    if row is None:
        return None
    return TokenRow(key=row.key, claimed_at=_aware(row.claimed_at),
                    keep_until=_aware(row.keep_until), finished=bool(row.finished),
                    url=row.url)


def finish(conn: Connection, key: str, url: str | None) -> None:
    """The change was made: a pending ``key`` is finished with ``url`` (a finished one is
    kept as it is)."""
    conn.execute(update(form_tokens).where(t.key == key, t.finished.is_(False))
                 .values(finished=True, url=url))


def release(conn: Connection, key: str) -> None:
    """The change was refused: a pending ``key`` is free again (a finished one stays)."""
    conn.execute(delete(form_tokens).where(t.key == key, t.finished.is_(False)))


def forget(conn: Connection, now: datetime, most: int) -> None:
    """Delete at most ``FORGET_BATCH`` expired rows, then at most as many of those beyond the
    ``most`` that expire last."""
    expired = (select(t.key).where(t.keep_until <= now).order_by(t.keep_until)
               .limit(FORGET_BATCH).scalar_subquery())
    conn.execute(delete(form_tokens).where(t.key.in_(expired)))
    over = (select(t.key).order_by(t.keep_until.desc(), t.key.desc()).offset(most)
            .limit(FORGET_BATCH).scalar_subquery())
    conn.execute(delete(form_tokens).where(t.key.in_(over)))

"""The statements of the login rate limit (``turnir.services.login_limits``) on the
``login_failures`` table. Like every repository they never commit; the service owns the
transaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import ColumnElement, Connection, and_, delete, func, insert, select

from turnir.storage.tables_accounts import login_failures

t = login_failures.c


@dataclass(frozen=True, slots=True)
class Attempt:
    """Whose login, from where: the two keys every count is made of."""

    login_key: str
    address: str


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive UTC datetimes; PostgreSQL aware ones."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def nth_latest_failure(conn: Connection, where: ColumnElement[bool], since: datetime,
                       n: int) -> datetime | None:
    """When the ``n``-th most recent failure matching ``where`` after ``since`` happened
    (``None`` when there are fewer than ``n``): the limit of ``n`` is reached exactly when it
    exists, and lifts when it leaves the window."""
    found = conn.execute(
        select(t.at).where(where, t.at > since).order_by(t.at.desc(), t.id.desc())
        .offset(n - 1).limit(1)
    ).scalar()
    return None if found is None else _aware(found)


def by_login(attempt: Attempt) -> ColumnElement[bool]:
    return t.login_key == attempt.login_key


def by_address(attempt: Attempt) -> ColumnElement[bool]:
    return t.address == attempt.address


def by_both(attempt: Attempt) -> ColumnElement[bool]:
    return and_(t.login_key == attempt.login_key, t.address == attempt.address)


def reached_until(conn: Connection, attempt: Attempt, since: datetime, window: timedelta,
                  limits: tuple[int, int, int]) -> datetime | None:
    """When the attempt may be made again (``None``: now), with ``limits`` the failures allowed
    after ``since`` for one login from one address, one login, one address: the latest moment a
    reached limit lifts (its ``n``-th most recent failure leaves the ``window``)."""
    per_pair, per_login, per_address = limits
    until: datetime | None = None
    for where, limit in ((by_both(attempt), per_pair), (by_login(attempt), per_login),
                         (by_address(attempt), per_address)):
        reached = nth_latest_failure(conn, where, since, limit)
        if reached is not None and (until is None or reached + window > until):
            until = reached + window
    return until


def record_failure(conn: Connection, attempt: Attempt, at: datetime) -> None:
    conn.execute(insert(login_failures).values(login_key=attempt.login_key,
                                               address=attempt.address, at=at))


def forget_pair(conn: Connection, attempt: Attempt) -> None:
    """A successful login clears the failures of that login from that address (only)."""
    conn.execute(delete(login_failures).where(by_both(attempt)))


def prune(conn: Connection, before: datetime) -> int:
    """Delete the failures older than ``before`` (out of every window); how many went."""
    return int(conn.execute(delete(login_failures).where(t.at <= before)).rowcount or 0)


def failures_kept(conn: Connection) -> int:
    """How many rows the table holds (for tests and the operator)."""
    return int(conn.execute(select(func.count()).select_from(login_failures)).scalar_one())

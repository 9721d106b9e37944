"""The round clock's statements (``turnir.services.round_clock``): a round's clock (when it
started, how long it lasts, since when it is paused) and the tournament's setting "start the
clock with the round, minutes" (``tournaments.clock_minutes``). Nothing here commits."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import ColumnElement, and_, delete, insert, select, update

from turnir.storage.database import Tx
from turnir.storage.tables import tournaments
from turnir.storage.tables_accounts import round_timers


@dataclass(frozen=True, slots=True)
class ClockRow:
    started_at: datetime
    """In UTC."""
    duration_s: int
    paused_at: datetime | None
    """In UTC; ``None`` while the clock runs."""


def _utc(value: datetime) -> datetime:
    """Stored times are UTC; SQLite gives them back without their zone."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _key(tournament_id: int, round_number: int) -> ColumnElement[bool]:
    return and_(round_timers.c.tournament_id == tournament_id,
                round_timers.c.round == round_number)


def set_round_clock(tx: Tx, tournament_id: int, round_number: int, clock: ClockRow) -> None:
    """Start a round's clock, or store its new state (paused, resumed, lengthened)."""
    tx.execute(delete(round_timers).where(_key(tournament_id, round_number)))
    tx.execute(insert(round_timers).values(
        tournament_id=tournament_id, round=round_number, started_at=clock.started_at,
        duration_s=clock.duration_s, paused_at=clock.paused_at))


def round_clock(tx: Tx, tournament_id: int, round_number: int) -> ClockRow | None:
    """A round's clock, ``None`` when it was never started."""
    row = tx.execute(select(round_timers.c.started_at, round_timers.c.duration_s,
                            round_timers.c.paused_at)
                     .where(_key(tournament_id, round_number))).first()
    if row is None:
        return None
    paused = None if row.paused_at is None else _utc(row.paused_at)
    return ClockRow(_utc(row.started_at), int(row.duration_s), paused)


def clock_minutes(tx: Tx, tournament_id: int) -> int | None:
    """The setting "start the clock with the round, minutes" (``None``: by hand)."""
    value = tx.execute(select(tournaments.c.clock_minutes)
                       .where(tournaments.c.id == tournament_id)).scalar()
    return None if value is None else int(value)


def set_clock_minutes(tx: Tx, tournament_id: int, minutes: int | None) -> None:
    tx.execute(update(tournaments).where(tournaments.c.id == tournament_id)
               .values(clock_minutes=minutes))

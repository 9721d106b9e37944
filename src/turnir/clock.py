"""The one clock: where every page, service, CLI command and robot reads "now".

Nothing in turnir calls ``datetime.now`` or ``time.time`` for the time of day: the clock is
injected (the database carries one, ``Database.clock``; the robot is given one), so a test
passes the time in with a ``ManualClock`` and no result depends on the day the suite runs.
The domain never reads a clock at all: it is given times.

Times are aware datetimes in UTC (``now``) or integer milliseconds of Unix time (``now_ms``,
the robot's and the game server's timeline). Durations (timeouts, waits, the age of a cached
page) are measured with ``time.monotonic``, which is not the time of day and stays outside.
"""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Protocol

from turnir.errors import InvariantError


class Clock(Protocol):
    """Where "now" is read."""

    def now(self) -> datetime:
        """The current moment, aware, in UTC."""
        ...

    def now_ms(self) -> int:
        """The current moment in milliseconds of Unix time (or of a simulation's origin)."""
        ...


class SystemClock:
    """The real clock (production)."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class ManualClock:
    """A clock that moves only when told to (tests, replays, simulations); it never goes back.

    ``ManualClock(datetime(2026, 12, 2, 6, 15, tzinfo=UTC))`` or ``ManualClock(450_000)`` (ms
    from the origin: a simulation's own timeline)."""

    def __init__(self, start: datetime | int = 0) -> None:
        self._now = start if isinstance(start, int) else _to_ms(start)
        self._lock = threading.Lock()

    def now_ms(self) -> int:
        with self._lock:
            return self._now

    def now(self) -> datetime:
        return EPOCH + timedelta(milliseconds=self.now_ms())

    def set(self, moment: datetime | int) -> None:
        """Move to ``moment``; a simulated clock never goes back."""
        now_ms = moment if isinstance(moment, int) else _to_ms(moment)
        with self._lock:
            if now_ms < self._now:
                raise InvariantError(f"the clock cannot go back from {self._now} to {now_ms}")
            self._now = now_ms

    def advance(self, delta: timedelta | int) -> None:
        """Move on by ``delta`` (a timedelta, or milliseconds)."""
        step = delta if isinstance(delta, int) else round(delta.total_seconds() * 1000)
        self.set(self.now_ms() + step)


def _to_ms(moment: datetime) -> int:
    if moment.tzinfo is None:
        raise InvariantError("a clock is set to an aware moment (with its zone)")
    delta = moment - EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1000 + delta.microseconds // 1000

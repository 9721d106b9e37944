"""The robot's clock: the checks are driven by an injectable clock (real or simulated).

Times are integer milliseconds on the game server's timeline (Unix time in production, any
origin in a simulation).
"""

from __future__ import annotations

import threading
import time
from typing import Protocol

from turnir.errors import InvariantError


class Clock(Protocol):
    """Where the robot reads "now"."""

    def now_ms(self) -> int:
        """The current time in milliseconds."""
        ...


class SystemClock:
    """The real clock: Unix time in milliseconds."""

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


class ManualClock:
    """A simulated clock that moves only when told to (tests, replays, simulations)."""

    def __init__(self, start_ms: int = 0) -> None:
        self._now = start_ms
        self._lock = threading.Lock()

    def now_ms(self) -> int:
        with self._lock:
            return self._now

    def set(self, now_ms: int) -> None:
        """Move to ``now_ms``; a simulated clock never goes back."""
        with self._lock:
            if now_ms < self._now:
                raise InvariantError(f"the clock cannot go back from {self._now} to {now_ms}")
            self._now = now_ms

    def advance(self, delta_ms: int) -> None:
        self.set(self.now_ms() + delta_ms)


def seconds_to_ms(seconds: float) -> int:
    """Seconds (as the server and files give them) to integer milliseconds, rounded."""
    return round(seconds * 1000)


def ms_to_seconds(ms: int) -> float:
    return ms / 1000

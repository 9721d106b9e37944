"""The robot's clock: the checks are driven by an injectable clock (real or simulated:
``turnir.clock.SystemClock`` and ``ManualClock``).

Times are integer milliseconds on the game server's timeline (Unix time in production, any
origin in a simulation).
"""

from __future__ import annotations

from typing import Protocol


class Clock(Protocol):
    """Where the robot reads "now"."""

    def now_ms(self) -> int:
        """The current time in milliseconds."""
        ...


def seconds_to_ms(seconds: float) -> int:
    """Seconds (as the server and files give them) to integer milliseconds, rounded."""
    return round(seconds * 1000)


def ms_to_seconds(ms: int) -> float:
    return ms / 1000

"""Small parsers for command-line values."""

from __future__ import annotations

from typing import TYPE_CHECKING

from turnir.errors import UserError

if TYPE_CHECKING:
    from turnir.domain.model import Settings
    from turnir.domain.results import PointsTable


def parse_points(text: str) -> PointsTable:
    """Match points as ``win/draw/loss[/bye]`` (S-7); the bye defaults to the win."""
    from turnir.domain.results import PointsTable

    parts = numbers(text, 3, 4)
    if parts is None:
        raise UserError("points {text!r}: write win/draw/loss[/bye], e.g. 3/1/0",
                        code="bad_points", text=text)
    win, draw, loss = parts[:3]
    bye = parts[3] if len(parts) == 4 else win
    return PointsTable(win=win, draw=draw, loss=loss, bye=bye)


def settings_of(points: str, *, best_of: int, top_best_of: int, rounds: int | None,
                top: int) -> Settings:
    """A tournament's settings from the options of ``new`` and ``tournament new``."""
    from turnir.domain.model import Settings

    return Settings(points=parse_points(points), best_of=best_of, top_best_of=top_best_of,
                    swiss_rounds=rounds, top_size=top)


def numbers(text: str, *counts: int) -> list[int] | None:
    """``text`` as ``/``- (or ``:``-) separated whole numbers of at most four digits each,
    when there are as many as one of ``counts``; else ``None`` (bounds are checked where the
    numbers are used)."""
    parts = text.replace(":", "/").split("/")
    if len(parts) not in counts or not all(_small_number(p) for p in parts):
        return None
    return [int(p) for p in parts]


def _small_number(text: str) -> bool:
    digits = text.strip()
    return digits.isascii() and digits.isdigit() and len(digits) <= 4

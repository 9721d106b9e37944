"""Small parsers for command-line values."""

from __future__ import annotations

from turnir.domain.results import PointsTable
from turnir.errors import UserError


def parse_points(text: str) -> PointsTable:
    """Match points as ``win/draw/loss[/bye]`` (S-7); the bye defaults to the win."""
    parts = text.replace(":", "/").split("/")
    if len(parts) not in (3, 4) or not all(_small_number(p) for p in parts):
        raise UserError(f"points {text!r}: write win/draw/loss[/bye], e.g. 3/1/0",
                        code="bad_points")
    win, draw, loss = (int(p) for p in parts[:3])
    bye = int(parts[3]) if len(parts) == 4 else win
    return PointsTable(win=win, draw=draw, loss=loss, bye=bye)


def _small_number(text: str) -> bool:
    """A whole number of at most four digits (the bounds are checked where it is used)."""
    digits = text.strip()
    return digits.isascii() and digits.isdigit() and len(digits) <= 4

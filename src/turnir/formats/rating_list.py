"""The rating list file: everyone's current ratings as CSV or JSON (R-1, R-5, R-6).

An existing rating list is loaded with ``turnir rating import``; ``turnir rating export``
writes the current one in the same format, so an export imports back unchanged.

CSV: a header line, then one player a line; ``,`` or ``;`` separated, UTF-8 (a BOM is
ignored). Columns, in any order (the Russian names are accepted too):

| column | Russian | required | meaning |
|---|---|---|---|
| ``name`` | ``имя``, ``игрок`` | yes | the player's name |
| ``city`` | ``город`` | no | matched together with the name |
| ``club`` | ``клуб`` | no | kept for a new person |
| ``professional`` | ``рейтинг``, ``профрейтинг`` | yes | at least 100, to 0.01 (``123,45`` too) |
| ``warlock`` | ``варлок`` | no | empty: no Warlock rating yet |
| ``tournaments`` | ``турниров`` | no | written by an export, ignored by an import |

JSON: ``{"format": "turnir-rating-list", "version": 1, "ratings": [{"name": …, "city": …,
"club": …, "professional": "123.45", "warlock": "110.00" or null, "tournaments": 3}]}`` (a bare
list of such objects is accepted too). Ratings are strings so they stay exact; numbers are
accepted.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from turnir.domain.ratings import hundredths, to_rating
from turnir.errors import UserError

FORMAT = "turnir-rating-list"
VERSION = 1
CSV_COLUMNS = ("name", "city", "club", "professional", "warlock", "tournaments")
_ALIASES = {
    "name": "name", "имя": "name", "игрок": "name", "фио": "name",
    "city": "city", "город": "city",
    "club": "club", "клуб": "club",
    "professional": "professional", "rating": "professional", "рейтинг": "professional",
    "профрейтинг": "professional",
    "warlock": "warlock", "варлок": "warlock",
    "tournaments": "tournaments", "турниров": "tournaments",
}
_NEWCOMER = 10_000


@dataclass(frozen=True, slots=True)
class RatingListLine:
    """One player of a rating list."""

    name: str
    city: str
    club: str
    professional: Decimal
    """At least 100.00, to 0.01."""
    warlock: Decimal | None
    """``None``: no Warlock rating yet."""
    tournaments: int | None = None
    """Rated tournaments played (informational)."""


def _rating(value: object, where: str, what: str) -> Decimal:
    text = str(value).strip().replace(",", ".")
    try:
        stored = hundredths(text)
    except UserError:
        raise UserError(f"{where}: the {what} rating {value!r} is not a number to 0.01 (R-6)",
                        code="bad_file") from None
    if stored < _NEWCOMER:
        raise UserError(f"{where}: the {what} rating {value} is below 100 (R-3)",
                        code="bad_file")
    return to_rating(stored)


def _line(data: dict[str, Any], where: str) -> RatingListLine:
    name = " ".join(str(data.get("name") or "").split())
    if not name:
        raise UserError(f"{where}: the name is empty", code="bad_file")
    professional = data.get("professional")
    if professional is None or str(professional).strip() == "":
        raise UserError(f"{where}: the professional rating is missing", code="bad_file")
    warlock = data.get("warlock")
    tournaments = data.get("tournaments")
    return RatingListLine(
        name=name, city=str(data.get("city") or "").strip(),
        club=str(data.get("club") or "").strip(),
        professional=_rating(professional, where, "professional"),
        warlock=None if warlock is None or str(warlock).strip() == ""
        else _rating(warlock, where, "Warlock"),
        tournaments=None if tournaments is None or str(tournaments).strip() == ""
        else _count(tournaments, where),
    )


def _count(value: object, where: str) -> int:
    try:
        number = int(str(value).strip())
    except ValueError:
        raise UserError(f"{where}: tournaments must be a whole number, not {value!r}",
                        code="bad_file") from None
    if number < 0:
        raise UserError(f"{where}: tournaments cannot be negative", code="bad_file")
    return number


def parse_rating_list_csv(text: str, *, source: str = "the list") -> list[RatingListLine]:
    """Read a CSV rating list (see the module docstring)."""
    text = text.lstrip("\ufeff")
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    header = next(reader, None)
    if header is None:
        raise UserError(f"{source} is empty", code="bad_file")
    columns = [_ALIASES.get(cell.strip().casefold()) for cell in header]
    for needed in ("name", "professional"):
        if needed not in columns:
            raise UserError(f"{source}: the header needs a {needed!r} column "
                            f"(columns: {', '.join(CSV_COLUMNS)})", code="bad_file")
    lines = []
    for number, row in enumerate(reader, start=2):
        if not any(cell.strip() for cell in row):
            continue
        data = {column: cell for column, cell in zip(columns, row, strict=False)
                if column is not None}
        lines.append(_line(data, f"{source}, line {number}"))
    return lines


def parse_rating_list_json(text: str, *, source: str = "the list") -> list[RatingListLine]:
    """Read a JSON rating list (see the module docstring)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise UserError(f"{source} is not valid JSON: {error}", code="bad_file") from None
    if isinstance(data, dict):
        if data.get("format", FORMAT) != FORMAT:
            raise UserError(f"{source} is not a turnir rating list", code="bad_file")
        if data.get("version", VERSION) != VERSION:
            raise UserError(f"{source} has version {data.get('version')}; this turnir reads "
                            f"version {VERSION}", code="bad_file")
        data = data.get("ratings")
    if not isinstance(data, list):
        raise UserError(f"{source}: expected a list of ratings", code="bad_file")
    lines = []
    for index, item in enumerate(data, start=1):
        if not isinstance(item, dict):
            raise UserError(f"{source}, rating {index}: expected an object", code="bad_file")
        lines.append(_line(item, f"{source}, rating {index}"))
    return lines


def parse_rating_list(text: str, *, source: str = "the list") -> list[RatingListLine]:
    """A JSON list when the text starts with ``{`` or ``[``, else CSV."""
    if text.lstrip("\ufeff \t\r\n")[:1] in ("{", "["):
        return parse_rating_list_json(text, source=source)
    return parse_rating_list_csv(text, source=source)


def dump_rating_list_csv(lines: Iterable[RatingListLine]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for line in lines:
        writer.writerow([line.name, line.city, line.club, line.professional,
                         "" if line.warlock is None else line.warlock,
                         "" if line.tournaments is None else line.tournaments])
    return out.getvalue()


def dump_rating_list_json(lines: Sequence[RatingListLine]) -> str:
    ratings = [{"name": line.name, "city": line.city, "club": line.club,
                "professional": str(line.professional),
                "warlock": None if line.warlock is None else str(line.warlock),
                "tournaments": line.tournaments} for line in lines]
    return json.dumps({"format": FORMAT, "version": VERSION, "ratings": ratings},
                      ensure_ascii=False, indent=1) + "\n"

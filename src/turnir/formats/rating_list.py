"""The rating list file: everyone's current ratings as CSV or JSON (R-1, R-5, R-6).

An existing rating list is loaded with ``turnir rating import``; ``turnir rating export``
writes the current one in the same format, so an export imports back unchanged.

CSV (or an Excel ``.xlsx`` sheet): a header line, then one player a line; ``,``, ``;`` or tab
separated, UTF-8 (a BOM is ignored), UTF-16 with a BOM or Windows-1251 (``turnir.formats.tabular``).
A list is at most ``MAX_BYTES`` bytes and ``MAX_LINES`` lines; names at most 200 characters,
cities and clubs 100, ratings at most ``MAX_RATING``. Columns, in any order (the Russian names are
accepted too):

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
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from turnir.domain.ratings import hundredths, to_rating
from turnir.domain.text import NAME_LEN, PLACE_LEN, BadTextError, clean_name
from turnir.errors import Term, UserError
from turnir.formats.tabular import (
    Row,
    check_size,
    read_file_bytes,
    read_table,
    read_table_text,
)

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
MAX_RATING = Decimal(100_000)
"""The highest rating a list may give (stored in hundredths as a 32-bit integer)."""
MAX_TOURNAMENTS = 100_000
MAX_BYTES = 20_000_000
"""The largest rating list file (20 MB)."""
THE_LIST = Term("the list")
"""What a list without a file name is called in messages."""
MAX_LINES = 200_000
"""The most lines (or sheet rows) of a CSV rating list; the most ratings of a JSON one."""


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


Where = UserError
"""Where in a list a value stands (``the list, line 3``): a message of its own, translated
inside the message that names it (``turnir.errors``)."""


def _rating(value: object, where: Where, what: Term) -> Decimal:
    """A rating of the list; ``what`` is ``the professional rating`` or ``the Warlock
    rating``."""
    text = str(value).strip().replace(",", ".")
    try:
        number = Decimal(text)
    except InvalidOperation:
        number = Decimal("NaN")
    if number.is_finite() and number > MAX_RATING:
        raise UserError("{where}: {what} {value} is above {most}", code="bad_file",
                        where=where, what=what, value=text[:20], most=MAX_RATING)
    if number.is_finite() and number < 0:  # before scaling: -1e999999999
        raise _below_newcomer(where, what, text[:20])
    try:
        stored = hundredths(text)
    except UserError:
        raise UserError("{where}: {what} {value!r} is not a number to 0.01 (R-6)",
                        code="bad_file", where=where, what=what, value=value) from None
    if stored < _NEWCOMER:
        raise _below_newcomer(where, what, value)
    return to_rating(stored)


def _below_newcomer(where: Where, what: Term, value: object) -> UserError:
    return UserError("{where}: {what} {value} is below 100 (R-3)", code="bad_file",
                     where=where, what=what, value=value)


def _text(value: object, field: str, max_len: int, *, required: bool = False) -> str:
    if isinstance(value, dict | list):
        raise BadTextError("the {what} must be text", field=field, what=field)
    return clean_name(str(value or ""), field=field, max_len=max_len, required=required)


def _line(data: dict[str, Any], where: Where) -> RatingListLine:
    try:
        name = _text(data.get("name"), Term("name"), NAME_LEN, required=True)
        city = _text(data.get("city"), Term("city"), PLACE_LEN)
        club = _text(data.get("club"), Term("club"), PLACE_LEN)
    except BadTextError as error:
        raise BadTextError("{where}: {error}", field=error.field, where=where,
                           error=error) from None
    professional = data.get("professional")
    if professional is None or str(professional).strip() == "":
        raise UserError("{where}: the professional rating is missing", code="bad_file",
                        where=where)
    warlock = data.get("warlock")
    tournaments = data.get("tournaments")
    return RatingListLine(
        name=name, city=city, club=club,
        professional=_rating(professional, where, Term("the professional rating")),
        warlock=None if warlock is None or str(warlock).strip() == ""
        else _rating(warlock, where, Term("the Warlock rating")),
        tournaments=None if tournaments is None or str(tournaments).strip() == ""
        else _count(tournaments, where),
    )


def _count(value: object, where: Where) -> int:
    text = str(value).strip()
    try:
        number = int(text) if len(text) <= 20 else -1
    except ValueError:
        raise UserError("{where}: tournaments must be a whole number, not {value!r}",
                        code="bad_file", where=where, value=value) from None
    if not 0 <= number <= MAX_TOURNAMENTS:
        raise UserError("{where}: tournaments must be from 0 to {most:,}", code="bad_file",
                        where=where, most=MAX_TOURNAMENTS)
    return number


def parse_rating_list_csv(text: str, *, source: str = THE_LIST) -> list[RatingListLine]:
    """Read a CSV rating list (see the module docstring)."""
    return parse_rating_rows(read_table_text(text, source=source, max_lines=MAX_LINES),
                             source=source)


def parse_rating_rows(rows: Sequence[Row], *, source: str) -> list[RatingListLine]:
    """The ratings of a table's rows (a CSV or a sheet): a header, then one player a row."""
    if not rows:
        raise UserError("{source} is empty", code="bad_file", source=source)
    columns = [_ALIASES.get(cell.casefold()) for cell in rows[0].cells]
    for needed in ("name", "professional"):
        if needed not in columns:
            raise UserError("{source}: the header needs a {needed!r} column (columns: "
                            "{columns})", code="bad_file", source=source, needed=needed,
                            columns=", ".join(CSV_COLUMNS))
    lines = []
    for row in rows[1:]:
        data = {column: cell for column, cell in zip(columns, row.cells, strict=False)
                if column is not None}
        lines.append(_line(data, UserError("{source}, line {line}", source=source,
                                           line=row.line)))
    return lines


def parse_rating_list_json(text: str, *, source: str = THE_LIST) -> list[RatingListLine]:
    """Read a JSON rating list (see the module docstring)."""
    try:
        data = json.loads(text)
    except ValueError as error:  # JSONDecodeError, or an integer of over 4300 digits
        raise UserError("{source} is not valid JSON: {detail}", code="bad_file",
                        source=source, detail=str(error)[:200]) from None
    if isinstance(data, dict):
        if data.get("format", FORMAT) != FORMAT:
            raise UserError("{source} is not a turnir rating list", code="bad_file",
                            source=source)
        if data.get("version", VERSION) != VERSION:
            raise UserError("{source} has version {version}; this turnir reads version "
                            "{known}", code="bad_file", source=source,
                            version=data.get("version"), known=VERSION)
        data = data.get("ratings")
    if not isinstance(data, list):
        raise UserError("{source}: expected a list of ratings", code="bad_file", source=source)
    if len(data) > MAX_LINES:
        raise UserError("{source}: more than {most:,} ratings", code="file_too_large",
                        source=source, most=MAX_LINES)
    lines = []
    for index, item in enumerate(data, start=1):
        where = UserError("{source}, rating {index}", source=source, index=index)
        if not isinstance(item, dict):
            raise UserError("{where}: expected an object", code="bad_file", where=where)
        lines.append(_line(item, where))
    return lines


def parse_rating_list(text: str, *, source: str = THE_LIST) -> list[RatingListLine]:
    """A JSON list when the text starts with ``{`` or ``[``, else CSV."""
    if text.lstrip("\ufeff \t\r\n")[:1] in ("{", "["):
        return parse_rating_list_json(text, source=source)
    return parse_rating_list_csv(text, source=source)


def read_rating_list_bytes(data: bytes, *, source: str = THE_LIST) -> list[RatingListLine]:
    """A rating list's bytes: JSON (UTF-8), CSV in any accepted encoding, or ``.xlsx``."""
    check_size(data, source=source, max_bytes=MAX_BYTES)
    if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"["):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise UserError("{source}: a JSON list must be UTF-8 text", code="bad_file",
                            source=source) from None
        return parse_rating_list_json(text, source=source)
    return parse_rating_rows(read_table(data, source=source, max_bytes=MAX_BYTES,
                                        max_lines=MAX_LINES), source=source)


def read_rating_list_file(path: Path) -> list[RatingListLine]:
    """A rating list on disk (``read_rating_list_bytes``); at most ``MAX_BYTES`` are read."""
    return read_rating_list_bytes(read_file_bytes(path, max_bytes=MAX_BYTES), source=str(path))


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

"""The players file: one player a line, as CSV or an Excel ``.xlsx`` sheet.

Columns (a header line is optional; without one the columns are name, city, club, byes):

- ``name`` (``имя``, ``фио``): the whole name, given name first ("Ольга Волкова"); unique
  (compared as ``turnir.domain.text.name_key``: case, zero-width characters and repeated
  spaces do not make a different name);
- or, instead, ``surname`` (``фамилия``) and ``given name`` (``имя``, with an optional
  ``patronymic``/``отчество``): kept apart so that lists sort by surname; the name shown is
  "given surname" (``turnir.domain.names``). When the header has a surname column, ``name`` and
  ``имя`` are the given name. One of the two forms is required;
- ``city`` (``город``), ``club`` (``клуб``): optional, at most 100 characters;
- ``byes`` (``автопобеды``): optional number of privilege byes granted for the first rounds
  (S-5), at most ``MAX_BYES``; registering checks it against the tournament's Swiss rounds.

CSV is comma, semicolon or tab separated, in UTF-8 (with or without BOM), UTF-16 with a BOM or
Windows-1251 (``turnir.formats.tabular``). Empty lines and lines starting with ``#`` are
skipped. A file is at most ``MAX_BYTES`` bytes and ``MAX_LINES`` lines; names are at most 200
characters; control characters are refused. Every problem names the line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from turnir.domain.limits import MAX_BYES, privilege_byes
from turnir.domain.names import full_name
from turnir.domain.text import NAME_LEN, PLACE_LEN, BadTextError, clean_name, name_key
from turnir.errors import Term, UserError
from turnir.formats.tabular import Row, read_table, read_table_file, read_table_text

MAX_BYTES = 2_000_000
"""The largest players file (2 MB), from the web upload and the command line alike."""
MAX_LINES = 10_000
"""The most lines (or sheet rows) of a players file, blank and comment lines included."""

_ALIASES = {
    "name": "name", "имя": "name", "фио": "name", "игрок": "name", "player": "name",
    "city": "city", "город": "city",
    "club": "club", "клуб": "club",
    "byes": "byes", "автопобеды": "byes", "bye": "byes",
    "surname": "surname", "фамилия": "surname", "last name": "surname",
    "family name": "surname",
    "given name": "given_name", "given_name": "given_name", "first name": "given_name",
    "patronymic": "patronymic", "отчество": "patronymic",
}
_GIVEN_TOO = {"name", "имя"}
"""Columns that are the given name when the header also has a surname column."""
_DEFAULT_COLUMNS = ("name", "city", "club", "byes")


@dataclass(frozen=True, slots=True)
class PlayerLine:
    name: str
    """The name shown (with a surname given apart: "given surname")."""
    city: str = ""
    club: str = ""
    byes: int = 0
    surname: str = ""
    """The surname, when the file gives it apart (else read from ``name``)."""
    given_name: str = ""

    def granted_byes(self, *, swiss_rounds: int | None) -> frozenset[int]:
        """The rounds of this player's privilege byes, bounded by the Swiss rounds."""
        try:
            return privilege_byes(self.byes, swiss_rounds=swiss_rounds)
        except UserError as error:
            raise UserError("{name}: {reason}", code=error.code, name=self.name[:NAME_LEN],
                            reason=error) from None


def parse_players_csv(text: str, *, source: str = "players file") -> list[PlayerLine]:
    """Parse players CSV text; ``UserError`` names the line of any problem."""
    return parse_players(read_table_text(text, source=source, max_lines=MAX_LINES,
                                         comments=True), source=source)


def read_players_bytes(data: bytes, *, source: str = "players file") -> list[PlayerLine]:
    """A players file's bytes (an upload): CSV in any accepted encoding, or ``.xlsx``."""
    return parse_players(read_table(data, source=source, max_bytes=MAX_BYTES,
                                    max_lines=MAX_LINES, comments=True), source=source)


def read_players_csv(path: Path) -> list[PlayerLine]:
    """A players file on disk: CSV in any accepted encoding, or ``.xlsx``."""
    rows = read_table_file(path, max_bytes=MAX_BYTES, max_lines=MAX_LINES, comments=True)
    return parse_players(rows, source=str(path))


def _columns(first: Row, source: str) -> list[str] | None:
    """The header's columns, or ``None`` when the first row is a player."""
    cells = [" ".join(cell.casefold().split()) for cell in first.cells]
    known = {_ALIASES.get(c) for c in cells}
    if not known & {"name", "surname"}:
        return None
    columns = []
    for cell in cells:
        if cell not in _ALIASES:
            raise UserError("{source} line {line}: unknown column {column!r} (use name, "
                            "city, club, byes)", code="bad_file", source=source,
                            line=first.line, column=cell[:50])
        apart = "surname" in known and cell in _GIVEN_TOO
        columns.append("given_name" if apart else _ALIASES[cell])
    return columns


def parse_players(rows: Sequence[Row], *, source: str) -> list[PlayerLine]:
    """The players of a table's rows (``turnir.formats.tabular``)."""
    if not rows:
        raise UserError("{source}: no players in it", code="bad_file", source=source)
    header = _columns(rows[0], source)
    columns = list(_DEFAULT_COLUMNS) if header is None else header
    body = rows if header is None else rows[1:]
    players: list[PlayerLine] = []
    seen: dict[str, int] = {}
    for row in body:
        where: dict[str, Any] = {"source": source, "line": row.line}
        if len(row.cells) > len(columns):
            raise UserError("{source} line {line}: {count} columns, expected at most {most}",
                            code="bad_file", **where, count=len(row.cells), most=len(columns))
        player = _player(dict(zip(columns, row.cells, strict=False)), where)
        key = name_key(player.name)
        if key in seen:
            raise UserError("{source} line {line}: {name!r} is already on line {first}",
                            code="duplicate_player", **where, name=player.name,
                            first=seen[key])
        seen[key] = row.line
        players.append(player)
    if not players:
        raise UserError("{source}: no players in it", code="bad_file", source=source)
    return players


def _player(values: dict[str, str], where: dict[str, Any]) -> PlayerLine:
    """One player of a line; ``where`` is the source and the line (for the messages)."""
    try:
        surname, given = _name_apart(values)
        name = clean_name(full_name(surname, given) if surname else values.get("name", ""),
                          field="name", max_len=NAME_LEN)
        city = clean_name(values.get("city", ""), field="city", max_len=PLACE_LEN,
                          required=False)
        club = clean_name(values.get("club", ""), field="club", max_len=PLACE_LEN,
                          required=False)
    except BadTextError as error:
        raise BadTextError("{source} line {line}: {reason}", field=error.field, **where,
                           reason=error) from None
    byes_text = values.get("byes", "") or "0"
    if not (byes_text.isascii() and byes_text.isdigit()):
        raise UserError("{source} line {line}: byes must be a whole number, not {byes!r}",
                        code="bad_file", **where, byes=byes_text[:20])
    if len(byes_text) > 6 or int(byes_text) > MAX_BYES:
        raise UserError("{source} line {line}: byes must be a whole number from 0 to {most}, "
                        "not {byes}", code="bad_file", **where, most=MAX_BYES,
                        byes=byes_text[:20])
    return PlayerLine(name, city, club, int(byes_text), surname, given)


def _name_apart(values: dict[str, str]) -> tuple[str, str]:
    """The surname and given name (with the patronymic) of a line that has them apart."""
    surname = clean_name(values.get("surname", ""), field="surname", max_len=NAME_LEN,
                         required=False)
    given = clean_name(" ".join((values.get("given_name", ""), values.get("patronymic", ""))),
                       field="given name", max_len=NAME_LEN, required=False)
    if given and not surname:
        raise BadTextError("the {name} is empty", field="surname", name=Term("surname"))
    return surname, given

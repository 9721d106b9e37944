"""The players CSV file: one player a line.

Columns (a header line is optional; without one the columns are name, city, club, byes):

- ``name`` (``имя``, ``фио``): required, unique;
- ``city`` (``город``), ``club`` (``клуб``): optional;
- ``byes`` (``автопобеды``): optional number of privilege byes granted for the first rounds (S-5).

Comma, semicolon or tab separated, UTF-8 (with or without BOM). Empty lines and lines starting
with ``#`` are skipped.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from turnir.errors import UserError

_ALIASES = {
    "name": "name", "имя": "name", "фио": "name", "игрок": "name", "player": "name",
    "city": "city", "город": "city",
    "club": "club", "клуб": "club",
    "byes": "byes", "автопобеды": "byes", "bye": "byes",
}
_DEFAULT_COLUMNS = ("name", "city", "club", "byes")


@dataclass(frozen=True, slots=True)
class PlayerLine:
    name: str
    city: str = ""
    club: str = ""
    byes: int = 0


def parse_players_csv(text: str, *, source: str = "players file") -> list[PlayerLine]:
    """Parse the players CSV; ``UserError`` names the line of any problem."""
    text = text.lstrip("\ufeff")
    lines = [(n, ln) for n, ln in enumerate(text.splitlines(), start=1)
             if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:
        raise UserError(f"{source}: no players in it", code="bad_file")
    sample = "\n".join(ln for _, ln in lines[:20])
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    rows = list(csv.reader(io.StringIO("\n".join(ln for _, ln in lines)), dialect))
    first = [cell.strip().casefold() for cell in rows[0]]
    if "name" in {_ALIASES.get(c) for c in first}:
        columns = []
        for cell in first:
            if cell not in _ALIASES:
                raise UserError(f"{source} line {lines[0][0]}: unknown column {cell!r} "
                                "(use name, city, club, byes)", code="bad_file")
            columns.append(_ALIASES[cell])
        body = list(zip((n for n, _ in lines[1:]), rows[1:], strict=True))
    else:
        columns = list(_DEFAULT_COLUMNS)
        body = list(zip((n for n, _ in lines), rows, strict=True))
    players: list[PlayerLine] = []
    seen: dict[str, int] = {}
    for number, row in body:
        where = f"{source} line {number}"
        if len(row) > len(columns):
            raise UserError(f"{where}: {len(row)} columns, expected at most {len(columns)}",
                            code="bad_file")
        values = dict(zip(columns, (c.strip() for c in row), strict=False))
        name = " ".join(values.get("name", "").split())
        if not name:
            raise UserError(f"{where}: the name is empty", code="bad_file")
        key = name.casefold()
        if key in seen:
            raise UserError(f"{where}: {name!r} is already on line {seen[key]}",
                            code="duplicate_player")
        seen[key] = number
        byes_text = values.get("byes", "") or "0"
        if not byes_text.isdigit():
            raise UserError(f"{where}: byes must be a whole number, not {byes_text!r}",
                            code="bad_file")
        players.append(PlayerLine(name, values.get("city", ""), values.get("club", ""),
                                  int(byes_text)))
    if not players:
        raise UserError(f"{source}: no players in it", code="bad_file")
    return players


def read_players_csv(path: Path) -> list[PlayerLine]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{path}: no such file", code="no_file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise UserError(f"{path}: cannot read it ({error})", code="bad_file") from None
    return parse_players_csv(text, source=str(path))

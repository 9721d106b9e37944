"""A deck list uploaded as a file (файл колоды), read into the text a player would paste
(``turnir.domain.decks.parse_deck`` reads it; ``docs/decks.md``).

Accepted, at most ``MAX_DECK_FILE`` bytes:

- **.txt**: the list itself, one card a line ("3 Название карты", with or without the edition),
  in UTF-8 (with or without a BOM), UTF-16 with a BOM or Windows-1251;
- **.csv** (commas, semicolons or tabs) and **.xlsx** (the first sheet): a table of the columns
  *count* and *name*, optionally *edition*, in that order, or in any order under a heading row
  (Russian or English: «Количество»/«Кол-во»/count, «Название»/«Карта»/name,
  «Выпуск»/«Издание»/edition/set). A row with one value is a line of the list as it is.

Anything else (another kind of file, a binary file, an old ``.xls``) is a ``UserError`` that
names the file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePath

from turnir.errors import UserError
from turnir.formats.tabular import Row, check_size, decode_text, read_table

MAX_DECK_FILE = 100_000
"""The largest deck file, in bytes (a 50-card list is a few kilobytes)."""
MAX_FILE_LINES = 1_000
"""Lines (or sheet rows) of a deck file, blank ones included."""
KINDS = (".txt", ".csv", ".xlsx")
"""The file kinds a deck is uploaded as."""

_HEADINGS = {
    "count": {"count", "qty", "quantity", "copies", "amount", "number", "n", "кол-во",
              "количество", "кол", "колво", "копий", "копии", "число", "шт", "штук"},
    "name": {"name", "card", "card name", "название", "карта", "имя", "название карты"},
    "edition": {"edition", "set", "выпуск", "издание", "сет", "edition name"},
}


def _heading(cell: str) -> str | None:
    word = cell.strip().lower().replace("ё", "е").rstrip(".:").strip()
    return next((column for column, words in _HEADINGS.items() if word in words), None)


def _columns(row: Row) -> dict[str, int] | None:
    """The columns of a heading row (``None``: the row is not a heading)."""
    found = {_heading(cell): index for index, cell in enumerate(row.cells)}
    found.pop(None, None)
    columns = {str(column): index for column, index in found.items()}
    return columns if "name" in columns else None


def _cell(cells: Sequence[str], index: int | None) -> str:
    return cells[index].strip() if index is not None and index < len(cells) else ""


def _line(cells: Sequence[str], columns: dict[str, int]) -> str:
    count = _cell(cells, columns.get("count"))
    name = _cell(cells, columns.get("name"))
    edition = _cell(cells, columns.get("edition"))
    if not name:
        return " ".join(cell for cell in cells if cell)
    text = f"{count} {name}" if count else name
    return f"{text} [{edition}]" if edition else text


def _split(cells: tuple[str, ...]) -> tuple[str, ...]:
    """A row read as one value that holds ``;`` or tabs (the separator was not recognised:
    rows of different lengths) split on them."""
    if len(cells) == 1 and re.search(r"[;\t]", cells[0]):
        return tuple(cell.strip() for cell in re.split(r"[;\t]", cells[0]))
    return cells


def rows_to_text(rows: Sequence[Row]) -> str:
    """The deck list of a table's rows (see the module docstring)."""
    columns = {"count": 0, "name": 1, "edition": 2}
    lines: list[str] = []
    for index, row in enumerate(rows):
        if index == 0 and (heading := _columns(row)) is not None:
            columns = heading
            continue
        cells = _split(row.cells)
        if len(cells) == 1:
            lines.append(cells[0])
        elif columns["name"] == 1 and not cells[0].isdigit() and cells[1].isdigit():
            lines.append(_line(cells, {"name": 0, "count": 1, "edition": 2}))
        else:
            lines.append(_line(cells, columns))
    return "\n".join(lines)


def _kind(filename: str, data: bytes) -> str:
    suffix = PurePath(filename).suffix.lower()
    if data.startswith(b"PK\x03\x04"):
        return ".xlsx"
    if suffix in KINDS:
        return suffix
    raise UserError("{file}: a deck file is a .txt, .csv or .xlsx file", code="bad_deck_file",
                    file=filename)


def read_deck_file(data: bytes, *, filename: str) -> str:
    """The deck list text of an uploaded file's bytes."""
    source = PurePath(filename).name or "deck"
    check_size(data, source=source, max_bytes=MAX_DECK_FILE)
    kind = _kind(source, data)
    if kind == ".txt":
        text = decode_text(data, source=source)
        if "\x00" in text:
            raise UserError("{source}: not a text file in UTF-8 or Windows-1251, nor an .xlsx "
                            "workbook", code="bad_file", source=source)
        if text.count("\n") > MAX_FILE_LINES:
            raise UserError("{source}: more than {count} lines", code="file_too_large",
                            source=source, count=f"{MAX_FILE_LINES:,}")
        return text
    return rows_to_text(read_table(data, source=source, max_bytes=MAX_DECK_FILE,
                                   max_lines=MAX_FILE_LINES, comments=True))

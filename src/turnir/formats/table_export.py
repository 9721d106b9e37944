"""A table written for a spreadsheet (issue 12, "exports"): the standings and the final places
as CSV and as an Excel workbook (.xlsx), the same rows and columns as the page.

**CSV.** UTF-8 with a byte-order mark, so that Excel on Windows (which otherwise reads a CSV in
the system's ANSI code page, Windows-1251 on a Russian one) shows Cyrillic names right; lines
end with CRLF. The separator is the **semicolon**: Excel splits a double-clicked CSV at the
Windows *list separator*, and on a Russian Windows that is ``;`` (the comma is its decimal
separator), so a comma-separated file opens there as one column. LibreOffice, Google Sheets and
Python's ``csv.Sniffer`` recognise ``;`` too. No ``sep=;`` first line: with it, Excel ignores the
BOM and garbles the Cyrillic again.

**Formula injection** (CWE-1236). A text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or
a carriage return would be run as a formula by a spreadsheet (a player named ``=HYPERLINK(…)``).
In the CSV such a text gets a leading apostrophe (``'=…``), which Excel shows as the text itself;
in the workbook every text cell is stored as a string (never a formula), so it needs no mark.
Numbers are written as numbers.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from openpyxl.worksheet.worksheet import Worksheet

Cell = str | int
"""A value of the table: a text, or a whole number (points, tiebreaks, places)."""

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet takes as the start of a formula (OWASP, "CSV injection")."""
CSV_SEPARATOR = ";"
BOM = "\ufeff"
_SHEET_TITLE_BAD = re.compile(r"[\[\]:*?/\\]")
SHEET_TITLE_MAX = 31
"""Excel's limit on a sheet's name."""


@dataclass(frozen=True, slots=True)
class Table:
    """A table to export: a title (the workbook's sheet), the header and the rows."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.header):
                raise ValueError(f"a row of {len(row)} cells under {len(self.header)} columns")


def neutralised(text: str) -> str:
    """``text`` safe in a CSV cell: an apostrophe before a formula's first character."""
    return "'" + text if text.startswith(FORMULA_START) else text


def csv_bytes(table: Table) -> bytes:
    """The table as a CSV for Excel: UTF-8 with a BOM, ``;``-separated, CRLF lines."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=CSV_SEPARATOR, lineterminator="\r\n",
                        quoting=csv.QUOTE_MINIMAL)
    writer.writerow([neutralised(h) for h in table.header])
    for row in table.rows:
        writer.writerow([neutralised(c) if isinstance(c, str) else c for c in row])
    return (BOM + out.getvalue()).encode("utf-8")


def sheet_title(title: str) -> str:
    """A name Excel accepts for a sheet: no ``[]:*?/\\``, at most 31 characters."""
    cleaned = _SHEET_TITLE_BAD.sub(" ", title).strip().strip("'")
    return cleaned[:SHEET_TITLE_MAX] or "Sheet"


def xlsx_bytes(table: Table) -> bytes:
    """The table as an Excel workbook: one sheet, the header bold and frozen, every text a
    string cell (never a formula), numbers as numbers."""
    from openpyxl import Workbook  # imported when a workbook is asked for: it is slow to import
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = sheet_title(table.title)
    _put_row(sheet, 1, table.header)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for number, row in enumerate(table.rows, start=2):
        _put_row(sheet, number, row)
    sheet.freeze_panes = "A2"
    for index, width in enumerate(_widths(table), start=1):
        sheet.column_dimensions[get_column_letter(index)].width = width
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _put_row(sheet: Worksheet, number: int, values: Sequence[Cell]) -> None:
    for column, value in enumerate(values, start=1):
        cell = sheet.cell(row=number, column=column, value=value)
        if isinstance(value, str):
            cell.data_type = "s"  # openpyxl takes a text starting with "=" for a formula


def _widths(table: Table) -> list[float]:
    """Each column about as wide as its longest value (10 to 40 characters)."""
    widths = [len(h) for h in table.header]
    for row in table.rows:
        for index, value in enumerate(row):
            widths[index] = max(widths[index], len(str(value)))
    return [min(40.0, max(10.0, w + 2.0)) for w in widths]

"""The rows of a table file that people make: a CSV or an Excel workbook (issue 10 item 6).

Accepted (``docs/formats.md``, "Table files"):

- **CSV**, separated by commas, semicolons or tabs (guessed from the first lines), in UTF-8
  with or without a BOM, UTF-16 with a BOM (Excel's "Unicode text"), or Windows-1251 (what
  Excel saves as "CSV" on a Russian Windows), recognised with ``charset-normalizer``;
- **.xlsx** (Excel 2007 and later; recognised by its content, whatever the file is called):
  the first sheet, read with ``openpyxl`` in read-only mode (``defusedxml`` guards its XML).

Every problem is a ``UserError`` that names the file and the line: a quote that is not closed
on its line (a value in quotes cannot run over several lines), text after a closing quote, a
value longer than ``MAX_FIELD`` characters, a file larger than the caller's byte limit, more
lines than its line limit (blank lines count), an old ``.xls`` workbook, a binary file.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

from turnir.errors import UserError

MAX_FIELD = 131_072
"""Characters of one value (a CSV field or a sheet's cell); Python's own CSV limit."""
MAX_COLUMNS = 30
"""Columns read from each row of a sheet (the rest is ignored)."""
MAX_UNPACKED = 50_000_000
"""Bytes of an ``.xlsx`` workbook once unpacked (its parts together): a guard against a small
file that unpacks into a huge one."""
_SNIFF_LINES = 20
_SNIFF_CHARS = 4_000
_XLSX_MAGIC = b"PK\x03\x04"
_XLS_MAGIC = b"\xd0\xcf\x11\xe0"
_LINE_END = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class Row:
    """One non-blank row: where it is and its values (trimmed, trailing empty ones dropped)."""

    line: int
    """The line of a CSV file, or the row number of a sheet (both from 1)."""
    cells: tuple[str, ...]


def read_file_bytes(path: Path, *, max_bytes: int) -> bytes:
    """A file's bytes, refused when larger than ``max_bytes`` (no more is ever read)."""
    try:
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except FileNotFoundError:
        raise UserError("{file}: no such file", code="no_file", file=str(path)) from None
    except OSError as error:
        raise UserError("{file}: cannot read it ({reason})", code="bad_file", file=str(path),
                        reason=error.strerror or str(error)) from None
    check_size(data, source=str(path), max_bytes=max_bytes)
    return data


def check_size(data: bytes, *, source: str, max_bytes: int) -> None:
    if len(data) > max_bytes >= 1_000_000:
        raise UserError("{source}: the file is larger than {size} MB", code="file_too_large",
                        source=source, size=f"{max_bytes / 1_000_000:g}")
    if len(data) > max_bytes:
        raise UserError("{source}: the file is larger than {size} bytes",
                        code="file_too_large", source=source, size=f"{max_bytes:,}")


def read_table_file(path: Path, *, max_bytes: int, max_lines: int,
                    comments: bool = False) -> list[Row]:
    """``read_table`` on a file; no more than ``max_bytes`` + 1 bytes are ever read."""
    return read_table(read_file_bytes(path, max_bytes=max_bytes), source=str(path),
                      max_bytes=max_bytes, max_lines=max_lines, comments=comments)


def read_table(data: bytes, *, source: str, max_bytes: int, max_lines: int,
               comments: bool = False) -> list[Row]:
    """The non-blank rows of a CSV or ``.xlsx`` file's bytes; with ``comments``, lines whose
    first value starts with ``#`` are skipped too."""
    check_size(data, source=source, max_bytes=max_bytes)
    if data.startswith(_XLSX_MAGIC):
        rows: Iterator[Row] = _sheet_rows(data, source, max_lines)
    elif data.startswith(_XLS_MAGIC):
        raise UserError("{source}: an old Excel workbook (.xls); save it as .xlsx or CSV",
                        code="bad_file", source=source)
    else:
        rows = _csv_rows(decode_text(data, source=source), source, max_lines)
    return [row for row in rows
            if row.cells and not (comments and row.cells[0].startswith("#"))]


def read_table_text(text: str, *, source: str, max_lines: int,
                    comments: bool = False) -> list[Row]:
    """``read_table`` on CSV text already decoded."""
    return [row for row in _csv_rows(text.removeprefix("\ufeff"), source, max_lines)
            if row.cells and not (comments and row.cells[0].startswith("#"))]


# ----- text: encodings and CSV -------------------------------------------------------------


def decode_text(data: bytes, *, source: str) -> str:
    """UTF-8 (a BOM is dropped), UTF-16 with a BOM, or Windows-1251 when the bytes are not
    UTF-8 and read as plausible Windows-1251 text."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise UserError("{source}: not valid UTF-16 text", code="bad_file",
                            source=source) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        if data.startswith(b"\xef\xbb\xbf"):
            raise UserError("{source}: not valid UTF-8 text (byte {byte})", code="bad_file",
                            source=source, byte=error.start + 1) from None
    if b"\x00" not in data:
        from charset_normalizer import from_bytes  # only for a file that is not UTF-8

        best = from_bytes(data, cp_isolation=["cp1251"]).best()
        if best is not None:
            return str(best)
    raise UserError("{source}: not a text file in UTF-8 or Windows-1251, nor an .xlsx "
                    "workbook", code="bad_file", source=source)


def _dialect(lines: list[str]) -> type[csv.Dialect] | csv.Dialect:
    """Excel's CSV with the separator guessed from the first lines (``,`` when unsure)."""
    sample = [ln[:_SNIFF_CHARS] for ln in lines
              if ln.strip() and not ln.lstrip().startswith("#")][:_SNIFF_LINES]
    try:
        delimiter = csv.Sniffer().sniff("\n".join(sample), delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ","
    return type("Guessed", (csv.excel,), {"delimiter": delimiter})


def _csv_rows(text: str, source: str, max_lines: int) -> Iterator[Row]:
    lines = _LINE_END.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) > max_lines:
        raise UserError("{source}: more than {count} lines", code="file_too_large",
                        source=source, count=f"{max_lines:,}")
    dialect = _dialect(lines)
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            cells = next(csv.reader([line], dialect, strict=True))
        except csv.Error as error:
            raise _csv_problem(error, source, number) from None
        yield Row(number, _trimmed(cells))


def _csv_problem(error: csv.Error, source: str, line: int) -> UserError:
    text = str(error)
    where: dict[str, Any] = {"code": "bad_file", "source": source, "line": line}
    if "field larger than field limit" in text:
        return UserError("{source} line {line}: a value is longer than {most} characters",
                         **where, most=f"{MAX_FIELD:,}")
    if "unexpected end of data" in text or "newline inside string" in text:
        return UserError("{source} line {line}: a quote is not closed on this line (a value "
                         "in quotes cannot go over several lines)", **where)
    if "expected after" in text:
        return UserError("{source} line {line}: text after a closing quote (a quote inside a "
                         "value is written twice: \"\")", **where)
    return UserError("{source} line {line}: not valid CSV ({reason})", **where, reason=text)


def _trimmed(cells: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    values = [cell.strip() for cell in cells]
    while values and not values[-1]:
        values.pop()
    return tuple(values)


# ----- Excel workbooks ---------------------------------------------------------------------


def _sheet_rows(data: bytes, source: str, max_lines: int) -> Iterator[Row]:
    from openpyxl import load_workbook  # only when a workbook comes: it is slow to import

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(part.file_size for part in archive.infolist())
    except zipfile.BadZipFile:
        raise UserError("{source}: a damaged .xlsx workbook (not a readable zip file)",
                        code="bad_file", source=source) from None
    if unpacked > MAX_UNPACKED:
        raise UserError("{source}: the workbook unpacks to more than {size} MB",
                        code="file_too_large", source=source,
                        size=f"{MAX_UNPACKED / 1_000_000:g}")
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception:  # openpyxl raises many kinds of errors on a damaged workbook
        raise _unreadable(source) from None
    try:
        if not book.worksheets:
            raise UserError("{source}: the workbook has no sheet", code="bad_file",
                            source=source)
        sheet = book.worksheets[0]
        for number, values in enumerate(sheet.iter_rows(max_col=MAX_COLUMNS, values_only=True),
                                        start=1):
            if number > max_lines:
                raise UserError("{source}: more than {count} rows", code="file_too_large",
                                source=source, count=f"{max_lines:,}")
            yield Row(number, _trimmed([_cell_text(v, source, number) for v in values]))
    except UserError:
        raise
    except Exception:  # a damaged sheet shows only while it is read
        raise _unreadable(source) from None
    finally:
        book.close()


def _unreadable(source: str) -> UserError:
    return UserError("{source}: not a readable .xlsx workbook", code="bad_file", source=source)


def _cell_text(value: object, source: str, row: int) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    text = str(value)
    if len(text) > MAX_FIELD:
        raise UserError("{source} row {row}: a value is longer than {most} characters",
                        code="bad_file", source=source, row=row, most=f"{MAX_FIELD:,}")
    return text

"""The portable backup file (``turnir backup FILE --portable``; ``docs/backup.md``).

A gzip-compressed text file of JSON lines, UTF-8:

1. the **header**: ``{"format": "turnir-backup", "version": 1, "revision": "0017",
   "dialect": "sqlite", "created_at": "…+00:00", "tables": [{"name": …, "columns": [[name,
   kind], …], "rows": N}, …]}`` — the tables in dependency order (a table comes after every
   table it refers to), each with its columns and how many rows follow;
2. the **rows**, table by table in the header's order: ``["people", 1, "Анна", …]`` — the
   table's name, then its values in the header's column order;
3. the **trailer**: ``{"end": "turnir-backup", "rows": TOTAL, "sha256": HEX}``, the SHA-256
   of every byte before it (the header and row lines with their newlines, uncompressed).

Values by column kind (``KINDS``): ``null`` is SQL NULL for every kind; ``int``, ``bool``,
``str`` and ``float`` are JSON's own; ``datetime`` an ISO 8601 string in UTC
(``2026-03-01T14:02:11.250000+00:00``), ``date`` ``YYYY-MM-DD``, ``bytes`` base64,
``decimal`` the number as a string, ``json`` the stored JSON value wrapped in a one-element
list (``[{"a": 1}]``; ``[null]`` is a stored JSON null, told apart from SQL NULL).

Reading checks everything: the gzip stream, every line, the counts, the kinds and the
checksum; the first problem is a ``BackupFileError`` naming the file and the line.
Nothing here touches a database: storage gives the rows (``turnir.storage.backup_repo``),
``turnir.services.backup`` joins the two.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import IO, Any

from turnir.errors import UserError

FORMAT = "turnir-backup"
VERSION = 1
KINDS = ("int", "bool", "str", "float", "datetime", "date", "bytes", "decimal", "json")
MAGIC = b"\x1f\x8b"
"""A portable file starts as every gzip stream does."""
_MAX_LINE = 64 * 1024 * 1024
_HEADER_START = b'{"format":"turnir-backup"'


class BackupFileError(UserError):
    """A file that is not a whole, untouched portable backup."""


@dataclass(frozen=True, slots=True)
class TableSpec:
    """One table as the file holds it: its name and its columns with their kinds."""

    name: str
    columns: tuple[tuple[str, str], ...]
    """``(column, kind)`` in the order of the row values."""


@dataclass(frozen=True, slots=True)
class Header:
    revision: str
    """The Alembic revision of the schema the rows belong to."""
    dialect: str
    """The database kind the file was made from (``sqlite``, ``postgresql``)."""
    created_at: datetime
    tables: tuple[tuple[TableSpec, int], ...]
    """Every table with its row count, in dependency order."""

    @property
    def total_rows(self) -> int:
        return sum(count for _spec, count in self.tables)


Row = tuple[Any, ...]


# ----- values ---------------------------------------------------------------------------------


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def encode_value(kind: str, value: Any) -> Any:
    """A stored value as the file writes it (see the module docstring)."""
    if value is None:
        return None
    if kind == "datetime":
        return _utc(value).isoformat()
    if kind == "date":
        return value.isoformat()
    if kind == "bytes":
        return base64.b64encode(bytes(value)).decode("ascii")
    if kind == "decimal":
        return str(value)
    if kind == "json":
        return [value[0]]
    return value


class _Bad(ValueError):
    """A value that does not fit its column's kind."""


def _need(ok: bool) -> None:
    if not ok:
        raise _Bad


def _decode_plain(kind: str, value: Any) -> Any:
    if kind == "int":
        _need(isinstance(value, int) and not isinstance(value, bool))
    elif kind == "bool":
        _need(isinstance(value, bool))
    elif kind == "str":
        _need(isinstance(value, str))
    elif kind == "float":
        _need(isinstance(value, int | float) and not isinstance(value, bool))
        return float(value)
    elif kind == "json":
        _need(isinstance(value, list) and len(value) == 1)
        return (value[0],)
    else:
        raise _Bad
    return value


def decode_value(kind: str, value: Any) -> Any:
    """The stored value of a file value; ``json`` gives ``(value,)`` (``None``: SQL NULL)."""
    if value is None:
        return None
    if kind not in ("datetime", "date", "bytes", "decimal"):
        return _decode_plain(kind, value)
    _need(isinstance(value, str))
    try:
        if kind == "datetime":
            return _utc(datetime.fromisoformat(value))
        if kind == "date":
            return date.fromisoformat(value)
        if kind == "bytes":
            return base64.b64decode(value.encode("ascii"), validate=True)
        return Decimal(value)
    except (ValueError, InvalidOperation, UnicodeError):
        raise _Bad from None


# ----- writing --------------------------------------------------------------------------------


def _line(item: object) -> bytes:
    return json.dumps(item, ensure_ascii=False, separators=(",", ":"),
                      allow_nan=False).encode("utf-8") + b"\n"


def header_line(header: Header) -> bytes:
    return _line({
        "format": FORMAT, "version": VERSION, "revision": header.revision,
        "dialect": header.dialect, "created_at": _utc(header.created_at).isoformat(),
        "tables": [{"name": spec.name, "columns": [list(c) for c in spec.columns],
                    "rows": count} for spec, count in header.tables],
    })


class _Drain:
    """Where the gzip stream writes: the compressed bytes, taken out as they come."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def write(self, data: bytes) -> int:
        self.parts.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        pass

    def take(self) -> bytes:
        data, self.parts = b"".join(self.parts), []
        return data


def backup_chunks(header: Header, rows_of: Callable[[TableSpec], Iterable[Row]],
                  *, chunk: int = 256 * 1024) -> Iterator[bytes]:
    """The whole file as compressed pieces of about ``chunk`` bytes (a download streams them):
    ``rows_of(table)`` gives each table's rows as stored, exactly as many as the header says."""
    digest = hashlib.sha256()
    drain = _Drain()
    packed = gzip.GzipFile(fileobj=drain, mode="wb", compresslevel=6, mtime=0)
    first = header_line(header)
    digest.update(first)
    packed.write(first)
    total = 0
    for spec, count in header.tables:
        kinds = [kind for _name, kind in spec.columns]
        written = 0
        for row in rows_of(spec):
            data = _line([spec.name, *(encode_value(k, v)
                                       for k, v in zip(kinds, row, strict=True))])
            digest.update(data)
            packed.write(data)
            written += 1
            if sum(map(len, drain.parts)) >= chunk:
                yield drain.take()
        if written != count:  # the rows were not read in the header's transaction
            raise RuntimeError(f"{spec.name}: {written} rows for {count} counted")
        total += written
    packed.write(_line({"end": FORMAT, "rows": total, "sha256": digest.hexdigest()}))
    packed.close()
    yield drain.take()


def write_backup(out: IO[bytes], header: Header,
                 rows_of: Callable[[TableSpec], Iterable[Row]]) -> None:
    """Write the whole file to ``out`` (``backup_chunks``)."""
    for piece in backup_chunks(header, rows_of):
        out.write(piece)


# ----- reading --------------------------------------------------------------------------------


def not_a_backup(file: str) -> BackupFileError:
    return BackupFileError("{file} is not a turnir backup file", code="not_a_backup",
                           file=file)


def _damaged(file: str, line: int) -> BackupFileError:
    return BackupFileError("the backup file {file} is damaged or cut short at line {line}",
                           code="backup_damaged", file=file, line=line)


def _lines(path: Path, source: str) -> Iterator[tuple[int, bytes]]:
    """The file's uncompressed lines with their numbers; a broken gzip stream is damage."""
    number = 0
    try:
        with path.open("rb") as raw:
            if raw.read(2) != MAGIC:
                raise not_a_backup(source)
        with gzip.open(path, "rb") as stream:
            for number, line in enumerate(stream, start=1):
                if len(line) > _MAX_LINE:
                    raise _damaged(source, number)
                yield number, line
    except (OSError, EOFError, zlib.error):
        raise _damaged(source, number + 1) from None


def _header(source: str, data: bytes) -> Header:
    try:
        item = json.loads(data)
    except ValueError:
        if data.startswith(_HEADER_START):  # ours, with a damaged header
            raise _damaged(source, 1) from None
        raise not_a_backup(source) from None
    if not isinstance(item, dict) or item.get("format") != FORMAT:
        raise not_a_backup(source)
    if item.get("version") != VERSION:
        raise BackupFileError(
            "the backup file {file} has format version {version}; this turnir reads version "
            "{known}", code="backup_version", file=source, version=str(item.get("version")),
            known=VERSION)
    try:
        tables = tuple(
            (TableSpec(str(t["name"]), tuple((str(c), str(k)) for c, k in t["columns"])),
             int(t["rows"])) for t in item["tables"])
        header = Header(revision=str(item["revision"]), dialect=str(item["dialect"]),
                        created_at=datetime.fromisoformat(str(item["created_at"])),
                        tables=tables)
    except (KeyError, TypeError, ValueError):
        raise _damaged(source, 1) from None
    if any(k not in KINDS for spec, _n in tables for _c, k in spec.columns):
        raise _damaged(source, 1)
    return header


def read_header(path: Path, *, source: str | None = None) -> Header:
    """The header alone (the first line), without checking the rest."""
    name = source or str(path)
    for _number, line in _lines(path, name):
        return _header(name, line)
    raise not_a_backup(name)


def _row(spec: TableSpec, item: Any) -> Row:
    _need(isinstance(item, list) and len(item) == len(spec.columns) + 1
          and item[0] == spec.name)
    return tuple(decode_value(kind, value)
                 for (_name, kind), value in zip(spec.columns, item[1:], strict=True))


def _trailer(source: str, number: int, data: bytes, digest: str, total: int) -> None:
    try:
        item = json.loads(data)
    except ValueError:
        raise _damaged(source, number) from None
    if not isinstance(item, dict) or item.get("end") != FORMAT or item.get("rows") != total:
        raise _damaged(source, number)
    if item.get("sha256") != digest:
        raise BackupFileError(
            "the backup file {file} does not match its checksum: it was changed after it was "
            "written", code="backup_checksum", file=source)


def read_backup(path: Path, *, source: str | None = None
                ) -> Iterator[tuple[TableSpec, Sequence[Row]]]:
    """Every table of the file with its rows, in batches of at most 2,000 rows (a table with
    no rows gives one empty batch). A ``BackupFileError`` as soon as anything is wrong; the
    checksum is checked after the last batch, so read to the end before trusting any."""
    name = source or str(path)
    lines = _lines(path, name)
    digest = hashlib.sha256()
    first = next(lines, None)
    if first is None:
        raise not_a_backup(name)
    header = _header(name, first[1])
    digest.update(first[1])
    number = 1
    for spec, count in header.tables:
        batch: list[Row] = []
        for _ in range(count):
            found = next(lines, None)
            if found is None:
                raise _damaged(name, number + 1)
            number, data = found
            digest.update(data)
            try:
                batch.append(_row(spec, json.loads(data)))
            except (ValueError, _Bad):
                raise _damaged(name, number) from None
            if len(batch) == 2000:
                yield spec, batch
                batch = []
        if batch or count == 0:
            yield spec, batch
    end = next(lines, None)
    if end is None:
        raise _damaged(name, number + 1)
    _trailer(name, end[0], end[1], digest.hexdigest(), header.total_rows)
    if next(lines, None) is not None:
        raise _damaged(name, end[0] + 1)


def check_backup(path: Path, *, source: str | None = None) -> Header:
    """Read the whole file, checking everything (``read_backup``); its header."""
    header = read_header(path, source=source)
    for _batch in read_backup(path, source=source):
        pass
    return header

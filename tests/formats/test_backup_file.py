"""The portable backup file (``turnir.formats.backup_file``, ``docs/backup.md``): every kind of
value written and read back exactly, the header and the trailer, and every kind of damage
found before a row is trusted."""

from __future__ import annotations

import gzip
import io
import json
from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path

import pytest

from turnir.formats.backup_file import (
    FORMAT,
    BackupFileError,
    Header,
    TableSpec,
    check_backup,
    decode_value,
    encode_value,
    read_backup,
    write_backup,
)

SPEC = TableSpec("things", (("id", "int"), ("name", "str"), ("on", "bool"), ("at", "datetime"),
                            ("day", "date"), ("raw", "bytes"), ("fee", "decimal"),
                            ("ratio", "float"), ("data", "json")))
ROWS: list[tuple[object, ...]] = [
    (1, "Анна «Ёж»", True, datetime(2026, 3, 1, 14, 2, 11, 250000, tzinfo=UTC),
     date(2026, 3, 1), b"\x00\xff", Decimal("1.40"), 0.5, ({"a": [1, "б"]},)),
    (2, "", False, datetime(2026, 3, 1, 17, 0, tzinfo=timezone(timedelta(hours=3))),
     None, None, None, None, (None,)),
    (3, None, None, None, None, b"", Decimal("0"), -1.0, None),
]


def _file(tmp_path: Path, rows: list[tuple[object, ...]] = ROWS) -> Path:
    header = Header(revision="0017", dialect="sqlite", created_at=datetime(2026, 3, 1, tzinfo=UTC),
                    tables=((SPEC, len(rows)), (TableSpec("empty", (("id", "int"),)), 0)))
    out = io.BytesIO()
    write_backup(out, header, lambda spec: rows if spec.name == "things" else [])
    path = tmp_path / "b.turnir.gz"
    path.write_bytes(out.getvalue())
    return path


def test_every_kind_of_value_comes_back_as_it_was_stored(tmp_path: Path) -> None:
    path = _file(tmp_path)
    header = check_backup(path)
    assert header.revision == "0017" and header.total_rows == 3
    batches = list(read_backup(path))
    assert [spec.name for spec, _rows in batches] == ["things", "empty"]
    got = batches[0][1]
    assert got[0] == ROWS[0]
    assert got[1][3] == datetime(2026, 3, 1, 14, 0, tzinfo=UTC)  # in UTC, the same moment
    assert got[1][8] == (None,) and got[2][8] is None  # JSON null is not SQL NULL
    assert got[2] == ROWS[2]


def test_the_file_is_gzip_json_lines_with_a_header_and_a_checksum(tmp_path: Path) -> None:
    lines = gzip.decompress(_file(tmp_path).read_bytes()).splitlines()
    header, trailer = json.loads(lines[0]), json.loads(lines[-1])
    assert header["format"] == FORMAT and header["version"] == 1
    assert header["tables"][0] == {"name": "things", "rows": 3,
                                   "columns": [list(c) for c in SPEC.columns]}
    assert json.loads(lines[1])[:3] == ["things", 1, "Анна «Ёж»"]
    assert trailer["end"] == FORMAT and trailer["rows"] == 3 and len(trailer["sha256"]) == 64


def _damage(path: Path, change: object) -> None:
    lines = gzip.decompress(path.read_bytes()).splitlines(keepends=True)
    path.write_bytes(gzip.compress(b"".join(change(lines))))  # type: ignore[operator]


@pytest.mark.parametrize(("change", "code"), [
    (lambda ls: [*ls[:1], ls[2], ls[1], *ls[3:]], "backup_checksum"),
    (lambda ls: [*ls[:2], *ls[3:]], "backup_damaged"),
    (lambda ls: ls[:-1], "backup_damaged"),
    (lambda ls: [*ls, ls[-1]], "backup_damaged"),
    (lambda ls: [ls[0], ls[1].replace(b'"things",1,', b'"things","1",'), *ls[2:]],
     "backup_damaged"),
    (lambda ls: [ls[0].replace(b'"version":1', b'"version":2'), *ls[1:]], "backup_version"),
    (lambda ls: [b'{"format":"something else"}\n', *ls[1:]], "not_a_backup"),
], ids=["rows swapped", "row missing", "no trailer", "extra line", "wrong kind", "version 2",
        "another format"])
def test_damage_is_found_before_anything_is_trusted(tmp_path: Path, change: object,
                                                    code: str) -> None:
    path = _file(tmp_path)
    _damage(path, change)
    with pytest.raises(BackupFileError) as refused:
        check_backup(path)
    assert refused.value.code == code


def test_a_cut_short_gzip_stream_is_damage(tmp_path: Path) -> None:
    path = _file(tmp_path)
    path.write_bytes(path.read_bytes()[:-12])
    with pytest.raises(BackupFileError) as refused:
        check_backup(path)
    assert refused.value.code == "backup_damaged"


@pytest.mark.parametrize(("kind", "value"), [("int", True), ("int", "1"), ("bool", 1),
                                             ("str", 5), ("datetime", "yesterday"),
                                             ("bytes", "***"), ("json", {"a": 1}),
                                             ("decimal", "1,5")])
def test_a_value_of_the_wrong_kind_is_refused(kind: str, value: object) -> None:
    with pytest.raises(ValueError):
        decode_value(kind, value)


def test_values_encode_to_plain_json() -> None:
    assert encode_value("bytes", b"\x01") == "AQ=="
    assert encode_value("decimal", Decimal("2.50")) == "2.50"
    assert encode_value("json", ([1],)) == [[1]]
    assert encode_value("datetime", datetime(2026, 1, 1)) == "2026-01-01T00:00:00+00:00"

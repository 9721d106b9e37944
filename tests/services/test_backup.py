"""Backups and restores (issue 15, ``turnir.services.backup``, ``docs/backup.md``): native
snapshots on each database kind, the portable file from either kind onto the other, a backup
taken while another thread keeps recording results, and files that are damaged, cut short,
tampered with or of another schema refused with the database left as it was."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import sqlite3
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.db_fixtures import create_pg_database, drop_pg_database
from tests.services.builders import ORGANIZER, event
from tests.snapshots import built
from turnir.domain.results import parse_result
from turnir.errors import UserError
from turnir.formats.backup_file import TableSpec
from turnir.services import backup
from turnir.services.accounts import AccountRole, authenticate, create_account, make_hasher
from turnir.services.audit import verify_log
from turnir.services.demo import seed_tournaments
from turnir.services.queries import get_standings
from turnir.services.results import record_result
from turnir.services.rounds import start_round
from turnir.services.tournaments import list_tournaments
from turnir.storage import backup_repo
from turnir.storage.database import Database

HASHER = make_hasher(fast=True)
_names = iter(range(1, 1_000_000))


def _utc(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return value


def every_row(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows as stored, times in UTC: equal on SQLite and PostgreSQL when the
    same data is kept."""
    with db.read() as tx:
        return {spec.name: [tuple(_utc(v) for v in row) for row in backup_repo.rows(tx, spec)]
                for spec in backup_repo.table_specs()}


def _demo_content(db: Database) -> int:
    tid = seed_tournaments(db)
    create_account(db, login="anna", name="Анна Орлова", password="correct horse 1",
                   role=AccountRole.ORGANIZER, actor=ORGANIZER, hasher=HASHER)
    return tid


def demo_content(db: Database) -> int:
    """The demo tournaments and an organizer's login: the content every test backs up (built
    once per process and kind of database, ``tests.snapshots``)."""
    return built(db, "test_backup.demo_content", _demo_content)


def standings_of(db: Database) -> dict[str, Any]:
    return {t.name: get_standings(db, t.id).standings.rows if t.rounds else ()
            for t in list_tournaments(db)}


@pytest.fixture
def other_kind(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, str]]:
    """Fresh migrated databases of both kinds besides ``db``: ``{"sqlite": url, ...}``."""
    template: Path = request.getfixturevalue("sqlite_template")
    path = tmp_path / f"other-{next(_names)}.db"
    shutil.copyfile(template, path)
    server: str = request.getfixturevalue("pg_server_url")
    name = f"turnir_backup_{os.getpid()}_{next(_names)}"
    url = create_pg_database(server, name, template=request.getfixturevalue("pg_template"))
    yield {"sqlite": f"sqlite:///{path}", "postgresql": url}
    drop_pg_database(server, name)


def _works(db: Database, expected: dict[str, list[tuple[Any, ...]]],
           standings: dict[str, Any]) -> None:
    """The restored database holds the same rows and works: standings, the audit log, a
    login, and a new row gets a fresh id (the sequences moved past the restored ids)."""
    assert every_row(db) == expected
    assert standings_of(db) == standings
    assert verify_log(db).ok
    assert authenticate(db, "anna", "correct horse 1", hasher=HASHER).login == "anna"
    create_account(db, login="boris", name="Борис", password="another horse 2",
                   role=AccountRole.HEAD_JUDGE, actor=ORGANIZER, hasher=HASHER)
    assert verify_log(db).ok


def test_sqlite_to_postgresql_and_back_through_the_portable_file(
        other_kind: dict[str, str], tmp_path: Path) -> None:
    source = Database.open(other_kind["sqlite"])
    demo_content(source)
    expected, standings = every_row(source), standings_of(source)
    assert sum(map(len, expected.values())) > 100
    report = backup.make_backup(source, tmp_path / "club.turnir.gz", portable=True)
    assert report.kind == "portable" and report.rows == sum(map(len, expected.values()))
    source.close()

    pg = Database.open(other_kind["postgresql"])
    restored = backup.restore(pg, tmp_path / "club.turnir.gz")
    assert restored.rows == report.rows
    _works(pg, expected, standings)
    moved_on = every_row(pg)
    backup.make_backup(pg, tmp_path / "from-pg.turnir.gz", portable=True)
    pg.close()

    target = tmp_path / "back.db"
    back = Database.open(f"sqlite:///{target}")
    backup.restore(back, tmp_path / "from-pg.turnir.gz")
    assert every_row(back) == moved_on
    assert verify_log(back).ok
    back.close()


def test_native_snapshot_round_trip_on_each_kind(db: Database, database_url: str,
                                                 other_kind: dict[str, str],
                                                 tmp_path: Path) -> None:
    demo_content(db)
    expected, standings = every_row(db), standings_of(db)
    report = backup.make_backup(db, tmp_path / "snapshot")
    assert report.kind == db.dialect and report.size > 0
    if db.is_sqlite:
        with sqlite3.connect(tmp_path / "snapshot") as conn:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    target = Database.open(other_kind[db.dialect])
    assert backup.restore(target, tmp_path / "snapshot").kind == db.dialect
    _works(target, expected, standings)
    target.close()


def _keep_recording(db: Database, tid: int, stop: threading.Event,
                    errors: list[BaseException]) -> list[int]:
    """Record the open tables' results one by one until ``stop`` (or none is left)."""
    done: list[int] = []
    view = start_round(db, tid, actor=ORGANIZER)
    try:
        for line in view.round.pairings:
            if stop.is_set():
                break
            if line.b is not None:
                record_result(db, tid, view.round.number, line.table, parse_result("2-1"),
                              actor=ORGANIZER)
                done.append(line.table)
    except BaseException as error:  # reported by the test
        errors.append(error)
    return done


@pytest.mark.parametrize("portable", [False, True], ids=["native", "portable"])
def test_a_backup_taken_while_results_are_recorded_is_one_consistent_moment(
        db: Database, other_kind: dict[str, str], tmp_path: Path, portable: bool) -> None:
    tid = event(db, 200, rounds=3)
    seed_tournaments(db)
    stop = threading.Event()
    errors: list[BaseException] = []
    recorded: list[int] = []
    writer = threading.Thread(target=lambda: recorded.extend(
        _keep_recording(db, tid, stop, errors)))
    writer.start()
    try:
        while not recorded and writer.is_alive():
            stop.wait(0.01)
        backup.make_backup(db, tmp_path / "live", portable=portable)
    finally:
        stop.set()
        writer.join()
    assert errors == []
    target = Database.open(other_kind[db.dialect])
    backup.restore(target, tmp_path / "live")
    assert verify_log(target).ok  # the chain and every result match: one moment
    with target.read() as tx:
        results = [r for r in backup_repo.rows(tx, _spec("pairings"))]
    assert len(results) >= 100
    target.close()


def _spec(name: str) -> TableSpec:
    return next(s for s in backup_repo.table_specs() if s.name == name)


# ----- refusals: nothing changes ---------------------------------------------------------------


def _portable(db: Database, tmp_path: Path) -> Path:
    demo_content(db)
    return backup.make_backup(db, tmp_path / "good.turnir.gz", portable=True).file


def _rewrite(path: Path, target: Path, change: Any) -> Path:
    lines = gzip.decompress(path.read_bytes()).splitlines(keepends=True)
    target.write_bytes(gzip.compress(b"".join(change(lines))))
    return target


def _header_with(revision: str) -> Any:
    def change(lines: list[bytes]) -> list[bytes]:
        header = json.loads(lines[0])
        header["revision"] = revision
        return _signed([json.dumps(header).encode() + b"\n", *lines[1:]])
    return change


def _signed(lines: list[bytes]) -> list[bytes]:
    """The lines with the trailer's checksum made right again (a file written that way)."""
    trailer = json.loads(lines[-1])
    trailer["sha256"] = hashlib.sha256(b"".join(lines[:-1])).hexdigest()
    return [*lines[:-1], json.dumps(trailer).encode() + b"\n"]


def _tampered(lines: list[bytes]) -> list[bytes]:
    """A person's name changed in place; the trailer (and its checksum) kept."""
    at = next(i for i, line in enumerate(lines) if line.startswith(b'["people"'))
    row = json.loads(lines[at])
    text = next(i for i, value in enumerate(row) if i > 0 and isinstance(value, str))
    row[text] += " (подделка)"
    return [*lines[:at], json.dumps(row, ensure_ascii=False).encode() + b"\n", *lines[at + 1:]]


def _written(target: Path, data: bytes) -> Path:
    target.write_bytes(data)
    return target


def _flipped(data: bytes) -> bytes:
    return data[:200] + bytes([data[200] ^ 0xFF]) + data[201:]


BAD_FILES: dict[str, tuple[Callable[[Path, Path], Path], str]] = {
    "truncated": (lambda p, t: _written(t, p.read_bytes()[: len(p.read_bytes()) // 2]),
                  "backup_damaged"),
    "a byte flipped": (lambda p, t: _written(t, _flipped(p.read_bytes())), "backup_damaged"),
    "tampered, checksum kept": (lambda p, t: _rewrite(p, t, _tampered), "backup_"),
    "a newer schema": (lambda p, t: _rewrite(p, t, _header_with("9999_future")),
                       "backup_too_new"),
    "an older schema": (lambda p, t: _rewrite(p, t, _header_with("0016")), "backup_too_old"),
    "not a backup": (lambda p, t: _written(t, b"name,city\n"), "not_a_backup"),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_a_bad_file_is_refused_and_the_database_is_left_as_it_was(
        db: Database, tmp_path: Path, case: str) -> None:
    good = _portable(db, tmp_path)
    make, code = BAD_FILES[case]
    bad = make(good, tmp_path / "bad.turnir.gz")
    before = every_row(db)
    with pytest.raises(UserError) as refused:
        backup.restore(db, bad, replace=True)
    assert refused.value.code.startswith(code), refused.value
    assert every_row(db) == before


def test_a_tampered_row_is_caught_by_the_checksum(db: Database, tmp_path: Path) -> None:
    good = _portable(db, tmp_path)
    bad = _rewrite(good, tmp_path / "bad.turnir.gz", _tampered)
    with pytest.raises(UserError) as refused:
        backup.restore(db, bad, replace=True)
    assert refused.value.code == "backup_checksum"


def test_a_database_with_data_is_refused_without_replace(db: Database, tmp_path: Path) -> None:
    good = _portable(db, tmp_path)
    create_account(db, login="late", name="Поздний", password="late horse 123",
                   role=AccountRole.HEAD_JUDGE, actor=ORGANIZER, hasher=HASHER)
    before = every_row(db)
    with pytest.raises(UserError) as refused:
        backup.restore(db, good)
    assert refused.value.code == "restore_not_empty"
    assert every_row(db) == before
    backup.restore(db, good, replace=True)  # --replace: the file's state, the login gone
    assert "late" not in {row[1] for row in every_row(db)["accounts"]}
    assert verify_log(db).ok


def test_a_native_snapshot_of_the_other_kind_is_refused(db: Database, tmp_path: Path,
                                                        other_kind: dict[str, str]) -> None:
    demo_content(db)
    snapshot = backup.make_backup(db, tmp_path / "native").file
    other = Database.open(other_kind["postgresql" if db.is_sqlite else "sqlite"])
    before = every_row(other)
    with pytest.raises(UserError) as refused:
        backup.restore(other, snapshot)
    assert refused.value.code == "backup_wrong_kind"
    assert every_row(other) == before
    other.close()


def test_a_cut_short_native_snapshot_changes_nothing(db: Database, tmp_path: Path,
                                                     other_kind: dict[str, str]) -> None:
    demo_content(db)
    snapshot = backup.make_backup(db, tmp_path / "native").file
    data = snapshot.read_bytes()
    (tmp_path / "short").write_bytes(data[: len(data) * 2 // 3])
    target = Database.open(other_kind[db.dialect])
    before = every_row(target)
    with pytest.raises(UserError) as refused:
        backup.restore(target, tmp_path / "short")
    assert refused.value.code in {"backup_damaged", "backup_tool_failed"}
    assert every_row(target) == before
    target.close()

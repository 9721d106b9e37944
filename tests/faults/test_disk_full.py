"""The disk fills up (issue 15, faults): the SQLite database lives on a small tmpfs; while
the web app serves a round a junk file takes the rest of the space. A result entered then is
refused with 507 ``disk_full`` (a Russian message saying nothing was saved; no 500), the CLI
says so and exits 2; reads keep working; ``PRAGMA integrity_check`` is ``ok`` and every
earlier result is there; once the junk file is deleted the next write succeeds with no
restart, and the round goes on to round 2.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.faults.servers import (
    Entries,
    assert_none_lost,
    enter_result,
    next_round_pairs,
    prepared,
    put_result,
    served,
)

SIZE = "16m"
PLAYERS = 24
DISK_FULL_RU = "диск сервера заполнен: это изменение не сохранено"


@contextmanager
def small_disk(where: Path) -> Iterator[Path]:
    """A tmpfs of ``SIZE`` mounted at ``where`` (unmounted at the end). A machine where it
    cannot be mounted fails the test, saying why (the suite runs as root in CI): a fault test
    that skips itself proves nothing."""
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={SIZE},mode=0777", "tmpfs",
                           str(where)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.fail(f"cannot mount a small tmpfs for the full disk (run the suite as root, as CI "
                    f"does): {done.stderr.strip()}", pytrace=False)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False, capture_output=True)


def fill(junk: Path) -> None:
    """Write ``junk`` until the filesystem is full."""
    block = b"\0" * (256 * 1024)
    with junk.open("wb", buffering=0) as out:
        try:
            while True:
                out.write(block)
        except OSError as error:
            assert error.errno == errno.ENOSPC, error
        small = b"\0" * 4096
        try:
            while True:
                out.write(small)
        except OSError as error:
            assert error.errno == errno.ENOSPC, error


def turnir(*args: str, url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(Path(sys.executable).parent / "turnir"), *args],
                          env={**os.environ, "TURNIR_DATABASE_URL": url, "LANG": "ru_RU.UTF-8"},
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_a_full_disk_refuses_writes_clearly_and_work_resumes_when_space_returns(
        tmp_path: Path, sqlite_template: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        path = disk / "turnir.db"
        shutil.copyfile(sqlite_template, path)
        url = f"sqlite:///{path}"
        tournament = prepared(url, PLAYERS)
        tables = tournament.tables
        half = len(tables) // 2
        with served(url, tmp_path / "server.log") as (_, base), \
                httpx.Client(base_url=base, timeout=60) as client:
            seen = Entries()
            for table in tables[:half]:
                enter_result(client, tournament, table, seen)
            with sqlite3.connect(path) as conn:  # the WAL emptied: a write needs new space
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            junk = disk / "junk.bin"
            fill(junk)
            refused = put_result(client, tournament, tables[half])
            assert refused.status_code == 507, refused.text
            assert refused.json()["code"] == "disk_full"
            ru = client.put(refused.request.url, content=refused.request.content,
                            headers={**refused.request.headers, "accept-language": "ru"})
            assert ru.status_code == 507 and ru.json()["message"].startswith(DISK_FULL_RU)
            cli = turnir("result", str(tournament.tid), "1", str(tables[half]), "2-0",
                         url=url)
            assert cli.returncode == 2, cli.stdout + cli.stderr
            assert DISK_FULL_RU in cli.stderr and "Traceback" not in cli.stderr
            standings = client.get(f"/api/v1/tournaments/{tournament.tid}/standings")
            assert standings.status_code == 200 and len(standings.json()["rows"]) == PLAYERS
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
                assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            junk.unlink()
            for table in tables[half:]:
                enter_result(client, tournament, table, seen)
            assert set(seen.acknowledged) == set(tables)
            assert next_round_pairs(client, tournament)["number"] == 2
        assert_none_lost(url, tournament.tid, seen.acknowledged)
        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)

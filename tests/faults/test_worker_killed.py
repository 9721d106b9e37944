"""A web worker killed with SIGKILL mid-request (issue 15, faults): ``turnir serve --workers
2`` on PostgreSQL; clients keep entering round 1's results while one worker is killed in the
middle of a request (a PUT whose body it is reading: the worker that owns that connection is
found through ``/proc``). The client of that request gets a transport error and sends it again;
the other clients retry what failed; uvicorn's supervisor starts a new worker; every result
the server acknowledged is stored and round 2 pairs.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests.db_fixtures import create_pg_database, drop_pg_database
from tests.faults.servers import (
    READY_S,
    SCORES,
    Entries,
    Tournament,
    assert_none_lost,
    enter_result,
    next_round_pairs,
    prepared,
    served,
)

PLAYERS = 48
CLIENTS = 3


def workers_of(parent: int) -> set[int]:
    """The worker processes uvicorn's supervisor ``parent`` runs (its spawned children, not
    multiprocessing's resource tracker)."""
    found: set[int] = set()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
            command = Path(f"/proc/{name}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        ppid = int(stat.rpartition(")")[2].split()[1])
        if ppid == parent and b"multiprocessing" in command and b"resource_tracker" not in command:
            found.add(int(name))
    return found


def server_socket_inode(server_port: int, client_port: int) -> str | None:
    """The inode of the server's end of the loopback connection from ``client_port``."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            local, remote, inode = parts[1], parts[2], parts[9]
            if int(local.rsplit(":", 1)[1], 16) == server_port and \
                    int(remote.rsplit(":", 1)[1], 16) == client_port and inode != "0":
                return inode
    return None


def owner_of(workers: set[int], inode: str) -> int | None:
    for pid in workers:
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                    return pid
        except OSError:
            continue
    return None


def half_sent_put(base: str, t: Tournament, table: int) -> socket.socket:
    """A PUT of the table's result whose headers and half the body are sent: the worker that
    accepted it is reading the rest (mid-request)."""
    host, port = base.removeprefix("http://").split(":")
    body = json.dumps({"score": SCORES[table % len(SCORES)],
                       "idempotency_key": f"fault-{t.tid}-{table}"}).encode()
    conn = socket.create_connection((host, int(port)), timeout=30)
    conn.sendall(
        f"PUT /api/v1/tournaments/{t.tid}/rounds/1/tables/{table}/result HTTP/1.1\r\n"
        f"Host: {host}\r\nAuthorization: Bearer {t.token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
        + body[: len(body) // 2])
    return conn


def wait_for(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + READY_S
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"waited {READY_S} s for {what}")


@pytest.fixture
def pg_url(pg_server_url: str, pg_template: str) -> Iterator[str]:
    name = f"turnir_faults_kill_{os.getpid()}"
    yield create_pg_database(pg_server_url, name, template=pg_template)
    drop_pg_database(pg_server_url, name)


def test_a_worker_killed_mid_request_loses_no_acknowledged_result(
        tmp_path: Path, pg_url: str) -> None:
    tournament = prepared(pg_url, PLAYERS)
    tables = tournament.tables
    victim_table, rest = tables[0], tables[1:]
    with served(pg_url, tmp_path / "server.log", workers=2) as (process, base):
        wait_for(lambda: len(workers_of(process.pid)) == 2, "two workers")
        before = workers_of(process.pid)
        seen = [Entries() for _ in range(CLIENTS)]
        stop = threading.Event()
        failures: list[BaseException] = []

        def client(index: int) -> None:
            try:
                with httpx.Client(base_url=base, timeout=60) as http:
                    for table in rest[index::CLIENTS]:
                        enter_result(http, tournament, table, seen[index])
                    while not stop.is_set():  # keep requests in flight until the kill is over
                        try:
                            http.get(f"/api/v1/tournaments/{tournament.tid}/standings")
                        except httpx.TransportError:
                            seen[index].transport_errors += 1
            except (httpx.TransportError, AssertionError) as error:
                failures.append(error)

        conn = half_sent_put(base, tournament, victim_table)
        wait_for(lambda: server_socket_inode(int(base.rsplit(":", 1)[1]),
                                             conn.getsockname()[1]) is not None, "the accept")
        inode = server_socket_inode(int(base.rsplit(":", 1)[1]), conn.getsockname()[1])
        assert inode is not None
        owner: list[int] = []

        def owner_found() -> bool:
            owner.append(owner_of(before, inode) or 0)
            return owner[-1] != 0

        wait_for(owner_found, "the worker that owns the connection")
        threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        wait_for(lambda: sum(len(s.acknowledged) for s in seen) >= 3, "a few results")
        os.kill(owner[-1], signal.SIGKILL)
        killed_at = time.monotonic()
        try:
            answer = conn.recv(1024)  # the worker is gone: the connection ends, no answer
        except OSError:
            answer = b""
        finally:
            conn.close()
        assert answer == b"", answer
        wait_for(lambda: len(workers_of(process.pid) - before) == 1, "a new worker")
        replaced_s = time.monotonic() - killed_at
        victim = Entries()
        with httpx.Client(base_url=base, timeout=60) as http:
            enter_result(http, tournament, victim_table, victim)  # the client sends it again
            stop.set()
            for thread in threads:
                thread.join(timeout=180)
            assert not failures, failures
            acknowledged = {**victim.acknowledged}
            for entries in seen:
                acknowledged.update(entries.acknowledged)
                assert 500 not in entries.statuses, entries.bodies
            assert set(acknowledged) == set(tables)
            errors = sum(e.transport_errors for e in seen)
            print(f"\nkilled worker replaced after {replaced_s:.2f} s; the half-sent PUT "
                  f"acknowledged {victim.acknowledged_at[0] - killed_at:.2f} s after the kill; "
                  f"{errors} transport errors, {sum(e.temporary for e in seen) - errors} "
                  f"5xx among {sum(len(e.statuses) for e in seen)} answers to the others")
            assert next_round_pairs(http, tournament)["number"] == 2
        assert owner[-1] not in workers_of(process.pid)
    assert_none_lost(pg_url, tournament.tid, acknowledged)

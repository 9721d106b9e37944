"""What the fault tests share (issue 15): a ``turnir serve`` subprocess in its own process
group, a PostgreSQL cluster of the test's own (never the shared test server on 25432), a
tournament with round 1 paired, and a client that keeps entering results through the API and
retries on a temporary error (503 or a transport error), remembering what was acknowledged.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import httpx

from turnir.services.accounts import AccountRole, create_account, make_hasher, open_session
from turnir.services.players import register_players
from turnir.services.rounds import current_round
from turnir.storage.database import Database

ROOT = Path(__file__).resolve().parents[2]
PG_SCRIPT = ROOT / "scripts" / "pg-test-server.sh"
READY_S = 120.0
"""Readiness timeout of a subprocess server: generous, as two spawned workers importing the app
on 2 cores under a load average near 20 once took over 60 s; never asserted."""
TEMPORARY = (503, 502, 504)
"""Answers a client retries: the database cannot be reached (503), a proxy's gateway errors."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(base: str, process: subprocess.Popen[bytes], log: Path) -> None:
    """Until ``/healthz`` answers 200 (an error when the process stops first), asked through
    one client: each new ``httpx.Client`` builds an SSL context (about 50 ms of CPU on these
    cores), which a poll every 0.2 s would spend five times a second while the server starts."""
    deadline = time.monotonic() + READY_S
    with httpx.Client(timeout=2) as http:
        while time.monotonic() < deadline and process.poll() is None:
            try:
                if http.get(f"{base}/healthz").status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
    raise AssertionError(f"the server did not start: {log.read_text(errors='replace')[-3000:]}")


@contextmanager
def served(url: str, log: Path, *,
           workers: int = 1) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``turnir serve`` on ``url`` (its own process group, killed whole at the end)."""
    port = free_port()
    env = {**os.environ, "TURNIR_DATABASE_URL": url, "TURNIR_SECRET_KEY": "fault-test-key"}
    command = [str(Path(sys.executable).parent / "turnir"), "serve", "--port", str(port)]
    if workers != 1:
        command += ["--workers", str(workers)]
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, process, log)
        yield process, base
    finally:
        stop_group(process)


def stop_group(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=20)


def pg(action: str, directory: Path, port: int) -> str:
    env = {**os.environ, "TURNIR_PG_DIR": str(directory), "TURNIR_PG_PORT": str(port)}
    done = subprocess.run(["bash", str(PG_SCRIPT), action], env=env, check=True,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=180)
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


@contextmanager
def own_postgres(directory: Path) -> Iterator[tuple[str, int]]:
    """A PostgreSQL cluster of this test only (``scripts/pg-test-server.sh`` with its own
    folder and port): (its URL, its port); stopped at the end whatever happens."""
    port = free_port()
    try:
        url = pg("start", directory, port)
    except FileNotFoundError as error:  # pragma: no cover - bash is always there
        raise AssertionError(f"cannot start PostgreSQL: {error}") from error
    try:
        yield url, port
    finally:
        pg("stop", directory, port)


@dataclass
class Tournament:
    tid: int
    token: str
    tables: list[int]


def paired_tournament(db: Database, players: int) -> Tournament:
    """An organizer's API token, a tournament of ``players`` created through the services
    by that organizer, round 1 paired (the API pairs it the same way)."""
    from turnir.domain.model import Settings
    from turnir.formats.players_csv import PlayerLine
    from turnir.services.rounds import start_round
    from turnir.services.tournaments import create_tournament

    account = create_account(db, login="org", name="Org", password="fault-test-password",
                             role=AccountRole.ORGANIZER, actor="test",
                             hasher=make_hasher(fast=True))
    token = open_session(db, account, lifetime=timedelta(hours=1))
    tid = create_tournament(db, name="Сбои", actor="Org", settings=Settings(swiss_rounds=5),
                            seed=15, organizer_login="org").id
    register_players(db, tid, [PlayerLine(f"Игрок {i}", "Город") for i in range(players)],
                     actor="Org")
    view = start_round(db, tid, actor="Org")
    return Tournament(tid, token, [p.table for p in view.round.pairings if p.b is not None])


@dataclass
class Entries:
    """What a client saw while entering results."""

    acknowledged: dict[int, str] = field(default_factory=dict)
    statuses: list[int] = field(default_factory=list)
    codes: list[str] = field(default_factory=list)
    transport_errors: int = 0
    bodies: list[str] = field(default_factory=list)
    retry_after: set[str] = field(default_factory=set)
    temporary_at: list[float] = field(default_factory=list)
    """When each temporary answer (or transport error) came (monotonic seconds)."""
    acknowledged_at: list[float] = field(default_factory=list)

    def window_s(self) -> float:
        """From the first temporary answer to the first acknowledgement after the last one."""
        if not self.temporary_at:
            return 0.0
        last = self.temporary_at[-1]
        after = [at for at in self.acknowledged_at if at > last]
        return (after[0] if after else last) - self.temporary_at[0]

    @property
    def temporary(self) -> int:
        return sum(1 for s in self.statuses if s in TEMPORARY) + self.transport_errors


SCORES = ("2-0", "2-1", "1-2", "0-2")


def put_result(client: httpx.Client, t: Tournament, table: int) -> httpx.Response:
    """One PUT of the table's result (its score and idempotency key fixed by the table)."""
    return client.put(f"/api/v1/tournaments/{t.tid}/rounds/1/tables/{table}/result",
                      json={"score": SCORES[table % len(SCORES)],
                            "idempotency_key": f"fault-{t.tid}-{table}"},
                      headers={"authorization": f"Bearer {t.token}"})


def enter_result(client: httpx.Client, t: Tournament, table: int, seen: Entries, *,
                 give_up_s: float = 120.0) -> None:
    """PUT the table's result until the server acknowledges it (or refuses it for good),
    retrying after a temporary error (the same idempotency key: a retry is the same entry)."""
    score = SCORES[table % len(SCORES)]
    deadline = time.monotonic() + give_up_s
    while time.monotonic() < deadline:
        try:
            answer = put_result(client, t, table)
        except httpx.TransportError:
            seen.transport_errors += 1
            seen.temporary_at.append(time.monotonic())
            time.sleep(0.2)
            continue
        seen.statuses.append(answer.status_code)
        if answer.status_code == 200:
            seen.acknowledged[table] = score
            seen.acknowledged_at.append(time.monotonic())
            return
        seen.bodies.append(answer.text[:500])
        if answer.status_code in TEMPORARY:
            seen.temporary_at.append(time.monotonic())
        if answer.status_code == 503:
            seen.retry_after.add(answer.headers.get("retry-after", ""))
        if answer.headers.get("content-type", "").startswith("application/json"):
            seen.codes.append(str(answer.json().get("code")))
        if answer.status_code not in TEMPORARY:
            raise AssertionError(f"table {table}: {answer.status_code} {answer.text[:500]}")
        time.sleep(0.2)
    raise AssertionError(f"table {table}: no acknowledgement in {give_up_s} s")


def prepared(url: str, players: int) -> Tournament:
    """``paired_tournament`` on the database at ``url`` (opened and closed here)."""
    db = Database.open(url)
    try:
        return paired_tournament(db, players)
    finally:
        db.close()


def assert_none_lost(url: str, tid: int, acknowledged: dict[int, str]) -> None:
    """Every result the server acknowledged is stored in round 1, with its score."""
    db = Database.open(url)
    try:
        pairings = current_round(db, tid, 1).round.pairings
    finally:
        db.close()
    stored = {p.table: p.result.score for p in pairings
              if p.result is not None and p.b is not None}
    assert {t: stored.get(t) for t in acknowledged} == acknowledged


def next_round_pairs(client: httpx.Client, t: Tournament) -> dict[str, object]:
    answer = client.post(f"/api/v1/tournaments/{t.tid}/rounds", json={},
                         headers={"authorization": f"Bearer {t.token}"})
    assert answer.status_code == 201, answer.text
    made: dict[str, object] = answer.json()
    return made

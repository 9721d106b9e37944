"""PostgreSQL restarted during a round (issue 15, faults): a client keeps entering round 1's
results through the API while the database server is stopped and started again. While it is
away the server answers 503 with ``Retry-After`` and the code ``database_unavailable`` (never
a 500 or a traceback); the client retries; once PostgreSQL is back the same workers serve
again (no restart: ``pool_pre_ping``; ``turnir serve --workers 2``, two clients); every
acknowledged result is stored and round 2 pairs.

It runs on a PostgreSQL cluster of its own (``scripts/pg-test-server.sh`` with another folder
and port), never the shared test server.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import httpx

from tests.db_fixtures import create_pg_database, drop_pg_database
from tests.faults.servers import (
    Entries,
    assert_none_lost,
    enter_result,
    next_round_pairs,
    own_postgres,
    pg,
    prepared,
    served,
)

PLAYERS = 24
PG_DIR = os.environ.get("TURNIR_PG_DIR", "/tmp/turnir-pg-test").rstrip("/") + "-faults"
"""The cluster's folder, beside the shared test server's (kept between runs: a later start
skips initdb; each run makes a database of its own in it). A run on a server of its own
(``TURNIR_PG_DIR``) has its own here too, so two runs at once never share it."""


def test_a_postgres_restart_gives_503_and_loses_no_acknowledged_result(tmp_path: Path) -> None:
    pg_dir = Path(PG_DIR)
    try:
        with own_postgres(pg_dir) as (server, port):
            name = f"turnir_faults_restart_{os.getpid()}"
            url = create_pg_database(server, name)
            tournament = prepared(url, PLAYERS)
            with served(url, tmp_path / "server.log", workers=2) as (_, base), \
                    httpx.Client(base_url=base, timeout=30) as client, \
                    httpx.Client(base_url=base, timeout=30) as other:
                clients = (client, other)  # two connections: both workers usually serve
                seen = Entries()
                half = len(tournament.tables) // 2
                for i, table in enumerate(tournament.tables[:half]):
                    enter_result(clients[i % 2], tournament, table, seen)
                window: dict[str, float] = {}

                def restart() -> None:
                    pg("stop", pg_dir, port)
                    window["stopped"] = time.monotonic()
                    answered = len(seen.statuses)
                    while len(seen.statuses) < answered + 3 and \
                            time.monotonic() - window["stopped"] < 30:
                        time.sleep(0.05)  # the client meets the stopped server a few times
                    pg("start", pg_dir, port)
                    window["started"] = time.monotonic()

                restarter = threading.Thread(target=restart)
                restarter.start()
                while "stopped" not in window:
                    time.sleep(0.02)
                try:
                    for i, table in enumerate(tournament.tables[half:]):
                        enter_result(clients[i % 2], tournament, table, seen)
                finally:
                    restarter.join(timeout=120)
                assert 503 in seen.statuses, seen.statuses
                assert 500 not in seen.statuses and not any(
                    "Traceback" in body for body in seen.bodies)
                assert set(seen.codes) == {"database_unavailable"}, seen.codes
                assert seen.retry_after == {"5"}, seen.retry_after
                print(f"\n503 window: {seen.window_s():.2f} s, {seen.temporary} temporary "
                      f"answers, {seen.transport_errors} transport errors")
                assert {table for table in seen.acknowledged} == set(tournament.tables)
                second = next_round_pairs(client, tournament)
                assert second["number"] == 2 and second["pairings"]
            assert_none_lost(url, tournament.tid, seen.acknowledged)
            drop_pg_database(server, name)
    finally:
        pg("stop", pg_dir, 0)  # already stopped unless the test failed half-way


"""Storage benchmark: 10,000 results into a 2,000-player tournament through the service layer.

For each database (SQLite in a temporary folder; PostgreSQL from ``TURNIR_BENCH_PG_URL``, or
the throwaway test server ``scripts/pg-test-server.sh`` starts): register 2,000 players, then
for each of 10 Swiss rounds pair it (``start_round``) and record its 1,000 results one call at
a time (``record_result``: each its own transaction, lock and audit record), then compute the
standings from the database (``get_standings``: load in one snapshot, rank with every
tiebreak).

Targets (issue 3): at least 1,000 results/s on SQLite (its default ``synchronous=NORMAL``);
standings of the 2,000-player tournament from the database in under 0.3 s (median of 5,
SQLite). For comparison the figures also hold one round recorded with
``TURNIR_SQLITE_SYNCHRONOUS=FULL``. The last line is one JSON
object (DEVELOPERS.md).
"""

from __future__ import annotations

import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from turnir.domain.model import Settings
from turnir.domain.results import MatchResult
from turnir.formats.players_csv import PlayerLine
from turnir.services.players import register_players
from turnir.services.queries import get_standings
from turnir.services.results import record_result
from turnir.services.rounds import start_round
from turnir.services.tournaments import create_tournament
from turnir.storage.database import ENV_SQLITE_SYNCHRONOUS, Database

PLAYERS = 2000
ROUNDS = 10
STANDINGS_RUNS = 5
RESULTS_LIMIT = 1000.0
STANDINGS_LIMIT_S = 0.3
ROOT = Path(__file__).resolve().parent.parent
SCORES = [(2, 0), (2, 1), (1, 2), (0, 2), (1, 1), (1, 0), (0, 1)]


def run(db: Database, label: str, rounds: int = ROUNDS) -> dict[str, Any]:
    rng = random.Random(2026)
    info = create_tournament(db, name=f"bench {label}", actor="bench",
                             settings=Settings(swiss_rounds=ROUNDS), seed=2026)
    tid = info.id
    start = time.perf_counter()
    register_players(db, tid, [PlayerLine(f"Player {i:04d}", "City", "") for i in
                               range(1, PLAYERS + 1)], actor="bench")
    register_s = time.perf_counter() - start
    pair_s = 0.0
    results_s = 0.0
    recorded = 0
    for _ in range(rounds):
        start = time.perf_counter()
        view = start_round(db, tid, actor="bench")
        pair_s += time.perf_counter() - start
        tables = [p.table for p in view.round.pairings if p.b is not None]
        number = view.round.number
        start = time.perf_counter()
        for table in tables:
            record_result(db, tid, number, table, MatchResult.played(*rng.choice(SCORES)),
                          actor="judge")
        results_s += time.perf_counter() - start
        recorded += len(tables)
    times = []
    for _ in range(STANDINGS_RUNS):
        start = time.perf_counter()
        view_s = get_standings(db, tid)
        times.append(time.perf_counter() - start)
    assert len(view_s.standings.rows) == PLAYERS
    figures = {
        "results": recorded,
        "results_s": round(results_s, 3),
        "results_per_s": round(recorded / results_s, 1),
        "ms_per_result": round(1000 * results_s / recorded, 3),
        "pair_rounds_s": round(pair_s, 3),
        "register_players_s": round(register_s, 3),
        "standings_runs_s": [round(t, 4) for t in times],
        "standings_median_s": round(statistics.median(times), 4),
    }
    print(f"{label}: {recorded} results in {results_s:.2f} s = "
          f"{recorded / results_s:.0f}/s; pairing {rounds} rounds {pair_s:.2f} s; "
          f"standings median {statistics.median(times):.3f} s")
    sys.stdout.flush()
    return figures


def postgres_url() -> str | None:
    url = os.environ.get("TURNIR_BENCH_PG_URL") or os.environ.get("TURNIR_TEST_PG_URL")
    if url:
        return url
    done = subprocess.run(["bash", str(ROOT / "scripts" / "pg-test-server.sh")],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(f"postgresql: not available ({done.stderr.strip()[-300:]})")
        return None
    return done.stdout.strip().splitlines()[-1]


def fresh_pg_database(server_url: str) -> tuple[str, str]:
    import psycopg

    name = f"turnir_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base, _, _ = server_url.rpartition("/")
    return f"{base}/{name}", name


def drop_pg_database(server_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main() -> None:
    print(f"storage bench: {PLAYERS} players, {ROUNDS} rounds, python "
          f"{platform.python_version()} on {platform.machine()}")
    figures: dict[str, Any] = {"players": PLAYERS, "rounds": ROUNDS}
    with tempfile.TemporaryDirectory() as folder:
        db = Database.open(f"sqlite:///{folder}/bench.db")
        try:
            figures["sqlite"] = run(db, "sqlite")
        finally:
            db.close()
        # For comparison: one round with synchronous=FULL (durable against power loss too).
        os.environ[ENV_SQLITE_SYNCHRONOUS] = "FULL"
        try:
            db = Database.open(f"sqlite:///{folder}/bench-full.db")
            figures["sqlite_synchronous_full"] = run(db, "sqlite, synchronous=FULL", rounds=1)
            db.close()
        finally:
            del os.environ[ENV_SQLITE_SYNCHRONOUS]
    server = postgres_url()
    if server is not None:
        url, name = fresh_pg_database(server)
        db = Database.open(url)
        try:
            figures["postgresql"] = run(db, "postgresql")
        finally:
            db.close()
            drop_pg_database(server, name)
    else:
        figures["postgresql"] = None
    sqlite = figures["sqlite"]
    targets = {
        "results_per_s_sqlite": {"value": sqlite["results_per_s"], "limit": RESULTS_LIMIT,
                                 "better": "higher"},
        "standings_2000_from_db_s": {"value": sqlite["standings_median_s"],
                                     "limit": STANDINGS_LIMIT_S, "better": "lower"},
    }
    print(json.dumps({"bench": "storage", "figures": figures, "targets": targets}))
    sys.stdout.flush()


if __name__ == "__main__":
    main()

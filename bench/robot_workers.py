"""Benchmark: robot workers sharing a round's checks on PostgreSQL (issue 15).

A fresh database on the PostgreSQL test server (``scripts/pg-test-server.sh``, or
``TURNIR_TEST_PG_URL``) gets ``--games`` games whose first check comes right after they are
all registered, every one with a
lagger (Black lags 6.5 s a move: the fake engine's 0.00 awards each to White, A-1). Then
``--workers`` ``turnir robot work --once --engine fake`` processes run at the same time, each
position taking ``--delay-ms`` (``TURNIR_ROBOT_FAKE_DELAY_MS``, standing for the engine), and
the time from their start until every game is decided is measured (process start included).
Runs 1 worker, then ``--workers`` workers on a fresh round, and reports games decided per
second for each.

Usage: ``PYTHONPATH=. .venv/bin/python bench/robot_workers.py [--games N] [--workers W]
[--delay-ms D] [--batch B]``. The last line of the output is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import func, select

from tests.db_fixtures import create_pg_database, drop_pg_database, start_pg_server
from turnir.clock import SystemClock
from turnir.domain.robot_rules import TimeControl
from turnir.robot.engine import ScriptedEvaluator
from turnir.robot.game import ClockReading, GameSetup, MovePlayed
from turnir.services.online import online_robot
from turnir.storage.database import Database
from turnir.storage.migrate import upgrade
from turnir.storage.tables_robot import robot_decisions

TURNIR = str(Path(sys.executable).parent / "turnir")


def round_due_soon(db: Database, games: int) -> int:
    """Register the games so that their first check comes once all are registered (allowing
    100 ms a game); returns that moment."""
    start = SystemClock().now_ms() - 450_000 + games * 100
    robot, _ = online_robot(db, clock=SystemClock(), evaluator=ScriptedEvaluator(), shared=True)
    for n in range(games):
        game_id = f"g{n}"
        robot.register(GameSetup(game_id=game_id, white="w", black="b",
                                 time_control=TimeControl.parse("3+0"), round_start_ms=start))
        robot.apply(game_id, [MovePlayed(start + 10_000, "g1f3", 300),
                              MovePlayed(start + 20_000, "g8f6", 6_500),
                              ClockReading(start + 449_000, 60_000, 50_000)])
    return start + 450_000


def run(server: str, *, games: int, workers: int, delay_ms: int, batch: int) -> dict[str, float]:
    name = f"turnir_bench_workers_{os.getpid()}_{workers}"
    url = create_pg_database(server, name)
    try:
        db = Database.open(url, migrate=False)
        upgrade(db)
        first = round_due_soon(db, games)
        if SystemClock().now_ms() > first + 20_000:
            raise SystemExit("registering took too long: the first check would be missed")
        time.sleep(max(0, first - SystemClock().now_ms()) / 1000)
        env = {**os.environ, "TURNIR_DATABASE_URL": url,
               "TURNIR_ROBOT_FAKE_DELAY_MS": str(delay_ms)}
        started = time.perf_counter()
        processes = [subprocess.Popen(
            [TURNIR, "robot", "work", "--once", "--engine", "fake", "--worker", f"w{i}",
             "--batch", str(batch)], env=env, stdout=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL) for i in range(workers)]
        for process in processes:
            process.wait()
        seconds = time.perf_counter() - started
        with db.read() as conn:
            decided = int(conn.execute(select(func.count()).select_from(robot_decisions))
                          .scalar_one())
        db.close()
    finally:
        drop_pg_database(server, name)
    return {"workers": workers, "games": games, "decided": decided,
            "seconds": round(seconds, 2), "games_per_s": round(decided / seconds, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--delay-ms", type=int, default=20)
    parser.add_argument("--batch", type=int, default=50)
    args = parser.parse_args()
    server = os.environ.get("TURNIR_TEST_PG_URL", "").strip() or start_pg_server()[0]
    server = server.replace("postgresql+psycopg://", "postgresql://", 1)
    results = [run(server, games=args.games, workers=w, delay_ms=args.delay_ms,
                   batch=args.batch) for w in (1, args.workers)]
    for r in results:
        print(f"{r['workers']} worker(s): {r['decided']}/{r['games']} games decided in "
              f"{r['seconds']} s, {r['games_per_s']} games/s")
    ratio = results[1]["games_per_s"] / results[0]["games_per_s"]
    print(json.dumps({"bench": "robot_workers", "delay_ms": args.delay_ms, "runs": results,
                      "ratio": round(ratio, 2)}))


if __name__ == "__main__":
    main()

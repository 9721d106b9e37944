"""Load benchmark (issue 15): one round of a 2,000-player Swiss tournament played through the
web app by its players, on PostgreSQL on loopback, with 4 web workers and then with 1.

For each run a fresh PostgreSQL database is created on the test server
(``scripts/pg-test-server.sh start``, or ``--pg-url``/``TURNIR_LOAD_PG_URL``: a server URL,
its maintenance database) and dropped at the end. Setup, not measured, through the services:
the tournament, its players, one player account each (argon2 at its cheapest cost,
``make_hasher(fast=True)``: no one logs in during the round) and a session per account opened
directly by ``services.accounts.open_session`` (what a login does after checking the
password), so that the round measures the round and not argon2; round 1 paired (pairing
publishes it). Then ``turnir serve --workers N --quiet`` starts in its own process group and
the players play the round (``bench/load_client.py``: the scenario, one asyncio task per
player in this process, which shares the machine's cores with the server).

Figures per run: requests per second over the round, p50/p95/p99 per endpoint and overall,
errors (status ≥ 400 or a transport error), the client's own CPU seconds, the server's
(every process of its group) and the machine's CPU use during the round; then, in the
database, ``lost_results``: acknowledged confirmations whose result is not stored, plus
acknowledged reports with neither a result nor the report stored. The ratio of the two runs
(rps and p95, 4 workers over 1) is the scaling.

Targets (issue 15), of the ``--workers`` run: ``errors`` 0, ``lost_results`` 0, ``p95_ms`` ≤ 200.

Run: ``.venv/bin/python bench/load.py`` (``--players 2000 --workers 4 --window-s 60
--report-s 120 --confirm-s 5 30 --refresh-s 1 10``: the compressed round of
``bench/load_client.py``; ``--skip-baseline``: no 1-worker run). The last line printed is one
JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import secrets
import signal
import socket
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import psycopg
from load_client import Outcome, Table, Timing, play_round

from turnir.domain.model import Settings
from turnir.domain.results import parse_result
from turnir.formats.players_csv import PlayerLine
from turnir.services.accounts import create_account, make_hasher, open_session
from turnir.services.players import register_players
from turnir.services.reports import round_reports
from turnir.services.rounds import current_round, start_round
from turnir.services.tournaments import create_tournament
from turnir.storage.database import Database

ROOT = Path(__file__).resolve().parent.parent
P95_LIMIT_MS = 200.0
SCORES = ("2-0", "2-1", "1-2", "0-2", "1-1-1")
SEED = 2026_15
TICK = os.sysconf("SC_CLK_TCK")


def pg_server_url(given: str | None) -> str:
    if given:
        return given.replace("postgresql+psycopg://", "postgresql://", 1)
    done = subprocess.run(["bash", str(ROOT / "scripts" / "pg-test-server.sh"), "start"],
                          check=True, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    return done.stdout.strip().splitlines()[-1]


def fresh_database(server: str, name: str, *, drop_only: bool = False) -> str:
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            conn.execute(f'CREATE DATABASE "{name}"')
    return f"{server.rpartition('/')[0]}/{name}"


def prepare(db: Database, players: int) -> tuple[int, list[Table], list[str]]:
    """The tournament with round 1 paired: (its id, the tables, the sessions of the byes)."""
    rng = random.Random(SEED)
    tid = create_tournament(db, name=f"Нагрузка: {players} игроков", actor="bench",
                            settings=Settings(swiss_rounds=11), seed=SEED).id
    entries = register_players(db, tid, [PlayerLine(f"Игрок {i:04d}", "Город")
                                         for i in range(1, players + 1)], actor="bench")
    hasher = make_hasher(fast=True)
    sessions: dict[int, str] = {}
    for entry in entries:
        account = create_account(db, login=f"load{entry.number:04d}", name=entry.name,
                                 password="load-bench-password", actor="bench",
                                 person_id=entry.person_id, hasher=hasher)
        sessions[entry.number] = open_session(db, account, lifetime=timedelta(days=1))
    view = start_round(db, tid, actor="bench")
    tables = [Table(p.table, sessions[p.a], sessions[p.b], rng.choice(SCORES))
              for p in view.round.pairings if p.b is not None]
    byes = [sessions[p.a] for p in view.round.pairings if p.b is None]
    return tid, tables, byes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(url: str, workers: int, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "TURNIR_DATABASE_URL": url,
           "TURNIR_SECRET_KEY": secrets.token_urlsafe(32)}
    turnir = str(Path(sys.executable).parent / "turnir")
    command = [turnir, "serve", "--port", str(port), "--quiet"]
    if workers != 1:
        command += ["--workers", str(workers)]
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180  # 4 workers once took over 60 s under a load of 12
    with httpx.Client(timeout=2) as http:  # one client (its SSL context) for every poll
        while time.monotonic() < deadline and process.poll() is None:
            try:
                if http.get(f"{base}/healthz").status_code == 200:
                    return process, base
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
    stop_server(process)
    raise RuntimeError(f"the server did not start: {log.read_text(errors='replace')[-2000:]}")


def warm_up(base: str, tid: int, session: str, workers: int) -> None:
    """A few reads of every page before the round (not measured), so that each worker has
    compiled its templates and opened its database connections, as a server that has run a
    while has."""
    headers = {"Cookie": f"turnir_session={session}"}
    with httpx.Client(base_url=base, timeout=30, headers=headers) as client:
        for _ in range(8 * workers):
            for path in (f"/t/{tid}/me", f"/t/{tid}/pairings", f"/t/{tid}/standings"):
                client.get(path).raise_for_status()


def stop_server(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    except ProcessLookupError:
        pass


def group_cpu_s(group: int) -> float:
    """CPU seconds of every live process of a process group (the server and its workers)."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[2]) == group:
            total += int(fields[11]) + int(fields[12])
    return total / TICK


def machine_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of all cores since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))] * 1000


def spread(values: list[float]) -> dict[str, Any]:
    return {"count": len(values), "p50_ms": round(percentile(values, 0.5), 1),
            "p95_ms": round(percentile(values, 0.95), 1),
            "p99_ms": round(percentile(values, 0.99), 1)}


def lost_results(db: Database, tid: int, outcome: Outcome) -> int:
    """Acknowledged results the database does not hold (see the module's docstring)."""
    stored = {p.table: p.result for p in current_round(db, tid, 1).round.pairings}
    reports = round_reports(db, tid, 1)
    lost = 0
    for table, score in outcome.reported.items():
        result = parse_result(score)
        if table in outcome.confirmed:
            lost += stored.get(table) != result
        elif stored.get(table) != result and (table not in reports
                                               or reports[table].a != result):
            lost += 1
    return lost


def run(server: str, players: int, workers: int, timing: Timing,
        live: bool = False) -> dict[str, Any]:
    name = f"turnir_load_{os.getpid()}_{workers}w"
    url = fresh_database(server, name)
    db = Database.open(url)
    try:
        start = time.perf_counter()
        tid, tables, byes = prepare(db, players)
        figures: dict[str, Any] = {"workers": workers,
                                   "setup_s": round(time.perf_counter() - start, 1)}
        log = Path(f"/tmp/turnir_load_{os.getpid()}_{workers}w.log")
        process, base = start_server(url, workers, log)
        try:
            warm_up(base, tid, tables[0].a, workers)
            server_cpu, machine = group_cpu_s(process.pid), machine_ticks()
            outcome = asyncio.run(play_round(base, tid, tables, byes, timing=timing,
                                             seed=SEED + workers, live=live))
            busy, total = (a - b for a, b in zip(machine_ticks(), machine, strict=True))
            figures["server_cpu_s"] = round(group_cpu_s(process.pid) - server_cpu, 1)
        finally:
            stop_server(process)
        figures.update(summary(outcome, busy / max(total, 1)))
        figures["lost_results"] = lost_results(db, tid, outcome)
        figures["results_acknowledged"] = len(outcome.confirmed)
        figures["tables"] = len(tables)
        if live:
            figures["live_streams_opened"] = outcome.streams
        if outcome.samples:
            figures["error_samples"] = outcome.samples
    finally:
        db.close()
        fresh_database(server, name, drop_only=True)
    return figures


def summary(outcome: Outcome, machine_busy: float) -> dict[str, Any]:
    every = [v for values in outcome.latencies.values() for v in values]
    errors = sum(outcome.errors.values())
    return {"requests": len(every) + errors, "seconds": round(outcome.seconds, 1),
            "rps": round((len(every) + errors) / outcome.seconds, 1),
            **{k: v for k, v in spread(every).items() if k != "count"},
            "errors": errors, "errors_by_endpoint": outcome.errors,
            "endpoints": {k: spread(v) for k, v in sorted(outcome.latencies.items())},
            "client_cpu_s": round(outcome.client_cpu_s, 1),
            "machine_cpu_busy": round(machine_busy, 3)}


def show(figures: dict[str, Any]) -> None:
    print(f"{figures['workers']} worker(s): {figures['requests']} requests in "
          f"{figures['seconds']} s = {figures['rps']} req/s, p50 {figures['p50_ms']} ms, "
          f"p95 {figures['p95_ms']} ms, p99 {figures['p99_ms']} ms, errors {figures['errors']}, "
          f"lost results {figures['lost_results']} (of {figures['results_acknowledged']}); "
          f"CPU: client {figures['client_cpu_s']} s, server {figures['server_cpu_s']} s, "
          f"machine busy {figures['machine_cpu_busy']:.0%}", flush=True)
    for endpoint, row in figures["endpoints"].items():
        print(f"  {endpoint:>10}: {row['count']:6d} requests, p50 {row['p50_ms']:7.1f} ms, "
              f"p95 {row['p95_ms']:7.1f} ms, p99 {row['p99_ms']:7.1f} ms", flush=True)
    for sample in figures.get("error_samples", []):
        print(f"  error: {sample}", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--window-s", type=float, default=60.0,
                        help="players open their card and the pairings spread uniformly over "
                        "this many seconds after the round is published")
    parser.add_argument("--report-s", type=float, default=120.0,
                        help="the reports are spread uniformly over this many seconds after "
                        "the opening window")
    parser.add_argument("--confirm-s", type=float, nargs=2, default=(5.0, 30.0),
                        metavar=("LEAST", "MOST"), help="the opponent confirms this long after "
                        "the report")
    parser.add_argument("--refresh-s", type=float, nargs=2, default=(1.0, 10.0),
                        metavar=("LEAST", "MOST"), help="both players refresh the standings and "
                        "the pairings this long after their match is settled")
    parser.add_argument("--live", action="store_true",
                        help="every open page also holds the live-update stream "
                        "(/t/{tid}/events) and refreshes its live part when told, as live.js")
    parser.add_argument("--skip-baseline", action="store_true", help="no 1-worker run")
    parser.add_argument("--pg-url", default=os.environ.get("TURNIR_LOAD_PG_URL"))
    args = parser.parse_args(argv)
    server = pg_server_url(args.pg_url)
    timing = Timing(open_s=args.window_s, report_s=args.report_s,
                    confirm_s=tuple(args.confirm_s), refresh_s=tuple(args.refresh_s))
    print(f"load benchmark: {args.players} players, one Swiss round, openings over "
          f"{args.window_s:g} s, reports over the next {args.report_s:g} s, "
          f"{args.workers} worker(s) then 1, PostgreSQL on loopback, "
          f"the client in this process on the same {os.cpu_count()} cores; Python "
          f"{platform.python_version()}; load before: {Path('/proc/loadavg').read_text().strip()}",
          flush=True)
    main_run = run(server, args.players, args.workers, timing, args.live)
    show(main_run)
    figures: dict[str, Any] = {"players": args.players, "window_s": args.window_s,
                               "report_s": args.report_s, "confirm_s": list(args.confirm_s),
                               "refresh_s": list(args.refresh_s),
                               "live": args.live,
                               "cores": os.cpu_count(), "client": "httpx.AsyncClient, 1 process,"
                               " same cores as the server", "run": main_run}
    if not args.skip_baseline and args.workers != 1:
        baseline = run(server, args.players, 1, timing, args.live)
        show(baseline)
        figures["baseline"] = baseline
        figures["rps_ratio"] = round(main_run["rps"] / baseline["rps"], 2)
        figures["p95_ratio"] = round(main_run["p95_ms"] / max(baseline["p95_ms"], 0.1), 2)
        print(f"scaling {args.workers} workers / 1: rps ×{figures['rps_ratio']}, "
              f"p95 ×{figures['p95_ratio']}", flush=True)
    figures["loadavg_after"] = Path("/proc/loadavg").read_text().strip()
    targets = {
        "errors": {"value": main_run["errors"], "limit": 0, "better": "lower"},
        "lost_results": {"value": main_run["lost_results"], "limit": 0, "better": "lower"},
        "p95_ms": {"value": main_run["p95_ms"], "limit": P95_LIMIT_MS, "better": "lower"},
    }
    print(json.dumps({"bench": "load", "figures": figures, "targets": targets},
                     ensure_ascii=False))
    sys.stdout.flush()


if __name__ == "__main__":
    main()

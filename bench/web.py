"""Web benchmark: the public standings and pairings pages of a 2,000-player tournament in
round 8, next to ``/healthz``, under 50 concurrent clients.

The server is ``turnir serve`` (one uvicorn worker) in its own process on 127.0.0.1, on an
SQLite database built through the services: 2,000 players, 7 Swiss rounds played, round 8
paired with half of its results in. The load comes from ``wrk`` (Debian's package; with a Lua
``done`` hook for the exact 95th percentile) when it is installed, else from an async Python
client (httpx) in another process. Each page is loaded for ``DURATION_S`` seconds with
``CLIENTS`` connections, ``/healthz`` in the same run. Then one result is recorded through the
services and the standings page must change (the cache is invalidated by writes, not by time).
Anonymous requests for cached public pages are answered by ``turnir.web.cache.PublicPages``
before routing; ``/healthz`` goes through the app's routing.

Targets (issue 4): standings served at no less than half the request rate of ``/healthz``
(``standings_rate_vs_healthz`` ≥ 0.5) and their p95 under 100 ms at 50 concurrent clients
(``standings_p95_ms`` ≤ 100). The last line is one JSON object (DEVELOPERS.md).
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from turnir.domain.model import Settings
from turnir.domain.results import MatchResult, parse_result
from turnir.formats.players_csv import PlayerLine
from turnir.services.players import register_players
from turnir.services.results import record_result
from turnir.services.rounds import start_round
from turnir.services.tournaments import create_tournament
from turnir.storage.database import Database

PLAYERS = 2000
PLAYED_ROUNDS = 7
CLIENTS = 50
DURATION_S = 8
WARMUP_S = 2
RATE_LIMIT = 0.5
P95_LIMIT_MS = 100.0
SCORES = [(2, 0), (2, 1), (1, 2), (0, 2), (1, 1)]
WRK_SCRIPT = """
done = function(summary, latency, requests)
  io.write(string.format("RESULT %d %d %.3f %.3f %d\\n", summary.requests,
    summary.duration, latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    summary.errors.status + summary.errors.connect + summary.errors.read +
    summary.errors.write + summary.errors.timeout))
end
"""


def build(db: Database) -> tuple[int, int, int]:
    """The tournament in round 8; (id, round, an open table)."""
    rng = random.Random(2026)
    tid = create_tournament(db, name="Бенчмарк на 2000 игроков", actor="bench",
                            settings=Settings(swiss_rounds=9), seed=2026).id
    register_players(db, tid, [PlayerLine(f"Игрок {i:04d}", "Город") for i in
                               range(1, PLAYERS + 1)], actor="bench")
    for number in range(1, PLAYED_ROUNDS + 2):
        view = start_round(db, tid, actor="bench")
        tables = [p.table for p in view.round.pairings if p.b is not None]
        if number == PLAYED_ROUNDS + 1:
            tables = tables[: len(tables) // 2]
        for table in tables:
            record_result(db, tid, number, table, MatchResult.played(*rng.choice(SCORES)),
                          actor="judge")
    open_table = len(view.round.pairings) // 2 + 1
    return tid, view.round.number, open_table


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(url: str, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "TURNIR_DATABASE_URL": url}
    turnir = str(Path(sys.executable).parent / "turnir")
    process = subprocess.Popen([turnir, "serve", "--port", str(port), "--quiet"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    with httpx.Client(timeout=1) as http:  # one client (its SSL context) for every poll
        while time.monotonic() < deadline:
            try:
                if http.get(f"http://127.0.0.1:{port}/healthz").status_code == 200:
                    return process
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


def load_wrk(url: str, script: Path, seconds: int) -> dict[str, Any]:
    done = subprocess.run(["wrk", "-t2", f"-c{CLIENTS}", f"-d{seconds}s", "-s", str(script),
                           url], capture_output=True, text=True, check=True)
    line = next(ln for ln in done.stdout.splitlines() if ln.startswith("RESULT "))
    requests, duration_us, p50, p95, errors = line.split()[1:]
    return {"requests": int(requests), "rate": int(requests) / (int(duration_us) / 1e6),
            "p50_ms": float(p50), "p95_ms": float(p95), "errors": int(errors)}


async def _python_load(url: str, seconds: float) -> dict[str, Any]:
    latencies: list[float] = []
    errors = 0
    stop = time.perf_counter() + seconds
    limits = httpx.Limits(max_connections=CLIENTS, max_keepalive_connections=CLIENTS)
    async with httpx.AsyncClient(limits=limits, timeout=10) as client:

        async def worker() -> None:
            nonlocal errors
            while time.perf_counter() < stop:
                start = time.perf_counter()
                answer = await client.get(url)
                latencies.append(time.perf_counter() - start)
                if answer.status_code != 200:
                    errors += 1

        begin = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(CLIENTS)))
        elapsed = time.perf_counter() - begin
    latencies.sort()
    return {"requests": len(latencies), "rate": len(latencies) / elapsed,
            "p50_ms": latencies[len(latencies) // 2] * 1000,
            "p95_ms": latencies[int(len(latencies) * 0.95)] * 1000, "errors": errors}


def load(url: str, seconds: int, folder: Path) -> dict[str, Any]:
    if shutil.which("wrk"):
        script = folder / "done.lua"
        script.write_text(WRK_SCRIPT)
        return load_wrk(url, script, seconds)
    return asyncio.run(_python_load(url, seconds))


def main() -> None:
    print(f"web benchmark: {PLAYERS} players in round {PLAYED_ROUNDS + 1}, {CLIENTS} clients, "
          f"{DURATION_S} s a page, Python {platform.python_version()}", flush=True)
    figures: dict[str, Any] = {"players": PLAYERS, "clients": CLIENTS, "seconds": DURATION_S,
                               "client": "wrk" if shutil.which("wrk") else "httpx"}
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        url = f"sqlite:///{folder}/bench.db"
        db = Database.open(url)
        start = time.perf_counter()
        tid, number, open_table = build(db)
        figures["build_s"] = round(time.perf_counter() - start, 1)
        port = free_port()
        server = start_server(url, port)
        base = f"http://127.0.0.1:{port}"
        try:
            pages = {"healthz": "/healthz", "standings": f"/t/{tid}/standings",
                     "pairings": f"/t/{tid}/pairings"}
            for key, path in pages.items():
                first = httpx.get(base + path, timeout=30)
                assert first.status_code == 200, (path, first.status_code)
                load(base + path, WARMUP_S, folder)
                figures[key] = load(base + path, DURATION_S, folder)
                figures[key]["bytes"] = len(first.content)
                print(f"{key:>10}: {figures[key]['rate']:8.0f} req/s, p50 "
                      f"{figures[key]['p50_ms']:.1f} ms, p95 {figures[key]['p95_ms']:.1f} ms, "
                      f"{figures[key]['bytes']} bytes", flush=True)
            before = httpx.get(f"{base}/t/{tid}/standings").text
            record_result(db, tid, number, open_table, parse_result("2-0"), actor="judge")
            after = httpx.get(f"{base}/t/{tid}/standings").text
            figures["invalidated_by_a_write"] = before != after
        finally:
            server.terminate()
            server.wait(timeout=20)
            db.close()
    ratio = figures["standings"]["rate"] / figures["healthz"]["rate"]
    figures["standings_rate_vs_healthz"] = round(ratio, 3)
    targets = {
        "standings_rate_vs_healthz": {"value": round(ratio, 3), "limit": RATE_LIMIT,
                                      "better": "higher"},
        "standings_p95_ms": {"value": round(figures["standings"]["p95_ms"], 1),
                             "limit": P95_LIMIT_MS, "better": "lower"},
    }
    print(json.dumps({"bench": "web", "figures": figures, "targets": targets}))
    sys.stdout.flush()


if __name__ == "__main__":
    main()

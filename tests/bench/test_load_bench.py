"""``bench/load.py`` plays its round end to end on a tiny tournament (20 players, 1 worker,
PostgreSQL) and ends with the JSON line DEVELOPERS.md describes; no timing is asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_load_bench_plays_a_round_and_ends_with_its_json_line(pg_server_url: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "load.py"), "--players", "20", "--workers", "1",
         "--window-s", "1", "--report-s", "2", "--confirm-s", "0.2", "0.5",
         "--refresh-s", "0.1", "0.3", "--skip-baseline", "--pg-url", pg_server_url],
        capture_output=True, text=True, timeout=600, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    line = json.loads(done.stdout.strip().splitlines()[-1])
    assert line["bench"] == "load"
    assert set(line["targets"]) == {"errors", "lost_results", "p95_ms"}
    for target in line["targets"].values():
        assert set(target) == {"value", "limit", "better"} and target["better"] == "lower"
    run = line["figures"]["run"]
    assert run["workers"] == 1 and run["tables"] == 10
    assert run["errors"] == 0 and run["lost_results"] == 0
    assert run["results_acknowledged"] == 10  # every table reported and confirmed
    assert set(run["endpoints"]) == {"me", "pairings", "report", "card", "confirm",
                                     "standings"}
    assert run["endpoints"]["me"]["count"] == 20  # every player opened their card
    assert line["figures"]["refresh_s"] == [0.1, 0.3]
    assert line["targets"]["p95_ms"]["value"] == run["p95_ms"]

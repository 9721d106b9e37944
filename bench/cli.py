"""Bench: the command line's start-up cost (issue 11: a thin, lazy CLI).

Runs, as subprocesses, a bare ``python -c pass``, ``turnir --help`` and ``turnir standings
FILE`` on a small tournament file (16 players, one round paired and played, made once in a
temporary folder with the CLI itself), each ``RUNS`` times, and reports the medians of the CPU
time (user + system of the child, from ``os.wait4``) and of the wall time. The targets are the
CPU time above the bare interpreter: under 0.25 s for ``--help`` and under 0.4 s for the
standings of the file (the machine may be shared, so CPU time, not wall time, is the figure).

Run: ``.venv/bin/python bench/cli.py [RUNS]``. The last line printed is one JSON object.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 7
HELP_LIMIT_S = 0.25
STANDINGS_LIMIT_S = 0.4
PLAYERS = 16
CLI = [sys.executable, "-m", "turnir.cli.main"]


def timed(command: list[str]) -> tuple[float, float]:
    """One run of ``command``: (CPU seconds of the child, wall seconds); it must succeed."""
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    error = ""
    if child.stderr is not None:
        error = child.stderr.read().decode()
        child.stderr.close()
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({child.returncode}): {error[-500:]}")
    return usage.ru_utime + usage.ru_stime, wall


def measure(command: list[str], runs: int) -> dict[str, float]:
    timed(command)  # warm the file cache and the bytecode
    cpu, wall = zip(*(timed(command) for _ in range(runs)), strict=True)
    return {"cpu_median_s": round(statistics.median(cpu), 4),
            "wall_median_s": round(statistics.median(wall), 4),
            "cpu_runs_s": [round(c, 4) for c in cpu]}


def make_tournament(folder: Path) -> Path:
    """A small tournament file made with the CLI: 16 players, round 1 paired and played."""
    players = folder / "players.csv"
    players.write_text("name,city\n" + "".join(f"Player {n},City {n % 4}\n"
                                               for n in range(1, PLAYERS + 1)), "utf-8")
    file = folder / "cup.json"
    env = {**os.environ, "LANG": "en_US.UTF-8"}
    for args in (["new", str(file), "--players", str(players), "--seed", "7"],
                 ["pair", str(file)],
                 *(["result", str(file), "1", str(table), "2-1"]
                   for table in range(1, PLAYERS // 2 + 1))):
        subprocess.run([*CLI, *args], check=True, env=env, capture_output=True)
    return file


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else RUNS
    with tempfile.TemporaryDirectory() as folder:
        file = make_tournament(Path(folder))
        load_before = os.getloadavg()[0]
        python = measure([sys.executable, "-c", "pass"], runs)
        help_ = measure([*CLI, "--help"], runs)
        standings = measure([*CLI, "standings", str(file)], runs)
    help_above = round(help_["cpu_median_s"] - python["cpu_median_s"], 4)
    standings_above = round(standings["cpu_median_s"] - python["cpu_median_s"], 4)
    print(f"cli bench: {runs} runs each, python {platform.python_version()} on "
          f"{platform.machine()}, load average before {load_before:.2f}")
    print(f"{'command':<24} {'cpu s':>8} {'wall s':>8}")
    for name, figures in (("python -c pass", python), ("turnir --help", help_),
                          ("turnir standings FILE", standings)):
        print(f"{name:<24} {figures['cpu_median_s']:>8.4f} {figures['wall_median_s']:>8.4f}")
    print(f"above python: --help {help_above:.4f} s (limit {HELP_LIMIT_S}), standings "
          f"{standings_above:.4f} s (limit {STANDINGS_LIMIT_S}), CPU")
    figures_out = {"runs": runs, "python": python, "help": help_, "standings": standings,
                   "players": PLAYERS, "load_average": round(load_before, 2),
                   "python_version": platform.python_version()}
    targets = {
        "help_above_python_s": {"value": help_above, "limit": HELP_LIMIT_S, "better": "lower"},
        "standings_above_python_s": {"value": standings_above, "limit": STANDINGS_LIMIT_S,
                                     "better": "lower"},
    }
    print(json.dumps({"bench": "cli", "figures": figures_out, "targets": targets}))
    sys.stdout.flush()


if __name__ == "__main__":
    main()

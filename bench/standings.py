"""Bench: Swiss standings of a 10,000-player, 11-round event (T-1..T-7).

Builds the event once (random results: ~45% wins each way, ~10% draws, a few double losses,
privilege byes in round 1, a few drops per round so some rounds need a bye), then times
``compute_standings`` five times and reports the median wall-clock time (the target: under
0.5 s), with the process CPU time beside it because the machine may be shared.

Run: ``.venv/bin/python bench/standings.py``. The last line printed is one JSON object.
"""

from __future__ import annotations

import json
import os
import platform
import random
import statistics
import sys
import time

from turnir.domain.model import Pairing, PairingKind, PlayerId, Round, Stage
from turnir.domain.results import MatchOutcome, MatchResult, PointsTable
from turnir.domain.standings import compute_standings, lot_numbers

PLAYERS = 10_000
ROUNDS = 11
RUNS = 5
LIMIT_S = 0.5
SEED = 20240601

A_WINS = (MatchResult.played(2, 0), MatchResult.played(2, 1))
B_WINS = (MatchResult.played(0, 2), MatchResult.played(1, 2))
DRAWS = (MatchResult.played(1, 1), MatchResult.played(1, 1, 1), MatchResult.intentional_draw())
DOUBLE_LOSS = MatchResult(0, 0, 0, MatchOutcome.DOUBLE_LOSS)


def build_event(rng: random.Random, table: PointsTable) -> list[Round]:
    """Pair neighbours by points each round; results at random (speed is not measured)."""
    active = list(range(1, PLAYERS + 1))
    points = dict.fromkeys(active, 0)
    had_bye: set[PlayerId] = set()
    rounds: list[Round] = []
    for number in range(1, ROUNDS + 1):
        pairings: list[Pairing] = []
        if number > 1:  # a few players drop each round
            for gone in rng.sample(active, 7):
                active.remove(gone)
        waiting = list(active)
        if number == 1:  # privilege byes granted by the organizer
            for lucky in rng.sample(waiting, 25):
                waiting.remove(lucky)
                pairings.append(Pairing(0, lucky, None, PairingKind.PRIVILEGE_BYE))
        rng.shuffle(waiting)
        waiting.sort(key=lambda p: -points[p])
        if len(waiting) % 2:
            lowest = next(p for p in reversed(waiting) if p not in had_bye)
            waiting.remove(lowest)
            had_bye.add(lowest)
            pairings.append(Pairing(0, lowest, None, PairingKind.BYE))
        for table_no, k in enumerate(range(0, len(waiting), 2), start=1):
            a, b = waiting[k], waiting[k + 1]
            roll = rng.random()
            if roll < 0.45:
                result = rng.choice(A_WINS)
            elif roll < 0.90:
                result = rng.choice(B_WINS)
            elif roll < 0.998:
                result = rng.choice(DRAWS)
            else:
                result = DOUBLE_LOSS
            pairings.append(Pairing(table_no, a, b, result=result))
        for pairing in pairings:
            for player, got in pairing.points(table).items():
                points[player] += got
        rounds.append(Round(number, Stage.SWISS, tuple(pairings), lot=f"bench/{number}"))
    return rounds


def main() -> None:
    rng = random.Random(SEED)
    table = PointsTable()
    rounds = build_event(rng, table)
    players = list(range(1, PLAYERS + 1))
    lot = lot_numbers(SEED, players)
    matches = sum(1 for rnd in rounds for p in rnd.pairings if p.b is not None)
    byes = sum(1 for rnd in rounds for p in rnd.pairings if p.b is None)

    times: list[float] = []
    cpu_times: list[float] = []
    standings = None
    load_before = os.getloadavg()[0]
    for _ in range(RUNS):
        start, cpu_start = time.perf_counter(), time.process_time()
        standings = compute_standings(players, rounds, table, lot=lot)
        times.append(time.perf_counter() - start)
        cpu_times.append(time.process_time() - cpu_start)
    assert standings is not None and len(standings.rows) == PLAYERS
    median = statistics.median(times)
    cpu_median = statistics.median(cpu_times)
    decided: dict[str, int] = {}
    for row in standings.rows:
        if row.decided_by is not None:
            decided[row.decided_by.value] = decided.get(row.decided_by.value, 0) + 1

    print(f"standings bench: {PLAYERS} players, {ROUNDS} rounds, {matches} matches, {byes} byes")
    print(f"python {platform.python_version()} on {platform.machine()}")
    print(f"load average before the runs: {load_before:.2f}")
    print(f"{'run':>6} {'wall s':>9} {'cpu s':>9}")
    for number, (seconds, cpu) in enumerate(zip(times, cpu_times, strict=True), start=1):
        print(f"{number:>6} {seconds:>9.4f} {cpu:>9.4f}")
    print(f"{'median':>6} {median:>9.4f} {cpu_median:>9.4f}  (limit {LIMIT_S} s, wall)")
    print("rows decided by: " + ", ".join(f"{k} {v}" for k, v in sorted(decided.items())))
    figures = {
        "players": PLAYERS,
        "rounds": ROUNDS,
        "matches": matches,
        "byes": byes,
        "runs_s": [round(t, 4) for t in times],
        "median_s": round(median, 4),
        "cpu_runs_s": [round(t, 4) for t in cpu_times],
        "cpu_median_s": round(cpu_median, 4),
        "load_average": round(load_before, 2),
        "decided_by": decided,
        "python": platform.python_version(),
    }
    target = {"value": round(median, 4), "limit": LIMIT_S, "better": "lower"}
    targets = {"standings_10000_s": target}
    print(json.dumps({"bench": "standings", "figures": figures, "targets": targets}))
    sys.stdout.flush()


if __name__ == "__main__":
    main()

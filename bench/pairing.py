"""Benchmark of Swiss pairing (rules P-2, P-3): time to pair round 9 of 11 in big events.

For each size, an event is simulated up to pairing round 9 (3/1/0 points, about 10% draws, the
higher-ranked player slightly favoured), pairing rounds 1..8 with ``pair_swiss``. Round 9 is
then paired by ``pair_swiss`` (median of 3 runs) and by the *baseline*: one global blossom
matching over the full graph of allowed pairs with the same weights
(``pair_swiss_global(rematch_edges=False)``), run in a subprocess with a timeout.

Run ``.venv/bin/python bench/pairing.py`` (``--quick``: 500 and 1,000 players only). The last
line printed is one JSON object with the figures and the targets.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from turnir.domain.pairing.swiss import (
    SwissEntrant,
    SwissPairing,
    _event,
    _reduce,
    pair_swiss,
    pair_swiss_global,
)

SIZES = (500, 1_000, 2_000, 4_000, 10_000)
QUICK_SIZES = (500, 1_000)
ROUNDS_BEFORE = 8
RUNS = 3
BASELINE_BUDGET_S = 600.0
BASELINE_SKIP_AFTER_S = 120.0


def simulate(size: int, seed: int) -> list[SwissEntrant]:
    """The entrants before round 9: rounds 1..8 paired by ``pair_swiss`` with random results."""
    rng = random.Random(seed)
    points = dict.fromkeys(range(1, size + 1), 0)
    met: dict[int, set[int]] = {p: set() for p in points}
    eligible = dict.fromkeys(points, True)
    for number in range(1, ROUNDS_BEFORE + 1):
        entrants = [SwissEntrant(p, points[p], frozenset(met[p]), eligible[p]) for p in points]
        pairing = pair_swiss(entrants, random.Random(seed * 1000 + number))
        if pairing.bye is not None:
            points[pairing.bye] += 3
            eligible[pairing.bye] = False
        for a, b in pairing.pairs:  # a is the higher-ranked player
            met[a].add(b)
            met[b].add(a)
            roll = rng.random()
            if roll < 0.10:
                points[a] += 1
                points[b] += 1
            else:
                points[a if roll < 0.55 else b] += 3
    return [SwissEntrant(p, points[p], frozenset(met[p]), eligible[p]) for p in points]


def objective_list(pairing: SwissPairing) -> list[int]:
    o = pairing.objective
    return [o.rematches, o.bye_ineligible, o.bye_points, o.unequal_pairs, o.squared_differences]


def run_baseline_child(path: str) -> None:
    """Subprocess side: pair with the global matching and print seconds and objective."""
    rows = json.loads(Path(path).read_text(encoding="utf-8"))
    entrants = [SwissEntrant(p, pts, frozenset(opp), elig) for p, pts, opp, elig in rows]
    start = time.perf_counter()
    pairing = pair_swiss_global(entrants, random.Random(9), rematch_edges=False)
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "objective": objective_list(pairing)}))


def run_baseline(entrants: list[SwissEntrant], timeout: float) -> dict[str, Any] | None:
    """Seconds and objective of the baseline, or ``None`` when it timed out."""
    rows = [[e.player, e.points, sorted(e.opponents), e.bye_eligible] for e in entrants]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(rows, handle)
        path = handle.name
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--baseline-child", path],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return None
    finally:
        Path(path).unlink(missing_ok=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def reduced_vertices(entrants: list[SwissEntrant]) -> int:
    groups = _reduce(_event(entrants), random.Random(0))
    if groups is None:
        return len(entrants) + len(entrants) % 2
    vertices = sum(len(g.members) for g in groups)
    return vertices + vertices % 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="500 and 1,000 players only")
    parser.add_argument("--baseline-child", metavar="FILE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.baseline_child:
        run_baseline_child(args.baseline_child)
        return
    sizes = QUICK_SIZES if args.quick else SIZES
    figures: dict[str, Any] = {}
    rows: list[tuple[str, ...]] = []
    budget = BASELINE_BUDGET_S
    skip_baseline = False
    rematches = gap = 0
    for size in sizes:
        entrants = simulate(size, seed=size)
        times, pairing = [], None
        for _ in range(RUNS):
            start = time.perf_counter()
            pairing = pair_swiss(entrants, random.Random(9))
            times.append(time.perf_counter() - start)
        assert pairing is not None
        seconds = statistics.median(times)
        vertices = reduced_vertices(entrants)
        rematches += pairing.objective.rematches
        figures[f"pair_{size}_s"] = round(seconds, 4)
        figures[f"reduced_vertices_{size}"] = vertices
        figures[f"objective_{size}"] = objective_list(pairing)
        baseline = None
        if not skip_baseline and budget > 1:
            baseline = run_baseline(entrants, timeout=budget)
        if baseline is None:
            skip_baseline = True
            base_text = speed_text = same_text = "not run"
            figures[f"baseline_{size}_s"] = None
        else:
            base_s = float(baseline["seconds"])
            budget -= base_s
            skip_baseline = base_s > BASELINE_SKIP_AFTER_S
            same = baseline["objective"] == objective_list(pairing)
            gap += not same
            figures[f"baseline_{size}_s"] = round(base_s, 3)
            figures[f"speedup_{size}"] = round(base_s / seconds, 1)
            base_text = f"{base_s:.3f}"
            speed_text = f"{base_s / seconds:.1f}x"
            same_text = "yes" if same else f"NO {baseline['objective']}"
        rows.append(
            (
                f"{size:,}",
                f"{seconds:.3f}",
                str(vertices),
                base_text,
                speed_text,
                same_text,
                str(pairing.objective.rematches),
                str(objective_list(pairing)),
            )
        )
    header = (
        "players",
        "turnir s",
        "graph",
        "baseline s",
        "speedup",
        "same obj",
        "rematches",
        "objective",
    )
    widths = [max(len(r[k]) for r in [header, *rows]) for k in range(len(header))]
    print(f"Swiss pairing of round 9 (after {ROUNDS_BEFORE} rounds), median of {RUNS} runs")
    for row in [header, *rows]:
        print("  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)))
    targets = {
        "pair_10000_s": {"value": figures.get("pair_10000_s"), "limit": 2, "better": "lower"},
        "speedup_vs_baseline_2000": {
            "value": figures.get("speedup_2000"),
            "limit": 20,
            "better": "higher",
        },
        "avoidable_rematches": {"value": rematches, "limit": 0, "better": "lower"},
        "objective_gap_vs_baseline": {"value": gap, "limit": 0, "better": "lower"},
    }
    print(json.dumps({"bench": "pairing", "figures": figures, "targets": targets}))


if __name__ == "__main__":
    main()

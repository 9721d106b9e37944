"""Benchmark of Swiss pairing (rules P-2, P-3): time to pair big events, and its exactness.

Events are simulated with ``pair_swiss`` and random results (about 10% draws, the higher-ranked
player slightly favoured), then the next round is paired by ``pair_swiss`` (median of 3 runs):

- *normal*: 500 to 10,000 players after 8 rounds of 3/1/0, and 100,000 (``pair_100000_s``);
- *long and wide* (``pair_10000_long_s``, the worst of them): 10,000 players after 20 rounds of
  7/3/0, after 30 rounds of 3/1/0, and 10,000 players each on a different score (the 8-round
  event with every player's points replaced by his rank: 0 to 9,999, ties by lot); the same
  at 1,000 players, the two long ones compared with the baseline too.

The *baseline* is one exact global matching over all pairs of players who have not met
(``pair_swiss_global(rematch_edges=False)``), run in a subprocess with a timeout; it gives the
optimum to compare with (``objective_gap_vs_baseline``, ``max_gap_excess``). Without it (the
biggest events) the largest difference is checked against a lower bound (every player needs a
partner he has not met, and a cut with an odd number of players above needs a pair across),
and when that is lower, by a plain cardinality matching showing that no pairing keeps every
difference smaller.

Run ``.venv/bin/python bench/pairing.py`` (``--quick``: 500 and 1,000 players, no long events).
The last line printed is one JSON object with the figures and the targets.
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
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from turnir.domain.pairing.swiss import SwissEntrant, SwissPairing, pair_swiss

SIZES = (500, 1_000, 2_000, 4_000, 10_000)
QUICK_SIZES = (500, 1_000)
RUNS = 3
BASELINE_BUDGET_S = 1500.0
"""Seconds all baseline runs may take together."""
BASELINE_TIMEOUT_S = 600.0
"""Seconds one baseline run may take."""


@dataclass(frozen=True)
class Case:
    name: str
    size: int
    rounds: int
    win: int
    draw: int
    distinct: bool = False
    long: bool = False
    baseline: bool = True


def simulate(case: Case, seed: int) -> list[SwissEntrant]:
    """The entrants before the next round: ``case.rounds`` rounds paired by ``pair_swiss``."""
    rng = random.Random(seed)
    points = dict.fromkeys(range(1, case.size + 1), 0)
    met: dict[int, set[int]] = {p: set() for p in points}
    eligible = dict.fromkeys(points, True)
    for number in range(1, case.rounds + 1):
        entrants = [SwissEntrant(p, points[p], frozenset(met[p]), eligible[p]) for p in points]
        pairing = pair_swiss(entrants, random.Random(seed * 1000 + number))
        if pairing.bye is not None:
            points[pairing.bye] += case.win
            eligible[pairing.bye] = False
        for a, b in pairing.pairs:  # a is the higher-ranked player
            met[a].add(b)
            met[b].add(a)
            roll = rng.random()
            if roll < 0.10:
                points[a] += case.draw
                points[b] += case.draw
            else:
                points[a if roll < 0.55 else b] += case.win
    if case.distinct:
        ranked = sorted(points, key=lambda p: (points[p], rng.random()))
        points = {p: k for k, p in enumerate(ranked)}
    return [SwissEntrant(p, points[p], frozenset(met[p]), eligible[p]) for p in points]


def objective_list(pairing: SwissPairing) -> list[Any]:
    o = pairing.objective
    return [o.rematches, o.bye_ineligible, o.bye_points, list(o.differences),
            list(o.float_points)]


def lower_bound(entrants: list[SwissEntrant]) -> int:
    """A lower bound on the largest difference of a pairing without rematches with the bye on
    the lowest eligible score (independent of the pairer)."""
    points = sorted({e.points for e in entrants}, reverse=True)
    by_points: dict[int, list[SwissEntrant]] = {}
    for e in entrants:
        by_points.setdefault(e.points, []).append(e)
    eligible = [e.points for e in entrants if e.bye_eligible] or [e.points for e in entrants]
    odd = len(entrants) % 2 == 1
    bye_points = min(eligible) if odd else None
    bound = 0
    above = 0
    for high, low in pairwise(points):
        above += len(by_points[high])
        if (above - (bye_points is not None and bye_points >= high)) % 2:
            bound = max(bound, high - low)
    position = {p: k for k, p in enumerate(points)}
    for e in entrants:
        if e.points == bye_points:
            continue
        bound = max(bound, _nearest(e, points, position[e.points], by_points))
    return bound


def _nearest(e: SwissEntrant, points: list[int], at: int,
             by_points: dict[int, list[SwissEntrant]]) -> int:
    """The smallest point difference from ``e`` to a player he has not met (0 if none)."""
    up, down = at, at + 1  # indices into ``points`` (highest first), nearest first
    while up >= 0 or down < len(points):
        take_up = down >= len(points) or (
            up >= 0 and points[up] - e.points <= e.points - points[down])
        k = up if take_up else down
        if take_up:
            up -= 1
        else:
            down += 1
        if any(o.player != e.player and o.player not in e.opponents
               and e.player not in o.opponents for o in by_points[points[k]]):
            return abs(points[k] - e.points)
    return 0


def feasible(entrants: list[SwissEntrant], limit: int, max_edges: int = 400_000) -> bool | None:
    """Is there a pairing without rematches, the bye on the lowest eligible score, and no
    difference above ``limit``? A plain cardinality matching (``None``: graph too big)."""
    import rustworkx as rx

    people = sorted(entrants, key=lambda e: e.points)
    n = len(people)
    eligible = [e.points for e in people if e.bye_eligible]
    bye_points = min(eligible or [e.points for e in people])
    edges: list[tuple[int, int, int]] = []
    for a, x in enumerate(people):
        for b in range(a + 1, n):
            y = people[b]
            if y.points - x.points > limit:
                break
            if y.player not in x.opponents and x.player not in y.opponents:
                edges.append((a, b, 1))
        if len(edges) > max_edges:
            return None
    if n % 2:
        edges += [(a, n, 1) for a, x in enumerate(people)
                  if x.points == bye_points and (x.bye_eligible or not eligible)]
    graph: rx.PyGraph[None, int] = rx.PyGraph()
    graph.add_nodes_from([None] * (n + n % 2))
    graph.add_edges_from(edges)
    matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return 2 * len(matched) == n + n % 2


def run_baseline_child(path: str) -> None:
    """Subprocess side: pair with the global matching and print seconds and objective."""
    from turnir.domain.pairing.swiss import pair_swiss_global

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
    except subprocess.CalledProcessError as error:
        print(f"baseline failed: {error.stderr[-500:]}", file=sys.stderr)
        return None
    finally:
        Path(path).unlink(missing_ok=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def cases(quick: bool) -> list[Case]:
    found = [Case(f"{size}", size, 8, 3, 1, baseline=size <= 2_000)
             for size in (QUICK_SIZES if quick else SIZES)]
    if quick:
        return found
    found.append(Case("100000", 100_000, 8, 3, 1, baseline=False))
    for size in (1_000, 10_000):
        found += [
            Case(f"{size}_7_3_0_r20", size, 20, 7, 3, long=True, baseline=size <= 1_000),
            Case(f"{size}_3_1_0_r30", size, 30, 3, 1, long=True, baseline=size <= 1_000),
            # the global matching needs a stage per few of the ~1,000 distinct differences
            Case(f"{size}_distinct", size, 8, 3, 1, distinct=True, long=True, baseline=False),
        ]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="500 and 1,000 players only")
    parser.add_argument("--baseline-child", metavar="FILE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.baseline_child:
        run_baseline_child(args.baseline_child)
        return
    figures: dict[str, Any] = {}
    rows: list[tuple[str, ...]] = []
    budget = BASELINE_BUDGET_S
    rematches = objective_gap = gap_excess = unchecked = 0
    for case in cases(args.quick):
        entrants = simulate(case, seed=case.size + case.rounds)
        times, pairing = [], None
        for _ in range(RUNS):
            start = time.perf_counter()
            pairing = pair_swiss(entrants, random.Random(9))
            times.append(time.perf_counter() - start)
        assert pairing is not None
        seconds = statistics.median(times)
        rematches += pairing.objective.rematches
        largest = pairing.objective.largest_difference
        figures[f"pair_{case.name}_s"] = round(seconds, 4)
        figures[f"largest_difference_{case.name}"] = largest
        baseline = None
        if case.baseline and budget > 1:
            started = time.perf_counter()
            baseline = run_baseline(entrants, min(budget, BASELINE_TIMEOUT_S))
            budget -= time.perf_counter() - started
        if baseline is not None:
            base_s = float(baseline["seconds"])
            same = baseline["objective"] == objective_list(pairing)
            objective_gap += not same
            optimum = max(baseline["objective"][3], default=0)
            figures[f"baseline_{case.name}_s"] = round(base_s, 3)
            figures[f"speedup_{case.name}"] = round(base_s / seconds, 1)
            check = f"optimum {optimum}" + ("" if same else " OBJECTIVE DIFFERS")
        else:
            optimum = lower_bound(entrants)
            check = f"lower bound {optimum}"
            if largest != optimum:
                smaller = feasible(entrants, largest - 1)
                if smaller is False:
                    optimum, check = largest, f"none within {largest - 1}"
                elif smaller is True:
                    optimum, check = largest - 1, f"PAIRING WITHIN {largest - 1} EXISTS"
                else:
                    unchecked += 1
                    check += " (not a certificate)"
                    optimum = largest
        gap_excess = max(gap_excess, largest - optimum)
        base_text = f"{figures[f'baseline_{case.name}_s']:.2f}" if baseline else "not run"
        rows.append((case.name, f"{seconds:.3f}", base_text, str(largest), check,
                     str(pairing.objective.rematches), str(len(pairing.objective.differences))))
        print("  ".join(rows[-1]), file=sys.stderr, flush=True)
    header = ("event", "turnir s", "baseline s", "largest diff", "checked against",
              "rematches", "unequal pairs")
    widths = [max(len(r[k]) for r in [header, *rows]) for k in range(len(header))]
    print(f"Swiss pairing of the next round, median of {RUNS} runs")
    for row in [header, *rows]:
        print("  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)))
    long_times = [figures[f"pair_{c.name}_s"] for c in cases(args.quick)
                  if c.long and c.size == 10_000]
    figures["pair_10000_long_s"] = max(long_times) if long_times else None
    figures["largest_difference_unchecked"] = unchecked

    def target(value: Any, limit: float, better: str) -> dict[str, Any]:
        return {"value": value, "limit": limit, "better": better}

    targets = {
        "pair_10000_s": target(figures.get("pair_10000_s"), 0.5, "lower"),
        "pair_10000_long_s": target(figures.get("pair_10000_long_s"), 2, "lower"),
        "pair_100000_s": target(figures.get("pair_100000_s"), 5, "lower"),
        "max_gap_excess": target(gap_excess, 0, "lower"),
        "objective_gap_vs_baseline": target(objective_gap, 0, "lower"),
        "speedup_vs_baseline_2000": target(figures.get("speedup_2000"), 20, "higher"),
        "avoidable_rematches": target(rematches, 0, "lower"),
    }
    print(json.dumps({"bench": "pairing", "figures": figures, "targets": targets}))


if __name__ == "__main__":
    main()

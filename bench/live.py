"""Benchmark: page refreshes caused by live updates during a burst of results (issue 15).

One process's ``turnir.web.live.LiveHub`` (the real watcher and streams, in process) with
``--streams`` open streams on one tournament; the tournament's change stamp moves ``--rate``
times a second for ``--seconds`` seconds (a fake stamp reader stands for the database: the
watcher reads it once per ``--poll-ms`` tick, as ``change_stamps`` would be). Every ``changed``
frame after a stream's first is one page refresh (``static/live.js`` refreshes the live parts
on it), shifted by the page's own random delay of up to 250 ms. Runs once without coalescing
(``live_min_interval_ms`` 0: every moved stamp at the next tick, as before) and once with
``--interval-ms`` (``TURNIR_LIVE_MIN_INTERVAL_MS``), and reports for each the refreshes a
second over the burst, the busiest 100 ms (as a rate a second), and whether every stream got
the newest stamp at the end (``lost``: streams that did not). Several workers multiply the
figures by their number (each has its share of the streams).

Usage: ``PYTHONPATH=. .venv/bin/python bench/live.py [--streams 500] [--rate 10]
[--seconds 30] [--interval-ms 3000] [--poll-ms 1000]``. The last line of the output is one
JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from collections import Counter
from collections.abc import Iterable
from typing import Any

from turnir.web.live import SPREAD_MAX_S, SPREAD_PER_STREAM_MS, LiveHub, _Watch

TID = 1
JITTER_S = 0.25
"""``static/live.js``: a page's own random delay before it refreshes."""
SETTLE_S = 3.0
"""A margin for a loaded machine beyond the latest the newest stamp may come (see ``run``)."""


class Burst:
    """The change stamp of the tournament: ``rate`` changes a second for ``seconds`` seconds
    from ``start``, then still."""

    def __init__(self, rate: float, seconds: float) -> None:
        self.rate, self.seconds = rate, seconds
        self.start = time.monotonic()
        self.reads = 0

    def stamp(self) -> int:
        elapsed = min(max(0.0, time.monotonic() - self.start), self.seconds)
        return int(elapsed * self.rate)

    def reader(self, db: object, tids: Iterable[int]) -> dict[int, int]:
        self.reads += 1
        return {tid: self.stamp() for tid in tids}

    @property
    def newest(self) -> int:
        return int(self.seconds * self.rate)


async def stream(hub: LiveHub, watch: _Watch, rng: random.Random,
                 refreshes: list[float], until: float) -> int:
    """One page: the refresh times of its stream's frames; returns the last stamp seen."""
    last = -1
    frames = hub.frames(watch)
    first = True
    while time.monotonic() < until:
        try:
            frame = await asyncio.wait_for(anext(frames), max(0.01, until - time.monotonic()))
        except (TimeoutError, StopAsyncIteration):
            break
        if "event: changed" not in frame:
            continue
        last = int(frame.rsplit("data: ", 1)[1])
        if not first:
            refreshes.append(time.monotonic() + rng.uniform(0, JITTER_S))
        first = False
    await frames.aclose()  # type: ignore[attr-defined]  # an async generator
    return last


async def run(streams: int, rate: float, seconds: float, interval_ms: int,
              poll_ms: int) -> dict[str, Any]:
    burst = Burst(rate, seconds)
    hub = LiveHub(Any, poll_ms=poll_ms, max_streams=streams + 1,  # type: ignore[arg-type]
                  reader=burst.reader, min_interval_ms=interval_ms, rng=random.Random(15))
    watches = [await hub.join(TID) for _ in range(streams)]
    burst.start = time.monotonic()
    reads_before = burst.reads
    # the newest stamp is read at most a tick after the burst, then sent at most one
    # interval and one spread later
    spread = min(SPREAD_MAX_S, streams * SPREAD_PER_STREAM_MS / 1000) if interval_ms else 0.0
    until = burst.start + seconds + interval_ms / 1000 + spread + poll_ms / 1000 + SETTLE_S
    refreshes: list[float] = []
    rng = random.Random(1)
    lasts = await asyncio.gather(*(stream(hub, w, rng, refreshes, until) for w in watches))
    ticks = hub.ticks
    hub.close()
    for watch in watches:
        hub.leave(TID, watch)
    buckets = Counter(int((t - burst.start) * 10) for t in refreshes)
    return {
        "refreshes": len(refreshes),
        "refreshes_per_s": round(len(refreshes) / seconds, 1),
        "busiest_100ms_per_s": max(buckets.values(), default=0) * 10,
        "per_page_per_s": round(len(refreshes) / seconds / streams, 2),
        "lost": sum(1 for last in lasts if last != burst.newest),
        "stamp_reads": burst.reads - reads_before, "watcher_ticks": ticks,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--rate", type=float, default=10.0, help="changes a second")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--interval-ms", type=int, default=3000)
    parser.add_argument("--poll-ms", type=int, default=1000)
    args = parser.parse_args()
    figures: dict[str, Any] = {"streams": args.streams, "changes_per_s": args.rate,
                               "seconds": args.seconds, "poll_ms": args.poll_ms,
                               "interval_ms": args.interval_ms}
    for name, interval in (("without", 0), ("with", args.interval_ms)):
        figures[name] = asyncio.run(run(args.streams, args.rate, args.seconds, interval,
                                        args.poll_ms))
        print(name, "coalescing:", json.dumps(figures[name]), flush=True)
    ratio = figures["without"]["refreshes"] / max(1, figures["with"]["refreshes"])
    figures["fewer_refreshes_ratio"] = round(ratio, 2)
    # at most one refresh per interval per page, and the one at the burst's end
    per_page = args.seconds * 1000 / max(1, args.interval_ms) + 1
    limit = args.streams * per_page / args.seconds
    targets = {
        "lost": {"value": figures["with"]["lost"], "limit": 0, "better": "lower"},
        "refreshes_per_s": {"value": figures["with"]["refreshes_per_s"],
                            "limit": round(limit, 1), "better": "lower"},
    }
    print(json.dumps({"bench": "live", "figures": figures, "targets": targets}))


if __name__ == "__main__":
    main()

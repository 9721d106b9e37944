"""Issue 15 (scale-out): a live-update stream coalesces a burst of changes.

A stream sends ``changed`` at most once per ``live_min_interval_ms`` and always the newest
stamp at the end of the interval (the last change is never lost); the watcher still reads the
stamps once per tick however many streams wait; the delay of each frame is a random share of a
spread that grows with the tournament's open streams, bounded; the setting's
bounds. No duration is asserted: the tests count frames and check stamps (the watcher test
counts time in watcher ticks)."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Coroutine, Iterable
from typing import Any, TypeVar

import pytest

from turnir.errors import UserError
from turnir.web.live import SPREAD_MAX_S, SPREAD_PER_STREAM_MS, LiveHub, _Watch
from turnir.web.settings import LIVE_MIN_INTERVAL_DEFAULT_MS, WebSettings

TID = 7
GUARD_S = 60.0
"""Only so that a broken stream fails instead of hanging; never asserted as a duration."""
T = TypeVar("T")


def run_alone(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own (the browser tests' Playwright keeps a loop
    running in the main thread of the session)."""
    done: list[T] = []
    thread = threading.Thread(target=lambda: done.append(asyncio.run(coroutine)))
    thread.start()
    thread.join(GUARD_S * 2)
    assert done, "the coroutine failed or did not finish"
    return done[0]


async def read_until(hub: LiveHub, watch: _Watch, newest: int) -> list[tuple[str, int]]:
    """The stream's ``(event, data)`` frames until ``changed`` carries ``newest``."""
    frames: list[tuple[str, int]] = []

    async def collect() -> None:
        async for frame in hub.frames(watch):
            if frame.startswith(":"):
                continue
            lines = dict(line.split(": ", 1) for line in frame.splitlines() if ": " in line)
            frames.append((lines["event"], int(lines["data"])))
            if frames[-1] == ("changed", newest):
                return

    await asyncio.wait_for(collect(), GUARD_S)
    return frames


def test_a_burst_of_20_changes_is_one_event_carrying_the_newest_stamp() -> None:
    async def run() -> list[tuple[str, int]]:
        hub = LiveHub(Any, poll_ms=10000, max_streams=10,  # type: ignore[arg-type]
                      reader=lambda db, tids: {TID: 1}, min_interval_ms=400)
        watch = await hub.join(TID)

        async def burst() -> None:
            await asyncio.sleep(0.05)
            for stamp in range(2, 22):  # 20 changes, far quicker than the interval
                watch.move(stamp)
                await asyncio.sleep(0)

        mover = asyncio.get_running_loop().create_task(burst())
        try:
            return await read_until(hub, watch, 21)
        finally:
            await mover
            hub.close()

    frames = run_alone(run())
    changed = [stamp for name, stamp in frames if name == "changed"]
    assert changed[0] == 1  # the current stamp first
    assert changed[-1] == 21  # the newest stamp of the burst, never lost
    assert len(changed) <= 3  # not 21: the burst is coalesced
    assert ("pace", 400) in frames  # the page learns the interval (static/live.js)


def test_the_watcher_coalesces_a_change_per_tick_and_reads_once_per_tick() -> None:
    """20 ticks in a row each bring a change; 3 streams; the interval is 10 ticks (a clock
    that counts the watcher's ticks, so a loaded machine changes nothing)."""
    reads: list[int] = []

    def reader(db: object, tids: Iterable[int]) -> dict[int, int]:
        reads.append(len(list(tids)))
        return {TID: min(len(reads) - 1, 20)}

    async def run() -> tuple[list[list[int]], int]:
        hub = LiveHub(Any, poll_ms=100, max_streams=10,  # type: ignore[arg-type]
                      reader=reader, min_interval_ms=1000, rng=random.Random(15))
        hub.clock = lambda: hub.ticks * hub.poll_s
        watches = [await hub.join(TID) for _ in range(3)]
        try:
            streams = await asyncio.gather(*(read_until(hub, w, 20) for w in watches))
        finally:
            ticks = hub.ticks
            hub.close()
        return [[s for name, s in frames if name == "changed"] for frames in streams], ticks

    streams, ticks = run_alone(run())
    for changed in streams:
        assert changed[0] == 0 and changed[-1] == 20
        assert changed == sorted(changed)
        assert len(changed) <= 4  # the first stamp, then one per 10 ticks: not 21
    # one read per tick for the 3 streams (+1: the first stream's join; ±1 a tick in flight)
    assert ticks <= len(reads) - 1 <= ticks + 1
    assert set(reads) == {1}


def test_the_spread_grows_with_the_streams_and_is_bounded() -> None:
    hub = LiveHub(Any, poll_ms=1000, max_streams=5000,  # type: ignore[arg-type]
                  min_interval_ms=3000, rng=random.Random(1))
    few, many, crowd = _Watch(0, listeners=20), _Watch(0, listeners=500), _Watch(0, listeners=4000)
    assert max(hub._share(few) for _ in range(200)) <= 20 * SPREAD_PER_STREAM_MS / 1000
    shares = [hub._share(many) for _ in range(200)]
    assert max(shares) <= 500 * SPREAD_PER_STREAM_MS / 1000 and max(shares) > 2.5
    crowded = [hub._share(crowd) for _ in range(200)]
    assert max(crowded) <= SPREAD_MAX_S == 20.0 and max(crowded) > 10.0
    off = LiveHub(Any, poll_ms=1000, max_streams=5000)  # type: ignore[arg-type]
    assert off._share(crowd) == 0.0  # no interval: every change at the next tick, as before


def test_the_interval_setting_is_bounded() -> None:
    assert WebSettings().live_min_interval_ms == 0
    assert WebSettings.from_env({}).live_min_interval_ms == LIVE_MIN_INTERVAL_DEFAULT_MS == 3000
    for given, value in (("0", 0), ("60000", 60000), (" 1500 ", 1500)):
        env = {"TURNIR_LIVE_MIN_INTERVAL_MS": given}
        assert WebSettings.from_env(env).live_min_interval_ms == value
    for wrong in ("60001", "-1", "3s", "1" * 40):
        with pytest.raises(UserError, match="TURNIR_LIVE_MIN_INTERVAL_MS"):
            WebSettings.from_env({"TURNIR_LIVE_MIN_INTERVAL_MS": wrong})
    with pytest.raises(UserError, match="TURNIR_LIVE_MIN_INTERVAL_MS"):
        WebSettings(live_min_interval_ms=-5)


def test_a_change_made_while_the_last_frame_was_being_sent_is_not_missed() -> None:
    async def run() -> str:
        hub = LiveHub(Any, poll_ms=10000, max_streams=10,  # type: ignore[arg-type]
                      reader=lambda db, tids: {TID: 1}, min_interval_ms=100)
        watch = await hub.join(TID)
        frames = hub.frames(watch)
        try:
            await anext(frames)  # the first stamp
            await anext(frames)  # the pace
            watch.move(2)
            await asyncio.wait_for(anext(frames), GUARD_S)  # 2 is sent
            watch.move(3)  # while the stream waits at its yield: no one waits on the event
            return await asyncio.wait_for(anext(frames), GUARD_S)
        finally:
            hub.close()

    assert run_alone(run()) == "event: changed\ndata: 3\n\n"  # not the heartbeat 15 s later

"""Live page updates (issue 15): ``GET /t/{tid}/events``, a server-sent event stream that says
when the tournament changed, whichever worker, CLI or robot changed it.

Every change to a tournament appends to its audit log, so its *change stamp* (the newest audit
id, ``turnir.services.audit``) moves with every change, and the stamp lives in the database:
a change made through worker A is seen by the streams of worker B.

One ``LiveHub`` per process (``WebState.live``): its watcher task reads, every
``live_poll_ms``, the stamps of the tournaments that have open streams in this process **in
one query** (``services.audit.change_stamps``), never one query per stream; a stamp that moved
wakes that tournament's streams. The watcher runs only while a stream is open.

A stream sends ``retry: 2000``, then ``event: changed`` / ``data: <stamp>`` with the current
stamp, the same frame whenever the stamp moves, a comment line every 15 s (proxies and
browsers keep the connection), and ends by itself after at most 60 s (the browser's
``EventSource`` reconnects and gets the current stamp first, so nothing is missed) or at once
when the server stops: the hub is closed on the app's shutdown, and the watcher ends the
streams as soon as the uvicorn server serving it is told to exit (uvicorn waits for open
responses before the app's shutdown; without this an open stream would hold a stop for up to
a minute). Beyond ``live_streams`` open streams a process answers 503: the page keeps polling.

Coalescing (issue 15, scale-out): a 2,000-player round brings several results a second, and
every ``changed`` makes every open page refresh its live parts. So one stream sends
``changed`` at most once per ``live_min_interval_ms`` (``TURNIR_LIVE_MIN_INTERVAL_MS``, default
3000): a stamp that moves again meanwhile is sent at the end of the interval, the newest one,
so the last change is never lost; a change after a quiet interval goes out at once. The
streams of one tournament wake on the same watcher tick, so each due frame also waits its own
random share of a *spread* that grows with the tournament's open streams in this process
(``SPREAD_PER_STREAM_MS`` each, at most ``SPREAD_MAX_S``; added to the interval too, or
pages opened together would stay in step): 500 streams spread their refreshes over 5 s, 20
streams over 0.2 s; a change reaches every page at most one interval and one spread later.
With coalescing on, the stream tells the page its pace after the first stamp (``event: pace``
/ ``data: <interval ms>``):
``static/live.js`` never refreshes a part more often than that, whatever the stream says.
Figures: ``bench/live.py``, ``docs/reliability.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import Response, StreamingResponse
from starlette.concurrency import run_in_threadpool
from starlette.types import Receive, Scope, Send

from turnir.errors import NotFoundError, UserError
from turnir.services.audit import change_stamps
from turnir.services.common import Database
from turnir.web.deps import StateDep, TournamentPath
from turnir.web.errors import RETRY_AFTER_S, message_response

router = APIRouter()

RETRY_MS = 2000
"""The browser's reconnection delay after a stream ends."""
HEARTBEAT_S = 15.0
"""A comment line this often keeps idle connections open through proxies."""
LIFETIME_S = 60.0
"""A stream ends by itself after this long (the browser reconnects)."""
EXIT_CHECK_S = 0.1
"""How often the watcher looks whether the server is stopping."""

SPREAD_PER_STREAM_MS = 10
"""Each open stream of a tournament widens the spread of its frames by this much (up to
``SPREAD_MAX_S``): a busy stream sends once per interval plus half the spread on average, so
``n`` streams of one process bring ``n / (interval + n * 0.005 s)`` refreshes a second, below
200 (= 2 / 10 ms) however many they are: what 2,000 pages polling every 10 s asked before."""
SPREAD_MAX_S = 20.0
"""The widest spread (2,000 streams, ``live_streams``' default): a change reaches every page
within one interval and 20 s, however crowded."""

Reader = Callable[[Database, Iterable[int]], dict[int, int]]
Clock = Callable[[], float]


class TooManyStreams(UserError):
    """This process already keeps ``live_streams`` streams open (answered 503)."""


@dataclass(eq=False)
class _Watch:
    """One tournament's open streams in this process."""

    stamp: int
    listeners: int = 0
    moved: asyncio.Event = field(default_factory=asyncio.Event)
    """Set (and replaced) when the stamp moves: every waiting stream wakes."""

    def move(self, stamp: int) -> None:
        self.stamp = stamp
        moved, self.moved = self.moved, asyncio.Event()
        moved.set()


class LiveHub:
    """The change stamps of the tournaments this process's streams watch (see the module)."""

    def __init__(self, db: Database, *, poll_ms: int, max_streams: int,
                 reader: Reader = change_stamps, min_interval_ms: int = 0,
                 clock: Clock = time.monotonic, rng: random.Random | None = None) -> None:
        self.db = db
        self.poll_s = poll_ms / 1000
        self.min_interval_s = min_interval_ms / 1000
        self.clock = clock
        """The time of the coalescing (``frames``); a test may count it in watcher ticks."""
        self.rng = rng or random.Random()
        self.max_streams = max_streams
        self.reader = reader
        self.streams = 0
        self.ticks = 0
        """Watcher reads so far (each one query for every watched tournament)."""
        self._watches: dict[int, _Watch] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._server: Any = None

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    def _bind(self) -> None:
        """The hub's events belong to the loop that serves (a new loop: start afresh)."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._loop, self._watches, self._closed = loop, {}, asyncio.Event()
            self._task, self._server = None, _serving_server()

    async def join(self, tournament_id: int) -> _Watch:
        """Watch a tournament for a new stream (its stamp read now unless it is watched
        already); ``NotFoundError`` for an unknown tournament, ``TooManyStreams`` beyond the
        limit."""
        self._bind()
        if self.streams >= self.max_streams:
            raise TooManyStreams("too many live update streams are open; the page refreshes "
                                 "by itself", code="live_streams_full")
        watch = self._watches.get(tournament_id)
        if watch is None:
            found = await run_in_threadpool(self.reader, self.db, [tournament_id])
            if tournament_id not in found:
                raise NotFoundError("no tournament #{id}", code="unknown_tournament",
                                    id=tournament_id)
            watch = self._watches.setdefault(tournament_id, _Watch(found[tournament_id]))
        watch.listeners += 1
        self.streams += 1
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._watch())
        return watch

    def leave(self, tournament_id: int, watch: _Watch) -> None:
        """A stream of ``join`` ended (called once per stream)."""
        self.streams -= 1
        watch.listeners -= 1
        if watch.listeners <= 0 and self._watches.get(tournament_id) is watch:
            del self._watches[tournament_id]

    async def _watch(self) -> None:
        """The watcher: one read of every watched stamp per ``poll_s``, while streams are
        open; it closes the hub when the server is told to exit."""
        due = time.monotonic() + self.poll_s
        while self._watches and not self._closed.is_set():
            await asyncio.sleep(min(EXIT_CHECK_S, max(0.0, due - time.monotonic())))
            if getattr(self._server, "should_exit", False):
                self.close()
                return
            if time.monotonic() < due:
                continue
            due = time.monotonic() + self.poll_s
            wanted = list(self._watches)
            try:
                found = await run_in_threadpool(self.reader, self.db, wanted)
            except Exception:  # a database hiccup: try again next tick
                continue
            self.ticks += 1
            for tid in wanted:
                watch = self._watches.get(tid)
                if watch is not None and found.get(tid, watch.stamp) != watch.stamp:
                    watch.move(found[tid])

    def close(self) -> None:
        """End every open stream at once (the server stops). From the hub's loop."""
        self._closed.set()
        for watch in self._watches.values():
            watch.move(watch.stamp)

    def close_threadsafe(self) -> None:
        """``close`` from any thread (the app's shutdown)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self.close()
        else:
            loop.call_soon_threadsafe(self.close)

    async def frames(self, watch: _Watch, *, once: bool = False) -> AsyncIterator[str]:
        """The stream's frames (see the module); ``once``: only the current stamp."""
        sent = watch.stamp
        yield f"retry: {RETRY_MS}\n\nevent: changed\ndata: {sent}\n\n"
        if once:
            return
        if self.min_interval_s > 0:
            yield f"event: pace\ndata: {round(self.min_interval_s * 1000)}\n\n"
        last = self.clock()  # the first stamp counts: the page refreshes on it
        end = time.monotonic() + LIFETIME_S
        while not self._closed.is_set():
            left = end - time.monotonic()
            if left <= 0:
                return
            # a stamp that moved while the last frame was being sent (the stream waited at
            # its ``yield``) has already replaced its event: it is sent without waiting
            if watch.stamp == sent:
                try:
                    await asyncio.wait_for(watch.moved.wait(), min(HEARTBEAT_S, left))
                except TimeoutError:
                    if end - time.monotonic() > 0:
                        yield ": still here\n\n"
                    continue
                if self._closed.is_set():
                    return
                if watch.stamp == sent:
                    continue
            # the share on top of the interval too: pages opened together (a round published)
            # would otherwise stay in step, all due at the end of the same interval
            due = max(last + self.min_interval_s, self.clock()) + self._share(watch)
            if not await self._hold(due, end):
                return
            sent, last = watch.stamp, self.clock()  # the newest stamp, moved meanwhile or not
            yield f"event: changed\ndata: {sent}\n\n"

    def _share(self, watch: _Watch) -> float:
        """This frame's random delay in the spread of the tournament's streams (seconds)."""
        if self.min_interval_s <= 0:  # no coalescing: every change at the next tick
            return 0.0
        spread = min(SPREAD_MAX_S, watch.listeners * SPREAD_PER_STREAM_MS / 1000)
        return self.rng.uniform(0.0, spread)

    async def _hold(self, until: float, end: float) -> bool:
        """Wait until ``self.clock()`` reaches ``until`` (or the stream's end is near), one
        timer a frame; ``False`` when the hub closed meanwhile (the server stops)."""
        while not self._closed.is_set():
            wait = min(until - self.clock(), end - time.monotonic())
            if wait <= 0:
                return True
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closed.wait(), wait)
        return False


def _serving_server() -> Any:
    """The uvicorn ``Server`` whose ``serve()`` runs this loop's main task, if any: its
    ``should_exit`` says the server is stopping (uvicorn tells open responses nothing)."""
    from uvicorn import Server

    for task in asyncio.all_tasks():
        frame = getattr(task.get_coro(), "cr_frame", None)
        owner = frame.f_locals.get("self") if frame is not None else None
        # the server itself: its lifespan task's owner (``LifespanOn``) has a ``should_exit``
        # too, which only turns true after the open responses ended (a stream then held the
        # stop for its whole minute, whenever the set of tasks gave that one first)
        if isinstance(owner, Server):
            return owner
    return None


class EventStream(StreamingResponse):
    """A streaming response that ends as soon as the client goes away (it listens for the
    disconnect on every ASGI version, so a closed tab frees its stream at once); ``done`` runs
    once when it ends, however it ends."""

    def __init__(self, content: AsyncIterator[str], done: Callable[[], None],
                 headers: dict[str, str]) -> None:
        super().__init__(content, media_type="text/event-stream", headers=headers)
        self.done = done

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            async with anyio.create_task_group() as group:
                async def stream() -> None:
                    with contextlib.suppress(OSError):  # the client went away
                        await self.stream_response(send)
                    group.cancel_scope.cancel()

                group.start_soon(stream)
                while (await receive())["type"] != "http.disconnect":
                    pass
                group.cancel_scope.cancel()
        finally:
            self.done()


@router.get("/t/{tid}/events", include_in_schema=False)
async def events(request: Request, tid: TournamentPath, state: StateDep) -> Response:
    """The tournament's change stream (public: it only says that something changed); 404 for
    an unknown tournament, 503 with ``Retry-After`` beyond the process's open streams. A
    client that does not ask for ``text/event-stream`` (an ``EventSource`` always does; a probe,
    ``curl`` without it) gets the current stamp and the end at once."""
    hub = state.live
    try:
        watch = await hub.join(tid)
    except TooManyStreams as error:
        refused = message_response(request, 503, error)
        refused.headers["Retry-After"] = str(RETRY_AFTER_S)
        return refused
    once = "text/event-stream" not in request.headers.get("accept", "")
    return EventStream(hub.frames(watch, once=once), lambda: hub.leave(tid, watch), headers={
        "Cache-Control": "no-store", "X-Accel-Buffering": "no"})

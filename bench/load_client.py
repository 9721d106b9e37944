"""The players of ``bench/load.py``: one asyncio task per player, all in one client process
(``httpx.AsyncClient``), each with its own session cookie and CSRF cookie (the client's own
cookie jar refuses every cookie, so no player ever sends another's).

A player's round, as a phone with JavaScript does it (HTMX requests for the match card):

1. at its arrival time (spread uniformly over the first ``open_s`` = 60 s after the round is
   published) it opens its match card ``GET /t/{tid}/me`` (the page; it carries the CSRF
   token of the player's forms) and the public pairings ``GET /t/{tid}/pairings``;
2. player A of every table reports the result ``POST /t/{tid}/me/report`` (HTMX) at a moment
   spread uniformly over the following ``report_s`` = 120 s (a compressed round);
3. player B, 5–30 s after A's report was acknowledged, refreshes its card (``GET /t/{tid}/me``
   as HTMX) and confirms: the same result from its own side (``POST /t/{tid}/me/report``);
4. both, 1–10 s after their match is settled, refresh ``GET /t/{tid}/standings`` and
   ``GET /t/{tid}/pairings``; a player with a bye opens its pages, then refreshes them once
   during the reports.

Every request's latency counts from before it is sent (a wait for a pooled connection
included) to its whole body read. An error is any status of 400 or more, or a transport error.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import time
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any

import httpx

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
SEEN = re.compile(r'/me\?seen=([^"&]+)"')
JITTER_S = 0.25
"""``static/live.js``: a page refreshes its live part within 250 ms of the stream's word."""
RETRY_S = 2.0
"""The stream's ``retry: 2000``: the browser reconnects 2 s after it ended."""
TIMEOUT_S = 60.0
KEEPALIVE_S = 2.0
"""Below uvicorn's 5 s keep-alive: a connection the server is closing is never reused (with
both at 5 s, a request sent on it as it closed failed with a ReadError, the client's race)."""
TABLES_A_CLIENT = 16
"""Players share ``httpx.AsyncClient`` objects by 16 tables (32 connections at most each): one
client's connection pool costs time quadratic in its waiting requests (httpcore 1.x), which
with 2,000 players in one pool made the client, not the server, the bottleneck."""


class _NoCookies(DefaultCookiePolicy):
    def set_ok(self, cookie: Any, request: Any) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class Table:
    number: int
    a: str
    """Player A's session token (A reports)."""
    b: str
    """Player B's session token (B confirms)."""
    score: str
    """The result A reports (A's games first); B confirms it reversed."""


@dataclass(slots=True)
class Outcome:
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    samples: list[str] = field(default_factory=list)
    reported: dict[int, str] = field(default_factory=dict)
    """table → A's score, for every report the server acknowledged."""
    confirmed: dict[int, str] = field(default_factory=dict)
    """table → A's score, for every confirmation the server acknowledged."""
    seconds: float = 0.0
    client_cpu_s: float = 0.0
    streams: int = 0
    """``--live``: live-update streams opened (reconnections included)."""

    def failed(self, name: str, what: str) -> None:
        self.errors[name] = self.errors.get(name, 0) + 1
        if len(self.samples) < 10:
            self.samples.append(f"{name}: {what}")


def reversed_score(score: str) -> str:
    parts = score.split("-")
    return "-".join([parts[1], parts[0], *parts[2:]])


class Player:
    def __init__(self, client: httpx.AsyncClient, outcome: Outcome, tid: int,
                 session: str, streams: httpx.AsyncClient | None = None) -> None:
        self.client, self.outcome, self.tid = client, outcome, tid
        self.cookies = {"turnir_session": session}
        self.token = ""
        self.streams = streams
        """``--live``: the client that holds this player's live-update stream."""
        self.page = "card"
        """The page the player has open: its live part is what a change refreshes."""
        self.seen = ""
        """The state the open match card shows (its poll's ``?seen=``)."""
        self.watching: asyncio.Task[None] | None = None

    async def call(self, name: str, method: str, path: str, *, htmx: bool = False,
                   data: dict[str, str] | None = None) -> httpx.Response | None:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if htmx:
            headers["HX-Request"] = "true"
        start = time.perf_counter()
        try:
            answer = await self.client.request(method, path, headers=headers, data=data)
        except httpx.HTTPError as error:
            self.outcome.failed(name, f"{type(error).__name__} {error}")
            return None
        self.outcome.latencies.setdefault(name, []).append(time.perf_counter() - start)
        if answer.status_code >= 400:
            self.outcome.failed(name, f"HTTP {answer.status_code} {answer.text[:200]!r}")
            return None
        nonce = answer.cookies.get("turnir_csrf")
        if nonce:
            self.cookies["turnir_csrf"] = nonce
        found = TOKEN.search(answer.text)
        if found:
            self.token = found.group(1)
        if name in ("me", "card", "report", "confirm"):  # a match card: its poll, if any
            seen = SEEN.search(answer.text)
            self.seen = seen.group(1) if seen else ""
        return answer

    async def open(self) -> None:
        await self.call("me", "GET", f"/t/{self.tid}/me")
        if self.streams is not None and self.watching is None:
            self.watching = asyncio.create_task(self.watch())
        await self.call("pairings", "GET", f"/t/{self.tid}/pairings")
        self.page = "pairings"

    async def live_refresh(self) -> None:
        """What ``static/live.js`` does on ``turnir:changed``: the open page's live part."""
        await asyncio.sleep(random.uniform(0, JITTER_S))
        if self.page == "card":
            if self.seen:  # the card polls only while its match can be reported
                await self.call("live card", "GET", f"/t/{self.tid}/me?seen={self.seen}",
                                htmx=True)
        else:
            await self.call(f"live {self.page}", "GET", f"/t/{self.tid}/{self.page}",
                            htmx=True)

    async def watch(self) -> None:
        """The page's ``EventSource``: a refresh per moved stamp; reconnects after each end."""
        assert self.streams is not None
        headers = {"Cookie": f"turnir_session={self.cookies['turnir_session']}",
                   "Accept": "text/event-stream"}
        stamp: str | None = None
        refreshing: set[asyncio.Task[None]] = set()
        while True:
            try:
                async with self.streams.stream("GET", f"/t/{self.tid}/events",
                                               headers=headers) as answer:
                    if answer.status_code != 200:
                        self.outcome.failed("events", f"HTTP {answer.status_code}")
                    else:
                        self.outcome.streams += 1
                    async for line in answer.aiter_lines():
                        if not line.startswith("data: "):
                            continue
                        now = line[6:].strip()
                        if now != stamp:  # live.js: the first stamp too
                            job = asyncio.create_task(self.live_refresh())
                            refreshing.add(job)
                            job.add_done_callback(refreshing.discard)
                        stamp = now
            except httpx.HTTPError as error:
                self.outcome.failed("events", f"{type(error).__name__} {error}")
            await asyncio.sleep(RETRY_S)

    async def leave(self) -> None:
        if self.watching is not None:
            self.watching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.watching

    async def report(self, name: str, table: int, score: str) -> bool:
        form = {"csrf_token": self.token, "round": "1", "table": str(table), "score": score}
        self.page = "card"
        answer = await self.call(name, "POST", f"/t/{self.tid}/me/report", htmx=True, data=form)
        return answer is not None and answer.status_code == 200

    async def refresh(self) -> None:
        self.page = "standings"
        await self.call("standings", "GET", f"/t/{self.tid}/standings")
        self.page = "pairings"
        await self.call("pairings", "GET", f"/t/{self.tid}/pairings")
        await self.leave()


@dataclass(frozen=True, slots=True)
class Timing:
    """The compressed round (``docs/reliability.md``, Load): every player opens their card and
    the pairings within ``open_s`` of publication; player A reports at a moment spread over
    the following ``report_s``; B confirms ``confirm_s`` after A's report; both refresh the
    standings and the pairings ``refresh_s`` after the match is settled."""

    open_s: float = 60.0
    report_s: float = 120.0
    confirm_s: tuple[float, float] = (5.0, 30.0)
    refresh_s: tuple[float, float] = (1.0, 10.0)


async def _until(start: float, at: float) -> None:
    await asyncio.sleep(max(0.0, start + at - time.perf_counter()))


async def _table(client: httpx.AsyncClient, outcome: Outcome, tid: int, table: Table,
                 timing: Timing, rng: random.Random, start: float,
                 streams: httpx.AsyncClient | None) -> None:
    a, b = (Player(client, outcome, tid, s, streams) for s in (table.a, table.b))
    reported, settled = asyncio.Event(), asyncio.Event()
    arrive_a, arrive_b = rng.uniform(0, timing.open_s), rng.uniform(0, timing.open_s)
    report_at = timing.open_s + rng.uniform(0, timing.report_s)
    confirm_after = rng.uniform(*timing.confirm_s)
    refresh_a, refresh_b = (rng.uniform(*timing.refresh_s) for _ in range(2))

    async def side_a() -> None:
        await _until(start, arrive_a)
        await a.open()
        await _until(start, report_at)
        if await a.report("report", table.number, table.score):
            outcome.reported[table.number] = table.score
        reported.set()
        await settled.wait()
        await asyncio.sleep(refresh_a)
        await a.refresh()

    async def side_b() -> None:
        await _until(start, arrive_b)
        await b.open()
        await reported.wait()
        await asyncio.sleep(confirm_after)
        if table.number in outcome.reported:
            b.page = "card"
            await b.call("card", "GET", f"/t/{tid}/me", htmx=True)
            if await b.report("confirm", table.number, reversed_score(table.score)):
                outcome.confirmed[table.number] = table.score
        settled.set()
        await asyncio.sleep(refresh_b)
        await b.refresh()

    await asyncio.gather(side_a(), side_b())


async def _bye(client: httpx.AsyncClient, outcome: Outcome, tid: int, session: str,
               timing: Timing, rng: random.Random, start: float,
               streams: httpx.AsyncClient | None) -> None:
    player = Player(client, outcome, tid, session, streams)
    await _until(start, rng.uniform(0, timing.open_s))
    await player.open()
    await _until(start, timing.open_s + rng.uniform(0, timing.report_s))
    await player.refresh()


async def play_round(base: str, tid: int, tables: list[Table], byes: list[str], *,
                     timing: Timing, seed: int, live: bool = False) -> Outcome:
    """Every player's round against the server at ``base``; the outcome with the latencies."""
    outcome = Outcome()
    rng = random.Random(seed)
    shards = max(1, len(tables) // TABLES_A_CLIENT)
    limits = httpx.Limits(max_connections=2 * TABLES_A_CLIENT + 2,
                          max_keepalive_connections=2 * TABLES_A_CLIENT + 2,
                          keepalive_expiry=KEEPALIVE_S)
    async with AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(httpx.AsyncClient(
            base_url=base, limits=limits, timeout=TIMEOUT_S,
            cookies=CookieJar(policy=_NoCookies()))) for _ in range(shards)]
        # --live: each shard's streams on a client of their own (a stream holds its connection)
        streams = [await stack.enter_async_context(httpx.AsyncClient(
            base_url=base, limits=httpx.Limits(max_connections=8 * TABLES_A_CLIENT),
            timeout=httpx.Timeout(TIMEOUT_S, read=None),
            cookies=CookieJar(policy=_NoCookies()))) for _ in range(shards if live else 0)]
        cpu, start = time.process_time(), time.perf_counter()
        jobs = [_table(clients[i % shards], outcome, tid, t, timing, rng, start,
                       streams[i % shards] if live else None)
                for i, t in enumerate(tables)]
        jobs += [_bye(clients[0], outcome, tid, s, timing, rng, start,
                      streams[0] if live else None) for s in byes]
        await asyncio.gather(*jobs)
        outcome.seconds = time.perf_counter() - start
        outcome.client_cpu_s = time.process_time() - cpu
    return outcome

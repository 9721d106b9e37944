"""Cached public pages: rendered once per change of the tournament, not per request.

Every change to a tournament appends to its audit log (``docs/storage.md``), so the newest
audit id of the tournament is its *stamp* (``turnir.services.audit.change_stamp``): one indexed
look-up per request tells whether a cached page is still right, whoever made the change (this
process, another worker, the CLI). A page is rendered again only when its stamp moved.

``PublicPages`` serves an anonymous visitor's cached page before routing (an ASGI middleware):
the look-up of the stamp (off the event loop: it blocks) and the bytes, nothing else. A live
part rendered at most ``live_stale_s`` seconds ago may be served although the stamp moved
(``PageCache``'s ``stale_s``: anonymous visitors and players only, never the staff). On SQLite
the stamp is read on a read-only connection of its own (``services.audit.ChangeStamps``; in WAL
mode a statement sees every committed change).
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

from turnir.services.audit import ChangeStamps
from turnir.web.i18n import COOKIE as LANG_COOKIE
from turnir.web.i18n import negotiate
from turnir.web.security import SESSION_COOKIE

T = TypeVar("T")


def _usable(found: tuple[int, float, Any] | None, stamp: int, stale_s: float) -> bool:
    """A kept value answers for ``stamp``: made at that stamp, or (``stale_s`` > 0) at an
    older one at most ``stale_s`` seconds ago (the stale tolerance of the live parts)."""
    if found is None:
        return False
    return found[0] == stamp or (
        stale_s > 0 and found[0] < stamp and time.monotonic() - found[1] <= stale_s)


class PageCache:
    """Rendered pages by key, each kept with the stamp it was rendered at and when (LRU).

    ``stale_s`` (issue 15, load): a value rendered at most that many seconds ago is served
    even when the stamp moved since, so a tournament that changes many times a second is
    rendered again at most once per ``stale_s`` per key and process, not once per change;
    0 (the default) is always fresh."""

    def __init__(self, entries: int) -> None:
        self.entries = entries
        self._pages: OrderedDict[Hashable, tuple[int, float, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, stamp: int, make: Callable[[], T], *,
            stale_s: float = 0.0) -> T:
        with self._lock:
            found = self._pages.get(key)
            if _usable(found, stamp, stale_s):
                assert found is not None
                self._pages.move_to_end(key)
                self.hits += 1
                value: T = found[2]
                return value
        at = time.monotonic()  # before the reads: the value is at least this fresh
        page = make()
        with self._lock:
            self.misses += 1
            self._keep(key, (stamp, at, page))
        return page

    def peek(self, key: Hashable, stamp: int, *, stale_s: float = 0.0) -> Any:
        """The value kept for ``key`` when it was made at ``stamp`` (or, within ``stale_s``,
        before it), else ``None``."""
        found = self.lookup(key, stamp, stale_s=stale_s)
        return None if found is None else found[0]

    def lookup(self, key: Hashable, stamp: int, *,
               stale_s: float = 0.0) -> tuple[Any, bool] | None:
        """``peek``'s value with whether it is stale (made before ``stamp``)."""
        with self._lock:
            found = self._pages.get(key)
            if not _usable(found, stamp, stale_s):
                return None
            assert found is not None
            self.hits += 1
            return found[2], found[0] != stamp

    def put(self, key: Hashable, stamp: int, value: Any, *, at: float | None = None) -> None:
        """Keep ``value`` as made at ``stamp``, at monotonic time ``at`` (default: now)."""
        with self._lock:
            self._keep(key, (stamp, time.monotonic() if at is None else at, value))

    def made(self, key: Hashable) -> tuple[int, float] | None:
        """(stamp, monotonic time) of the value kept for ``key``, if any."""
        with self._lock:
            found = self._pages.get(key)
            return None if found is None else (found[0], found[1])

    def _keep(self, key: Hashable, entry: tuple[int, float, Any]) -> None:
        self._pages[key] = entry
        self._pages.move_to_end(key)
        while len(self._pages) > self.entries:
            self._pages.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()


STALE_HEADER = "X-Turnir-Stale"
"""Marks an answer served within the stale tolerance (the tournament changed since it was
rendered): ``static/live.js`` does not count it as up to date, so the part's timed poll still
runs and brings the change at the latest one poll later."""

PUBLIC_PAGE = re.compile(r"^/t/([1-9][0-9]{0,9})/(pairings|standings|top|places)$")


def anonymous_key(locale: str, path: str, query: str, htmx: bool) -> tuple[str, ...]:
    """The cache key of an anonymous visitor's public page (or its refreshing part)."""
    return ("anonymous", locale, path, query, "part" if htmx else "page")


def _cookies(header: str) -> dict[str, str]:
    found = {}
    for part in header.split(";"):
        name, _, value = part.strip().partition("=")
        if name:
            found[name] = value
    return found


class PublicPages:
    """ASGI middleware: an anonymous GET of a cached public page is answered from the cache
    when its tournament's stamp has not moved; everything else goes to the app."""

    def __init__(self, app: ASGIApp, *, cache: PageCache, stamps: ChangeStamps,
                 default_locale: str, stale_s: float = 0.0) -> None:
        self.app = app
        self.stale_s = stale_s
        """The stale tolerance of these pages (``WebSettings.live_stale_s``)."""
        self.cache = cache
        self.stamps = stamps
        self.default_locale = default_locale

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "GET":
            await self.app(scope, receive, send)
            return
        found = PUBLIC_PAGE.match(scope["path"])
        if found is None:
            await self.app(scope, receive, send)
            return
        headers = {k: v for k, v in scope["headers"]}
        cookies = _cookies(headers.get(b"cookie", b"").decode("latin-1"))
        if b"authorization" in headers or SESSION_COOKIE in cookies:
            await self.app(scope, receive, send)
            return
        locale = negotiate(cookies.get(LANG_COOKIE),
                           headers.get(b"accept-language", b"").decode("latin-1"),
                           self.default_locale)
        key = anonymous_key(locale, scope["path"], scope["query_string"].decode("latin-1"),
                            headers.get(b"hx-request") == b"true")
        stamp = await run_in_threadpool(self.stamps.stamp, int(found.group(1)))  # blocking
        kept = self.cache.lookup(key, stamp, stale_s=self.stale_s)
        if kept is None:
            await self.app(scope, receive, send)
            return
        page, stale = kept
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"text/html; charset=utf-8"),
            (b"content-length", str(len(page)).encode()),
            (b"vary", b"Cookie, Accept-Language, HX-Request"),
            *([(STALE_HEADER.encode(), b"1")] if stale else []),
        ]})
        await send({"type": "http.response.body", "body": page})

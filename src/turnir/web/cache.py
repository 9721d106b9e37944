"""Cached public pages: rendered once per change of the tournament, not per request.

Every change to a tournament appends to its audit log (``docs/storage.md``), so the newest
audit id of the tournament is its *stamp* (``turnir.services.audit.change_stamp``): one indexed
look-up per request tells whether a cached page is still right, whoever made the change (this
process, another worker, the CLI). A page is rendered again only when its stamp moved.

``PublicPages`` serves an anonymous visitor's cached page before routing (an ASGI middleware):
the look-up of the stamp (off the event loop: it blocks) and the bytes, nothing else. On SQLite
the stamp is read on a read-only connection of its own (``services.audit.ChangeStamps``; in WAL
mode a statement sees every committed change).
"""

from __future__ import annotations

import re
import threading
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


class PageCache:
    """Rendered pages by key, each kept with the stamp it was rendered at (LRU)."""

    def __init__(self, entries: int) -> None:
        self.entries = entries
        self._pages: OrderedDict[Hashable, tuple[int, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, stamp: int, make: Callable[[], T]) -> T:
        with self._lock:
            found = self._pages.get(key)
            if found is not None and found[0] == stamp:
                self._pages.move_to_end(key)
                self.hits += 1
                value: T = found[1]
                return value
        page = make()
        with self._lock:
            self.misses += 1
            self._pages[key] = (stamp, page)
            self._pages.move_to_end(key)
            while len(self._pages) > self.entries:
                self._pages.popitem(last=False)
        return page

    def peek(self, key: Hashable, stamp: int) -> Any:
        """The value kept for ``key`` when it was made at ``stamp``, else ``None``."""
        with self._lock:
            found = self._pages.get(key)
            if found is None or found[0] != stamp:
                return None
            self.hits += 1
            return found[1]

    def put(self, key: Hashable, stamp: int, value: Any) -> None:
        with self._lock:
            self._pages[key] = (stamp, value)
            self._pages.move_to_end(key)
            while len(self._pages) > self.entries:
                self._pages.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()


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
                 default_locale: str) -> None:
        self.app = app
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
        page = self.cache.peek(key, stamp)
        if page is None:
            await self.app(scope, receive, send)
            return
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"text/html; charset=utf-8"),
            (b"content-length", str(len(page)).encode()),
            (b"vary", b"Cookie, Accept-Language, HX-Request"),
        ]})
        await send({"type": "http.response.body", "body": page})

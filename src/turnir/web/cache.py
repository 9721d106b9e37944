"""Cached public pages: rendered once per change of the tournament, not per request.

Every change to a tournament appends to its audit log (``docs/storage.md``), so the newest
audit id of the tournament is its *stamp*: one indexed look-up per request tells whether a
cached page is still right, whoever made the change (this process, another worker, the CLI).
A page is rendered again only when its stamp moved.

``PublicPages`` serves an anonymous visitor's cached page before routing (an ASGI middleware):
the look-up of the stamp and the bytes, nothing else. On SQLite the stamp is read on a
read-only connection of its own (in WAL mode a statement sees every committed change).
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from sqlalchemy import bindparam, func, select
from starlette.types import ASGIApp, Receive, Scope, Send

from turnir.storage.database import Database
from turnir.storage.direct import DirectStatement
from turnir.storage.tables import audit_log
from turnir.web.i18n import COOKIE as LANG_COOKIE
from turnir.web.i18n import negotiate
from turnir.web.security import SESSION_COOKIE

T = TypeVar("T")

_STAMP = DirectStatement(
    select(func.coalesce(func.max(audit_log.c.id), 0))
    .where(audit_log.c.tournament_id == bindparam("tournament_id"))
)


def tournament_stamp(db: Database, tournament_id: int) -> int:
    """The id of the tournament's newest audit record (0 when it has none)."""
    with db.read() as conn:
        row = _STAMP.execute(conn, {"tournament_id": tournament_id}).fetchone()
    return int(row[0]) if row else 0


_RAW_STAMP = ("SELECT coalesce(max(id), 0) FROM audit_log WHERE tournament_id = ?")


class Stamps:
    """Reads tournaments' stamps; on an SQLite file through one read-only driver connection
    (a look-up costs microseconds), elsewhere through the ``Database``."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._lock = threading.Lock()
        self._raw: sqlite3.Connection | None = None
        database = db.engine.url.database if db.is_sqlite else None
        if database and database != ":memory:" and not database.startswith("file:"):
            self._raw = sqlite3.connect(f"file:{database}?mode=ro", uri=True,
                                        check_same_thread=False, isolation_level=None)

    def stamp(self, tournament_id: int) -> int:
        if self._raw is None:
            return tournament_stamp(self.db, tournament_id)
        with self._lock:
            row = self._raw.execute(_RAW_STAMP, (tournament_id,)).fetchone()
        return int(row[0]) if row else 0

    def close(self) -> None:
        if self._raw is not None:
            self._raw.close()
            self._raw = None


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

    def __init__(self, app: ASGIApp, *, cache: PageCache, stamps: Stamps,
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
        page = self.cache.peek(key, self.stamps.stamp(int(found.group(1))))
        if page is None:
            await self.app(scope, receive, send)
            return
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"text/html; charset=utf-8"),
            (b"content-length", str(len(page)).encode()),
            (b"vary", b"Cookie, Accept-Language, HX-Request"),
        ]})
        await send({"type": "http.response.body", "body": page})

"""Cached public pages: rendered once per change of the tournament, not per request.

Every change to a tournament appends to its audit log (``docs/storage.md``), so the newest
audit id of the tournament is its *stamp*: one indexed look-up per request tells whether a
cached page is still right, whoever made the change (this process, another worker, the CLI).
A page is rendered again only when its stamp moved.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from sqlalchemy import bindparam, func, select

from turnir.storage.database import Database
from turnir.storage.direct import DirectStatement
from turnir.storage.tables import audit_log

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

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()

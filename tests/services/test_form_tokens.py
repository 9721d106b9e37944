"""Issue 15: the creating forms' tokens (``turnir.services.form_tokens``) and the kept CSRF key
(``turnir.services.site_secrets``) live in the database, so several workers agree on them:
two concurrent claims of one key give exactly one winner, and two processes drawing the key
together keep one. On SQLite and PostgreSQL (the ``db`` fixture)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from turnir.services.form_tokens import (
    claim_token,
    finish_token,
    release_token,
    token_claim,
    token_key,
)
from turnir.services.site_secrets import csrf_key, site_secret
from turnir.storage.database import Database

T = TypeVar("T")
KEYS = 20


def together(db: Database, action: Callable[[Database], T], count: int = 2) -> list[T]:
    """``action`` run at once by ``count`` threads, each on its own engine (as workers are)."""
    url = db.engine.url.render_as_string(hide_password=False)
    engines = [Database.open(url) for _ in range(count)]
    start = threading.Barrier(count)

    def one(own: Database) -> T:
        start.wait()
        return action(own)

    try:
        with ThreadPoolExecutor(count) as pool:
            return list(pool.map(one, engines))
    finally:
        for own in engines:
            own.close()


def test_two_concurrent_claims_of_one_key_give_exactly_one_winner(db: Database) -> None:
    for number in range(KEYS):
        key = token_key("a1", "/new", f"token-{number:04d}-abcdefgh")
        found = together(db, lambda own, key=key: claim_token(own, key, keep_seconds=60,
                                                              most=1000))
        assert sorted(found, key=lambda row: row is not None)[0] is None  # one won
        losers = [row for row in found if row is not None]
        assert len(losers) == 1 and not losers[0].finished  # the other saw it pending


def test_a_claim_is_pending_then_finished_with_its_page_or_freed_when_refused(
        db: Database) -> None:
    key = token_key("a1", "/new", "x" * 24)
    assert len(key) == 64 and "x" * 24 not in key  # only the digest is kept
    assert claim_token(db, key, keep_seconds=60, most=100) is None
    finish_token(db, key, "/t/7/manage")
    finish_token(db, key, None)  # a finished claim keeps its page
    kept = token_claim(db, key)
    assert kept is not None and kept.finished and kept.url == "/t/7/manage"
    release_token(db, key)  # finished: stays spent
    assert claim_token(db, key, keep_seconds=60, most=100) is not None
    other = token_key("a1", "/new", "y" * 24)
    assert claim_token(db, other, keep_seconds=60, most=100) is None
    release_token(db, other)  # refused: free again
    assert token_claim(db, other) is None
    assert claim_token(db, other, keep_seconds=60, most=100) is None


def test_an_expired_claim_is_free_again_and_at_most_most_are_kept(db: Database) -> None:
    short = token_key("a1", "/new", "s" * 24)
    assert claim_token(db, short, keep_seconds=0, most=100) is None
    assert claim_token(db, short, keep_seconds=60, most=100) is None  # its time was over
    for number in range(5):
        claim_token(db, token_key("a1", "/new", f"{number}" * 24), keep_seconds=60, most=3)
    assert token_claim(db, short) is None  # beyond the 3 kept: the one expiring first went


def test_two_workers_drawing_the_csrf_key_together_keep_one(db: Database) -> None:
    keys = together(db, csrf_key, count=3)
    assert len(set(keys)) == 1 and len(keys[0]) >= 40
    assert csrf_key(db) == keys[0]  # and every later start reads the same
    assert site_secret(db, "other") != keys[0]

"""The creating forms' one-time tokens kept in the database (``form_tokens``, issue 15), so
that every web worker of a deployment sees the same claims: a form sent twice creates once
whichever workers the two requests reach (``turnir.web.form_once`` has the rules).

A key is the SHA-256 (hex) of the visitor, the form's path and its token (or what the form
said): the tokens themselves are never kept. Each call is one short write transaction (a
claim also forgets a bounded number of expired rows, ``storage.form_tokens_repo.forget``).
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from turnir.errors import ConflictError
from turnir.services.common import Database, changing, reading
from turnir.storage import form_tokens_repo
from turnir.storage.form_tokens_repo import TokenRow as TokenRow

KEEPER = "form tokens"
"""Who keeps the tokens (their writes leave no audit entry)."""


def token_key(visitor: str, path: str, token: str) -> str:
    """The stored key of ``token`` sent by ``visitor`` to the form at ``path``."""
    return hashlib.sha256(f"{visitor}|{path}|{token}".encode("utf-8", "surrogatepass")
                          ).hexdigest()


def claim_token(db: Database, key: str, *, keep_seconds: float, most: int) -> TokenRow | None:
    """``None`` when ``key`` was free and is now the caller's, pending, for ``keep_seconds``;
    else its claim as kept (pending or finished). At most ``most`` keys are kept: beyond
    them, those that expire first are forgotten."""
    with changing(db, None, KEEPER) as change:
        form_tokens_repo.forget(change.conn, change.at, most)
        keep_until = change.at + timedelta(seconds=max(0.0, keep_seconds))
        for _ in range(3):  # a claim released between our insert and our read: try again
            if form_tokens_repo.claim(change.conn, key, change.at, keep_until):
                return None
            found = form_tokens_repo.read(change.conn, key)
            if found is not None:
                return found
        raise ConflictError("the form is being sent right now; send it again",
                            code="form_token_busy")


def token_claim(db: Database, key: str) -> TokenRow | None:
    """The claim kept for ``key`` (``None``: none, or expired)."""
    with reading(db) as tx:
        found = form_tokens_repo.read(tx, key)
    if found is None or found.keep_until <= db.clock.now():
        return None
    return found


def finish_token(db: Database, key: str, url: str | None) -> None:
    """The change was made; ``url`` is the page it led to (a finished claim is kept)."""
    with changing(db, None, KEEPER) as change:
        form_tokens_repo.finish(change.conn, key, url)


def release_token(db: Database, key: str) -> None:
    """The change was refused: a pending ``key`` is free again."""
    with changing(db, None, KEEPER) as change:
        form_tokens_repo.release(change.conn, key)

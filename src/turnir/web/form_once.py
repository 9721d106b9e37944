"""One form, one change (issue 12 item 4): a creating form sent twice (a double click, Back and
send again, a retry of a slow phone) creates once.

Each form that creates something carries a one-time token, drawn when the page is rendered:

    <input type="hidden" name="{{ form_token_field }}" value="{{ form_token() }}">

(``form_token`` and ``form_token_field`` are in every page's context, ``deps.page_context``).
Its route takes ``FormOnceDep`` and answers with ``once.done(request, url)`` instead of
``deps.done``:

    def add(request: Request, ..., once: FormOnceDep) -> Response:
        made = service(...)
        return once.done(request, f"/t/{made.id}")

The first request with a token claims it before the route runs; the change is made and the
page it leads to is remembered with the token. A request with a token already used does not
run the route: it gets the same answer (HTMX's ``HX-Redirect``, a plain form's 303 to the
same page: POST-redirect-GET), or, for a form that answered with a message and no page, a
note that the form was sent already. A request arriving while the first is still being
handled waits for it (up to ``WAIT_SECONDS``). Back and send again may bring a page fetched
anew, with a new token: so what the form says (every field but the tokens) is kept too, for
``SAME_SECONDS``, and the same form filled the same way is answered as the first one, for
the routes that take ``FormSameDep`` (a new tournament: another needs another name; a player;
an account). A refused change (a ``UserError``, any error)
frees the token: the corrected form can be sent again. A request without a token (the API, an
old page) is handled as before.

Tokens are kept in the database (``form_tokens``, ``turnir.services.form_tokens``; issue
15), so that every worker of the server sees them, for ``KEEP_SECONDS`` and at most ``MOST``
of them, per visitor: a token claimed by one account means nothing for another. A waiting
request polls the database every ``POLL_SECONDS``. A route that reads its body itself (an
upload) calls ``form_once(request, token)`` once it has the token.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import secrets
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Annotated

import anyio
from fastapi import Depends, FastAPI, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from turnir.errors import UserError
from turnir.services.common import Database
from turnir.services.form_tokens import (
    TokenRow,
    claim_token,
    finish_token,
    release_token,
    token_claim,
    token_key,
)
from turnir.web.security import CSRF_FIELD
from turnir.web.templating import N_

FIELD = "form_token"
"""The hidden field's name."""
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
KEEP_SECONDS = 6 * 3600
MOST = 20_000
WAIT_SECONDS = 15.0
POLL_SECONDS = 0.05
SAME_SECONDS = 10 * 60
"""How long the same form filled the same way counts as sent again (Back, then send)."""
ALREADY_SENT = N_("This form has already been sent; the change was made once.")


def new_token() -> str:
    """A fresh token for one form on one page."""
    return secrets.token_urlsafe(18)


class FormTokens:
    """The tokens claimed lately, kept in the database (``turnir.services.form_tokens``) so
    that every worker sees them: pending (its request is being handled) or finished (with the
    page it led to). The keys are SHA-256 hex digests (``_key``)."""

    def __init__(self, db: Database, *, keep_seconds: float = KEEP_SECONDS,
                 most: int = MOST) -> None:
        self.db = db
        self.keep_seconds = keep_seconds
        self.most = most

    def claim(self, key: str, *, keep: float | None = None) -> TokenRow | None:
        """``None`` when ``key`` was free and is now the caller's (for ``keep`` seconds, at
        most ``keep_seconds``); else its claim."""
        wanted = self.keep_seconds if keep is None else keep
        return claim_token(self.db, key, keep_seconds=min(wanted, self.keep_seconds),
                           most=self.most)

    def peek(self, key: str) -> TokenRow | None:
        """The claim on ``key`` (``None``: free)."""
        return token_claim(self.db, key)

    def finish(self, key: str, url: str | None) -> None:
        """The change was made; ``url`` is the page it led to (kept when already set)."""
        finish_token(self.db, key, url)

    def release(self, key: str) -> None:
        """The change was refused: the token is free again."""
        release_token(self.db, key)


class FormReplay(Exception):
    """The form's token was used already: answer as the first time (``url``) or say so."""

    def __init__(self, url: str | None) -> None:
        super().__init__(url)
        self.url = url


@dataclass(frozen=True, slots=True)
class FormOnce:
    """A route's claim on its form's token (``key`` ``None``: the form had none)."""

    tokens: FormTokens | None
    key: str | None
    same: str | None = None
    """The key of what the form said, when it is kept too."""

    def done(self, request: Request, url: str) -> Response:
        """``deps.done``, remembering ``url`` as the answer to this token."""
        from turnir.web.deps import done

        if self.tokens is not None and self.key is not None:
            self.tokens.finish(self.key, url)
            if self.same is not None:
                self.tokens.finish(self.same, url)
        return done(request, url)


def _tokens(request: Request) -> FormTokens:
    from turnir.web.deps import get_state

    return get_state(request).form_tokens


def _key(request: Request, token: str) -> str:
    from turnir.web.deps import get_visitor

    visitor = get_visitor(request)
    who = f"a{visitor.account.id}" if visitor.account is not None else visitor.csrf_nonce
    return token_key(who, request.url.path, token)


async def _claim(tokens: FormTokens, key: str, keep: float | None = None) -> None:
    """Claim ``key``, waiting while another request holds it (reading it every
    ``POLL_SECONDS``, claiming again once it is freed); ``FormReplay`` once it is finished (or
    still pending after ``WAIT_SECONDS``)."""
    waited = 0.0
    while True:
        found = await run_in_threadpool(tokens.claim, key, keep=keep)
        if found is None:
            return
        while not found.finished and waited < WAIT_SECONDS:
            await asyncio.sleep(POLL_SECONDS)
            waited += POLL_SECONDS
            seen = await run_in_threadpool(tokens.peek, key)
            if seen is None:
                break  # refused (or expired): free again, claim it
            found = seen
        else:
            raise FormReplay(found.url)


def _content_key(request: Request, values: Sequence[tuple[str, str]]) -> str:
    """The key of what a form says (every field but the tokens), for this visitor and form."""
    said = sorted((name, value) for name, value in values if name not in (FIELD, CSRF_FIELD))
    digest = hashlib.sha256(json.dumps(said, ensure_ascii=False).encode()).hexdigest()
    return _key(request, f"same:{digest}")


@asynccontextmanager
async def form_once(request: Request, token: object,
                    values: Sequence[tuple[str, str]] = ()) -> AsyncIterator[FormOnce]:
    """Around a creating route: claim the form's ``token`` (nothing when there is none) and,
    with ``values``, what the form says (the same form filled the same way on a page fetched
    again by Back, for ``SAME_SECONDS``); free them when the route fails, finish them when the
    route answers."""
    if token is None or token == "":
        yield FormOnce(None, None)
        return
    if not isinstance(token, str) or not TOKEN.fullmatch(token):
        raise UserError("the form is out of date; reload the page and send it again",
                        code="bad_form_token")
    tokens, key = _tokens(request), _key(request, token)
    await _claim(tokens, key)
    same = _content_key(request, values) if values else None
    if same is not None:
        try:
            await _claim(tokens, same, SAME_SECONDS)
        except FormReplay:
            # this token is spent too: answered as the first one
            await run_in_threadpool(tokens.finish, key, None)
            raise
    try:
        yield FormOnce(tokens, key, same)
    except BaseException:
        with anyio.CancelScope(shield=True):
            await run_in_threadpool(_settle, tokens, (key, same), release=True)
        raise
    await run_in_threadpool(_settle, tokens, (key, same), release=False)


def _settle(tokens: FormTokens, keys: tuple[str | None, ...], *, release: bool) -> None:
    """Free (``release``) or finish each of ``keys`` (``None``: not claimed)."""
    for key in keys:
        if key is not None:
            tokens.release(key) if release else tokens.finish(key, None)


@asynccontextmanager
async def _once(request: Request, *, same: bool) -> AsyncIterator[FormOnce]:
    token: object = None
    values: list[tuple[str, str]] = []
    if request.headers.get("content-type", "").startswith(
            "application/x-www-form-urlencoded"):
        form = await request.form()
        token = form.get(FIELD)
        if same:
            values = [(name, value) for name, value in form.multi_items()
                      if isinstance(value, str)]
    async with form_once(request, token, values) as once:
        yield once


async def _form_once_dep(request: Request) -> AsyncIterator[FormOnce]:
    async with _once(request, same=False) as once:
        yield once


async def _form_same_dep(request: Request) -> AsyncIterator[FormOnce]:
    async with _once(request, same=True) as once:
        yield once


FormOnceDep = Annotated[FormOnce, Depends(_form_once_dep, scope="function")]
"""A creating form's route: sent twice, it runs once (the module's docstring)."""
FormSameDep = Annotated[FormOnce, Depends(_form_same_dep, scope="function")]
"""The same, and the same form filled the same way on a page fetched anew (Back) within
``SAME_SECONDS`` is answered as the first one: for forms whose second identical change makes
no sense (a new tournament, a player, an account), never for one that may rightly be sent
again with the same values after something in between (a staff role removed and given
again)."""


async def _replay(request: Request, error: Exception) -> Response:
    from turnir.web.deps import done, gettext_for, message

    assert isinstance(error, FormReplay)
    if error.url is not None:
        return done(request, error.url)
    return message(request, gettext_for(request)(ALREADY_SENT))


def install(app: FastAPI) -> None:
    """Answer a form sent again as the first time (``FormReplay``)."""
    app.add_exception_handler(FormReplay, _replay)

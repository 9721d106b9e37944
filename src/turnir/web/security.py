"""Who is asking, and may they: sessions, CSRF, login rate limiting, the role checks.

- **Sessions.** Logging in sets the ``turnir_session`` cookie (HttpOnly, SameSite=Lax,
  ``Secure`` behind HTTPS) holding a random token; the database keeps its SHA-256
  (``turnir.services.accounts``). API clients may send the same token as
  ``Authorization: Bearer …`` (``POST /api/v1/session`` gives one).
- **CSRF.** Every visitor gets a random ``turnir_csrf`` cookie (HttpOnly, SameSite=Lax); every
  form carries ``csrf_token``, an HMAC of that cookie with the server's secret, and HTMX sends
  it as the ``X-CSRF-Token`` header. Every POST from a browser (a cookie session or none) must
  carry it; only a bearer-token API call needs none (a browser never adds that header).
- **Login attempts** are limited per login and address: after ``login_failures`` failures in
  ``login_window_s`` seconds the next try is refused with 429 until the window passes (kept in
  the process's memory: one worker, or per worker behind a balancer).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass
from enum import StrEnum

from fastapi import Request

from turnir.errors import UserError
from turnir.services.accounts import AccountInfo, AccountRole
from turnir.web.settings import WebSettings

SESSION_COOKIE = "turnir_session"
CSRF_COOKIE = "turnir_csrf"
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"


class LoginRequired(UserError):
    """The action needs a logged-in account (the API answers 401, pages go to the login)."""

    code = "login_required"


class Forbidden(UserError):
    """Logged in, but the role does not allow this (403)."""

    code = "forbidden"


class TooManyAttempts(UserError):
    """Too many failed logins (429)."""

    code = "too_many_attempts"


class BadCsrf(UserError):
    """A form without a valid CSRF token (403)."""

    code = "csrf"


class Role(StrEnum):
    """The roles of the authorization matrix: the account roles and the anonymous public."""

    ANONYMOUS = "anonymous"
    PLAYER = "player"
    FLOOR_JUDGE = "floor_judge"
    HEAD_JUDGE = "head_judge"
    ORGANIZER = "organizer"


ORGANIZER = frozenset({Role.ORGANIZER})
HEAD = frozenset({Role.ORGANIZER, Role.HEAD_JUDGE})
JUDGES = frozenset({Role.ORGANIZER, Role.HEAD_JUDGE, Role.FLOOR_JUDGE})
PLAYERS = frozenset({Role.PLAYER})
SIGNED_IN = frozenset({Role.ORGANIZER, Role.HEAD_JUDGE, Role.FLOOR_JUDGE, Role.PLAYER})


@dataclass(frozen=True, slots=True)
class Visitor:
    """The person behind a request."""

    account: AccountInfo | None
    locale: str
    csrf_nonce: str
    """The ``turnir_csrf`` cookie (new when the browser had none)."""
    csrf_token: str
    """What forms carry: the HMAC of the nonce."""
    new_csrf: bool
    """The response must set the ``turnir_csrf`` cookie."""
    bearer: bool
    """Authenticated by ``Authorization: Bearer`` (no CSRF check)."""
    session_token: str | None

    @property
    def role(self) -> Role:
        return Role.ANONYMOUS if self.account is None else Role(self.account.role.value)

    @property
    def actor(self) -> str:
        """The name written to the audit log for this person's changes."""
        if self.account is None:
            raise LoginRequired("log in first")
        return self.account.name

    def require(self, allowed: frozenset[Role]) -> AccountInfo:
        """The account when its role is in ``allowed``; else 401 (anonymous) or 403."""
        if self.account is None:
            raise LoginRequired("log in to do this")
        if self.role not in allowed:
            raise Forbidden("your role does not allow this")
        return self.account

    @property
    def is_judge(self) -> bool:
        return self.account is not None and self.account.role.is_judge

    @property
    def is_organizer(self) -> bool:
        return self.account is not None and self.account.role is AccountRole.ORGANIZER


def csrf_token_for(secret: str, nonce: str) -> str:
    return hmac.new(secret.encode(), nonce.encode(), hashlib.sha256).hexdigest()


def new_nonce() -> str:
    return secrets.token_urlsafe(24)


def check_csrf(secret: str, visitor: Visitor, submitted: str | None) -> None:
    if visitor.bearer:
        return
    if visitor.new_csrf or not submitted or not hmac.compare_digest(
        submitted, csrf_token_for(secret, visitor.csrf_nonce)
    ):
        raise BadCsrf("the form has expired or did not come from this site; reload the page "
                      "and send it again")


def client_address(request: Request) -> str:
    """The client's address: the TCP peer, or the client a trusted proxy forwarded
    (``TURNIR_TRUSTED_PROXIES``; the request's ``client`` is rewritten by
    ``turnir.web.headers.SecurityHeaders`` with ``turnir.web.proxies.resolve``)."""
    return request.client.host if request.client else "unknown"


def cookie_secure(request: Request, settings: WebSettings) -> bool:
    """Whether a cookie set on this response gets ``Secure``: the request came over HTTPS
    (directly, or through a trusted proxy's ``X-Forwarded-Proto``), or the operator asked for
    it always (``TURNIR_SECURE_COOKIES=1``)."""
    return settings.secure_cookies or request.url.scheme == "https"


class LoginLimiter:
    """Failed logins per (login, address) in a sliding window."""

    def __init__(self, *, failures: int, window_s: float) -> None:
        self.failures = failures
        self.window_s = window_s
        self._seen: dict[tuple[str, str], deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: tuple[str, str], now: float) -> deque[float]:
        times = self._seen.setdefault(key, deque())
        while times and times[0] <= now - self.window_s:
            times.popleft()
        return times

    def check(self, login: str, address: str) -> None:
        """Refuse when this login from this address failed too often lately."""
        key = (login.strip().casefold(), address)
        now = time.monotonic()
        with self._lock:
            times = self._recent(key, now)
            if len(times) >= self.failures:
                wait = int(times[0] + self.window_s - now) + 1
                raise TooManyAttempts(
                    f"too many failed logins; try again in {wait} s", code="too_many_attempts")

    def failed(self, login: str, address: str) -> None:
        key = (login.strip().casefold(), address)
        with self._lock:
            self._recent(key, time.monotonic()).append(time.monotonic())
            if len(self._seen) > 10_000:  # forget the oldest keys
                for old in list(self._seen)[:5_000]:
                    del self._seen[old]

    def succeeded(self, login: str, address: str) -> None:
        with self._lock:
            self._seen.pop((login.strip().casefold(), address), None)

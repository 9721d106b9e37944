"""Who is asking, and may they: sessions, CSRF, login rate limiting, the role checks.

- **Sessions.** Logging in sets the ``turnir_session`` cookie (HttpOnly, SameSite=Lax,
  ``Secure`` behind HTTPS) holding a random token; the database keeps its SHA-256
  (``turnir.services.accounts``). API clients may send the same token as
  ``Authorization: Bearer …`` (``POST /api/v1/session`` gives one).
- **CSRF.** Every visitor gets a random ``turnir_csrf`` cookie, the *nonce* (HttpOnly,
  SameSite=Lax); every form carries ``csrf_token``, an HMAC with the server's secret of the
  nonce *and of the visitor's session* (the SHA-256 of its token; nothing for the anonymous),
  and HTMX sends it as the ``X-CSRF-Token`` header. Logging in and logging out draw a new
  nonce. So a token seen before the login, or in another session, or planted together with
  its nonce cookie, is refused. Every POST from a browser (a cookie session or none) must
  carry it; only a bearer-token API call needs none (a browser never adds that header).
- **Login attempts** are limited per login and address, per login and per address, with the
  counts in the database, shared by every worker (``turnir.services.login_limits``; the
  limits are ``WebSettings.login_*``). The address is the TCP peer, or what a trusted proxy
  forwarded (``client_address``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum

from fastapi import Request

from turnir.errors import ForbiddenError, UserError
from turnir.services.accounts import AccountInfo, AccountRole
from turnir.services.login_limits import LoginLimits
from turnir.services.login_limits import TooManyAttempts as TooManyAttempts
from turnir.web.settings import WebSettings

SESSION_COOKIE = "turnir_session"
CSRF_COOKIE = "turnir_csrf"
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"


class Role(StrEnum):
    """The roles of the authorization matrix: the account roles and the anonymous public."""

    ANONYMOUS = "anonymous"
    PLAYER = "player"
    FLOOR_JUDGE = "floor_judge"
    HEAD_JUDGE = "head_judge"
    ORGANIZER = "organizer"


class LoginRequired(UserError):
    """The action needs a logged-in account (the API answers 401, pages go to the login)."""

    code = "login_required"


class Forbidden(ForbiddenError):
    """Logged in, but the role does not allow this (403)."""


class BadCsrf(ForbiddenError):
    """A form without a valid CSRF token (403)."""

    code = "csrf"


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
    """What forms carry: the HMAC of the nonce and the session (``csrf_token_for``)."""
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


def csrf_token_for(secret: str, nonce: str, session_token: str | None = None) -> str:
    """The token forms carry: bound to the nonce cookie and to the session (none: anonymous)."""
    session = hashlib.sha256(session_token.encode()).hexdigest() if session_token else ""
    message = f"{nonce}\x00{session}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def new_nonce() -> str:
    return secrets.token_urlsafe(24)


def check_csrf(secret: str, visitor: Visitor, submitted: str | None) -> None:
    if visitor.bearer:
        return
    if visitor.new_csrf or not submitted or not hmac.compare_digest(
        submitted.encode("utf-8", "replace"), csrf_token_for(secret, visitor.csrf_nonce,
                                           visitor.session_token).encode()
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


def login_limits(settings: WebSettings) -> LoginLimits:
    """The login rate limit's numbers from the settings (``TURNIR_LOGIN_*``)."""
    return LoginLimits(per_pair=settings.login_failures,
                       per_login=settings.login_failures_per_login,
                       per_address=settings.login_failures_per_address,
                       window=timedelta(seconds=settings.login_window_s))

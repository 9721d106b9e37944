"""The web app's settings, read from the environment by ``WebSettings.from_env``.

| variable | default | meaning |
| --- | --- | --- |
| ``TURNIR_DATABASE_URL`` | the per-user SQLite file | the database (``docs/storage.md``) |
| ``TURNIR_SECRET_KEY`` | the key kept in the database | signs CSRF tokens; when not given, \
``turnir serve`` uses the key kept in ``site_secrets`` (drawn once, first writer wins: \
``turnir.services.site_secrets``), so every worker and every restart accept each other's forms |
| ``TURNIR_SECURE_COOKIES`` | ``0`` | ``1``: cookies always get the ``Secure`` flag (they get it \
anyway on a request that came over HTTPS, directly or through a trusted proxy) |
| ``TURNIR_TRUSTED_PROXIES`` | none | comma list of IPs/CIDRs whose ``X-Forwarded-For`` and \
``X-Forwarded-Proto`` are believed (``turnir.web.proxies``) |
| ``TURNIR_MAX_BODY`` | ``2M`` | largest request body (JSON, forms); larger gets 413 |
| ``TURNIR_MAX_UPLOAD`` | ``10M`` | largest ``multipart/form-data`` body (file uploads) |
| ``TURNIR_HSTS_SECONDS`` | ``31536000`` | HSTS max-age on HTTPS responses; ``0``: none |
| ``TURNIR_TIMEZONE`` | ``Europe/Moscow`` | how times are shown (``local``: the server's zone) |
| ``TURNIR_LOGIN_FAILURES`` | ``5`` | failed logins per login from one address in the window |
| ``TURNIR_LOGIN_FAILURES_PER_LOGIN`` | ``20`` | failed logins per login from any address |
| ``TURNIR_LOGIN_FAILURES_PER_ADDRESS`` | ``100`` | failed logins per address (IPv6: /64) |
| ``TURNIR_LOGIN_WINDOW_S`` | ``900`` | the login limits' sliding window, in seconds |
| ``TURNIR_SCHEDULES`` | on | ``0``: this server runs no schedules and live drafts (the \
workers of ``turnir serve --workers N`` get it: their parent runs them) |
| ``TURNIR_LIVE_POLL_MS`` | ``1000`` | how often a process reads the change stamps of the \
tournaments its live-update streams watch (100 to 10000 ms) |
| ``TURNIR_LIVE_MIN_INTERVAL_MS`` | ``3000`` | the least time between two ``changed`` events of \
one live-update stream (0 to 60000; ``0``: every moved stamp at the next tick, as \
``WebSettings()`` built directly): a burst of results reaches each page as one refresh per \
interval, the newest stamp last (``turnir.web.live``) |
| ``TURNIR_LIVE_STREAMS`` | ``2000`` | live-update streams one process keeps open; more get 503 |
| ``TURNIR_LIVE_STALE_S`` | ``3`` | a public page's cached live part rendered at most this many \
seconds ago is served even when the tournament changed since (0 to 60; ``0``: always fresh, \
as ``WebSettings()`` built directly; \
never for the staff: ``turnir.web.cache``) |

Sizes are bytes, or with a ``K`` or ``M`` suffix (1024-based). ``WebSettings()`` built
directly (tests) draws a random ``secret_key``; ``turnir.compose.kept_secret`` replaces it with
the kept one. The workers of ``turnir serve --workers N`` read these settings from the
environment their parent leaves (``turnir.compose.worker_app``): the database it opened in
``TURNIR_DATABASE_URL``, ``TURNIR_SCHEDULES=0``.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field

from turnir.errors import UserError
from turnir.web.limits import whole_number
from turnir.web.proxies import TrustedProxies

MB = 1024 * 1024
LOGIN_LIMITS = (("TURNIR_LOGIN_FAILURES", "login_failures"),
                ("TURNIR_LOGIN_FAILURES_PER_LOGIN", "login_failures_per_login"),
                ("TURNIR_LOGIN_FAILURES_PER_ADDRESS", "login_failures_per_address"),
                ("TURNIR_LOGIN_WINDOW_S", "login_window_s"),
                ("TURNIR_LIVE_POLL_MS", "live_poll_ms"), ("TURNIR_LIVE_STREAMS", "live_streams"))
LIVE_POLL_MS = (100, 10000)
"""The bounds of ``live_poll_ms`` (issue 15, live updates)."""
LIVE_MIN_INTERVAL_MS = (0, 60000)
LIVE_MIN_INTERVAL_DEFAULT_MS = 3000
"""The bounds of ``live_min_interval_ms`` and its default from the environment (issue 15,
scale-out: ``docs/reliability.md``, "Live updates")."""
LIVE_STALE_DEFAULT_S = 3
LIVE_STALE_MAX_S = 60
"""``live_stale_s`` from the environment by default, and its most (issue 15, load)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class WebSettings:
    database_url: str | None = None
    """``None``: ``TURNIR_DATABASE_URL`` or the per-user SQLite file."""
    secret_key: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    secure_cookies: bool = False
    session_days: int = 14
    default_locale: str = "ru"
    timezone: str | None = "Europe/Moscow"
    """An IANA zone name for showing times; ``None``: the server's local zone. **Decided**:
    Moscow time by default, the zone of the rules day (C-1) and of the daily schedule (004), so
    a deck saved at 23:15 in Moscow does not read 20:15 on a server kept in UTC."""
    poll_seconds: int = 10
    """How often public pages refresh themselves (HTMX polling)."""
    live_poll_ms: int = 1000
    """How often each process's live-updates watcher reads the change stamps of the watched
    tournaments, in milliseconds (``turnir.web.live``; 100 to 10000)."""
    live_min_interval_ms: int = 0
    """The least time between two ``changed`` events of one live-update stream, in
    milliseconds (``turnir.web.live``: a burst of changes is coalesced, the newest stamp sent
    at the end of the interval); 0: every moved stamp at the next tick. ``from_env`` defaults
    to ``LIVE_MIN_INTERVAL_DEFAULT_MS``; built directly (tests) 0."""
    live_streams: int = 2000
    """The most live-update streams (``GET /t/{tid}/events``) one process keeps open; more get
    503 (the page then polls)."""
    live_stale_s: int = 0
    """A cached live part of a public page (pairings, standings, top, places) rendered at most
    this many seconds ago may be served although the tournament changed since (issue 15,
    load: 1,000 results in two minutes would re-render the standings per change per worker);
    0: always fresh. Never for the tournament's staff (``turnir.web.public.cached``).
    ``from_env`` defaults to ``LIVE_STALE_DEFAULT_S``; built directly (tests) always fresh."""
    login_failures: int = 5
    """Failed logins allowed per login from one address in ``login_window_s``; then 429
    (``turnir.services.login_limits``)."""
    login_failures_per_login: int = 20
    """Failed logins allowed per login from any address (one account guessed from many)."""
    login_failures_per_address: int = 100
    """Failed logins allowed per address (IPv6: per /64) for any login (password spraying)."""
    login_window_s: int = 900
    """The sliding window of the three login limits, in seconds."""
    fast_hashing: bool = False
    """Cheapest argon2 parameters (tests only)."""
    page_size: int = 100
    """Rows per page of the public standings and pairings."""
    cache_entries: int = 256
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or CIDR networks of the reverse proxies whose forwarded headers count."""
    max_body: int = 2 * MB
    """The largest request body (JSON, forms) in bytes; larger is refused with 413."""
    max_upload: int = 10 * MB
    """The largest ``multipart/form-data`` body (file uploads) in bytes."""
    hsts_seconds: int = 365 * 24 * 3600
    """``Strict-Transport-Security: max-age`` on HTTPS responses; 0 sends none."""
    run_schedules: bool = True
    """``turnir serve`` runs the tournament schedules every minute (``TURNIR_SCHEDULES=0``:
    not this server; issue 13)."""

    def __post_init__(self) -> None:
        self.proxies()  # refuse a wrong entry at start, not on the first request
        check_zone(self.timezone)
        if not LIVE_POLL_MS[0] <= self.live_poll_ms <= LIVE_POLL_MS[1] or self.live_streams < 1:
            raise UserError("TURNIR_LIVE_POLL_MS must be from {low} to {high} and "
                            "TURNIR_LIVE_STREAMS positive", code="bad_setting",
                            low=LIVE_POLL_MS[0], high=LIVE_POLL_MS[1])
        low, high = LIVE_MIN_INTERVAL_MS
        if not low <= self.live_min_interval_ms <= high:
            raise UserError("{field} must be a whole number from {low} to {high}",
                            code="bad_setting", field="TURNIR_LIVE_MIN_INTERVAL_MS", low=low,
                            high=high)
        if self.max_body < 1 or self.max_upload < 1 or self.hsts_seconds < 0:
            raise UserError("the body limits must be positive and HSTS not negative",
                            code="bad_setting")

    def proxies(self) -> TrustedProxies:
        return TrustedProxies.parse(self.trusted_proxies)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: object) -> WebSettings:
        environ = os.environ if env is None else env
        values: dict[str, object] = {}
        if environ.get("TURNIR_DATABASE_URL", "").strip():
            values["database_url"] = environ["TURNIR_DATABASE_URL"].strip()
        if environ.get("TURNIR_SECRET_KEY", "").strip():
            values["secret_key"] = environ["TURNIR_SECRET_KEY"].strip()
        if environ.get("TURNIR_SECURE_COOKIES", "").strip() in ("1", "true", "yes"):
            values["secure_cookies"] = True
        if environ.get("TURNIR_TIMEZONE", "").strip():
            given = environ["TURNIR_TIMEZONE"].strip()
            values["timezone"] = None if given.casefold() == "local" else given
        if environ.get("TURNIR_TRUSTED_PROXIES", "").strip():
            values["trusted_proxies"] = tuple(
                p.strip() for p in environ["TURNIR_TRUSTED_PROXIES"].split(",") if p.strip())
        for name, key in (("TURNIR_MAX_BODY", "max_body"), ("TURNIR_MAX_UPLOAD", "max_upload")):
            if environ.get(name, "").strip():
                values[key] = parse_size(environ[name], name)
        for name, key in LOGIN_LIMITS:
            number = environ.get(name, "").strip()
            if number:
                count = whole_number(number)
                if count is None or count < 1:
                    raise UserError("{name}: {value!r} is not a positive whole number",
                                    code="bad_setting", name=name, value=number)
                values[key] = count
        if environ.get("TURNIR_SCHEDULES", "").strip().lower() in ("0", "false", "no", "off"):
            values["run_schedules"] = False
        stale = environ.get("TURNIR_LIVE_STALE_S", "").strip() or str(LIVE_STALE_DEFAULT_S)
        seconds = whole_number(stale)
        if seconds is None or seconds > LIVE_STALE_MAX_S:
            raise UserError("{field} must be a whole number from {low} to {high}",
                            code="bad_setting", field="TURNIR_LIVE_STALE_S", low=0,
                            high=LIVE_STALE_MAX_S)
        values["live_stale_s"] = seconds
        interval = environ.get("TURNIR_LIVE_MIN_INTERVAL_MS", "").strip()
        values["live_min_interval_ms"] = (LIVE_MIN_INTERVAL_DEFAULT_MS if not interval else
                                          _bounded_ms(interval))
        hsts = environ.get("TURNIR_HSTS_SECONDS", "").strip()
        if hsts:
            seconds = whole_number(hsts)
            if seconds is None:
                raise UserError("TURNIR_HSTS_SECONDS: {value!r} is not a number of seconds",
                                code="bad_setting", value=hsts)
            values["hsts_seconds"] = seconds
        values.update(overrides)
        return cls(**values)  # type: ignore[arg-type]


def _bounded_ms(text: str) -> int:
    """``TURNIR_LIVE_MIN_INTERVAL_MS`` as a number (a wrong one is refused with its bounds)."""
    number = whole_number(text)
    if number is None or not LIVE_MIN_INTERVAL_MS[0] <= number <= LIVE_MIN_INTERVAL_MS[1]:
        raise UserError("{field} must be a whole number from {low} to {high}",
                        code="bad_setting", field="TURNIR_LIVE_MIN_INTERVAL_MS",
                        low=LIVE_MIN_INTERVAL_MS[0], high=LIVE_MIN_INTERVAL_MS[1])
    return number


def check_zone(name: str | None) -> None:
    """Refuse a ``TURNIR_TIMEZONE`` that is no IANA zone name at start, not on the first page
    that shows a time (``None``: the server's own zone)."""
    if name is None:
        return
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise UserError("TURNIR_TIMEZONE: {value!r} is not a time zone name (such as "
                        "Europe/Moscow), nor local", code="bad_setting", value=name) from None


def parse_size(text: str, name: str) -> int:
    """``"2M"``, ``"512K"``, ``"1000"`` as a number of bytes (a ``UserError``, which is a
    ``ValueError``, names ``name``)."""
    value = text.strip().upper().removesuffix("B")
    factor = {"K": 1024, "M": MB}.get(value[-1:], 1)
    digits = value[:-1] if factor != 1 else value
    number = whole_number(digits)
    if number is None:
        raise UserError("{name}: {value!r} is not a size (bytes, or with K or M)",
                        code="bad_setting", name=name, value=text)
    return number * factor

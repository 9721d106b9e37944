"""The web app's settings, read from the environment by ``WebSettings.from_env``.

| variable | default | meaning |
| --- | --- | --- |
| ``TURNIR_DATABASE_URL`` | the per-user SQLite file | the database (``docs/storage.md``) |
| ``TURNIR_SECRET_KEY`` | drawn at start | signs CSRF tokens; set it when several workers serve |
| ``TURNIR_SECURE_COOKIES`` | ``0`` | ``1`` behind HTTPS: cookies get the ``Secure`` flag |
| ``TURNIR_TIMEZONE`` | the server's zone | how times are shown |
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True, kw_only=True)
class WebSettings:
    database_url: str | None = None
    """``None``: ``TURNIR_DATABASE_URL`` or the per-user SQLite file."""
    secret_key: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    secure_cookies: bool = False
    session_days: int = 14
    default_locale: str = "ru"
    timezone: str | None = None
    """An IANA zone name for showing times; ``None``: the server's local zone."""
    poll_seconds: int = 10
    """How often public pages refresh themselves (HTMX polling)."""
    login_failures: int = 5
    """Failed logins allowed per login and address in ``login_window_s``; then 429."""
    login_window_s: int = 300
    fast_hashing: bool = False
    """Cheapest argon2 parameters (tests only)."""
    page_size: int = 100
    """Rows per page of the public standings and pairings."""
    cache_entries: int = 256

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
            values["timezone"] = environ["TURNIR_TIMEZONE"].strip()
        values.update(overrides)
        return cls(**values)  # type: ignore[arg-type]

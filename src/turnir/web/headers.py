"""Security headers on every response (pages, the API, static files, errors, refusals), and the
real client and scheme behind a trusted proxy (``turnir.web.proxies``).

``SecurityHeaders`` is the outermost layer of the app (``turnir.web.app``). For each request it
first resolves who sent it (the TCP peer, or what a trusted proxy forwarded) and rewrites the
request's ``client`` and ``scheme`` with that, then adds to the response:

- ``Content-Security-Policy`` (:data:`CSP`): scripts, styles, images and requests only from this
  site, no inline script or style, no ``eval`` (htmx runs with ``allowEval: false`` and
  ``includeIndicatorStyles: false``, set in the ``htmx-config`` meta of ``base.html``), no
  plugins, forms only to this site, and no framing (``frame-ancestors 'none'``);
- ``X-Frame-Options: DENY`` (the same for old browsers), ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: same-origin``, ``Cross-Origin-Opener-Policy: same-origin``;
- ``Strict-Transport-Security: max-age=…`` only when the request came over HTTPS (directly or
  through a trusted proxy) and ``TURNIR_HSTS_SECONDS`` is not 0.

A header the response already has is left as it is.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from turnir.web.proxies import TrustedProxies, resolve

CSP = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))
"""The one Content-Security-Policy of every response."""

ALWAYS: tuple[tuple[str, str], ...] = (
    ("content-security-policy", CSP),
    ("x-frame-options", "DENY"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "same-origin"),
    ("cross-origin-opener-policy", "same-origin"),
)
PEER_KEY = "turnir.peer"
"""Where the rewritten scope keeps the TCP peer when a trusted proxy forwarded the client."""


def _forwarded(scope: Scope, proxies: TrustedProxies) -> Scope:
    """``scope`` with the client and scheme a trusted proxy forwarded (itself otherwise)."""
    peer = scope.get("client")
    host = peer[0] if peer else None
    if not proxies.trusts(host):
        return scope
    headers = Headers(scope=scope)
    origin = resolve(proxies, host, scope.get("scheme", "http"),
                     headers.get("x-forwarded-for"), headers.get("x-forwarded-proto"))
    changed = dict(scope)
    changed[PEER_KEY] = peer
    changed["client"] = (origin.client, 0) if origin.client else peer
    if scope["type"] == "http":
        changed["scheme"] = origin.scheme
    return changed


class SecurityHeaders:
    """Pure ASGI: resolve the real client and scheme, then add the security headers."""

    def __init__(self, app: ASGIApp, *, proxies: TrustedProxies, hsts_seconds: int) -> None:
        self.app = app
        self.proxies = proxies
        self.hsts = (f"max-age={hsts_seconds}".encode() if hsts_seconds > 0 else None)
        self.always = [(name.encode(), value.encode()) for name, value in ALWAYS]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        scope = _forwarded(scope, self.proxies)
        extra = list(self.always)
        if self.hsts is not None and scope.get("scheme") == "https":
            extra.append((b"strict-transport-security", self.hsts))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers.extend((name, value) for name, value in extra if name not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)

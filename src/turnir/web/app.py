"""``create_app(settings)``: the whole web app, built on demand (no globals at import time).

Pages (``public``, ``ratings_pages``, ``auth``, ``organizer``, ``accounts_pages``, ``judging``,
``printables``, ``penalty_pages``) and the REST API (``api``, under ``/api/v1`` with its
OpenAPI description at ``/api/v1/openapi.json``) call the same services (``turnir.services``).

Around everything, even the handler of unexpected errors, two pure ASGI layers (outermost
first): ``headers.SecurityHeaders`` (the real client and scheme behind a trusted proxy, and the
security headers on every response) and ``limits.BodyLimit`` (413 for a body over its limit,
before anything reads it). Then the cache of anonymous public pages (``cache.PublicPages``),
the error handlers and the routes.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.routing import APIRoute
from starlette.types import ASGIApp

from turnir.services.accounts import make_hasher
from turnir.services.audit import ChangeStamps
from turnir.services.common import Database
from turnir.web import (
    accounts_pages,
    api,
    audit_pages,
    auth,
    backup_pages,
    cards_pages,
    deck_judging_pages,
    deck_pages,
    deck_publication_pages,
    decks_api,
    draft_api,
    draft_deck_pages,
    draft_pages,
    errors,
    exports,
    form_once,
    format_pages,
    judging,
    live,
    live_draft_pages,
    organizer,
    penalty_pages,
    player_pages,
    players_pages,
    projector,
    public,
    rating_admin_pages,
    ratings_api,
    ratings_pages,
    rounds_pages,
    rulings_pages,
    schedule_pages,
    self_entry_pages,
    staff_pages,
)
from turnir.web.api import PREFIX as API_PREFIX
from turnir.web.cache import PageCache, PublicPages
from turnir.web.deps import WebState
from turnir.web.headers import SecurityHeaders
from turnir.web.i18n import zone
from turnir.web.limits import BodyLimit
from turnir.web.security import login_limits
from turnir.web.settings import WebSettings
from turnir.web.static_files import VersionedStaticFiles
from turnir.web.templating import Templates

STATIC = Path(__file__).resolve().parent / "static"


_DESCRIPTIONS: dict[tuple[Any, ...], dict[str, Any]] = {}
"""The OpenAPI descriptions made in this process (:meth:`TurnirApp.openapi`)."""


class TurnirApp(FastAPI):
    """FastAPI with turnir's outermost layers (``SecurityHeaders``, ``BodyLimit``) outside
    FastAPI's own error middleware, so that every answer, a 500 too, carries the headers and no
    layer reads a body before the limit is checked."""

    settings: WebSettings

    def openapi(self) -> dict[str, Any]:
        """FastAPI's description of the API, made once per process for the same documented
        routes and the same heading: every app made in a process shares the route table
        (:func:`_route_table`), and making the description costs 0.2 to 0.3 s of CPU (every
        test makes its own app). The shared description is never changed once made."""
        if self.openapi_schema is None:
            key = (tuple(id(route) for route in self.routes
                         if isinstance(route, APIRoute) and route.include_in_schema),
                   self.title, self.version, self.description, self.openapi_version,
                   repr(self.servers))
            made = _DESCRIPTIONS.get(key)
            if made is None:
                made = _DESCRIPTIONS[key] = super().openapi()
            self.openapi_schema = made
        return self.openapi_schema

    def build_middleware_stack(self) -> ASGIApp:
        inner = errors.FaultGuard(super().build_middleware_stack())  # issue 15: faults
        limited = BodyLimit(inner, max_body=self.settings.max_body,
                            max_upload=self.settings.max_upload, refusal=errors.too_large)
        return SecurityHeaders(limited, proxies=self.settings.proxies(),
                               hsts_seconds=self.settings.hsts_seconds)


ROUTERS = (public.router, ratings_pages.router, auth.router, organizer.router,
           accounts_pages.router, judging.router, penalty_pages.router, audit_pages.router,
           rounds_pages.router,
           staff_pages.router, rulings_pages.router,
           player_pages.router, players_pages.router,
           exports.router, exports.api_router, projector.router, api.router,
           rating_admin_pages.router, ratings_api.router,
           deck_pages.router, cards_pages.router, cards_pages.api_router,
           decks_api.router,
           deck_judging_pages.router,
           schedule_pages.router, deck_publication_pages.router,
           format_pages.router, format_pages.api_router,
           self_entry_pages.router, self_entry_pages.api_router,  # issue 13: self-entry
           live_draft_pages.router, draft_api.router,  # issue 14: the live draft's pages
           draft_deck_pages.router,  # issue 14: pool decks and card replacements (D-6, D-7)
           draft_pages.router,  # issue 14: the draft's plan and seating
           live.router,  # issue 15: live updates (server-sent events)
           backup_pages.router)  # issue 15: the site organizers' backup download
"""Every page and API router, in the order their routes are matched."""


@functools.cache
def _route_table() -> APIRouter:
    """One router holding every route, built once per process and shared by every app made in
    it. FastAPI builds an included route's handler (its dependencies, its parameter
    validators) lazily, per inclusion: an app that includes the routers itself builds them
    all again, 0.5 to 0.8 s of CPU for an app whose requests reach most routers (every test
    makes its own app). The handlers depend on no app: each request finds its app's state in
    ``request.app`` (turnir uses no ``dependency_overrides``)."""
    table = APIRouter()
    for router in ROUTERS:
        table.include_router(router)
    return table


def create_app(settings: WebSettings, *, db: Database,
               on_shutdown: Callable[[], None] | None = None) -> FastAPI:
    """The web app on the open ``db`` (``turnir.compose.web_app`` opens one); ``on_shutdown``
    runs when the app stops (the composition root closing the database it opened)."""
    stamps = ChangeStamps(db)
    cache = PageCache(settings.cache_entries)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            app.state.web.live.close_threadsafe()  # issue 15: open streams end
            stamps.close()
            if on_shutdown is not None:
                on_shutdown()

    app = TurnirApp(title="turnir", version="1", lifespan=lifespan, docs_url=None,
                    redoc_url=None, openapi_url=f"{API_PREFIX}/openapi.json",
                    description="The tournament reporter's REST API (docs/web.md).")
    app.settings = settings
    app.state.web = WebState(
        settings=settings, db=db,
        templates=Templates(zone(settings.timezone), {"static_url": "/static"}),
        limiter=login_limits(settings),
        cache=cache, stamps=stamps,
        live=live.LiveHub(db, poll_ms=settings.live_poll_ms, max_streams=settings.live_streams,
                          min_interval_ms=settings.live_min_interval_ms),
        hasher=make_hasher(fast=settings.fast_hashing),
    )
    errors.install(app)
    form_once.install(app)
    app.add_middleware(PublicPages, cache=cache, stamps=stamps,
                       default_locale=settings.default_locale, stale_s=settings.live_stale_s)
    app.mount("/static", VersionedStaticFiles(
        directory=STATIC, versions=app.state.web.templates.static_versions), name="static")
    app.router.routes.extend(_route_table().routes)
    app.state.routers = ROUTERS
    """Kept for listing every route (the authorization matrix test)."""
    return app

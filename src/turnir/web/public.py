"""The public pages, for anyone, usable on a phone and refreshing themselves (HTMX polling):
tournament list and overview, pairings (by table and by name), "find my table", standings
with every tiebreak column (a tooltip explains each), the top drawn as a bracket, the final
places. The part of a page that refreshes is cached per change of the tournament
(``turnir.web.cache``); a poll fetches only that part."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from turnir.domain.draft.tables import table_places
from turnir.domain.model import TournamentFormat
from turnir.domain.standings import TieBreak
from turnir.services import pages
from turnir.services.common import Database, Status
from turnir.services.deck_formats import tournament_format
from turnir.services.player_match import overview_card
from turnir.services.queries import get_standings
from turnir.services.reports import COMMENT_LEN
from turnir.services.self_entry import my_entry
from turnir.services.tournaments import get_tournament, list_tournaments
from turnir.web import views
from turnir.web.cache import STALE_HEADER, anonymous_key
from turnir.web.deps import (
    CurrentRoundDep,
    RoundQuery,
    StateDep,
    TournamentPath,
    VisitorDep,
    WebState,
    entered,
    formats_for,
    has_decks,
    is_htmx,
    page_context,
    render,
    staff_of,
)
from turnir.web.i18n import COOKIE as LANG_COOKIE
from turnir.web.i18n import LOCALES
from turnir.web.redirects import safe_next as safe_next  # re-exported for auth.py
from turnir.web.schedule_pages import cancelled_note
from turnir.web.security import PLAYERS, Visitor, cookie_secure

PageQuery = Annotated[int, Query(ge=1, le=100_000)]
Part = tuple[str, str, dict[str, Any]]
"""A live part of a page: its title, its template and the template's context."""

router = APIRouter(include_in_schema=False)


@dataclass(frozen=True, slots=True)
class Body:
    """A cached page part: its title and HTML."""

    title: str
    html: str
    has_top: bool
    stamp: int = 0
    """The tournament's change stamp it was rendered at."""
    at: float = 0.0
    """When (``time.monotonic``) its reads began."""
    draft: bool = False
    decks: bool = False
    """The tab bar's «Драфт» and deck tabs, read with the part (they change only with the
    tournament, so the shell of a cached part reads neither again)."""


def _shell(request: Request, state: WebState, visitor: Visitor, tid: int, body: Body,
           tab: str) -> HTMLResponse:
    ctx = page_context(request, visitor, state.settings)
    ctx.update(title=body.title, body=body.html, tid=tid, tab=tab, has_top=body.has_top,
               staff=staff_of(request, tid),  # the judges' tabs for this tournament's staff
               is_draft=body.draft,  # the tab «Драфт» here too (issue 14 QA)
               has_decks=body.decks)  # and «Колоды» / «Моя колода»
    if ctx["has_decks"]:
        ctx["entered"] = entered(request, tid)
    if visitor.account is None:
        ctx["csrf_token"] = ""  # a cached page carries no one's token
    return HTMLResponse(state.templates.render(visitor.locale, "public_page.html", ctx))


def cached(request: Request, state: WebState, visitor: Visitor, tid: int, tab: str,
           key: tuple[Any, ...], make: Callable[[], Part]) -> Response:
    """A public page whose live part is rendered once per change of the tournament.

    ``make`` returns (title, template, context) of the live part. A poll (HTMX) gets the part
    alone; an anonymous visitor gets the whole page from the cache too. The part is the same
    for every visitor with the same ``key`` (a signed-in player shares the anonymous visitors'
    part; only the page's shell around it, with the account, is theirs), and one rendered at
    most ``live_stale_s`` seconds ago is served although the tournament changed since, except
    to the tournament's staff, who always get it fresh.
    """
    stamp = state.stamps.stamp(tid)
    locale = visitor.locale
    stale_s = 0 if staff_of(request, tid).is_judge else state.settings.live_stale_s

    def body() -> Body:
        at = time.monotonic()
        title, template, ctx = make()
        ctx.update(tid=tid, poll_seconds=state.settings.poll_seconds, live_url=live_url)
        return Body(title, state.templates.render(locale, template, ctx),
                    bool(ctx["info"].settings.top_size), stamp, at,
                    ctx["info"].format is TournamentFormat.DRAFT, has_decks(request, tid))

    live_url = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    part = state.cache.get(("part", tid, tab, key, locale), stamp, body, stale_s=stale_s)
    headers = {STALE_HEADER: "1"} if part.stamp != stamp else None
    if visitor.account is None:
        # what ``PublicPages`` answers to the next anonymous visitor without routing, kept as
        # made when its part was (a stale part never passes for a fresh page)
        page = (part.html.encode() if is_htmx(request)
                else bytes(_shell(request, state, visitor, tid, part, tab).body))
        state.cache.put(anonymous_key(locale, request.url.path, request.url.query,
                                      is_htmx(request)), part.stamp, page, at=part.at)
        return Response(page, media_type="text/html; charset=utf-8", headers=headers)
    if is_htmx(request):
        return HTMLResponse(part.html, headers=headers)
    answer = _shell(request, state, visitor, tid, part, tab)
    answer.headers.update(headers or {})
    return answer


def _paged(rows: Sequence[Any], page: int, size: int) -> tuple[Sequence[Any], int]:
    """The rows of page ``page`` (from 1) and how many pages there are."""
    return rows[(page - 1) * size:page * size], max(1, -(-len(rows) // size))


@router.get("/healthz")
async def healthz() -> JSONResponse:
    return JSONResponse({"status": "ok"})


@router.get("/", response_class=HTMLResponse)
def index(request: Request, state: StateDep) -> HTMLResponse:
    return render(request, "index.html", tournaments=list_tournaments(state.db), title=None)


@router.get("/lang/{code}")
def switch_language(request: Request, state: StateDep, code: str,
                    next: str | None = None) -> RedirectResponse:
    """The language switch: remembered in a cookie for a year."""
    response = RedirectResponse(safe_next(next), status_code=303)
    if code in LOCALES:
        response.set_cookie(LANG_COOKIE, code, max_age=365 * 24 * 3600, samesite="lax",
                            httponly=True, secure=cookie_secure(request, state.settings),
                            path="/")
    return response


@router.get("/t/{tid}", response_class=HTMLResponse)
def overview(request: Request, state: StateDep, visitor: VisitorDep,
             page: CurrentRoundDep) -> HTMLResponse:
    """The tournament at a glance; a signed-in player's match card (one tap to report, the
    opponent's report to confirm or dispute: issue 12) while the tournament runs."""
    info, t, rnd = page.info, page.tournament, page.round
    player = visitor.account if visitor.role in PLAYERS else None
    card = (overview_card(state.db, info.id, player)
            if info.status is Status.RUNNING else None)
    return render(request, "overview.html", info=info, t=t, rnd=rnd, timer=page.timer,
                  card=card, tid=info.id, tab="overview", title=info.name,
                  has_top=bool(info.settings.top_size), comment_len=COMMENT_LEN,
                  cancelled=cancelled_note(state.db, info.id, visitor.locale),
                  deck_format=tournament_format(state.db, info.id), fmt=formats_for(request),
                  entry=my_entry(state.db, info.id, player))  # a player enters (issue 13)


@router.get("/t/{tid}/pairings", response_class=HTMLResponse)
def pairings(request: Request, state: StateDep, visitor: VisitorDep, tid: TournamentPath,
             round: RoundQuery = None, by: str = "table", page: PageQuery = 1) -> Response:
    order = "name" if by == "name" else "table"
    judge = staff_of(request, tid).is_judge  # judges also see why each player floats

    def make() -> Part:
        found = pages.round_page(state.db, tid, round, required=True)
        t, rnd = found.tournament, found.round
        assert rnd is not None
        lines = views.round_lines(t, rnd)
        rows, pages_count = _paged(views.by_name(lines) if order == "name" else lines, page,
                                   state.settings.page_size)
        return found.info.name, "pairings_part.html", dict(
            info=found.info, rnd=rnd, rows=rows, by=order, page=page, pages=pages_count,
            timer=found.timer, rounds=[r.number for r in t.rounds],
            floats=pages.round_floats_named(t, rnd.number) if judge else [],
            draft=dict(t.tables) if rnd.stage.value == "swiss" else {})  # T-8: draft tables

    return cached(request, state, visitor, tid, "pairings", (round, order, page, judge), make)


@router.get("/t/{tid}/find", response_class=HTMLResponse)
def find(request: Request, page: CurrentRoundDep,
         name: Annotated[str, Query(max_length=200)] = "") -> HTMLResponse:
    rnd = page.round
    found = (views.find_by_name(views.round_lines(page.tournament, rnd), name)
             if rnd and name else [])
    return render(request, "find.html", info=page.info, rnd=rnd, found=found, name=name,
                  tid=page.info.id, tab="find", title=page.info.name, timer=page.timer,
                  has_top=bool(page.info.settings.top_size))


@router.get("/t/{tid}/standings", response_class=HTMLResponse)
def standings(request: Request, state: StateDep, visitor: VisitorDep, tid: TournamentPath,
              page: PageQuery = 1) -> Response:
    def make() -> Part:
        view = get_standings(state.db, tid)  # the service the API's standings use
        rows, pages_count = _paged(view.standings.rows, page, state.settings.page_size)
        return view.info.name, "standings_part.html", dict(
            info=view.info, rows=rows, players={p.id: p for p in view.tournament.players},
            page=page, pages=pages_count, tiebreaks=list(TieBreak),
            swiss_played=len(view.tournament.swiss_rounds),
            draft=table_places(view.tournament, view.standings))  # T-8: {} without tables

    return cached(request, state, visitor, tid, "standings", (page,), make)


def _top(db: Database, tid: int) -> Part:
    details = get_tournament(db, tid)
    t = details.tournament
    return details.info.name, "top_part.html", dict(
        info=details.info, columns=views.bracket(t), champion=views.champion(t),
        size=t.settings.top_size, draft=dict(t.tables))  # draft table per player (T-8)


def _places(db: Database, tid: int, publish: bool) -> Part:
    details = get_tournament(db, tid)
    info = details.info
    return info.name, "places_part.html", dict(
        info=info, places=views.final_places(details.tournament,
                                             closed=info.status is Status.FINISHED),
        publish=publish and info.status is Status.FINISHED)


@router.get("/t/{tid}/top", response_class=HTMLResponse)
def top(request: Request, state: StateDep, visitor: VisitorDep, tid: TournamentPath) -> Response:
    return cached(request, state, visitor, tid, "top", (), lambda: _top(state.db, tid))


@router.get("/t/{tid}/places", response_class=HTMLResponse)
def places(request: Request, state: StateDep, visitor: VisitorDep,
           tid: TournamentPath) -> Response:
    # the organizer of a tournament with decks is pointed to publishing the top decks (issue 13)
    publish = staff_of(request, tid).is_organizer and has_decks(request, tid)
    return cached(request, state, visitor, tid, "places", (publish,),
                  lambda: _places(state.db, tid, publish))

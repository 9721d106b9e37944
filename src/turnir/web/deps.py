"""What every route shares: the app's state, the visitor, CSRF, rendering a page, and the typed
dependencies of the routes: the tournament of the URL (``TournamentDep``), its round
(``RoundDep``: ``?round=`` or the current one), the actor with their role there
(``OrganizerDep``, ``HeadDep``, ``JudgesDep``, ``StaffDep``) or on the whole site
(``SiteOrganizerDep``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import urlsplit

from argon2 import PasswordHasher
from fastapi import Depends, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from turnir.errors import NotFoundError
from turnir.services.accounts import AccountInfo, session_account
from turnir.services.audit import ChangeStamps
from turnir.services.common import Database, TournamentInfo
from turnir.services.decks import plays_in, takes_decks
from turnir.services.login_limits import LoginLimits
from turnir.services.pages import RoundPage, round_page
from turnir.services.tournaments import find_tournament
from turnir.web.cache import PageCache
from turnir.web.form_once import FIELD as FORM_TOKEN_FIELD
from turnir.web.form_once import FormTokens, new_token
from turnir.web.i18n import COOKIE as LANG_COOKIE
from turnir.web.i18n import Formats, negotiate
from turnir.web.redirects import safe_next
from turnir.web.security import (
    CSRF_COOKIE,
    CSRF_FIELD,
    CSRF_HEADER,
    HEAD,
    JUDGES,
    ORGANIZER,
    SESSION_COOKIE,
    SIGNED_IN,
    LoginRequired,
    Role,
    Visitor,
    check_csrf,
    cookie_secure,
    csrf_token_for,
    new_nonce,
)
from turnir.web.settings import WebSettings
from turnir.web.staff import Staff, staff_for
from turnir.web.templating import Templates

if TYPE_CHECKING:
    from turnir.web.live import LiveHub


@dataclass(eq=False)
class WebState:
    """Everything the routes need, made by ``create_app`` (no globals)."""

    settings: WebSettings
    db: Database
    templates: Templates
    limiter: LoginLimits
    cache: PageCache
    stamps: ChangeStamps
    hasher: PasswordHasher
    live: LiveHub
    """The live updates' watcher of this process (``turnir.web.live``, issue 15)."""
    form_tokens: FormTokens = field(init=False, repr=False)
    """The creating forms' one-time tokens (``turnir.web.form_once``), kept in ``db``."""

    def __post_init__(self) -> None:
        self.form_tokens = FormTokens(self.db)

    @property
    def session_lifetime(self) -> timedelta:
        return timedelta(days=self.settings.session_days)


def get_state(request: Request) -> WebState:
    state: WebState = request.app.state.web
    return state


StateDep = Annotated[WebState, Depends(get_state)]


def get_db(request: Request) -> Database:
    """The database session dependency: the app's ``Database`` (each service call opens and
    closes its own transaction on it)."""
    return get_state(request).db


DbDep = Annotated[Database, Depends(get_db)]


def bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def get_visitor(request: Request) -> Visitor:
    found: Visitor | None = getattr(request.state, "visitor", None)
    if found is not None:
        return found
    state = get_state(request)
    bearer = bearer_token(request)
    token = bearer or request.cookies.get(SESSION_COOKIE)
    account = session_account(state.db, token) if token else None
    nonce = request.cookies.get(CSRF_COOKIE) or ""
    new = len(nonce) < 16 or len(nonce) > 100
    if new:
        nonce = new_nonce()
    locale = negotiate(request.cookies.get(LANG_COOKIE), request.headers.get("accept-language"),
                       state.settings.default_locale)
    visitor = Visitor(account=account, locale=locale, csrf_nonce=nonce,
                      csrf_token=csrf_token_for(state.settings.secret_key, nonce,
                                                token if account is not None else None),
                      new_csrf=new, bearer=bearer is not None and account is not None,
                      session_token=token if account is not None else None)
    request.state.visitor = visitor
    return visitor


VisitorDep = Annotated[Visitor, Depends(get_visitor)]


# ----- the visitor's role in the tournament of the URL (issue 10 item 1) -------------------

TournamentPath = Annotated[int, Path(ge=1, le=2**31 - 1, description="The tournament's number")]


def staff_of(request: Request, tid: int) -> Staff:
    """The visitor's role in tournament ``tid``, looked up once per request
    (``turnir.web.staff``)."""
    known: dict[int, Staff] | None = getattr(request.state, "staff", None)
    if known is None:
        known = request.state.staff = {}
    if tid not in known:
        known[tid] = staff_for(get_state(request).db, tid, get_visitor(request).account)
    return known[tid]


class StaffCheck:
    """A dependency: the visitor must have one of ``allowed`` in the URL's tournament; 401 for
    the anonymous (before anything else), 404 for an unknown tournament, 403 otherwise."""

    def __init__(self, allowed: frozenset[Role]) -> None:
        self.allowed = allowed

    def __call__(self, request: Request, tid: TournamentPath) -> Staff:
        if get_visitor(request).account is None:
            raise LoginRequired("log in to do this")
        staff = staff_of(request, tid)
        staff.require(self.allowed)
        return staff


def any_visitor_here(request: Request, tid: TournamentPath) -> Staff:
    """The visitor's role in the URL's tournament, checked by the route itself."""
    return staff_of(request, tid)


OrganizerDep = Annotated[Staff, Depends(StaffCheck(ORGANIZER))]
"""The tournament's organizer."""
HeadDep = Annotated[Staff, Depends(StaffCheck(HEAD))]
"""Its organizer or head judge."""
JudgesDep = Annotated[Staff, Depends(StaffCheck(JUDGES))]
"""Anyone on its staff."""
StaffDep = Annotated[Staff, Depends(any_visitor_here)]
"""Whoever it is (a page that shows staff more)."""


def signed_in(visitor: VisitorDep) -> AccountInfo:
    """A dependency: the visitor has logged in (401 otherwise); their account."""
    return visitor.require(SIGNED_IN)


SignedInDep = Annotated[AccountInfo, Depends(signed_in)]


def site_organizer(visitor: VisitorDep) -> str:
    """A dependency: the visitor is an organizer of the site (new tournaments, the accounts
    page); the name written to the audit log."""
    visitor.require(ORGANIZER)
    return visitor.actor


SiteOrganizerDep = Annotated[str, Depends(site_organizer)]
"""An organizer's account, anywhere on the site: the actor's name."""


def tournament_of(request: Request, tid: TournamentPath) -> TournamentInfo:
    """The URL's tournament at a glance (404 when there is none)."""
    return find_tournament(get_state(request).db, tid)


TournamentDep = Annotated[TournamentInfo, Depends(tournament_of)]
"""The tournament of the URL. Declare it after the role (a 401/403 comes first)."""

RoundQuery = Annotated[int | None, Query(ge=1, le=10_000)]


def round_of(request: Request, tid: TournamentPath, round: RoundQuery = None) -> RoundPage:
    """The tournament with round ``?round=`` (else its current round) and the round's clock;
    409 before round 1 is paired (``turnir.services.pages.round_page``)."""
    return round_page(get_state(request).db, tid, round, required=True)


RoundDep = Annotated[RoundPage, Depends(round_of)]
"""The URL's tournament and the round asked for (or the current one)."""


def current_round_of(request: Request, tid: TournamentPath) -> RoundPage:
    """The tournament with its current round (``None`` before round 1) and the round's clock."""
    return round_page(get_state(request).db, tid)


CurrentRoundDep = Annotated[RoundPage, Depends(current_round_of)]
"""The URL's tournament and its current round, if any."""


async def require_csrf(request: Request) -> None:
    """For every state-changing request from a browser: the form's (or HTMX header's) token
    must match the visitor's CSRF cookie."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    visitor = get_visitor(request)
    submitted = request.headers.get(CSRF_HEADER)
    kind = request.headers.get("content-type", "")
    if submitted is None and kind.startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    ):
        if kind.startswith("multipart/form-data") and visitor.account is None:
            # every upload needs a login: the anonymous are refused before the body is parsed
            raise LoginRequired("log in to do this")
        form = await request.form()
        value = form.get(CSRF_FIELD)
        submitted = value if isinstance(value, str) else None
    check_csrf(get_state(request).settings.secret_key, visitor, submitted)


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def set_csrf_cookie(response: Response, visitor: Visitor, settings: WebSettings,
                    request: Request) -> None:
    if visitor.new_csrf:
        response.set_cookie(CSRF_COOKIE, visitor.csrf_nonce, httponly=True, samesite="lax",
                            secure=cookie_secure(request, settings), path="/")


def rotate_csrf(request: Request, response: Response, session_token: str | None) -> str:
    """A new ``turnir_csrf`` nonce on ``response`` (at login and logout: a token seen before
    does not carry over); the token forms get with it in that session."""
    state = get_state(request)
    nonce = new_nonce()
    response.set_cookie(CSRF_COOKIE, nonce, httponly=True, samesite="lax",
                        secure=cookie_secure(request, state.settings), path="/")
    return csrf_token_for(state.settings.secret_key, nonce, session_token)


def page_context(request: Request, visitor: Visitor, settings: WebSettings) -> dict[str, Any]:
    return {"request": request, "visitor": visitor, "account": visitor.account,
            "csrf_token": visitor.csrf_token, "csrf_field": CSRF_FIELD,
            "path": request.url.path, "full_path": str(request.url.path)
            + (f"?{request.url.query}" if request.url.query else ""),
            "poll_seconds": settings.poll_seconds, "htmx": is_htmx(request),
            "form_token": new_token, "form_token_field": FORM_TOKEN_FIELD,
            # the server's time as the page was made: the round timer counts down by it, not
            # by the device's own clock, which may be wrong by minutes or years (app.js)
            "server_now_ms": get_state(request).db.clock.now_ms()}


def _tab_info(request: Request, tid: int) -> TournamentInfo | None:
    """Tournament ``tid`` for its tab bar, read once per request (``None``: no such one)."""
    known: dict[int, TournamentInfo | None] | None = getattr(request.state, "tab_info", None)
    if known is None:
        known = request.state.tab_info = {}
    if tid not in known:
        try:
            known[tid] = find_tournament(get_state(request).db, tid)
        except NotFoundError:
            known[tid] = None
    return known[tid]


def has_top(request: Request, tid: int) -> bool:
    """Whether tournament ``tid`` has a top (its tab bar shows «ТОП»), read once per request
    for the pages whose route does not say (issue 12 QA: the tabs changed from page to page)."""
    info = _tab_info(request, tid)
    return info is not None and bool(info.settings.top_size)


def is_draft(request: Request, tid: int) -> bool:
    """Whether tournament ``tid`` is a draft (its tab bar shows «Драфт», issue 14)."""
    info = _tab_info(request, tid)
    return info is not None and info.format == "draft"


def has_decks(request: Request, tid: int) -> bool:
    """Whether tournament ``tid`` has a deck format (its tab bar shows the deck tabs), read
    once per request."""
    known: dict[int, bool] | None = getattr(request.state, "has_decks", None)
    if known is None:
        known = request.state.has_decks = {}
    if tid not in known:
        known[tid] = takes_decks(get_state(request).db, tid)  # a format, or a draft's plan
    return known[tid]


def entered(request: Request, tid: int) -> bool:
    """Whether the signed-in visitor's person has an entry in tournament ``tid`` (the tab «My
    deck» is theirs), read once per request."""
    account = get_visitor(request).account
    person = account.person_id if account is not None else None
    if person is None:
        return False
    known: dict[int, bool] | None = getattr(request.state, "entered", None)
    if known is None:
        known = request.state.entered = {}
    if tid not in known:
        known[tid] = plays_in(get_state(request).db, tid, person)
    return known[tid]


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    """Render a template in the visitor's language."""
    state = get_state(request)
    visitor = get_visitor(request)
    ctx = page_context(request, visitor, state.settings)
    ctx.update(context)
    if ctx.get("tid") and "staff" not in ctx:
        ctx["staff"] = staff_of(request, int(ctx["tid"]))  # the tabs show staff their pages
    if ctx.get("tid") and "has_top" not in ctx and not ctx["htmx"]:
        ctx["has_top"] = has_top(request, int(ctx["tid"]))  # the same tabs on every page
    if ctx.get("tid") and "is_draft" not in ctx and not ctx["htmx"]:
        ctx["is_draft"] = is_draft(request, int(ctx["tid"]))  # the tab «Драфт»
    if ctx.get("tid") and "has_decks" not in ctx and not ctx["htmx"]:
        ctx["has_decks"] = has_decks(request, int(ctx["tid"]))
    if ctx.get("has_decks") and "entered" not in ctx and not ctx["htmx"]:
        ctx["entered"] = entered(request, int(ctx["tid"]))  # the tab «My deck»
    html = state.templates.render(visitor.locale, template, ctx)
    response = HTMLResponse(html, status_code=status)
    set_csrf_cookie(response, visitor, state.settings, request)
    return response


def message(request: Request, text: str, *, kind: str = "ok") -> Response:
    """A success message for an HTMX form (shown above it), or the page again."""
    if is_htmx(request):
        response = render(request, "_message.html", message=text, kind=kind)
        response.headers["HX-Retarget"] = "#messages"
        response.headers["HX-Reswap"] = "innerHTML"
        return response
    return render(request, "error.html", message=text, code="ok")


def gettext_for(request: Request) -> Callable[[str], str]:
    """The visitor's translation of a text marked with ``N_``."""
    return get_state(request).templates.gettext[get_visitor(request).locale]


def formats_for(request: Request) -> Formats:
    """The visitor's forms of numbers and dates (the templates' ``rating``, ``dt``...)."""
    return get_state(request).templates.formats[get_visitor(request).locale]


def done(request: Request, url: str) -> Response:
    """After a successful form: HTMX follows ``HX-Redirect`` (or reloads, when the target is
    the page it is on: a jump to ``#fragment`` alone would not reload it); a plain form gets a
    303. ``url`` must be a path on this site (anything else goes to ``/``: ``safe_next``)."""
    url = safe_next(url)
    if is_htmx(request):
        current = urlsplit(request.headers.get("hx-current-url", ""))
        target = urlsplit(url)
        if (current.path, current.query) == (target.path, target.query):
            return Response(status_code=200, headers={"HX-Refresh": "true"})
        return Response(status_code=200, headers={"HX-Redirect": url})
    return RedirectResponse(url, status_code=303)

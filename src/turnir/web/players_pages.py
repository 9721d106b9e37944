"""The organizer's registration: the "Players" card of the manage page (issue 12).

Register a player (a name in one field, or a surname and a given name kept apart) before
round 1 and a late entry afterwards (P-7), import a players file (CSV or .xlsx), check in one
player or everyone not yet checked in, drop a player and reinstate them before the next round
is paired, make a player's login; and the players list itself, found by name and filtered
(``GET /t/{tid}/players/list``: the list alone, for HTMX; without JS the manage page takes the
same ``q`` and ``show``). The creating forms are safe to send twice (``turnir.web.form_once``).
Every form posts to one route that calls one service (``turnir.services.players``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated
from urllib.parse import urlencode, urlsplit

from fastapi import APIRouter, Depends, Form, Path, Query, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from turnir.domain.model import Status
from turnir.domain.text import QUERY_LEN
from turnir.errors import Term, UserError
from turnir.formats.players_csv import MAX_BYTES as MAX_PLAYERS_FILE
from turnir.services import pages
from turnir.services import players as player_service
from turnir.services.players import Shown as Shown
from turnir.web.deps import (
    HeadDep,
    OrganizerDep,
    StateDep,
    TournamentPath,
    done,
    gettext_for,
    is_htmx,
    message,
    render,
    require_csrf,
)
from turnir.web.form_fields import number_field as _int
from turnir.web.form_once import FIELD as FORM_TOKEN_FIELD
from turnir.web.form_once import FormOnceDep, FormSameDep, form_once
from turnir.web.templating import N_

PlayerNumber = Annotated[int, Path(ge=1, le=2**31 - 1)]
SearchQuery = Annotated[str, Query(max_length=QUERY_LEN)]
ShownQuery = Annotated[Shown, Query()]

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])

SHOWN = (
    (Shown.ALL, N_("all")),
    (Shown.CHECKED_IN, N_("checked in")),
    (Shown.NOT_CHECKED_IN, N_("not checked in")),
    (Shown.DROPPED, N_("dropped")),
)
"""The filters of the players list, with their labels."""


@dataclass(frozen=True, slots=True)
class Roster:
    """The players list of the manage page: those found and kept, in surname order, with the
    search and the filter that found them (``_players_list.html``)."""

    listed: list[player_service.PlayerInfo]
    total: int
    query: str
    shown: str
    unchecked: int
    """Players still in who have not checked in ("check in all" counts them)."""
    filters: tuple[tuple[Shown, str], ...] = SHOWN


def roster(players: list[player_service.PlayerInfo], *, query: str, shown: Shown) -> Roster:
    """The manage page's players list (the page and the list alone share it)."""
    return Roster(player_service.select_players(players, query=query, shown=shown),
                  len(players), query, shown.value,
                  sum(1 for p in players if p.dropped_after is None and not p.checked_in))


@router.get("/t/{tid}/players/list", response_class=HTMLResponse)
def players_list(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
                 q: SearchQuery = "", show: ShownQuery = Shown.ALL) -> HTMLResponse:
    """The players list alone (the search and filter of the manage page, by HTMX)."""
    found = pages.manage_page(state.db, tid)
    info = found.page.info
    response = render(request, "_players_list.html", info=info, tid=tid, logins=found.logins,
                      rnd=found.page.round,
                      registration=info.status is Status.REGISTRATION,
                      roster=roster(found.players, query=q, shown=show))
    asked = urlencode({k: v for k, v in (("q", q), ("show", show.value))
                       if v and v != Shown.ALL.value})
    # the address bar keeps the search: a reload or Back shows the same list
    response.headers["HX-Replace-Url"] = f"/t/{tid}/manage" + (f"?{asked}" if asked else "")
    return response


@router.post("/t/{tid}/players")
def add_player(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
               once: FormSameDep,
               name: Annotated[str, Form(max_length=200)] = "",
               surname: Annotated[str, Form(max_length=200)] = "",
               given_name: Annotated[str, Form(max_length=200)] = "",
               city: Annotated[str, Form(max_length=100)] = "",
               club: Annotated[str, Form(max_length=100)] = "",
               byes: Annotated[str, Form(max_length=3)] = "0",
               missed_byes: Annotated[bool, Form()] = False) -> Response:
    """Registration before round 1; a late entry afterwards (P-7). The name in one field
    (``name``) or as a surname and a given name."""
    player_service.enter_player(state.db, tid, name=name, surname=surname,
                                given_name=given_name, city=city, club=club,
                                byes=_int(byes, Term("byes"), low=0, high=50) or 0,
                                missed_byes=missed_byes, actor=staff.actor,
                                account_id=staff.account_id)
    return once.done(request, f"/t/{tid}/manage#players")


@router.post("/t/{tid}/players/import")
async def import_players(request: Request, state: StateDep, staff: OrganizerDep,
                         tid: TournamentPath) -> Response:
    """The players file (CSV or .xlsx). No file parameter: FastAPI would parse the body
    before any dependency; here the tournament and the role are checked first (and the
    CSRF header HTMX sends), and only then is the multipart body read."""
    form = await request.form(max_files=1, max_fields=4)
    async with form_once(request, form.get(FORM_TOKEN_FIELD)) as once:
        file = form.get("file")
        if not isinstance(file, UploadFile):
            raise UserError("choose the players file to import", code="no_file")
        data = await file.read(MAX_PLAYERS_FILE + 1)
        await run_in_threadpool(pages.import_players, state.db, tid, data,
                                filename=_shown_filename(file.filename), actor=staff.actor,
                                account_id=staff.account_id)
        return once.done(request, f"/t/{tid}/manage#players")


def _shown_filename(name: str | None) -> str:
    """An uploaded file's name for messages: its last part, without control characters."""
    base = (name or "").replace("\\", "/").rsplit("/", 1)[-1]
    shown = "".join(c for c in base if c.isprintable())[:100]
    return shown or "the file"


def _back_to_list(request: Request, tid: int, number: int) -> Response:
    """After a change to one player: the manage page again, with the list's search and
    filter as they were (HTMX reloads the page it is on), else at the player's row."""
    current = urlsplit(request.headers.get("hx-current-url", ""))
    if is_htmx(request) and current.path == f"/t/{tid}/manage":
        return done(request, current.path + (f"?{current.query}" if current.query else ""))
    return done(request, f"/t/{tid}/manage#p{number}")


@router.post("/t/{tid}/players/checkin-all")
def check_in_all(request: Request, state: StateDep, staff: OrganizerDep,
                 tid: TournamentPath) -> Response:
    """Everyone still in and not yet present is checked in; the message counts them (HTMX:
    and the list is fetched again; a plain form sees the page again)."""
    checked = player_service.check_in_all(state.db, tid, actor=staff.actor,
                                          account_id=staff.account_id)
    if not is_htmx(request):
        return done(request, f"/t/{tid}/manage#players")
    gettext = gettext_for(request)
    text = (gettext(N_("Checked in: %(n)s players.")) % {"n": len(checked)} if checked
            else gettext(N_("Everyone was checked in already.")))
    response = message(request, text)
    response.headers["HX-Trigger"] = "players-changed"
    return response


@router.post("/t/{tid}/players/{number}/checkin")
def check_in(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
             number: PlayerNumber, present: Annotated[bool, Form()] = True) -> Response:
    player_service.check_in(state.db, tid, number, actor=staff.actor, present=present,
                            account_id=staff.account_id)
    return _back_to_list(request, tid, number)


@router.post("/t/{tid}/players/{number}/drop")
def drop(request: Request, state: StateDep, staff: HeadDep, tid: TournamentPath,
         number: PlayerNumber, reason: Annotated[str, Form(max_length=500)] = "") -> Response:
    player_service.drop_player(state.db, tid, number, actor=staff.actor, reason=reason,
                               account_id=staff.account_id)
    return _back_to_list(request, tid, number)


@router.post("/t/{tid}/players/{number}/reinstate")
def reinstate(request: Request, state: StateDep, staff: HeadDep, tid: TournamentPath,
              number: PlayerNumber) -> Response:
    """Undo a drop while the next round is not paired (``players.reinstate_player``)."""
    player_service.reinstate_player(state.db, tid, number, actor=staff.actor,
                                    account_id=staff.account_id)
    return _back_to_list(request, tid, number)


@router.post("/t/{tid}/players/{number}/account")
def player_login(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
                 number: PlayerNumber, once: FormOnceDep) -> Response:
    """A login for the player, to report their own results; the password is shown once (the
    form sent again says it was sent, and shows no password)."""
    made = pages.make_player_login(state.db, tid, number, actor=staff.actor,
                                   hasher=state.hasher)
    text = gettext_for(request)(N_("Login for %(name)s: %(login)s, password %(pw)s"))
    return message(request, text % {"name": made.name, "login": made.login,
                                    "pw": made.password})

"""The organizer's pages: tournaments and their creation, registration and check-in (with a
CSV import), drops and late entries, player logins (rounds, the round clock and finishing:
``rounds_pages``; the accounts page is ``accounts_pages``,
the staff page ``staff_pages``).
Every form posts to one route that calls one service (``turnir.services``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Path, Request
from fastapi.responses import HTMLResponse, Response

from turnir.domain.model import RulesLevel, Status, TournamentFormat
from turnir.errors import Term
from turnir.services import pages
from turnir.services.deck_formats import DeckChoice, format_choices, parse_start
from turnir.services.online import set_robot_allowed
from turnir.services.round_wizard import round_wizard
from turnir.services.tournaments import create_tournament
from turnir.web.deps import (
    OrganizerDep,
    SiteOrganizerDep,
    StateDep,
    TournamentPath,
    VisitorDep,
    done,
    render,
    require_csrf,
)
from turnir.web.form_fields import number_field as _int
from turnir.web.form_once import FormSameDep
from turnir.web.players_pages import SearchQuery, Shown, ShownQuery, roster

PlayerNumber = Annotated[int, Path(ge=1, le=2**31 - 1)]

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])


@router.get("/new", response_class=HTMLResponse)
def new_page(request: Request, state: StateDep, actor: SiteOrganizerDep) -> HTMLResponse:
    return render(request, "new.html", title=None, formats=list(TournamentFormat),
                  levels=list(RulesLevel), deck_formats=format_choices(state.db))


@router.post("/new")
def new(request: Request, state: StateDep, visitor: VisitorDep, actor: SiteOrganizerDep,
        once: FormSameDep,
        name: Annotated[str, Form(max_length=200)],
        format: Annotated[TournamentFormat, Form()] = TournamentFormat.SWISS,
        rules_level: Annotated[RulesLevel, Form()] = RulesLevel.AMATEUR,
        win: Annotated[str, Form(max_length=4)] = "3",
        draw: Annotated[str, Form(max_length=4)] = "1",
        loss: Annotated[str, Form(max_length=4)] = "0",
        bye: Annotated[str, Form(max_length=4)] = "3",
        best_of: Annotated[str, Form(max_length=2)] = "3",
        top_best_of: Annotated[str, Form(max_length=2)] = "3",
        rounds: Annotated[str, Form(max_length=4)] = "",
        top: Annotated[str, Form(max_length=4)] = "0",
        seed: Annotated[str, Form(max_length=30)] = "",
        deck_format: Annotated[str, Form(max_length=12)] = "",
        starts_at: Annotated[str, Form(max_length=40)] = "",
        online: Annotated[str, Form(max_length=4)] = "") -> Response:
    deck_id = _int(deck_format, Term("the format"), low=1, high=2**31 - 1)
    deck = (DeckChoice(deck_id, parse_start(starts_at), bool(online))
            if deck_id is not None and format is TournamentFormat.CONSTRUCTED else None)
    settings = pages.new_settings(
        win=_int(win, Term("points for a win"), low=0, high=100) or 0,
        draw=_int(draw, Term("points for a draw"), low=0, high=100) or 0,
        loss=_int(loss, Term("points for a loss"), low=0, high=100) or 0,
        bye=_int(bye, Term("points for a bye"), low=0, high=100) or 0,
        best_of=_int(best_of, Term("best of"), low=1, high=5) or 3,
        top_best_of=_int(top_best_of, Term("top best of"), low=1, high=5) or 3,
        swiss_rounds=_int(rounds, Term("Swiss rounds"), low=1, high=50),
        top_size=_int(top, Term("top size"), low=0, high=1024) or 0)
    assert visitor.account is not None
    info = create_tournament(state.db, name=name, actor=actor, settings=settings,
                             format=format, rules_level=rules_level,
                             seed=_int(seed, Term("seed"), low=-(2**63), high=2**63 - 1),
                             organizer_login=visitor.account.login, deck=deck)
    return once.done(request, f"/t/{info.id}/manage")


@router.get("/t/{tid}/manage", response_class=HTMLResponse)
def manage(request: Request, state: StateDep, staff: OrganizerDep,
           tid: TournamentPath, q: SearchQuery = "",
           show: ShownQuery = Shown.ALL) -> HTMLResponse:
    found = pages.manage_page(state.db, tid)
    info, rnd = found.page.info, found.page.round
    return render(request, "manage.html", info=info, t=found.page.tournament,
                  players=found.players, logins=found.logins, rnd=rnd, tid=tid, tab="manage",
                  title=info.name, has_top=bool(info.settings.top_size), timer=found.page.timer,
                  running=info.status is Status.RUNNING,
                  registration=info.status is Status.REGISTRATION, robot=found.robot,
                  judges=found.judges, roster=roster(found.players, query=q, shown=show),
                  wizard=round_wizard(state.db, tid))


@router.post("/t/{tid}/robot")
def robot(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
          allowed: Annotated[bool, Form()] = False) -> Response:
    """The online judge robot may record the tournament's results, or not (issue 10)."""
    set_robot_allowed(state.db, tid, allowed, actor=staff.actor, account_id=staff.account_id)
    return done(request, f"/t/{tid}/manage#robot")

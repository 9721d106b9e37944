"""The organizer's pages: tournaments and their creation, registration and check-in (with a
CSV import), rounds (pair the next one, undo one without results, the top), the round clock,
drops and late entries, player logins, finishing (the accounts page is ``accounts_pages``).
Every form posts to one route that calls one service (``turnir.services``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Path, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from turnir.domain.model import RulesLevel, StaffRole, Status, TournamentFormat
from turnir.errors import Term, UserError
from turnir.formats.players_csv import MAX_BYTES as MAX_PLAYERS_FILE
from turnir.services import pages
from turnir.services import players as player_service
from turnir.services.judges import add_judge, remove_staff
from turnir.services.online import set_robot_allowed
from turnir.services.rounds import start_round, undo_round
from turnir.services.tournaments import create_tournament, finish_tournament
from turnir.web.deps import (
    HeadDep,
    OrganizerDep,
    SiteOrganizerDep,
    StateDep,
    TournamentPath,
    VisitorDep,
    done,
    gettext_for,
    message,
    render,
    require_csrf,
)
from turnir.web.templating import N_

PlayerNumber = Annotated[int, Path(ge=1, le=2**31 - 1)]
JudgeId = Annotated[int, Path(ge=1, le=2**31 - 1)]

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])


def _shown_filename(name: str | None) -> str:
    """An uploaded file's name for messages: its last part, without control characters."""
    base = (name or "").replace("\\", "/").rsplit("/", 1)[-1]
    shown = "".join(c for c in base if c.isprintable())[:100]
    return shown or "the file"


def _int(text: str, what: Term, *, low: int, high: int, default: int | None = None) -> int | None:
    """The whole number typed in a field (``default`` when it is empty)."""
    cleaned = text.strip()
    if not cleaned:
        return default
    digits = cleaned.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()) or not low <= int(cleaned) <= high:
        raise UserError("{what}: a whole number from {low} to {high}", code="bad_number",
                        what=what, low=low, high=high)
    return int(cleaned)


@router.get("/new", response_class=HTMLResponse)
def new_page(request: Request, actor: SiteOrganizerDep) -> HTMLResponse:
    return render(request, "new.html", title=None, formats=list(TournamentFormat),
                  levels=list(RulesLevel))


@router.post("/new")
def new(request: Request, state: StateDep, visitor: VisitorDep, actor: SiteOrganizerDep,
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
        seed: Annotated[str, Form(max_length=30)] = "") -> Response:
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
                             organizer_login=visitor.account.login)
    return done(request, f"/t/{info.id}/manage")


@router.get("/t/{tid}/manage", response_class=HTMLResponse)
def manage(request: Request, state: StateDep, staff: OrganizerDep,
           tid: TournamentPath) -> HTMLResponse:
    found = pages.manage_page(state.db, tid)
    info, rnd = found.page.info, found.page.round
    return render(request, "manage.html", info=info, t=found.page.tournament,
                  players=found.players, logins=found.logins, rnd=rnd, tid=tid, tab="manage",
                  title=info.name, has_top=bool(info.settings.top_size), timer=found.page.timer,
                  running=info.status is Status.RUNNING,
                  registration=info.status is Status.REGISTRATION, robot=found.robot,
                  judges=found.judges, judge_roles=list(StaffRole), candidates=found.candidates)


@router.post("/t/{tid}/players")
def add_player(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
               name: Annotated[str, Form(max_length=200)],
               city: Annotated[str, Form(max_length=100)] = "",
               club: Annotated[str, Form(max_length=100)] = "",
               byes: Annotated[str, Form(max_length=3)] = "0",
               missed_byes: Annotated[bool, Form()] = False) -> Response:
    """Registration before round 1; a late entry afterwards (P-7)."""
    pages.add_player(state.db, tid, name=name, city=city, club=club,
                     byes=_int(byes, Term("byes"), low=0, high=50) or 0,
                     missed_byes=missed_byes, actor=staff.actor, account_id=staff.account_id)
    return done(request, f"/t/{tid}/manage#players")


@router.post("/t/{tid}/players/import")
async def import_players(request: Request, state: StateDep, staff: OrganizerDep,
                         tid: TournamentPath) -> Response:
    """The players file (CSV or .xlsx). No file parameter: FastAPI would parse the body
    before any dependency; here the tournament and the role are checked first (and the
    CSRF header HTMX sends), and only then is the multipart body read."""
    form = await request.form(max_files=1, max_fields=4)
    file = form.get("file")
    if not isinstance(file, UploadFile):
        raise UserError("choose the players file to import", code="no_file")
    data = await file.read(MAX_PLAYERS_FILE + 1)
    await run_in_threadpool(pages.import_players, state.db, tid, data,
                            filename=_shown_filename(file.filename), actor=staff.actor,
                            account_id=staff.account_id)
    return done(request, f"/t/{tid}/manage#players")


@router.post("/t/{tid}/players/{number}/checkin")
def check_in(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
             number: PlayerNumber, present: Annotated[bool, Form()] = True) -> Response:
    player_service.check_in(state.db, tid, number, actor=staff.actor, present=present,
                            account_id=staff.account_id)
    return done(request, f"/t/{tid}/manage#p{number}")


@router.post("/t/{tid}/players/{number}/drop")
def drop(request: Request, state: StateDep, staff: HeadDep, tid: TournamentPath,
         number: PlayerNumber, reason: Annotated[str, Form(max_length=500)] = "") -> Response:
    player_service.drop_player(state.db, tid, number, actor=staff.actor, reason=reason,
                               account_id=staff.account_id)
    return done(request, f"/t/{tid}/manage#p{number}")


@router.post("/t/{tid}/players/{number}/account")
def player_login(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
                 number: PlayerNumber) -> Response:
    """A login for the player, to report their own results; the password is shown once."""
    made = pages.make_player_login(state.db, tid, number, actor=staff.actor,
                                   hasher=state.hasher)
    text = gettext_for(request)(N_("Login for %(name)s: %(login)s, password %(pw)s"))
    return message(request, text % {"name": made.name, "login": made.login,
                                    "pw": made.password})


@router.post("/t/{tid}/rounds/start")
def pair_round(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
               drop_absent: Annotated[bool, Form()] = False) -> Response:
    """Pair the next round: Swiss while Swiss rounds remain, then the top."""
    view = start_round(state.db, tid, actor=staff.actor, drop_absent_players=drop_absent,
                       account_id=staff.account_id)
    return done(request, f"/t/{tid}/results?round={view.round.number}")


@router.post("/t/{tid}/rounds/undo")
def undo(request: Request, state: StateDep, staff: OrganizerDep,
         tid: TournamentPath) -> Response:
    undo_round(state.db, tid, actor=staff.actor, account_id=staff.account_id)
    return done(request, f"/t/{tid}/manage")


@router.post("/t/{tid}/timer")
def timer(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
          minutes: Annotated[str, Form(max_length=4)] = "50") -> Response:
    pages.start_round_timer(state.db, tid,
                            minutes=_int(minutes, Term("minutes"), low=1, high=600) or 50,
                            actor=staff.actor, account_id=staff.account_id)
    return done(request, f"/t/{tid}/manage")


@router.post("/t/{tid}/robot")
def robot(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
          allowed: Annotated[bool, Form()] = False) -> Response:
    """The online judge robot may record the tournament's results, or not (issue 10)."""
    set_robot_allowed(state.db, tid, allowed, actor=staff.actor, account_id=staff.account_id)
    return done(request, f"/t/{tid}/manage#robot")


@router.post("/t/{tid}/finish")
def finish(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
           early: Annotated[bool, Form()] = False) -> Response:
    finish_tournament(state.db, tid, actor=staff.actor, early=early,
                      account_id=staff.account_id)
    return done(request, f"/t/{tid}/places")


@router.post("/t/{tid}/staff")
def add_staff(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
              login: Annotated[str, Form(min_length=1, max_length=100)],
              role: Annotated[StaffRole, Form()]) -> Response:
    """The organizer gives an account a role in this tournament (issue 10 item 1)."""
    add_judge(state.db, tid, role=role, login=login, actor=staff.actor,
              account_id=staff.account_id)
    return done(request, f"/t/{tid}/manage#staff")


@router.post("/t/{tid}/staff/{judge}/remove")
def remove_from_staff(request: Request, state: StateDep, staff: OrganizerDep,
                      tid: TournamentPath, judge: JudgeId) -> Response:
    """The account loses that role here; the judge stays named for the record."""
    remove_staff(state.db, tid, judge, actor=staff.actor, account_id=staff.account_id)
    return done(request, f"/t/{tid}/manage#staff")

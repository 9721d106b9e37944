"""The round wizard's routes (issue 12): pair the next round (leaving out who did not check in
once check-in has started, unless the organizer pairs everyone anyway), undo it, the round
clock (start, pause, resume, add time; the setting "start the clock with the round"), and
finishing behind a confirmation page. The wizard itself is the Rounds card of the Manage page
(``templates/_round_wizard.html``, ``turnir.services.round_wizard``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, Response

from turnir.errors import Term
from turnir.services.round_clock import MAX_ADDED, MAX_MINUTES, set_clock_setting
from turnir.services.round_wizard import run_clock
from turnir.services.rounds import start_round, undo_round
from turnir.services.tournaments import finish_preview, finish_tournament
from turnir.web.deps import (
    HeadDep,
    OrganizerDep,
    StateDep,
    TournamentPath,
    done,
    render,
    require_csrf,
)
from turnir.web.form_fields import number_field

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])

BackField = Annotated[str, Form(max_length=300)]
"""The page a clock button was pressed on (the clock is on many pages); only a path of this
site is followed (``done``)."""


VersionField = Annotated[str, Form(max_length=12)]
"""The tournament's version the page showed: pressing "Pair" or "Undo" twice (a double click,
back and submit again) is refused the second time instead of pairing or undoing twice."""


def _version(text: str) -> int | None:
    return number_field(text, Term("version"), low=1, high=2**31 - 1)


def _back(tid: int, back: str) -> str:
    return back if back.startswith(f"/t/{tid}/") else f"/t/{tid}/manage#rounds"


@router.post("/t/{tid}/rounds/start")
def pair_round(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
               drop_absent: Annotated[bool, Form()] = False,
               include_absent: Annotated[bool, Form()] = False,
               version: VersionField = "") -> Response:
    """Pair the next round: Swiss while Swiss rounds remain, then the top. Before round 1,
    once someone has checked in, who has not is left out (``include_absent``: pair everyone
    anyway). The Manage page then offers the printables and names who was left out."""
    start_round(state.db, tid, actor=staff.actor, drop_absent_players=drop_absent,
                leave_out_absent=not include_absent, account_id=staff.account_id,
                expected_version=_version(version))
    return done(request, f"/t/{tid}/manage#rounds")


@router.post("/t/{tid}/rounds/undo")
def undo(request: Request, state: StateDep, staff: OrganizerDep,
         tid: TournamentPath, version: VersionField = "") -> Response:
    undo_round(state.db, tid, actor=staff.actor, account_id=staff.account_id,
               expected_version=_version(version))
    return done(request, f"/t/{tid}/manage#rounds")


@router.post("/t/{tid}/timer")
def timer(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
          minutes: Annotated[str, Form(max_length=4)] = "50", back: BackField = "") -> Response:
    """Start (or restart) the current round's clock."""
    run_clock(state.db, tid, "start",
              minutes=number_field(minutes, Term("minutes"), low=1, high=MAX_MINUTES) or 50,
              actor=staff.actor, account_id=staff.account_id)
    return done(request, _back(tid, back))


@router.post("/t/{tid}/timer/pause")
def pause(request: Request, state: StateDep, staff: HeadDep, tid: TournamentPath,
          back: BackField = "") -> Response:
    """The organizer or the head judge stops the clock; everyone's pages show it paused."""
    run_clock(state.db, tid, "pause", minutes=0, actor=staff.actor,
              account_id=staff.account_id)
    return done(request, _back(tid, back))


@router.post("/t/{tid}/timer/resume")
def resume(request: Request, state: StateDep, staff: HeadDep, tid: TournamentPath,
           back: BackField = "") -> Response:
    run_clock(state.db, tid, "resume", minutes=0, actor=staff.actor,
              account_id=staff.account_id)
    return done(request, _back(tid, back))


@router.post("/t/{tid}/timer/add")
def add(request: Request, state: StateDep, staff: HeadDep, tid: TournamentPath,
        minutes: Annotated[str, Form(max_length=4)] = "5", back: BackField = "") -> Response:
    """More time for the round (e.g. +5 minutes)."""
    run_clock(state.db, tid, "add",
              minutes=number_field(minutes, Term("minutes"), low=1, high=MAX_ADDED) or 5,
              actor=staff.actor, account_id=staff.account_id)
    return done(request, _back(tid, back))


@router.post("/t/{tid}/clock")
def clock_setting(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
                  minutes: Annotated[str, Form(max_length=4)] = "") -> Response:
    """The setting "start the clock with the round, minutes" (empty: started by hand)."""
    set_clock_setting(state.db, tid,
                      number_field(minutes, Term("minutes"), low=1, high=MAX_MINUTES),
                      actor=staff.actor, account_id=staff.account_id)
    return done(request, f"/t/{tid}/manage#rounds")


@router.get("/t/{tid}/finish", response_class=HTMLResponse)
def finish_page(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
                early: Annotated[bool, Query()] = False) -> HTMLResponse:
    """What finishing will do, to confirm (issue 12 item 8): it cannot be undone, and a
    tournament without a head judge cannot be rated."""
    preview = finish_preview(state.db, tid)
    return render(request, "finish.html", preview=preview, info=preview.info, tid=tid,
                  tab="manage", title=preview.info.name, early=early or preview.rounds_remain)


@router.post("/t/{tid}/finish")
def finish(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
           early: Annotated[bool, Form()] = False,
           confirm: Annotated[bool, Form()] = False) -> Response:
    """Finish, once confirmed on the confirmation page; without ``confirm``, that page."""
    if not confirm:
        return done(request, f"/t/{tid}/finish" + ("?early=true" if early else ""))
    finish_tournament(state.db, tid, actor=staff.actor, early=early,
                      account_id=staff.account_id)
    return done(request, f"/t/{tid}/places")

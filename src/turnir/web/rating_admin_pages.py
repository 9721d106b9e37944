"""The head judge's rating page of a tournament (issue 12 item 2): set the rating terms (K,
boosters, starter constructed, entry fee or prize fund, the players disqualified without
prizes, J-4), see the preview of the rating changes per player, submit to the rating
database (J-8) with a confirmation, and submit a correction (R-6: the same submission again,
once the terms or the results changed since).

The organizer and the head judge of the tournament set the terms, before or after the finish
(each change is in the audit log); only the head judge submits (the services check both again:
``set_rating_terms`` and ``submit_tournament`` with ``account_id``). Each route calls one
service."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import Field

from turnir.i18n import error_text
from turnir.services.rating_admin import rating_admin_page
from turnir.services.rating_terms import set_rating_terms
from turnir.services.ratings import SubmitStatus, submit_tournament
from turnir.web.deps import (
    HeadDep,
    StateDep,
    TournamentPath,
    done,
    get_visitor,
    render,
    require_csrf,
)

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])

Money = Annotated[str, Form(max_length=20)]
EntryNumber = Annotated[int, Field(ge=1, le=100_000)]
STAFF_URL = "/t/{tid}/staff"
"""Where the organizer names the head judge."""


def page_url(tid: int, note: str = "") -> str:
    return f"/t/{tid}/rating/terms" + (f"?done={note}" if note else "")


@router.get("/t/{tid}/rating/terms", response_class=HTMLResponse)
def terms_page(request: Request, state: StateDep, staff: HeadDep,
               tid: TournamentPath) -> HTMLResponse:
    """The terms form, the preview and the submit (or correction) button."""
    found = rating_admin_page(state.db, tid, account_id=staff.account_id)
    note = request.query_params.get("done", "")
    problem = None if found.problem is None else error_text(found.problem,
                                                            get_visitor(request).locale)
    return render(request, "rating_terms.html", tid=tid, page=found, info=found.tournament,
                  title=found.tournament.name, tab="rating", staff=staff,
                  problem_text=problem, staff_url=STAFF_URL.format(tid=tid),
                  note=note if note in {"terms", *SubmitStatus} else "")


@router.post("/t/{tid}/rating/terms")
def save_terms(request: Request, state: StateDep, staff: HeadDep, tid: TournamentPath,
               professional_k: Annotated[str, Form(max_length=20)],
               version: Annotated[int, Form(ge=0, le=2**31 - 1)],
               boosters: Annotated[int | None, Form(ge=1, le=4)] = None,
               starter: Annotated[bool, Form()] = False,
               entry_fee: Money = "", prize_fund: Money = "",
               dq: Annotated[list[EntryNumber], Form(max_length=1000)] = [],  # noqa: B006
               ) -> Response:
    """Change the terms; a blank amount is "none" (R-7). ``version``: the terms the form
    showed (a change made meanwhile by someone else is refused, 409)."""
    set_rating_terms(
        state.db, tid, actor=staff.actor, account_id=staff.account_id,
        professional_k=professional_k, starter=starter,
        **({} if boosters is None else {"boosters": boosters}),
        entry_fee=entry_fee.strip() or None, prize_fund=prize_fund.strip() or None,
        disqualified_without_prizes=dq, expected_version=version or None)
    return done(request, page_url(tid, "terms"))


@router.post("/t/{tid}/rating/submit")
def submit(request: Request, state: StateDep, staff: HeadDep, tid: TournamentPath,
           confirm: Annotated[str, Form(max_length=10)] = "") -> Response:
    """Submit (or correct) after the head judge ticked the confirmation."""
    answer = submit_tournament(state.db, tid, actor=staff.actor, account_id=staff.account_id,
                               confirmed=confirm == "yes")
    return done(request, page_url(tid, answer.status.value))

"""The draft setup page (issue 14, D-1..D-3, D-8): ``/t/{tid}/draft``.

Everyone sees the seating table by table (printable: the forms are left out of the print);
the tournament's organizer also gets the plan form (12- and 7-card boosters, profile, what a
one-booster draft makes, the pick timer, the review, the smallest deck) and the seating form
(by lot before round 1, by standings for a later stage; the number of tables from the counts
D-2 allows). ``POST /t/{tid}/draft/plan`` and ``POST /t/{tid}/draft/seat`` call
``turnir.services.draft_setup``, which checks the role again; both work with and without
JavaScript (HTMX replaces the page's main part; without it a 303 back to the page).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, TypeVar

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from turnir.domain.draft.plan import (
    DECK_MIN_RANGE,
    MAX_BOOSTERS,
    PER_CARD_RANGE,
    PICK_SECONDS_RANGE,
    REVIEW_RANGE,
    DraftProfile,
    PoolUse,
    make_plan,
)
from turnir.errors import Term, UserError
from turnir.services.draft_setup import draft_page, seat_draft, set_draft_plan
from turnir.web.deps import (
    OrganizerDep,
    StateDep,
    TournamentPath,
    VisitorDep,
    gettext_for,
    is_htmx,
    render,
    require_csrf,
)
from turnir.web.form_fields import number_field

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])

Field = Annotated[str, Form(max_length=20)]
"""A plan form's field as typed: read by ``_whole`` / ``_choice`` so that a refusal names the
field by its label (issue 14 QA: not pydantic's «Twelves: нужно значение»)."""
Choice = TypeVar("Choice", bound=StrEnum)
RANGES = {"pick": PICK_SECONDS_RANGE, "per_card": PER_CARD_RANGE, "review": REVIEW_RANGE,
          "deck_min": DECK_MIN_RANGE}
"""The plan form's bounds (``turnir.domain.draft.plan``), shown as the inputs' min and max."""


def _page(request: Request, state: StateDep, tid: int, account_id: int | None, *,
          status: int = 200) -> HTMLResponse:
    view = draft_page(state.db, tid, account_id=account_id)
    template = "_draft_setup.html" if is_htmx(request) else "draft_setup.html"
    return render(request, template, status=status, view=view, tid=tid, tab="draft",
                  title=gettext_for(request)("Draft"), ranges=RANGES,
                  profiles=list(DraftProfile), uses=(PoolUse.HAND, PoolUse.SQUAD))


def _done(request: Request, state: StateDep, tid: int, account_id: int | None) -> Response:
    if is_htmx(request):
        return _page(request, state, tid, account_id)
    return RedirectResponse(f"/t/{tid}/draft", status_code=303)


@router.get("/t/{tid}/draft", response_class=HTMLResponse)
def setup_page(request: Request, state: StateDep, visitor: VisitorDep,
               tid: TournamentPath) -> Response:
    """The seating by table; the organizer's plan and seating forms."""
    account = visitor.account
    return _page(request, state, tid, None if account is None else account.id)


def _whole(text: str, what: Term, bounds: tuple[int, int]) -> int:
    """A whole number typed in a plan field, within ``bounds``; an empty field is refused like
    a wrong one (every field of the plan form is required: nothing is saved silently as 0)."""
    low, high = bounds
    found = number_field(text, what, low=low, high=high)
    if found is None:
        raise UserError("{what}: a whole number from {low} to {high}", code="bad_number",
                        what=what, low=low, high=high)
    return found


def _choice(text: str, kind: type[Choice], what: Term) -> Choice:
    try:
        return kind(text.strip())
    except ValueError:
        raise UserError("{what}: choose one of the offered options", code="bad_choice",
                        what=what) from None


@router.post("/t/{tid}/draft/plan")
def save_plan(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
              twelves: Field = "", sevens: Field = "", profile: Field = "",
              single: Field = PoolUse.HAND.value, pick_seconds: Field = "",
              pick_seconds_per_card: Field = "", review_seconds: Field = "",
              deck_min: Field = "") -> Response:
    """The organizer sets the draft plan (checked by ``make_plan``, D-1, D-8); a refused
    field is named by its label."""
    plan = make_plan(
        twelves=_whole(twelves, Term("boosters of 12 cards"), (0, MAX_BOOSTERS)),
        sevens=_whole(sevens, Term("boosters of 7 cards"), (0, MAX_BOOSTERS)),
        profile=_choice(profile, DraftProfile, Term("the draft profile")),
        single=_choice(single, PoolUse, Term("what one booster makes")),
        pick_seconds=_whole(pick_seconds, Term("pick time"), PICK_SECONDS_RANGE),
        pick_seconds_per_card=_whole(pick_seconds_per_card,
                                     Term("seconds for each card in the booster"),
                                     PER_CARD_RANGE),
        review_seconds=_whole(review_seconds, Term("review time"), REVIEW_RANGE),
        deck_min=_whole(deck_min, Term("smallest deck"), DECK_MIN_RANGE))
    set_draft_plan(state.db, tid, actor=staff.actor, account_id=staff.account_id, plan=plan)
    return _done(request, state, tid, staff.account_id)


@router.post("/t/{tid}/draft/seat")
def seat(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
         method: Annotated[str, Form(max_length=20)],
         tables: Annotated[int, Form(ge=0, le=1024)] = 0) -> Response:
    """The organizer seats the players by lot or by standings (``tables`` 0: the default)."""
    seat_draft(state.db, tid, actor=staff.actor, account_id=staff.account_id, method=method,
               tables=tables or None)
    return _done(request, state, tid, staff.account_id)

"""The judges' deck pages (issue 13): every player's deck status (``/t/{tid}/decks``), one deck
laid out for counting at the table (``/t/{tid}/decks/{number}/count``: element, cost, type)
and the random deck checks of the current round (``/t/{tid}/deck-checks``: drawn by lot from
the tournament's recorded seed, a chosen player, each marked done with a note).

Only the tournament's staff (``JudgesDep``); the services check the role again. Each route
calls one service (``turnir.services.deck_checks``); a draw or an added check is a creating
form sent once (``FormOnceDep``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Path, Query, Request
from fastapi.responses import HTMLResponse, Response

from turnir.domain.deck_lots import MAX_DRAW
from turnir.errors import Term
from turnir.services.deck_checks import (
    MAX_NOTE,
    add_deck_check,
    deck_checks_page,
    deck_count,
    decks_page,
    draw_deck_checks,
    finish_deck_check,
)
from turnir.web.deps import (
    JudgesDep,
    StateDep,
    TournamentDep,
    TournamentPath,
    done,
    render,
    require_csrf,
)
from turnir.web.form_fields import number_field
from turnir.web.form_once import FormOnceDep

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])

NumberPath = Annotated[int, Path(ge=1, le=2**31 - 1, description="The player's number")]
CheckPath = Annotated[int, Path(ge=1, le=2**31 - 1, description="The deck check's number")]
RoundField = Annotated[int, Form(ge=1, le=10_000)]
Small = Annotated[str, Form(max_length=12)]
DEFAULT_DRAW = 2
"""How many decks the draw form offers to draw."""


@router.get("/t/{tid}/decks", response_class=HTMLResponse)
def decks_list(request: Request, state: StateDep, staff: JudgesDep,
               info: TournamentDep) -> HTMLResponse:
    """Every player with their deck's status, card count and last change, and its pages."""
    page = decks_page(state.db, info.id, account_id=staff.account_id)
    return render(request, "decks_list.html", tid=info.id, info=info, title=info.name,
                  tab="decks", page=page)


@router.get("/t/{tid}/decks/{number}/count", response_class=HTMLResponse)
def count_view(request: Request, state: StateDep, staff: JudgesDep, info: TournamentDep,
               number: NumberPath) -> HTMLResponse:
    """One deck sorted for counting (element, cost, type), grouped by element with counts."""
    counted = deck_count(state.db, info.id, number, account_id=staff.account_id)
    return render(request, "deck_count.html", tid=info.id, info=info, title=info.name,
                  tab="decks", counted=counted, deck=counted.deck)


@router.get("/t/{tid}/deck-checks", response_class=HTMLResponse)
def deck_checks(request: Request, state: StateDep, staff: JudgesDep, info: TournamentDep,
                drawn: Annotated[int | None, Query(ge=0, le=MAX_DRAW)] = None) -> HTMLResponse:
    """The current round's checks and who is left to draw, with the forms; ``drawn``: how
    many decks the draw just made took."""
    page = deck_checks_page(state.db, info.id, account_id=staff.account_id)
    return render(request, "deck_checks.html", tid=info.id, info=info, title=info.name,
                  tab="decks", page=page, drawn=drawn, default_draw=DEFAULT_DRAW)


@router.post("/t/{tid}/deck-checks/draw")
def draw(request: Request, state: StateDep, staff: JudgesDep, tid: TournamentPath,
         once: FormOnceDep, round: RoundField, count: Small = "") -> Response:
    """Draw decks by lot in the current round (``round``: the round the page showed)."""
    how_many = number_field(count, Term("how many decks"), low=1, high=MAX_DRAW,
                            default=DEFAULT_DRAW)
    drawn = draw_deck_checks(state.db, tid, count=how_many or DEFAULT_DRAW, actor=staff.actor,
                             account_id=staff.account_id, round_number=round)
    return once.done(request, f"/t/{tid}/deck-checks?drawn={len(drawn)}#checks")


@router.post("/t/{tid}/deck-checks/add")
def add(request: Request, state: StateDep, staff: JudgesDep, tid: TournamentPath,
        once: FormOnceDep, round: RoundField,
        number: Annotated[int, Form(ge=1, le=2**31 - 1)]) -> Response:
    """A check of the player the judge chose (not by lot)."""
    add_deck_check(state.db, tid, number, actor=staff.actor, account_id=staff.account_id,
                   round_number=round)
    return once.done(request, f"/t/{tid}/deck-checks#checks")


@router.post("/t/{tid}/deck-checks/{check}/done")
def mark_done(request: Request, state: StateDep, staff: JudgesDep, tid: TournamentPath,
              check: CheckPath,
              note: Annotated[str, Form(max_length=MAX_NOTE)] = "") -> Response:
    """The check done, with what the judge found."""
    finish_deck_check(state.db, tid, check, note=note, actor=staff.actor,
                      account_id=staff.account_id)
    return done(request, f"/t/{tid}/deck-checks#check-{check}")

"""The player's own pages (issue 12), phone first:

- ``/me``: where the player plays now (``services.player_match.my_tournaments``): the one
  running tournament's match card, a short list when there are several, else the home page.
  A player lands here after logging in (``turnir.web.auth``).
- ``/t/{tid}/me``: the match card: one button per result of the match's best-of (from the
  player's side: "won 2-1"), the opponent's report with "confirm" (one tap) and a dispute (one
  tap on the player's own result, with an optional comment for the judge); an HTMX request
  gets the card alone, a plain form a redirect back to the page (POST-redirect-GET).
- ``/t/{tid}/me/leave``: leaving the tournament, after a confirmation page (it works without
  JavaScript), from the next round on (P-7).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from turnir.domain.results import parse_result
from turnir.services.card_page import card_page
from turnir.services.player_match import leave_tournament, my_match, my_tournaments
from turnir.services.reports import COMMENT_LEN, ReportStatus, report_result
from turnir.web.deps import (
    StateDep,
    TournamentPath,
    VisitorDep,
    done,
    gettext_for,
    is_htmx,
    render,
    require_csrf,
)
from turnir.web.security import PLAYERS, SIGNED_IN, Forbidden
from turnir.web.templating import N_

UNCHANGED = N_("The table already has this result.")
"""The card's note after a tap that changed nothing; otherwise the card's new state (waiting,
recorded, disputed) says what happened."""

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])


@router.get("/me", response_class=HTMLResponse)
def me(request: Request, state: StateDep, visitor: VisitorDep) -> Response:
    """The player's current match: one tournament → its card; several → a list; none → home."""
    account = visitor.require(SIGNED_IN)
    found = my_tournaments(state.db, account.person_id)
    if len(found) == 1:
        return RedirectResponse(f"/t/{found[0].id}/me", status_code=303)
    if not found:
        return RedirectResponse("/", status_code=303)
    return render(request, "my_tournaments.html", found=found, title=None)


def _card(request: Request, state: StateDep, visitor: VisitorDep, tid: int,
          note: str = "", seen: str = "") -> Response:
    if visitor.account is not None and visitor.role not in PLAYERS:  # QA h11 item 22
        raise Forbidden("you are not a participant of this tournament", code="not_a_player")
    account = visitor.require(PLAYERS)
    if is_htmx(request):
        card = my_match(state.db, tid, account)
        if seen and seen == card.seen:
            return Response(status_code=204)  # a poll: nothing changed
        return render(request, "_my_match.html", card=card, tid=tid, note=note,
                      comment_len=COMMENT_LEN)
    page = card_page(state.db, tid, account)  # one read for the card, the clock, the decks
    card = page.card
    return render(request, "my_match.html", card=card, tid=tid, tab="me", note=note,
                  timer=page.timer, title=card.tournament, comment_len=COMMENT_LEN,
                  has_top=card.has_top, decks=page.deck_format,  # a link to the deck (13)
                  draft=card.draft,  # issue 14: the picks of a draft; the tab bar's facts:
                  is_draft=card.draft, has_decks=page.takes_decks, entered=True)


@router.get("/t/{tid}/me", response_class=HTMLResponse)
def match_card(request: Request, state: StateDep, visitor: VisitorDep, tid: TournamentPath,
               seen: Annotated[str, Query(max_length=60)] = "") -> Response:
    """The card; a poll (``seen``: the state it shows) gets 204 until the state changes."""
    return _card(request, state, visitor, tid, seen=seen)


@router.post("/t/{tid}/me/report")
def report(request: Request, state: StateDep, visitor: VisitorDep, tid: TournamentPath,
           round: Annotated[int, Form(ge=1, le=10_000)],
           table: Annotated[int, Form(ge=1, le=100_000)],
           score: Annotated[str, Form(max_length=20)],
           comment: Annotated[str, Form(max_length=COMMENT_LEN)] = "") -> Response:
    """One tap: the player's result (their games first); the opponent's score to confirm it,
    another one to dispute it."""
    answer = report_result(state.db, tid, round, table, parse_result(score),
                           account=visitor.require(PLAYERS), comment=comment)
    if not is_htmx(request):
        return done(request, f"/t/{tid}/me")
    unchanged = answer.status is ReportStatus.UNCHANGED
    return _card(request, state, visitor, tid, gettext_for(request)(UNCHANGED) if unchanged else "")


@router.get("/t/{tid}/me/leave", response_class=HTMLResponse)
def leave_page(request: Request, state: StateDep, visitor: VisitorDep,
               tid: TournamentPath) -> HTMLResponse:
    """The confirmation step before leaving (a page of its own: no JavaScript needed)."""
    card = my_match(state.db, tid, visitor.require(PLAYERS))
    return render(request, "my_leave.html", card=card, tid=tid, tab="me", title=card.tournament,
                  has_top=card.has_top)


@router.post("/t/{tid}/me/leave")
def leave(request: Request, state: StateDep, visitor: VisitorDep, tid: TournamentPath,
          confirm: Annotated[str, Form(max_length=10)] = "") -> Response:
    """Leave the tournament: only with the confirmation page's ``confirm=yes``; without it
    (a hand-made request), back to the confirmation."""
    account = visitor.require(PLAYERS)
    if confirm == "yes":
        leave_tournament(state.db, tid, account=account)
        return done(request, f"/t/{tid}/me")
    my_match(state.db, tid, account)  # only a player of this tournament is sent there
    return done(request, f"/t/{tid}/me/leave")

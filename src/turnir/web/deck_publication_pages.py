"""The top decks and the metagame of a finished constructed tournament (issue 13), phone first:

- ``/t/{tid}/top-decks``: the decks of the top N players by final place, once the organizer
  published them (anyone; nothing before). The tournament's organizer gets a small form there
  to publish N decks (0 withdraws), after the finish.
- ``/t/{tid}/metagame``: the elements of the decks and the most played cards (anyone, once the
  tournament is finished).

Every other deck list stays private (``turnir.services.decks``). Each route calls one service
(``turnir.services.deck_publication``), which checks the organizer's role again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response

from turnir.services.deck_publication import (
    MAX_PUBLISHED,
    PublishedDeck,
    PublishedLine,
    metagame_page,
    publish_top_decks,
    top_decks_page,
)
from turnir.web.deps import (
    OrganizerDep,
    StaffDep,
    StateDep,
    TournamentPath,
    done,
    render,
    require_csrf,
)

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])

@dataclass(frozen=True, slots=True)
class LineGroup:
    """A published deck's lines of one element, in the deck's reading order."""

    element: str
    lines: tuple[PublishedLine, ...]
    cards: int


def groups(deck: PublishedDeck) -> list[LineGroup]:
    """The deck's lines by element (the order ``published_decks`` sorted them in)."""
    found: list[tuple[str, list[PublishedLine]]] = []
    for line in deck.lines:
        if not found or found[-1][0] != line.element:
            found.append((line.element, []))
        found[-1][1].append(line)
    return [LineGroup(element, tuple(lines), sum(line.count for line in lines))
            for element, lines in found]


@router.get("/t/{tid}/top-decks", response_class=HTMLResponse)
def top_decks(request: Request, state: StateDep, staff: StaffDep,
              tid: TournamentPath) -> HTMLResponse:
    """The published top decks; the organizer's form to publish them."""
    page = top_decks_page(state.db, tid, account_id=staff.account_id)
    offered = page.published or page.suggested
    return render(request, "top_decks.html", page=page, info=page.info, tid=tid,
                  tab="top-decks", title=page.info.name, offered=offered,
                  groups={deck.place: groups(deck) for deck in page.decks})


@router.post("/t/{tid}/top-decks")
def publish(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
            count: Annotated[int, Form(ge=0, le=MAX_PUBLISHED)]) -> Response:
    """The organizer publishes the top ``count`` decks (0 withdraws them)."""
    publish_top_decks(state.db, tid, count, actor=staff.actor, account_id=staff.account_id)
    return done(request, f"/t/{tid}/top-decks")


@router.get("/t/{tid}/metagame", response_class=HTMLResponse)
def metagame(request: Request, state: StateDep, tid: TournamentPath) -> HTMLResponse:
    """The elements and the most played cards of the tournament's decks."""
    page = metagame_page(state.db, tid)
    return render(request, "metagame.html", page=page, info=page.info, tid=tid,
                  tab="metagame", title=page.info.name)

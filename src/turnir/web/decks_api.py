"""The deck API (issue 13, ``docs/decks.md``), under ``/api/v1``:

- ``POST /deck-check`` (anyone): a list checked against a format, no tournament, nothing stored:
  ``{"ok", "format", "total", "problems": [{"kind", "rule", "card", "line", "message",
  "suggestions"}]}``, the messages in the request's language;
- ``GET /tournaments/{tid}/decks`` (its judges and organizer): every entry and its deck;
- ``GET /tournaments/{tid}/decks/{number}`` (the entry's player, its judges and organizer): the
  deck with its problems (``registered`` false and ``version`` 0 when none is registered);
- ``PUT /tournaments/{tid}/decks/{number}`` (the same people): register or replace the deck,
  ``{"text", "expected_version"}``; the player until round 1 is paired (409 ``deck_locked``
  after), the staff any time (a judge's change after round 1, logged).

Each route calls one service (``turnir.services.decks``), which checks the account's role in the
tournament again.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from turnir.domain.decks import MAX_TEXT, DeckCheck
from turnir.services.decks import (
    DeckSummary,
    DeckView,
    check_deck_text,
    deck_view,
    list_decks,
    problem_record,
    register_deck,
)
from turnir.web.api import EVERYONE, PREFIX, route
from turnir.web.api_deps import PlayerNumber, TournamentId, api_csrf
from turnir.web.deps import DbDep, JudgesDep, SignedInDep
from turnir.web.errors import api_locale
from turnir.web.security import JUDGES, SIGNED_IN

router = APIRouter(prefix=PREFIX, tags=["turnir"], dependencies=[Depends(api_csrf)])
"""The deck routes; ``turnir.web.app`` includes them beside ``turnir.web.api``."""

DeckText = Annotated[str, Field(max_length=MAX_TEXT, description="The deck list, a card a line")]


class DeckCheckIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: DeckText
    format_id: Annotated[int, Field(ge=1, le=2**31 - 1)]


class DeckIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: DeckText
    expected_version: Annotated[int | None, Field(ge=0, le=2**31 - 1)] = None
    """The deck's version read before (0: none was registered); a change meanwhile is 409."""


class ProblemOut(BaseModel):
    kind: str
    rule: str
    """``C-1``, ``C-2``, or empty for a line that cannot be read."""
    card: str | None
    line: int | None
    message: str
    suggestions: list[str]


class DeckCheckOut(BaseModel):
    ok: bool
    total: int
    problems: list[ProblemOut]

    @classmethod
    def of(cls, check: DeckCheck, locale: str) -> DeckCheckOut:
        return cls(ok=check.ok, total=check.total,
                   problems=[ProblemOut(**problem_record(p, locale)) for p in check.problems])


class DeckLineOut(BaseModel):
    count: int
    name: str
    edition: str | None


class DeckOut(DeckCheckOut):
    tournament_id: int
    number: int
    player: str
    registered: bool
    format: str
    valid: bool
    locked: bool
    """Round 1 is paired: only a judge changes the deck now."""
    can_change: bool
    lines: list[DeckLineOut]
    text: str
    updated_at: datetime | None
    updated_by: str
    version: int

    @classmethod
    def of_view(cls, view: DeckView, locale: str) -> DeckOut:
        values: dict[str, Any] = {
            "ok": view.valid, "total": view.total, "tournament_id": view.tournament_id,
            "number": view.number, "player": view.player, "registered": view.registered,
            "format": view.format_name, "valid": view.valid, "locked": view.locked,
            "can_change": view.can_change, "text": view.text, "updated_at": view.updated_at,
            "updated_by": view.updated_by, "version": view.version,
            "lines": [DeckLineOut(**line.to_json()) for line in view.lines],
            "problems": [ProblemOut(**problem_record(p, locale)) for p in view.problems]}
        return cls(**values)


@route("POST", "/deck-check", EVERYONE, codes=(404,), response_model=DeckCheckOut, on=router)
def deck_check(request: Request, db: DbDep, body: DeckCheckIn) -> DeckCheckOut:
    """Check a deck list against a format (404 for an unknown format); ``ok`` false when it
    breaks a rule, with every problem."""
    return DeckCheckOut.of(check_deck_text(db, text=body.text, format_id=body.format_id),
                           api_locale(request))


@route("GET", "/tournaments/{tid}/decks", JUDGES, codes=(404,),
       response_model=list[DeckSummary], on=router)
def decks(db: DbDep, staff: JudgesDep, tid: TournamentId) -> list[DeckSummary]:
    """Every entry of the tournament and its deck (or none), by number (``problems``: how
    many the check finds now)."""
    return list_decks(db, tid, account_id=staff.account_id)


@route("GET", "/tournaments/{tid}/decks/{number}", SIGNED_IN, codes=(404,),
       response_model=DeckOut, on=router)
def deck(request: Request, db: DbDep, account: SignedInDep, tid: TournamentId,
         number: PlayerNumber) -> DeckOut:
    """The entry's deck with its problems checked now."""
    return DeckOut.of_view(deck_view(db, tid, number, account_id=account.id),
                           api_locale(request))


@route("PUT", "/tournaments/{tid}/decks/{number}", SIGNED_IN, codes=(404, 409),
       response_model=DeckOut, on=router)
def put_deck(request: Request, db: DbDep, account: SignedInDep, tid: TournamentId,
             number: PlayerNumber, body: DeckIn) -> DeckOut:
    """Register or replace the entry's deck; stored even when it breaks a rule (``valid``
    false, its problems listed)."""
    return DeckOut.of_view(register_deck(db, tid, number, text=body.text, actor=account.name,
                                         account_id=account.id,
                                         expected_version=body.expected_version),
                           api_locale(request))

"""The live draft's API (issue 14, ``turnir.services.live_draft``), under ``/api/v1``:

- ``GET /tournaments/{tid}/draft`` (a signed-in player seated in the draft): the caller's seat
  — the booster in hand with its cards, the deadline, the pool, who the table waits on — and
  the table's state ``version`` (404 when the account has no seat);
- ``POST /tournaments/{tid}/draft/picks`` ``{"booster", "cards_left", "card"}``: the caller's
  pick on the booster as it was with ``cards_left`` cards; 200 with the new view, 409
  ``stale_pick`` for a repeated, stale or late pick (never applied twice);
- ``GET /tournaments/{tid}/draft/tables/{table}`` (the tournament's staff): the table's seats,
  who holds how many boosters and who the table waits on;
- ``GET /tournaments/{tid}/draft/log[?table=]`` (the staff any time, its players once the draft
  is over, 409 before): every pick in order.

Each route calls one service, which checks the account's role in the tournament again.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query
from pydantic import BaseModel, ConfigDict, Field

from turnir.domain.draft.boosters import DraftCard
from turnir.errors import NotFoundError
from turnir.services.live_draft import (
    PickLine,
    PlayerDraftView,
    TableDraftView,
    pick_card,
    pick_log,
    player_draft,
    table_draft,
)
from turnir.web.api import PREFIX, route
from turnir.web.api_deps import PlayerAccountDep, TournamentId, api_csrf
from turnir.web.deps import DbDep, JudgesDep, SignedInDep
from turnir.web.security import JUDGES, PLAYERS, SIGNED_IN

router = APIRouter(prefix=PREFIX, tags=["turnir"], dependencies=[Depends(api_csrf)])
"""The live draft's routes; ``turnir.web.app`` includes them beside ``turnir.web.api``."""

DraftTable = Annotated[int, Path(ge=1, le=1_000, description="The draft table's number")]


class PickIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    booster: Annotated[int, Field(ge=1, le=100_000, description="The booster's id")]
    cards_left: Annotated[int, Field(ge=1, le=12,
                                     description="Its card count the pick was made on")]
    card: Annotated[str, Field(min_length=1, max_length=20, pattern=r"^[A-Za-z0-9_-]+$",
                               description="The picked card's uid")]


class CardOut(BaseModel):
    uid: str
    name: str
    edition: str
    rarity: str

    @classmethod
    def of(cls, card: DraftCard) -> CardOut:
        return cls(uid=card.uid, name=card.name, edition=card.edition, rarity=card.rarity)


class DraftOut(BaseModel):
    tournament_id: int
    number: int
    name: str
    table: int
    seat: int
    status: str
    """``waiting_start``, ``picking``, ``waiting``, ``review`` or ``done``."""
    booster: int | None
    booster_round: int
    rounds: int
    cards: list[CardOut]
    cards_left: int
    deadline: datetime | None
    seconds_left: int | None
    pool: list[CardOut]
    queue: int
    waiting_on: list[str]
    direction: str
    review_until: datetime | None
    version: int

    @classmethod
    def of(cls, view: PlayerDraftView) -> DraftOut:
        return cls(
            tournament_id=view.tournament_id, number=view.number, name=view.name,
            table=view.table, seat=view.seat, status=view.status, booster=view.booster,
            booster_round=view.booster_round, rounds=view.rounds,
            cards=[CardOut.of(c) for c in view.cards], cards_left=view.cards_left,
            deadline=view.deadline, seconds_left=view.seconds_left,
            pool=[CardOut.of(c) for c in view.pool], queue=view.queue,
            waiting_on=list(view.waiting_on), direction=view.direction,
            review_until=view.review_until, version=view.version)


@route("GET", "/tournaments/{tid}/draft", PLAYERS, codes=(404,), response_model=DraftOut,
       on=router)
def my_draft(db: DbDep, account: PlayerAccountDep, tid: TournamentId) -> DraftOut:
    """The caller's seat in the tournament's live draft (404: no seat)."""
    view = player_draft(db, tid, account_id=account.id)
    if view is None:
        raise NotFoundError("you have no seat in the live draft of tournament #{tournament}",
                            code="not_seated", tournament=tid)
    return DraftOut.of(view)


@route("POST", "/tournaments/{tid}/draft/picks", PLAYERS, codes=(404, 409),
       response_model=DraftOut, on=router)
def post_pick(db: DbDep, account: PlayerAccountDep, tid: TournamentId,
              body: PickIn) -> DraftOut:
    """Pick a card from the booster in hand; 409 when the booster is no longer the one named
    (a repeated or late pick), nothing applied."""
    return DraftOut.of(pick_card(db, tid, account_id=account.id, booster=body.booster,
                                 cards_left=body.cards_left, card=body.card))


@route("GET", "/tournaments/{tid}/draft/tables/{table}", JUDGES, codes=(404,),
       response_model=TableDraftView, on=router)
def draft_table(db: DbDep, staff: JudgesDep, tid: TournamentId,
                table: DraftTable) -> TableDraftView:
    """One draft table: each seat's boosters held, deadline, picks; who the table waits on."""
    return table_draft(db, tid, table, account_id=staff.account_id)


@route("GET", "/tournaments/{tid}/draft/log", SIGNED_IN, codes=(404, 409),
       response_model=list[PickLine], on=router)
def draft_log(db: DbDep, account: SignedInDep, tid: TournamentId,
              table: Annotated[int | None, Query(ge=1, le=1_000)] = None) -> list[PickLine]:
    """Every pick in order (one table with ``?table=``)."""
    return pick_log(db, tid, account_id=account.id, table=table)

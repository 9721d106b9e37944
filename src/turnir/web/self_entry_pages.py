"""A player enters an online tournament themselves (issue 13, ``services.self_entry``):

- ``POST /t/{tid}/entry``: the «Записаться на турнир» button of the tournament's page (a
  player's account; CSRF and the one-time form token: sent twice, it enters once); then back
  to the page, which says «Вы записаны» with links to the deck and the player's page. A refusal
  (not online, registration closed, already entered, C-2's age check) is the page's message.
- ``POST /api/v1/tournaments/{tid}/entries/me``: the same for a player's token (201 and the
  entry).

The tournament's page asks ``services.self_entry.my_entry`` what to show (``web.public``).
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from turnir.services.self_entry import enter_myself
from turnir.web.api import PREFIX, route
from turnir.web.api_deps import PlayerAccountDep, TournamentId, api_csrf
from turnir.web.api_models import PlayerOut
from turnir.web.deps import DbDep, StateDep, TournamentPath, VisitorDep, require_csrf
from turnir.web.form_once import FormOnceDep
from turnir.web.security import PLAYERS

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])
api_router = APIRouter(prefix=PREFIX, tags=["turnir"], dependencies=[Depends(api_csrf)])
"""The API route; ``turnir.web.app`` includes both routers."""


@router.post("/t/{tid}/entry")
def enter(request: Request, state: StateDep, visitor: VisitorDep, tid: TournamentPath,
          once: FormOnceDep) -> Response:
    """The player enters the tournament; then its page, which says so."""
    enter_myself(state.db, tid, account=visitor.require(PLAYERS))
    return once.done(request, f"/t/{tid}#my-entry")


@route("POST", "/tournaments/{tid}/entries/me", PLAYERS, status=201, codes=(404, 409),
       response_model=PlayerOut, on=api_router)
def enter_api(db: DbDep, account: PlayerAccountDep, tid: TournamentId) -> PlayerOut:
    """The player's account enters its own person into an online tournament in registration
    (403 ``not_online`` for another; 409 ``already_entered``, ``registration_closed``; 422
    ``game_age``: an online starter event takes only characters under 18 game years, C-2)."""
    return PlayerOut.model_validate(enter_myself(db, tid, account=account))

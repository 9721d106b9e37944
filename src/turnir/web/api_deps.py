"""The REST API's typed dependencies (beside ``turnir.web.deps``, which the pages share: the
database, the visitor, the visitor's role in the URL's tournament): the path parameters with
their bounds, the round of the path, the signed-in account by its server-wide role, and the
CSRF check for a browser's cookie session."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request

from turnir.domain.model import Round
from turnir.services.accounts import AccountInfo
from turnir.services.tournaments import get_tournament
from turnir.web.deps import DbDep, VisitorDep, get_state, get_visitor
from turnir.web.security import CSRF_HEADER, ORGANIZER, PLAYERS, Role, check_csrf

TournamentId = Annotated[int, Path(ge=1, le=2**31 - 1, description="The tournament's number")]
RoundNumber = Annotated[int, Path(ge=1, le=10_000, description="The round's number")]
TableNumber = Annotated[int, Path(ge=1, le=100_000, description="The table's number")]
PlayerNumber = Annotated[int, Path(ge=1, le=2**31 - 1, description="The player's number")]
JudgeNumber = Annotated[int, Path(ge=1, le=2**31 - 1, description="The staff row's id")]
Login = Annotated[str, Path(min_length=1, max_length=100, description="The account's login")]


async def api_csrf(request: Request) -> None:
    """A change made with a browser's session cookie needs the ``X-CSRF-Token`` header; a
    bearer token needs none."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    visitor = get_visitor(request)
    if visitor.account is None or visitor.bearer:
        return
    check_csrf(get_state(request).settings.secret_key, visitor,
               request.headers.get(CSRF_HEADER))


class AccountCheck:
    """A dependency: the signed-in account when its server-wide role is one of ``allowed``
    (401 for the anonymous, 403 otherwise)."""

    def __init__(self, allowed: frozenset[Role]) -> None:
        self.allowed = allowed

    def __call__(self, visitor: VisitorDep) -> AccountInfo:
        return visitor.require(self.allowed)


AccountsOrganizerDep = Annotated[AccountInfo, Depends(AccountCheck(ORGANIZER))]
"""An organizer's account: creates tournaments and manages the accounts."""
PlayerAccountDep = Annotated[AccountInfo, Depends(AccountCheck(PLAYERS))]
"""A player's account: reports its own matches."""


def path_round(db: DbDep, tid: TournamentId, number: RoundNumber) -> Round:
    """Round ``number`` of tournament ``tid`` (404 when either is unknown)."""
    return get_tournament(db, tid).tournament.round(number)


PathRoundDep = Annotated[Round, Depends(path_round)]
"""The round of the URL's path, with its pairings and results (``turnir.web.deps.RoundDep``
is a page's: ``?round=`` or the current one)."""

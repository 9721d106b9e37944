"""The REST API under ``/api/v1``, described at ``/api/v1/openapi.json``; it calls the same
services as the pages.

Authentication: ``POST /api/v1/session`` answers a token for ``Authorization: Bearer …``; a
browser's session cookie works too, and then every change needs the ``X-CSRF-Token`` header.
Each route names the roles allowed in its ``x-roles`` (``anonymous`` means everyone); under
``/tournaments/{tid}`` the organizer, head judge and floor judge are roles *in that tournament*
(its staff, ``turnir.services.judges``), so a judge of another tournament gets 403
(``not_staff``). Errors
are ``{"code", "message"}`` with 401 (log in), 403 (not your role, not your match), 404,
409 (conflicts with the tournament's state or a stale version), 422 (a malformed request or a
rule refused it), 429 (too many failed logins).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Request, Response

from turnir.domain.model import Status
from turnir.services import pages
from turnir.services import players as player_service
from turnir.services.accounts import (
    AccountInfo,
    close_session,
    create_account,
    list_accounts,
    set_active,
)
from turnir.services.accounts import set_password as reset_account_password
from turnir.services.common import TournamentInfo
from turnir.services.judges import add_judge, list_judges, remove_staff
from turnir.services.queries import get_standings
from turnir.services.results import record_result
from turnir.services.round_clock import start_timer
from turnir.services.rounds import start_round, undo_round
from turnir.services.tournaments import (
    create_tournament,
    finish_tournament,
    get_tournament,
    list_tournaments,
)
from turnir.web.api_deps import (
    AccountsOrganizerDep,
    JudgeNumber,
    Login,
    PathRoundDep,
    PlayerAccountDep,
    PlayerNumber,
    RoundNumber,
    TableNumber,
    TournamentId,
    api_csrf,
)
from turnir.web.api_models import (
    AccountIn,
    CheckInIn,
    DropIn,
    ErrorOut,
    FinishIn,
    LoginIn,
    PairIn,
    PasswordIn,
    PlaceOut,
    PlayerIn,
    PlayerOut,
    RecordedOut,
    ReportIn,
    ReportOut,
    ResultIn,
    RoundOut,
    SessionOut,
    StaffIn,
    StaffOut,
    StandingsOut,
    TimerIn,
    TimerOut,
    TournamentIn,
    in_utc,
)
from turnir.web.auth import sign_in
from turnir.web.deps import (
    DbDep,
    HeadDep,
    JudgesDep,
    OrganizerDep,
    SignedInDep,
    StateDep,
    VisitorDep,
)
from turnir.web.security import HEAD, JUDGES, ORGANIZER, PLAYERS, SIGNED_IN, Role, client_address
from turnir.web.views import final_places as places

PREFIX = "/api/v1"
EVERYONE = frozenset(Role)

_DESCRIPTIONS = {
    401: "log in first (no or an expired session or token)",
    403: "the role does not allow this, or a missing CSRF header with a cookie session",
    404: "no such tournament, player, round or table",
    409: "conflicts with the tournament's state, or a stale version",
    422: "a malformed request, or a rule refused it",
    429: "too many failed logins; wait",
}

router = APIRouter(prefix=PREFIX, tags=["turnir"], dependencies=[Depends(api_csrf)])
"""Every route of the API; ``turnir.web.app`` includes it."""


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorOut, "description": _DESCRIPTIONS[code]} for code in codes}


def route(method: str, path: str, roles: frozenset[Role], *, status: int = 200,
          codes: tuple[int, ...] = (), on: APIRouter = router,
          **kwargs: Any) -> Callable[[Any], Any]:
    """A route with its allowed roles (``x-roles``) and its documented error codes, on
    ``router`` (or ``on``: another module's router under the same prefix)."""
    wanted = set(codes) | {422}
    if roles != EVERYONE:
        wanted |= {401, 403}
    if method != "GET":
        wanted.add(403)  # a cookie session without its CSRF header
    names = sorted(r.value for r in roles)
    return on.api_route(path, methods=[method], status_code=status,
                        responses=errors(*sorted(wanted)),
                        openapi_extra={"x-roles": names}, **kwargs)


# ----- session and accounts ------------------------------------------------------------------

@route("POST", "/session", EVERYONE, status=201, codes=(429,), response_model=SessionOut)
def login(request: Request, state: StateDep, body: LoginIn) -> SessionOut:
    """Log in; the token goes in ``Authorization: Bearer …``. A wrong password is 422."""
    account, token = sign_in(state, body.login, body.password, client_address(request))
    return SessionOut(token=token, account=account)


@route("DELETE", "/session", SIGNED_IN, status=204, response_class=Response)
def logout(db: DbDep, visitor: VisitorDep, _: SignedInDep) -> Response:
    if visitor.session_token is not None:
        close_session(db, visitor.session_token)
    return Response(status_code=204)


@route("GET", "/me", SIGNED_IN, response_model=AccountInfo)
def me(account: SignedInDep) -> AccountInfo:
    return account


@route("GET", "/accounts", ORGANIZER, response_model=list[AccountInfo])
def accounts(db: DbDep, _: AccountsOrganizerDep) -> list[AccountInfo]:
    return list_accounts(db)


@route("POST", "/accounts", ORGANIZER, status=201, codes=(404,), response_model=AccountInfo)
def add_account(state: StateDep, account: AccountsOrganizerDep, body: AccountIn) -> AccountInfo:
    return create_account(
        state.db, login=body.login, name=body.name, password=body.password, role=body.role,
        person_id=body.person_id, actor=account.name, hasher=state.hasher)


@route("POST", "/accounts/{login}/deactivate", ORGANIZER, codes=(404, 409),
       response_model=AccountInfo)
def deactivate_account(db: DbDep, account: AccountsOrganizerDep, login: Login) -> AccountInfo:
    """Its sessions and tokens end now and it cannot log in; 409 for the last organizer."""
    return set_active(db, login, False, actor=account.name)


@route("POST", "/accounts/{login}/activate", ORGANIZER, codes=(404,), response_model=AccountInfo)
def activate_account(db: DbDep, account: AccountsOrganizerDep, login: Login) -> AccountInfo:
    return set_active(db, login, True, actor=account.name)


@route("PUT", "/accounts/{login}/password", ORGANIZER, codes=(404,), response_model=AccountInfo)
def reset_password(state: StateDep, account: AccountsOrganizerDep, login: Login,
                   body: PasswordIn) -> AccountInfo:
    """A new password for the account; its sessions and tokens end."""
    return reset_account_password(
        state.db, login, body.password, actor=account.name, hasher=state.hasher)


# ----- tournaments ---------------------------------------------------------------------------

@route("GET", "/tournaments", EVERYONE, response_model=list[TournamentInfo])
def tournaments(db: DbDep) -> list[TournamentInfo]:
    return [in_utc(i) for i in list_tournaments(db)]


@route("POST", "/tournaments", ORGANIZER, status=201, response_model=TournamentInfo)
def new_tournament(db: DbDep, account: AccountsOrganizerDep,
                   body: TournamentIn) -> TournamentInfo:
    return in_utc(create_tournament(
        db, name=body.name, actor=account.name, settings=body.settings(), format=body.format,
        rules_level=body.rules_level, seed=body.seed, organizer_login=account.login))


@route("GET", "/tournaments/{tid}", EVERYONE, codes=(404,), response_model=TournamentInfo)
def tournament(db: DbDep, tid: TournamentId) -> TournamentInfo:
    return in_utc(get_tournament(db, tid).info)


@route("POST", "/tournaments/{tid}/finish", ORGANIZER, codes=(404, 409),
       response_model=TournamentInfo)
def finish(db: DbDep, staff: OrganizerDep, tid: TournamentId, body: FinishIn) -> TournamentInfo:
    return in_utc(finish_tournament(
        db, tid, actor=staff.actor, early=body.early, account_id=staff.account_id))


# ----- the staff (issue 10 item 1) -----------------------------------------------------------

@route("GET", "/tournaments/{tid}/staff", JUDGES, codes=(404,), response_model=list[StaffOut])
def staff_list(db: DbDep, _: JudgesDep, tid: TournamentId) -> list[StaffOut]:
    """The tournament's organizer, head judge and floor judges, with their logins."""
    return [StaffOut.model_validate(j) for j in list_judges(db, tid)]


@route("POST", "/tournaments/{tid}/staff", ORGANIZER, status=201, codes=(404,),
       response_model=StaffOut)
def staff_add(db: DbDep, staff: OrganizerDep, tid: TournamentId, body: StaffIn) -> StaffOut:
    """Give an account a role in this tournament (one head judge per tournament)."""
    return StaffOut.model_validate(add_judge(db, tid, role=body.role, login=body.login,
                                             actor=staff.actor, account_id=staff.account_id))


@route("DELETE", "/tournaments/{tid}/staff/{judge}", ORGANIZER, status=204, codes=(404,),
       response_class=Response)
def staff_remove(db: DbDep, staff: OrganizerDep, tid: TournamentId,
                 judge: JudgeNumber) -> Response:
    """The account loses the role; the judge stays named for the record."""
    remove_staff(db, tid, judge, actor=staff.actor, account_id=staff.account_id)
    return Response(status_code=204)


# ----- players -------------------------------------------------------------------------------

@route("GET", "/tournaments/{tid}/players", EVERYONE, codes=(404,),
       response_model=list[PlayerOut])
def players(db: DbDep, tid: TournamentId) -> list[PlayerOut]:
    return [PlayerOut.model_validate(p) for p in player_service.list_players(db, tid)]


@route("POST", "/tournaments/{tid}/players", ORGANIZER, status=201, codes=(404, 409),
       response_model=PlayerOut)
def add_player(db: DbDep, staff: OrganizerDep, tid: TournamentId, body: PlayerIn) -> PlayerOut:
    """Register before round 1; afterwards a late entry (P-7)."""
    return PlayerOut.model_validate(player_service.enter_player(
        db, tid, name=body.name, surname=body.surname, given_name=body.given_name,
        city=body.city, club=body.club, byes=body.byes,
        missed_byes=body.byes_for_missed_rounds, actor=staff.actor,
        account_id=staff.account_id))


@route("POST", "/tournaments/{tid}/players/{number}/check-in", ORGANIZER, codes=(404, 409),
       response_model=PlayerOut)
def check_in(db: DbDep, staff: OrganizerDep, tid: TournamentId, number: PlayerNumber,
             body: CheckInIn) -> PlayerOut:
    """Mark the player present (``present``: false, absent again) before the pairing."""
    return PlayerOut.model_validate(player_service.check_in(
        db, tid, number, actor=staff.actor, present=body.present, account_id=staff.account_id))


@route("POST", "/tournaments/{tid}/players/{number}/drop", HEAD, codes=(404, 409),
       response_model=PlayerOut)
def drop(db: DbDep, staff: HeadDep, tid: TournamentId, number: PlayerNumber,
         body: DropIn) -> PlayerOut:
    """The player leaves the tournament: not paired from the next round on (P-7); the
    ``reason`` goes to the audit log."""
    return PlayerOut.model_validate(player_service.drop_player(
        db, tid, number, actor=staff.actor, reason=body.reason, account_id=staff.account_id))


@route("POST", "/tournaments/{tid}/players/{number}/reinstate", HEAD, codes=(404, 409),
       response_model=PlayerOut)
def reinstate(db: DbDep, staff: HeadDep, tid: TournamentId,
              number: PlayerNumber) -> PlayerOut:
    """Undo a drop (P-7) while the next round is not paired; 409 once it is (issue 12)."""
    return PlayerOut.model_validate(player_service.reinstate_player(
        db, tid, number, actor=staff.actor, account_id=staff.account_id))


@route("POST", "/tournaments/{tid}/players/check-in-all", ORGANIZER, codes=(404, 409),
       response_model=list[PlayerOut])
def check_in_all(db: DbDep, staff: OrganizerDep, tid: TournamentId) -> list[PlayerOut]:
    """Check in everyone still in and not yet present; those it checked in (issue 12)."""
    return [PlayerOut.model_validate(p) for p in player_service.check_in_all(
        db, tid, actor=staff.actor, account_id=staff.account_id)]


# ----- rounds and results --------------------------------------------------------------------

@route("GET", "/tournaments/{tid}/rounds", EVERYONE, codes=(404,), response_model=list[RoundOut])
def rounds(db: DbDep, tid: TournamentId) -> list[RoundOut]:
    return [RoundOut.of(r) for r in get_tournament(db, tid).tournament.rounds]


@route("GET", "/tournaments/{tid}/rounds/{number}", EVERYONE, codes=(404,),
       response_model=RoundOut)
def one_round(rnd: PathRoundDep) -> RoundOut:
    return RoundOut.of(rnd)


@route("POST", "/tournaments/{tid}/rounds", ORGANIZER, status=201, codes=(404, 409),
       response_model=RoundOut)
def pair(db: DbDep, staff: OrganizerDep, tid: TournamentId, body: PairIn) -> RoundOut:
    """Pair the next round: Swiss while Swiss rounds remain, then the top."""
    return RoundOut.of(start_round(db, tid, actor=staff.actor,
                                   drop_absent_players=body.drop_absent,
                                   leave_out_absent=not body.include_absent,
                                   account_id=staff.account_id).round)


@route("DELETE", "/tournaments/{tid}/rounds/last", ORGANIZER, status=204, codes=(404, 409),
       response_class=Response)
def undo(db: DbDep, staff: OrganizerDep, tid: TournamentId) -> Response:
    """Undo the last round; only a round without results (P-7)."""
    undo_round(db, tid, actor=staff.actor, account_id=staff.account_id)
    return Response(status_code=204)


@route("PUT", "/tournaments/{tid}/rounds/{number}/timer", ORGANIZER, codes=(404, 409),
       response_model=TimerOut)
def timer(db: DbDep, staff: OrganizerDep, tid: TournamentId, number: RoundNumber,
          body: TimerIn) -> TimerOut:
    return TimerOut.model_validate(start_timer(db, tid, number, minutes=body.minutes,
                                               actor=staff.actor, account_id=staff.account_id))


@route("PUT", "/tournaments/{tid}/rounds/{number}/tables/{table}/result", JUDGES,
       codes=(404, 409), response_model=RecordedOut)
def result(db: DbDep, staff: JudgesDep, tid: TournamentId, number: RoundNumber,
           table: TableNumber, body: ResultIn) -> RecordedOut:
    """Record a result; ``correction`` overrides one already there (logged, S-6)."""
    return RecordedOut.of(record_result(
        db, tid, number, table, body.result(), actor=staff.actor, correction=body.correction,
        expected_version=body.expected_version, idempotency_key=body.idempotency_key,
        account_id=staff.account_id))


@route("POST", "/tournaments/{tid}/rounds/{number}/tables/{table}/reports", PLAYERS,
       status=201, codes=(404, 409), response_model=ReportOut)
def report(db: DbDep, account: PlayerAccountDep, tid: TournamentId, number: RoundNumber,
           table: TableNumber, body: ReportIn) -> ReportOut:
    """A player reports their own match (their game wins first); recorded when the
    opponent reports the same, a dispute for a judge when not."""
    return ReportOut.of(pages.report_score(db, tid, number, table, mine=body.mine,
                                           theirs=body.theirs, draws=body.draws,
                                           account=account))


# ----- standings -----------------------------------------------------------------------------

@route("GET", "/tournaments/{tid}/standings", EVERYONE, codes=(404,),
       response_model=StandingsOut)
def standings(db: DbDep, tid: TournamentId) -> StandingsOut:
    return StandingsOut.of(get_standings(db, tid))


@route("GET", "/tournaments/{tid}/final-places", EVERYONE, codes=(404,),
       response_model=list[PlaceOut])
def final_places(db: DbDep, tid: TournamentId) -> list[PlaceOut]:
    """Final places (P-6) once the tournament is over; empty before."""
    details = get_tournament(db, tid)
    return PlaceOut.places(places(details.tournament,
                                  closed=details.info.status is Status.FINISHED),
                           details.tournament)

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
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, Response

from turnir.domain.model import Settings
from turnir.domain.results import MatchResult, PointsTable, parse_result
from turnir.domain.standings import TieBreak
from turnir.services import players as player_service
from turnir.services.accounts import (
    AccountInfo,
    close_session,
    create_account,
    list_accounts,
    open_session,
    set_active,
    set_password,
)
from turnir.services.common import Status
from turnir.services.judges import add_judge, list_judges, remove_staff
from turnir.services.queries import get_standings
from turnir.services.reports import report_result, start_timer
from turnir.services.results import record_result
from turnir.services.rounds import start_round, undo_round
from turnir.services.tournaments import (
    create_tournament,
    finish_tournament,
    get_tournament,
    list_tournaments,
)
from turnir.web.api_models import (
    AccountIn,
    AccountOut,
    CheckInIn,
    DropIn,
    ErrorOut,
    FinishIn,
    LoginIn,
    PairIn,
    PairingOut,
    PasswordIn,
    PlaceOut,
    PlayerIn,
    PlayerOut,
    RecordedOut,
    ReportIn,
    ReportOut,
    ResultIn,
    ResultOut,
    RoundOut,
    SessionOut,
    StaffIn,
    StaffOut,
    StandingOut,
    StandingsOut,
    TiebreakOut,
    TimerIn,
    TimerOut,
    TournamentIn,
    TournamentOut,
)
from turnir.web.auth import log_in
from turnir.web.deps import (
    HeadDep,
    JudgesDep,
    OrganizerDep,
    StateDep,
    VisitorDep,
    get_visitor,
)
from turnir.web.security import (
    CSRF_HEADER,
    HEAD,
    JUDGES,
    ORGANIZER,
    PLAYERS,
    SIGNED_IN,
    Role,
    check_csrf,
    client_address,
)
from turnir.web.views import final_places as places

PREFIX = "/api/v1"
TournamentId = Annotated[int, Path(ge=1, le=2**31 - 1, description="The tournament's number")]
RoundNumber = Annotated[int, Path(ge=1, le=10_000)]
TableNumber = Annotated[int, Path(ge=1, le=100_000)]
PlayerNumber = Annotated[int, Path(ge=1, le=2**31 - 1)]
JudgeNumber = Annotated[int, Path(ge=1, le=2**31 - 1, description="The staff row's id")]
Login = Annotated[str, Path(min_length=1, max_length=100, description="The account's login")]
EVERYONE = frozenset(Role)

_DESCRIPTIONS = {
    401: "log in first (no or an expired session or token)",
    403: "the role does not allow this, or a missing CSRF header with a cookie session",
    404: "no such tournament, player, round or table",
    409: "conflicts with the tournament's state, or a stale version",
    422: "a malformed request, or a rule refused it",
    429: "too many failed logins; wait",
}


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorOut, "description": _DESCRIPTIONS[code]} for code in codes}


async def api_csrf(request: Request) -> None:
    """A change made with a browser's session cookie needs the ``X-CSRF-Token`` header; a
    bearer token needs none."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    visitor = get_visitor(request)
    if visitor.account is None or visitor.bearer:
        return
    check_csrf(request.app.state.web.settings.secret_key, visitor,
               request.headers.get(CSRF_HEADER))


def create_api_router() -> APIRouter:
    router = APIRouter(prefix=PREFIX, tags=["turnir"], dependencies=[Depends(api_csrf)])

    def route(method: str, path: str, roles: frozenset[Role], *, status: int = 200,
              codes: tuple[int, ...] = (), **kwargs: Any) -> Callable[[Any], Any]:
        """A route with its allowed roles (``x-roles``) and its documented error codes."""
        wanted = set(codes) | {422}
        if roles != EVERYONE:
            wanted |= {401, 403}
        if method != "GET":
            wanted.add(403)  # a cookie session without its CSRF header
        names = sorted(r.value for r in roles)
        return router.api_route(path, methods=[method], status_code=status,
                                responses=errors(*sorted(wanted)),
                                openapi_extra={"x-roles": names}, **kwargs)

    def allowed(visitor: Any, roles: frozenset[Role]) -> AccountInfo:
        account: AccountInfo = visitor.require(roles)
        return account

    # ----- session -------------------------------------------------------------------

    @route("POST", "/session", EVERYONE, status=201, codes=(429,), response_model=SessionOut)
    def login(request: Request, state: StateDep, body: LoginIn) -> SessionOut:
        """Log in; the token goes in ``Authorization: Bearer …``. A wrong password is 422."""
        account = log_in(state, body.login, body.password, client_address(request))
        token = open_session(state.db, account, lifetime=state.session_lifetime)
        return SessionOut(token=token, account=AccountOut.of(account))

    @route("DELETE", "/session", SIGNED_IN, status=204, response_class=Response)
    def logout(state: StateDep, visitor: VisitorDep) -> Response:
        allowed(visitor, SIGNED_IN)
        if visitor.session_token is not None:
            close_session(state.db, visitor.session_token)
        return Response(status_code=204)

    @route("GET", "/me", SIGNED_IN, response_model=AccountOut)
    def me(visitor: VisitorDep) -> AccountOut:
        return AccountOut.of(allowed(visitor, SIGNED_IN))

    @route("GET", "/accounts", ORGANIZER, response_model=list[AccountOut])
    def accounts(state: StateDep, visitor: VisitorDep) -> list[AccountOut]:
        allowed(visitor, ORGANIZER)
        return [AccountOut.of(a) for a in list_accounts(state.db)]

    @route("POST", "/accounts", ORGANIZER, status=201, codes=(404,), response_model=AccountOut)
    def add_account(state: StateDep, visitor: VisitorDep, body: AccountIn) -> AccountOut:
        account = allowed(visitor, ORGANIZER)
        return AccountOut.of(create_account(
            state.db, login=body.login, name=body.name, password=body.password,
            role=body.role, person_id=body.person_id, actor=account.name,
            hasher=state.hasher))

    @route("POST", "/accounts/{login}/deactivate", ORGANIZER, codes=(404, 409),
           response_model=AccountOut)
    def deactivate_account(state: StateDep, visitor: VisitorDep, login: Login) -> AccountOut:
        """Its sessions and tokens end now and it cannot log in; 409 for the last organizer."""
        account = allowed(visitor, ORGANIZER)
        return AccountOut.of(set_active(state.db, login, False, actor=account.name))

    @route("POST", "/accounts/{login}/activate", ORGANIZER, codes=(404,),
           response_model=AccountOut)
    def activate_account(state: StateDep, visitor: VisitorDep, login: Login) -> AccountOut:
        account = allowed(visitor, ORGANIZER)
        return AccountOut.of(set_active(state.db, login, True, actor=account.name))

    @route("PUT", "/accounts/{login}/password", ORGANIZER, codes=(404,),
           response_model=AccountOut)
    def reset_password(state: StateDep, visitor: VisitorDep, login: Login,
                       body: PasswordIn) -> AccountOut:
        """A new password for the account; its sessions and tokens end."""
        account = allowed(visitor, ORGANIZER)
        return AccountOut.of(set_password(state.db, login, body.password, actor=account.name,
                                          hasher=state.hasher))

    # ----- tournaments ---------------------------------------------------------------

    @route("GET", "/tournaments", EVERYONE, response_model=list[TournamentOut])
    def tournaments(state: StateDep) -> list[TournamentOut]:
        return [TournamentOut.of(i) for i in list_tournaments(state.db)]

    @route("POST", "/tournaments", ORGANIZER, status=201, response_model=TournamentOut)
    def new_tournament(state: StateDep, visitor: VisitorDep,
                       body: TournamentIn) -> TournamentOut:
        account = allowed(visitor, ORGANIZER)
        p = body.points
        settings = Settings(points=PointsTable(win=p.win, draw=p.draw, loss=p.loss, bye=p.bye),
                            best_of=body.best_of, top_best_of=body.top_best_of,
                            swiss_rounds=body.swiss_rounds, top_size=body.top_size)
        return TournamentOut.of(create_tournament(
            state.db, name=body.name, actor=account.name, settings=settings,
            format=body.format, rules_level=body.rules_level, seed=body.seed,
            organizer_login=account.login))

    @route("GET", "/tournaments/{tid}", EVERYONE, codes=(404,), response_model=TournamentOut)
    def tournament(state: StateDep, tid: TournamentId) -> TournamentOut:
        return TournamentOut.of(get_tournament(state.db, tid).info)

    @route("POST", "/tournaments/{tid}/finish", ORGANIZER, codes=(404, 409),
           response_model=TournamentOut)
    def finish(state: StateDep, staff: OrganizerDep, tid: TournamentId,
               body: FinishIn) -> TournamentOut:
        return TournamentOut.of(finish_tournament(state.db, tid, actor=staff.actor,
                                                  early=body.early,
                                                  account_id=staff.account_id))

    # ----- the staff (issue 10 item 1) ---------------------------------------------------

    @route("GET", "/tournaments/{tid}/staff", JUDGES, codes=(404,),
           response_model=list[StaffOut])
    def staff_list(state: StateDep, staff: JudgesDep, tid: TournamentId) -> list[StaffOut]:
        """The tournament's organizer, head judge and floor judges, with their logins."""
        return [StaffOut.of(j) for j in list_judges(state.db, tid)]

    @route("POST", "/tournaments/{tid}/staff", ORGANIZER, status=201, codes=(404,),
           response_model=StaffOut)
    def staff_add(state: StateDep, staff: OrganizerDep, tid: TournamentId,
                  body: StaffIn) -> StaffOut:
        """Give an account a role in this tournament (one head judge per tournament)."""
        return StaffOut.of(add_judge(state.db, tid, role=body.role, login=body.login,
                                     actor=staff.actor, account_id=staff.account_id))

    @route("DELETE", "/tournaments/{tid}/staff/{judge}", ORGANIZER, status=204,
           codes=(404,), response_class=Response)
    def staff_remove(state: StateDep, staff: OrganizerDep, tid: TournamentId,
                     judge: JudgeNumber) -> Response:
        """The account loses the role; the judge stays named for the record."""
        remove_staff(state.db, tid, judge, actor=staff.actor, account_id=staff.account_id)
        return Response(status_code=204)

    # ----- players -------------------------------------------------------------------

    @route("GET", "/tournaments/{tid}/players", EVERYONE, codes=(404,),
           response_model=list[PlayerOut])
    def players(state: StateDep, tid: TournamentId) -> list[PlayerOut]:
        return [PlayerOut.of(p) for p in player_service.list_players(state.db, tid)]

    @route("POST", "/tournaments/{tid}/players", ORGANIZER, status=201, codes=(404, 409),
           response_model=PlayerOut)
    def add_player(state: StateDep, staff: OrganizerDep, tid: TournamentId,
                   body: PlayerIn) -> PlayerOut:
        """Register before round 1; afterwards a late entry (P-7)."""
        info = get_tournament(state.db, tid).info
        if info.status is Status.REGISTRATION:
            made = player_service.register_player(state.db, tid, name=body.name,
                                                  city=body.city, club=body.club,
                                                  byes=body.byes, actor=staff.actor,
                                                  account_id=staff.account_id)
        else:
            made = player_service.late_entry(
                state.db, tid, name=body.name, city=body.city, club=body.club,
                actor=staff.actor, byes_for_missed_rounds=body.byes_for_missed_rounds,
                account_id=staff.account_id)
        return PlayerOut.of(made)

    @route("POST", "/tournaments/{tid}/players/{number}/check-in", ORGANIZER,
           codes=(404, 409), response_model=PlayerOut)
    def check_in(state: StateDep, staff: OrganizerDep, tid: TournamentId,
                 number: PlayerNumber, body: CheckInIn) -> PlayerOut:
        return PlayerOut.of(player_service.check_in(state.db, tid, number, actor=staff.actor,
                                                    present=body.present,
                                                    account_id=staff.account_id))

    @route("POST", "/tournaments/{tid}/players/{number}/drop", HEAD, codes=(404, 409),
           response_model=PlayerOut)
    def drop(state: StateDep, staff: HeadDep, tid: TournamentId, number: PlayerNumber,
             body: DropIn) -> PlayerOut:
        return PlayerOut.of(player_service.drop_player(state.db, tid, number,
                                                       actor=staff.actor, reason=body.reason,
                                                       account_id=staff.account_id))

    # ----- rounds and results ------------------------------------------------------------

    def round_out(tid: int, number: int, state: Any) -> RoundOut:
        rnd = get_tournament(state.db, tid).tournament.round(number)
        return RoundOut(number=rnd.number, stage=rnd.stage.value, finished=rnd.finished,
                        pairings=[PairingOut.of(p) for p in rnd.pairings])

    @route("GET", "/tournaments/{tid}/rounds", EVERYONE, codes=(404,),
           response_model=list[RoundOut])
    def rounds(state: StateDep, tid: TournamentId) -> list[RoundOut]:
        t = get_tournament(state.db, tid).tournament
        return [RoundOut(number=r.number, stage=r.stage.value, finished=r.finished,
                         pairings=[PairingOut.of(p) for p in r.pairings]) for r in t.rounds]

    @route("GET", "/tournaments/{tid}/rounds/{number}", EVERYONE, codes=(404,),
           response_model=RoundOut)
    def one_round(state: StateDep, tid: TournamentId, number: RoundNumber) -> RoundOut:
        return round_out(tid, number, state)

    @route("POST", "/tournaments/{tid}/rounds", ORGANIZER, status=201, codes=(404, 409),
           response_model=RoundOut)
    def pair(state: StateDep, staff: OrganizerDep, tid: TournamentId, body: PairIn) -> RoundOut:
        """Pair the next round: Swiss while Swiss rounds remain, then the top."""
        view = start_round(state.db, tid, actor=staff.actor,
                           drop_absent_players=body.drop_absent, account_id=staff.account_id)
        rnd = view.round
        return RoundOut(number=rnd.number, stage=rnd.stage.value, finished=rnd.finished,
                        pairings=[PairingOut.of(p) for p in rnd.pairings])

    @route("DELETE", "/tournaments/{tid}/rounds/last", ORGANIZER, status=204,
           codes=(404, 409), response_class=Response)
    def undo(state: StateDep, staff: OrganizerDep, tid: TournamentId) -> Response:
        """Undo the last round; only a round without results (P-7)."""
        undo_round(state.db, tid, actor=staff.actor, account_id=staff.account_id)
        return Response(status_code=204)

    @route("PUT", "/tournaments/{tid}/rounds/{number}/timer", ORGANIZER, codes=(404, 409),
           response_model=TimerOut)
    def timer(state: StateDep, staff: OrganizerDep, tid: TournamentId, number: RoundNumber,
              body: TimerIn) -> TimerOut:
        made = start_timer(state.db, tid, number, minutes=body.minutes, actor=staff.actor,
                           account_id=staff.account_id)
        return TimerOut(round=made.round, started_at=made.started_at, ends_at=made.ends_at,
                        duration_s=made.duration_s)

    @route("PUT", "/tournaments/{tid}/rounds/{number}/tables/{table}/result", JUDGES,
           codes=(404, 409), response_model=RecordedOut)
    def result(state: StateDep, staff: JudgesDep, tid: TournamentId, number: RoundNumber,
               table: TableNumber, body: ResultIn) -> RecordedOut:
        """Record a result; ``correction`` overrides one already there (logged, S-6)."""
        done = record_result(state.db, tid, number, table, parse_result(body.score),
                             actor=staff.actor, correction=body.correction,
                             expected_version=body.expected_version,
                             idempotency_key=body.idempotency_key,
                             account_id=staff.account_id)
        out = ResultOut.of(done.result)
        assert out is not None
        return RecordedOut(round=done.round, table=done.table, a=done.a, b=done.b, result=out,
                           status=done.status.value, version=done.version)

    @route("POST", "/tournaments/{tid}/rounds/{number}/tables/{table}/reports", PLAYERS,
           status=201, codes=(404, 409), response_model=ReportOut)
    def report(state: StateDep, visitor: VisitorDep, tid: TournamentId, number: RoundNumber,
               table: TableNumber, body: ReportIn) -> ReportOut:
        """A player reports their own match (their game wins first); recorded when the
        opponent reports the same, a dispute for a judge when not."""
        account = allowed(visitor, PLAYERS)
        answer = report_result(state.db, tid, number, table,
                               MatchResult.played(body.mine, body.theirs, body.draws),
                               account=account)
        out = ResultOut.of(answer.result)
        assert out is not None
        return ReportOut(status=answer.status.value, round=answer.round, table=answer.table,
                         result=out)

    # ----- standings -------------------------------------------------------------------

    @route("GET", "/tournaments/{tid}/standings", EVERYONE, codes=(404,),
           response_model=StandingsOut)
    def standings(state: StateDep, tid: TournamentId) -> StandingsOut:
        view = get_standings(state.db, tid)
        t = view.tournament
        return StandingsOut(
            tournament=tid, swiss_rounds_played=len(t.swiss_rounds),
            tiebreaks=[TiebreakOut(key=tb.value, rule=tb.rule, name_en=tb.name_en,
                                   name_ru=tb.name_ru, explanation_en=tb.explanation_en,
                                   explanation_ru=tb.explanation_ru) for tb in TieBreak],
            rows=[StandingOut.of(t, row) for row in view.standings.rows])

    @route("GET", "/tournaments/{tid}/final-places", EVERYONE, codes=(404,),
           response_model=list[PlaceOut])
    def final_places(state: StateDep, tid: TournamentId) -> list[PlaceOut]:
        """Final places (P-6) once the tournament is over; empty before."""
        details = get_tournament(state.db, tid)
        seats = places(details.tournament, closed=details.info.status is Status.FINISHED)
        return [PlaceOut(place=i, player=s.number, name=s.name)
                for i, s in enumerate(seats, start=1)]

    return router

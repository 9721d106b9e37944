"""The robot's HTTP API for the game server, under ``/api/v1/robot`` (see ``docs/robot.md``).

- ``POST /games`` register a game; ``GET /games``, ``GET /games/{id}`` read them;
- ``POST /games/{id}/events`` one event, ``POST /games/{id}/events/batch`` several;
- ``GET /games/{id}/decisions`` a game's decisions; ``GET /decisions?since=N`` every decision
  from the N-th on (for polling); results also go to the ``ResultSink`` (a webhook);
- ``POST /checks/run`` run the due checks now (the standalone service runs them by itself);
- ``GET /results?tournament=T&state=unapplied`` what became of the ended games in their
  tournaments (only with a ``ResultLedger``: the robot of an online tournament).

Every route but ``/health`` needs the game server's token, ``Authorization: Bearer <token>``
(``turnir.robot.auth``; issue 10 item 4), checked before the body is read: 401
(``unauthorized``, ``invalid_token``) without a valid one. A tournament's token sees and
changes only the games linked to that tournament (403 ``wrong_tournament`` for another's; the
lists are filtered); a deployment token, every game. Linking a game to a tournament whose
organizer has not allowed the robot is refused by the journal (403 ``robot_not_allowed``).

Every error is JSON ``{"error": {"code": ..., "message": ..., "details": ...}}``: 422 for a
malformed request (``invalid_request``) or an event the game refuses (``illegal_move``,
``out_of_order``, ``inconsistent_event``…), 404 for an unknown game (``game_not_found``), 409
for a conflict (``game_exists``, ``game_over``). The router handles its own errors, so it works
the same mounted in the main site or standalone (``create_robot_app``).

The routes are one module-level ``router``; what they act on (the ``Robot``, who may call, the
``ResultLedger``) is a ``RobotApi`` in the app's state (``bind``), or bound to a copy of the
router (``create_robot_router``, to mount it in another app).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from fastapi import APIRouter, Depends, FastAPI, Path, Query, Request, Response
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from turnir.clock import SystemClock
from turnir.errors import ConflictError, NotFoundError, UserError
from turnir.robot.auth import (
    RobotCredential,
    RobotForbidden,
    RobotUnauthorized,
    TokenVerifier,
    authenticate,
)
from turnir.robot.clock import ms_to_seconds
from turnir.robot.engine import EngineSettings, StockfishPool
from turnir.robot.journal import ResultLedger
from turnir.robot.robot import CheckRun, Robot
from turnir.robot.scheduler import CheckRunner
from turnir.robot.schemas import (
    CheckOutcomeOut,
    CheckRunOut,
    DecisionOut,
    ErrorOut,
    EventIn,
    EventsIn,
    GameIn,
    GameOut,
    OnlineResultOut,
    PostedOut,
    event_to_domain,
)
from turnir.robot.sink import ResultSink, WebhookResultSink
from turnir.web.errors import status_in
from turnir.web.headers import SecurityHeaders
from turnir.web.limits import BodyLimit, json_refusal
from turnir.web.proxies import TrustedProxies

PREFIX = "/api/v1/robot"
ROBOT_MAX_BODY = 2 * 1024 * 1024
"""The largest request body (``turnir.web.limits``); larger gets 413."""
GameId = Annotated[str, Path(min_length=1, max_length=100)]


def error_response(status: int, code: str, message: str,
                   details: list[dict[str, Any]] | None = None) -> JSONResponse:
    body: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    return JSONResponse(status_code=status, content={"error": body})


_STATUSES: tuple[tuple[type[UserError], int], ...] = (
    (RobotUnauthorized, 401), (RobotForbidden, 403), (NotFoundError, 404), (ConflictError, 409))


def _error_of(exc: UserError) -> JSONResponse:
    response = error_response(status_in(exc, _STATUSES), exc.code, exc.message)
    if isinstance(exc, RobotUnauthorized):
        response.headers["WWW-Authenticate"] = (
            'Bearer realm="turnir robot"' if exc.code == "unauthorized"
            else 'Bearer realm="turnir robot", error="invalid_token"')
    return response


CREDENTIAL = "robot_credential"
"""Where an authenticated request keeps its ``RobotCredential`` (``request.state``)."""
BOUND = "robot_api"
"""Where a request keeps the ``RobotApi`` it is served by (``request.state``)."""


@dataclass(frozen=True, slots=True)
class RobotApi:
    """What the robot's routes act on."""

    robot: Robot
    tokens: TokenVerifier
    """Who may call them (every route needs a valid token; see the module doc)."""
    results: ResultLedger | None = None
    """Where ``GET /results`` reads what became of the ended games in their tournaments
    (``None``: the route answers 404 ``no_results``)."""


def bind(app: FastAPI, api: RobotApi) -> None:
    """Serve the module's ``router`` in ``app`` with ``api``."""
    app.state.robot_api = api


class RobotRoute(APIRoute):
    """Checks the request's token first (before the body is read), then turns validation
    errors and ``UserError`` into the API's JSON errors."""

    bound: ClassVar[RobotApi | None] = None
    """Set on the copy of the router ``create_robot_router`` makes; ``None``: the app's
    (``bind``)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        bound = self.bound

        async def guarded(request: Request) -> Response:
            try:
                api = bound if bound is not None else request.app.state.robot_api
                setattr(request.state, BOUND, api)
                credential = await run_in_threadpool(
                    authenticate, api.tokens, request.headers.get("authorization"))
                setattr(request.state, CREDENTIAL, credential)
                return await handler(request)
            except RequestValidationError as exc:
                return _invalid(exc)
            except UserError as exc:
                return _error_of(exc)

        return guarded


def _invalid(exc: RequestValidationError) -> JSONResponse:
    errors = jsonable_encoder(exc.errors())
    first = errors[0] if errors else {}
    where = ".".join(str(p) for p in first.get("loc", ()))
    message = f"{where}: {first.get('msg', 'invalid request')}" if where else (
        first.get("msg", "invalid request"))
    return error_response(422, "invalid_request", message, errors)


_bearer = HTTPBearer(auto_error=False, scheme_name="robot token",
                     description="The game server's token: turnir robot token create")


def _credential(request: Request,
                _: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
                ) -> RobotCredential:
    credential = getattr(request.state, CREDENTIAL, None)
    if not isinstance(credential, RobotCredential):  # pragma: no cover - the route sets it
        raise RobotUnauthorized("the request is not authenticated", code="unauthorized")
    return credential


def _robot(request: Request) -> Robot:
    api: RobotApi = getattr(request.state, BOUND)
    return api.robot


def _ledger(request: Request) -> ResultLedger:
    api: RobotApi = getattr(request.state, BOUND)
    if api.results is None:
        raise NotFoundError("this robot keeps no tournament results", code="no_results")
    return api.results


CredentialDep = Annotated[RobotCredential, Depends(_credential)]
"""The caller's token (checked by ``RobotRoute``)."""
RobotDep = Annotated[Robot, Depends(_robot)]
"""The robot the routes act on."""
LedgerDep = Annotated[ResultLedger, Depends(_ledger)]
"""What became of the ended games in their tournaments."""


_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorOut, "description": "no robot token, or not a valid one"},
    403: {"model": ErrorOut, "description": "the token is for another tournament, or the "
          "tournament does not allow the robot"},
    404: {"model": ErrorOut, "description": "unknown game"},
    409: {"model": ErrorOut, "description": "conflict with the game's state"},
    422: {"model": ErrorOut, "description": "malformed request or refused event"},
}


ResultState = Literal["no_tournament", "waiting", "applied", "unapplied", "dismissed"]


def _owner(robot: Robot, game_id: str) -> int | None:
    """The tournament of a registered game (``None``: not linked); 404 when unknown."""
    link = robot.link(game_id)
    return None if link is None else link.tournament_id


def _visible(robot: Robot, credential: RobotCredential, game_id: str) -> bool:
    """Whether the credential sees the game (a tournament's token: its tournament's)."""
    if credential.tournament_id is None:
        return True
    try:
        return credential.covers(_owner(robot, game_id))
    except NotFoundError:  # a kept decision of a game not loaded: not the token's
        return False


def _allowed(robot: Robot, credential: RobotCredential, game_id: str) -> str:
    """``game_id`` when the credential covers it; else 403 (404 when unknown)."""
    credential.require(_owner(robot, game_id), f"game {game_id!r}")
    return game_id


def _game_out(robot: Robot, game_id: str) -> GameOut:
    return GameOut.build(robot.snapshot(game_id), robot.link(game_id))


def _check_run_out(run: CheckRun, keep: Callable[[str], bool]) -> CheckRunOut:
    return CheckRunOut(
        at=ms_to_seconds(run.at_ms), evaluations=run.evaluations,
        outcomes=[CheckOutcomeOut(game_id=o.game_id, stage=o.stage.value,
                                  status=o.status.value,
                                  decision=DecisionOut.build(o.decision) if o.decision
                                  else None, error=o.error)
                  for o in run.outcomes if keep(o.game_id)])


router = APIRouter(prefix=PREFIX, tags=["robot"], route_class=RobotRoute, responses=_ERRORS)
"""The robot's routes (``bind`` the ``RobotApi`` they act on)."""


@router.post("/games", status_code=201, response_model=GameOut)
def register_game(robot: RobotDep, body: GameIn, credential: CredentialDep) -> GameOut:
    link = None if body.tournament is None else body.tournament.to_link()
    credential.require(None if link is None else link.tournament_id, f"game {body.game_id!r}")
    with suppress(NotFoundError):  # registered already: it must be the token's game
        _allowed(robot, credential, body.game_id)
    snapshot = robot.register(body.to_setup(), link)
    return GameOut.build(snapshot, robot.link(body.game_id))


@router.get("/games", response_model=list[GameOut])
def list_games(robot: RobotDep, credential: CredentialDep) -> list[GameOut]:
    return [_game_out(robot, g) for g in robot.game_ids() if _visible(robot, credential, g)]


@router.get("/games/{game_id}", response_model=GameOut)
def read_game(robot: RobotDep, game_id: GameId, credential: CredentialDep) -> GameOut:
    return _game_out(robot, _allowed(robot, credential, game_id))


@router.post("/games/{game_id}/events", response_model=PostedOut)
def post_event(robot: RobotDep, game_id: GameId, body: EventIn,
               credential: CredentialDep) -> PostedOut:
    snapshot, decisions = robot.post(_allowed(robot, credential, game_id),
                                     event_to_domain(body))
    return PostedOut(game=GameOut.build(snapshot, robot.link(game_id)),
                     decisions=[DecisionOut.build(d) for d in decisions])


@router.post("/games/{game_id}/events/batch", response_model=PostedOut)
def post_events(robot: RobotDep, game_id: GameId, body: EventsIn,
                credential: CredentialDep) -> PostedOut:
    snapshot, decisions = robot.post_many(_allowed(robot, credential, game_id),
                                          [event_to_domain(e) for e in body.events])
    return PostedOut(game=GameOut.build(snapshot, robot.link(game_id)),
                     decisions=[DecisionOut.build(d) for d in decisions])


@router.get("/games/{game_id}/decisions", response_model=list[DecisionOut])
def game_decisions(robot: RobotDep, game_id: GameId,
                   credential: CredentialDep) -> list[DecisionOut]:
    return [DecisionOut.build(d) for d in robot.decisions(_allowed(robot, credential, game_id))]


@router.get("/decisions", response_model=list[DecisionOut])
def all_decisions(robot: RobotDep, credential: CredentialDep,
                  since: Annotated[int, Query(ge=0)] = 0) -> list[DecisionOut]:
    if credential.tournament_id is None:
        return [DecisionOut.build(d) for d in robot.store.since(since)]
    # a tournament's token counts positions among its own games' decisions
    own = [d for d in robot.store.since(0) if _visible(robot, credential, d.game_id)]
    return [DecisionOut.build(d) for d in own[since:]]


@router.post("/checks/run", response_model=CheckRunOut)
def run_checks(robot: RobotDep, credential: CredentialDep) -> CheckRunOut:
    # only what is due anyway; the answer shows the token's games
    return _check_run_out(robot.run_due_checks(),
                          lambda game_id: _visible(robot, credential, game_id))


RESULTS_PATH = f"{PREFIX}/results"


@router.get("/results", response_model=list[OnlineResultOut])
def online_results(
    ledger: LedgerDep,
    credential: CredentialDep,
    tournament: Annotated[int | None, Query(ge=1)] = None,
    state: ResultState | None = None,
) -> list[OnlineResultOut]:
    if credential.tournament_id is not None:
        if tournament is None:
            tournament = credential.tournament_id
        credential.require(tournament, "the results asked for")
    return [OnlineResultOut.build(r)
            for r in ledger.results(tournament_id=tournament, state=state)]


def create_robot_router(robot: Robot, *, tokens: TokenVerifier,
                        results: ResultLedger | None = None) -> APIRouter:
    """A copy of ``router`` bound to one ``Robot`` (``RobotApi``), to mount in any app; without
    ``results`` it has no ``/results``."""
    route_class = type("BoundRobotRoute", (RobotRoute,),
                       {"bound": RobotApi(robot, tokens, results)})
    copy = APIRouter(tags=["robot"], route_class=route_class, responses=_ERRORS)
    for route in router.routes:
        if isinstance(route, APIRoute) and (results is not None or route.path != RESULTS_PATH):
            copy.add_api_route(route.path, route.endpoint, methods=sorted(route.methods or ()),
                               status_code=route.status_code,
                               response_model=route.response_model)
    return copy


def create_robot_app(robot: Robot | None = None, *, tokens: TokenVerifier,
                     run_checks: bool = True,
                     engine: EngineSettings | None = None,
                     webhook_url: str | None = None, results: ResultLedger | None = None,
                     on_close: Sequence[Callable[[], None]] = ()) -> FastAPI:
    """The robot as a standalone service: the router, plus (when ``run_checks``) a background
    thread running the checks on the real clock. Without ``robot`` one is built with the real
    clock, a Stockfish pool (started at the first evaluation) and an in-memory store; results
    go to ``webhook_url`` when given. ``tokens``, ``results``: see ``create_robot_router``
    (``/health`` needs no token: it shows no game); ``on_close``:
    called in order when the app shuts down (the caller's pool, database…)."""
    owned_pool: StockfishPool | None = None
    webhook: WebhookResultSink | None = None
    if robot is None:
        owned_pool = StockfishPool(engine)
        sink: ResultSink | None = None
        if webhook_url:
            webhook = WebhookResultSink(webhook_url)
            sink = webhook
        robot = Robot(clock=SystemClock(), evaluator=owned_pool, sink=sink)
    runner = CheckRunner(robot, clock=robot.clock) if run_checks else None

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if runner is not None:
            runner.start()
        try:
            yield
        finally:
            if runner is not None:
                runner.stop()
            if webhook is not None:
                webhook.close()
            if owned_pool is not None:
                owned_pool.close()
            for close in on_close:
                close()

    app = FastAPI(title="turnir robot", version="1", lifespan=lifespan)
    bind(app, RobotApi(robot, tokens, results))
    app.include_router(router)
    # bodies over 2 MB refused before they are read; the web app's security headers
    app.add_middleware(BodyLimit, max_body=ROBOT_MAX_BODY, max_upload=ROBOT_MAX_BODY,
                       refusal=json_refusal)
    app.add_middleware(SecurityHeaders, proxies=TrustedProxies(), hsts_seconds=31_536_000)
    app.add_api_route(f"{PREFIX}/health", health, methods=["GET"])
    return app


def health(request: Request) -> dict[str, object]:
    """The standalone robot is up: its games and its next check (needs no token: it shows no
    game)."""
    robot: Robot = request.app.state.robot_api.robot
    return {"status": "ok", "games": len(robot.game_ids()),
            "next_check": None if (n := robot.next_check_ms()) is None else n / 1000}

"""The robot's HTTP API for the game server, under ``/api/v1/robot`` (see ``docs/robot.md``).

- ``POST /games`` register a game; ``GET /games``, ``GET /games/{id}`` read them;
- ``POST /games/{id}/events`` one event, ``POST /games/{id}/events/batch`` several;
- ``GET /games/{id}/decisions`` a game's decisions; ``GET /decisions?since=N`` every decision
  from the N-th on (for polling); results also go to the ``ResultSink`` (a webhook);
- ``POST /checks/run`` run the due checks now (the standalone service runs them by itself);
- ``GET /results?tournament=T&state=unapplied`` what became of the ended games in their
  tournaments (only with a ``ResultLedger``: the robot of an online tournament).

Every error is JSON ``{"error": {"code": ..., "message": ..., "details": ...}}``: 422 for a
malformed request (``invalid_request``) or an event the game refuses (``illegal_move``,
``out_of_order``, ``inconsistent_event``…), 404 for an unknown game (``game_not_found``), 409
for a conflict (``game_exists``, ``game_over``). The router handles its own errors, so it works
the same mounted in the main site or standalone (``create_robot_app``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Path, Query, Request, Response
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute

from turnir.errors import ConflictError, NotFoundError, UserError
from turnir.robot.clock import SystemClock, ms_to_seconds
from turnir.robot.engine import EngineSettings, StockfishPool
from turnir.robot.journal import ResultLedger
from turnir.robot.robot import Robot
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

PREFIX = "/api/v1/robot"
GameId = Annotated[str, Path(min_length=1, max_length=100)]


def error_response(status: int, code: str, message: str,
                   details: list[dict[str, Any]] | None = None) -> JSONResponse:
    body: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    return JSONResponse(status_code=status, content={"error": body})


def _status_of(error: UserError) -> int:
    if isinstance(error, NotFoundError):
        return 404
    if isinstance(error, ConflictError):
        return 409
    return 422


class RobotRoute(APIRoute):
    """Turns validation errors and ``UserError`` into the API's JSON errors."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def guarded(request: Request) -> Response:
            try:
                return await handler(request)
            except RequestValidationError as exc:
                errors = jsonable_encoder(exc.errors())
                first = errors[0] if errors else {}
                where = ".".join(str(p) for p in first.get("loc", ()))
                message = f"{where}: {first.get('msg', 'invalid request')}" if where else (
                    first.get("msg", "invalid request"))
                return error_response(422, "invalid_request", message, errors)
            except UserError as exc:
                return error_response(_status_of(exc), exc.code, exc.message)

        return guarded


_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorOut, "description": "unknown game"},
    409: {"model": ErrorOut, "description": "conflict with the game's state"},
    422: {"model": ErrorOut, "description": "malformed request or refused event"},
}


ResultState = Literal["no_tournament", "waiting", "applied", "unapplied", "dismissed"]


def create_robot_router(robot: Robot, *, results: ResultLedger | None = None) -> APIRouter:
    """The robot's routes, bound to one ``Robot``; ``results``: where ``GET /results`` reads
    what became of the ended games in their tournaments (absent: no such route)."""
    router = APIRouter(prefix=PREFIX, tags=["robot"], route_class=RobotRoute,
                       responses=_ERRORS)

    def game_out(game_id: str) -> GameOut:
        return GameOut.build(robot.snapshot(game_id), robot.link(game_id))

    @router.post("/games", status_code=201, response_model=GameOut)
    def register_game(body: GameIn) -> GameOut:
        link = None if body.tournament is None else body.tournament.to_link()
        snapshot = robot.register(body.to_setup(), link)
        return GameOut.build(snapshot, robot.link(body.game_id))

    @router.get("/games", response_model=list[GameOut])
    def list_games() -> list[GameOut]:
        return [game_out(g) for g in robot.game_ids()]

    @router.get("/games/{game_id}", response_model=GameOut)
    def read_game(game_id: GameId) -> GameOut:
        return game_out(game_id)

    @router.post("/games/{game_id}/events", response_model=PostedOut)
    def post_event(game_id: GameId, body: EventIn) -> PostedOut:
        snapshot, decisions = robot.post(game_id, event_to_domain(body))
        return PostedOut(game=GameOut.build(snapshot, robot.link(game_id)),
                         decisions=[DecisionOut.build(d) for d in decisions])

    @router.post("/games/{game_id}/events/batch", response_model=PostedOut)
    def post_events(game_id: GameId, body: EventsIn) -> PostedOut:
        snapshot, decisions = robot.post_many(game_id, [event_to_domain(e) for e in body.events])
        return PostedOut(game=GameOut.build(snapshot, robot.link(game_id)),
                         decisions=[DecisionOut.build(d) for d in decisions])

    @router.get("/games/{game_id}/decisions", response_model=list[DecisionOut])
    def game_decisions(game_id: GameId) -> list[DecisionOut]:
        return [DecisionOut.build(d) for d in robot.decisions(game_id)]

    @router.get("/decisions", response_model=list[DecisionOut])
    def all_decisions(since: Annotated[int, Query(ge=0)] = 0) -> list[DecisionOut]:
        return [DecisionOut.build(d) for d in robot.store.since(since)]

    @router.post("/checks/run", response_model=CheckRunOut)
    def run_checks() -> CheckRunOut:
        run = robot.run_due_checks()
        return CheckRunOut(
            at=ms_to_seconds(run.at_ms), evaluations=run.evaluations,
            outcomes=[CheckOutcomeOut(game_id=o.game_id, stage=o.stage.value,
                                      status=o.status.value,
                                      decision=DecisionOut.build(o.decision) if o.decision
                                      else None, error=o.error) for o in run.outcomes])

    if results is not None:
        ledger = results

        @router.get("/results", response_model=list[OnlineResultOut])
        def online_results(
            tournament: Annotated[int | None, Query(ge=1)] = None,
            state: ResultState | None = None,
        ) -> list[OnlineResultOut]:
            return [OnlineResultOut.build(r)
                    for r in ledger.results(tournament_id=tournament, state=state)]

    return router


def create_robot_app(robot: Robot | None = None, *, run_checks: bool = True,
                     engine: EngineSettings | None = None,
                     webhook_url: str | None = None, results: ResultLedger | None = None,
                     on_close: Sequence[Callable[[], None]] = ()) -> FastAPI:
    """The robot as a standalone service: the router, plus (when ``run_checks``) a background
    thread running the checks on the real clock. Without ``robot`` one is built with the real
    clock, a Stockfish pool (started at the first evaluation) and an in-memory store; results
    go to ``webhook_url`` when given. ``results``: see ``create_robot_router``; ``on_close``:
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
    app.include_router(create_robot_router(robot, results=results))

    @app.get(f"{PREFIX}/health")
    def health() -> dict[str, object]:
        return {"status": "ok", "games": len(robot.game_ids()),
                "next_check": None if (n := robot.next_check_ms()) is None else n / 1000}

    return app

"""One-line builders for the online-tournament tests: a stored event with its first round
paired (and the robot allowed in it), the robot of that tournament on the database (fake or
real engine), and the HTTP calls a game server makes (with a deployment token of the
database)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.robot.builders import FIRST
from tests.services.builders import ORGANIZER, event
from turnir.clock import ManualClock
from turnir.robot.engine import Evaluator, ScriptedEvaluator
from turnir.robot.robot import Robot
from turnir.services.online import ServicesResultSink, online_robot, set_robot_allowed
from turnir.services.robot_tokens import DatabaseTokens, create_robot_token
from turnir.services.rounds import start_round
from turnir.storage.database import Database
from turnir.storage.tables import audit_log
from turnir.web.robot_api import PREFIX, create_robot_app

LAGGING = ({"type": "move", "at": 10, "move": "g1f3", "lag": 0.3},
           {"type": "move", "at": 20, "move": "g8f6", "lag": 6.5},
           {"type": "clock", "at": 449, "white": 60, "black": 50})
"""1. Nf3 Nf6, Black lagging 6.5 s a move, clocks 1:00 / 0:50 a second before the first
check: with an evaluation of +0.2 for Black the first check awards the game to White (A-1)."""
FOOLS_MATE = ("f2f3", "e7e5", "g2g4", "d8h4")


@dataclass(frozen=True)
class OnlineEvent:
    """A stored tournament with round 1 paired."""

    id: int
    names: dict[int, str]
    """The players' names by number."""
    tables: list[tuple[int, int, int]]
    """(table, a, b) of each match."""

    def players(self, table: int) -> tuple[str, str]:
        """The names of player a and player b at ``table``."""
        _, a, b = next(t for t in self.tables if t[0] == table)
        return self.names[a], self.names[b]


def online_event(db: Database, *, players: int = 8, best_of: int = 1, robot: bool = True,
                 name: str = "Кубок клуба") -> OnlineEvent:
    """``robot``: the organizer allows the online robot to record its results."""
    tid = event(db, players, best_of=best_of, name=name)
    if robot:
        set_robot_allowed(db, tid, True, actor=ORGANIZER)
    view = start_round(db, tid, actor=ORGANIZER)
    return OnlineEvent(tid, {p.id: p.name for p in view.tournament.players},
                       [(p.table, p.a, p.b) for p in view.round.pairings if p.b is not None])


def robot_on(db: Database, script: Mapping[str, float] | None = None, *,
             clock: ManualClock | None = None, evaluator: Evaluator | None = None,
             ) -> tuple[Robot, ServicesResultSink, ManualClock]:
    clock = clock or ManualClock(0)
    robot, results = online_robot(db, clock=clock,
                                  evaluator=evaluator or ScriptedEvaluator(dict(script or {})))
    return robot, results, clock


@contextmanager
def api(robot: Robot, results: ServicesResultSink, *,
        tournament_id: int | None = None) -> Iterator[TestClient]:
    """The robot's API, called with a new token of the database (for the deployment, or for
    ``tournament_id``)."""
    _, token = create_robot_token(results.db, tournament_id=tournament_id, actor=ORGANIZER)
    app = create_robot_app(robot, run_checks=False, results=results,
                           tokens=DatabaseTokens(results.db))
    with TestClient(app, headers={"Authorization": f"Bearer {token}"}) as client:
        yield client


def register(client: TestClient, game_id: str, white: str, black: str, tid: int, table: int, *,
             game: int = 1, white_side: str | None = None, round_number: int = 1) -> Any:
    link: dict[str, Any] = {"id": tid, "round": round_number, "table": table, "game": game}
    if white_side is not None:
        link["white"] = white_side
    response = client.post(f"{PREFIX}/games", json={
        "game_id": game_id, "white": white, "black": black, "time_control": "3+0",
        "round_start": 0, "tournament": link})
    assert response.status_code == 201, response.json()
    return response.json()


def events(client: TestClient, game_id: str, *items: Mapping[str, Any]) -> Any:
    response = client.post(f"{PREFIX}/games/{game_id}/events/batch",
                           json={"events": list(items)})
    assert response.status_code == 200, response.json()
    return response.json()


def moves(*uci: str, start: int = 10) -> list[dict[str, Any]]:
    return [{"type": "move", "at": start + 10 * i, "move": m} for i, m in enumerate(uci)]


def first_check(client: TestClient, clock: ManualClock) -> Any:
    clock.set(max(clock.now_ms(), FIRST))
    response = client.post(f"{PREFIX}/checks/run")
    assert response.status_code == 200
    return response.json()


def audit(db: Database, action: str) -> list[Any]:
    with db.read() as conn:
        return list(conn.execute(select(audit_log).where(audit_log.c.action == action)
                                 .order_by(audit_log.c.id)).mappings())

"""The robot's HTTP API with FastAPI's TestClient: flows and 4xx JSON errors."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.robot.builders import FIRST, make_robot
from turnir.clock import ManualClock
from turnir.robot.auth import StaticTokens
from turnir.robot.robot import Robot
from turnir.web.robot_api import PREFIX, create_robot_app, create_robot_router

GAME = {"game_id": "r1-t1", "white": "alice", "black": "bob", "time_control": "3+0",
        "round_start": 0}
TOKEN = "trb_the-game-servers-token-for-these-tests"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
TOKENS = StaticTokens.of(TOKEN)


@pytest.fixture
def robot_and_clock() -> tuple[Robot, ManualClock]:
    robot, clock, _ = make_robot({"r1-t1/first": 0.2})
    return robot, clock


@pytest.fixture
def client(robot_and_clock: tuple[Robot, ManualClock]) -> Iterator[TestClient]:
    app = create_robot_app(robot_and_clock[0], run_checks=False, tokens=TOKENS)
    with TestClient(app, headers=AUTH) as c:
        yield c


def post_event(client: TestClient, event: dict[str, Any], game: str = "r1-t1") -> Any:
    return client.post(f"{PREFIX}/games/{game}/events", json=event)


def error_of(response: Any) -> tuple[int, str]:
    body = response.json()
    assert set(body) == {"error"}, body
    assert body["error"]["message"]
    return response.status_code, body["error"]["code"]


def test_register_post_events_check_and_read_decisions(
        client: TestClient, robot_and_clock: tuple[Robot, ManualClock]) -> None:
    created = client.post(f"{PREFIX}/games", json=GAME)
    assert created.status_code == 201
    assert created.json()["checks"] == {"first": 450.0, "second": 480.0, "unconditional": 490.0}
    assert post_event(client, {"type": "move", "at": 10, "move": "e4", "lag": 0.3}).status_code \
        == 200
    batch = client.post(f"{PREFIX}/games/r1-t1/events/batch", json={"events": [
        {"type": "move", "at": 20, "move": "e7e5", "lag": 6.5},
        {"type": "clock", "at": 449, "white": 60, "black": 50}]})
    assert batch.status_code == 200
    game = batch.json()["game"]
    assert (game["white_mean_lag"], game["black_mean_lag"], game["plies"]) == (0.3, 6.5, 2)
    robot_and_clock[1].set(FIRST)
    run = client.post(f"{PREFIX}/checks/run").json()
    assert [(o["game_id"], o["stage"], o["status"]) for o in run["outcomes"]] == [
        ("r1-t1", "first", "decided")]
    decisions = client.get(f"{PREFIX}/games/r1-t1/decisions").json()
    assert len(decisions) == 1
    d = decisions[0]
    assert (d["rule"], d["verdict"], d["winner"], d["result"], d["lagger"]) == (
        "A-1", "award", "white", "1-0", "black")
    assert d["figures"]["white_clock"] == 59.0 and d["figures"]["black_mean_lag"] == 6.5
    assert d["figures"]["evaluation"]["pawns"] == 0.2
    assert d["figures"]["evaluation"]["side"] == "black"
    assert "Awarded to white" in d["message"]
    assert client.get(f"{PREFIX}/decisions").json() == decisions
    assert client.get(f"{PREFIX}/decisions", params={"since": 1}).json() == []
    assert client.get(f"{PREFIX}/games/r1-t1").json()["status"] == "finished"
    assert [g["game_id"] for g in client.get(f"{PREFIX}/games").json()] == ["r1-t1"]
    # the game is over: more events are a conflict
    assert error_of(post_event(client, {"type": "move", "at": 460, "move": "Nf3"})) == (
        409, "game_over")


def test_rule_A5_flag_fall_decision_in_the_response(client: TestClient) -> None:
    client.post(f"{PREFIX}/games", json={**GAME, "fen": "8/8/4k3/8/8/3NK3/8/7q b - - 0 1"})
    body = post_event(client, {"type": "flag", "at": 30, "color": "black"}).json()
    assert body["game"]["result"] == "1/2-1/2"
    assert [d["rule"] for d in body["decisions"]] == ["A-5"]


@pytest.mark.parametrize(("body", "status", "code"), [
    ({**GAME, "time_control": "three"}, 422, "invalid_time_control"),
    ({**GAME, "game_id": "bad id"}, 422, "invalid_request"),
    ({**GAME, "fen": "xx"}, 422, "invalid_fen"),
    ({**GAME, "round_start": -1}, 422, "invalid_request"),
    ({**GAME, "extra": 1}, 422, "invalid_request"),
    ({"game_id": "x"}, 422, "invalid_request"),
])
def test_bad_registrations(client: TestClient, body: dict[str, Any], status: int,
                           code: str) -> None:
    assert error_of(client.post(f"{PREFIX}/games", json=body)) == (status, code)


def test_conflicting_registration_and_unknown_game(client: TestClient) -> None:
    assert client.post(f"{PREFIX}/games", json=GAME).status_code == 201
    assert client.post(f"{PREFIX}/games", json=GAME).status_code == 201   # idempotent
    assert error_of(client.post(f"{PREFIX}/games", json={**GAME, "time_control": "1+0"})) == (
        409, "game_exists")
    assert error_of(client.get(f"{PREFIX}/games/nope")) == (404, "game_not_found")
    assert error_of(post_event(client, {"type": "draw", "at": 1}, game="nope")) == (
        404, "game_not_found")
    assert error_of(client.get(f"{PREFIX}/games/nope/decisions")) == (404, "game_not_found")


@pytest.mark.parametrize(("event", "status", "code"), [
    ({"type": "move", "at": 5, "move": "e2e5"}, 422, "illegal_move"),
    ({"type": "move", "at": 5, "move": "Qh5"}, 422, "illegal_move"),
    ({"type": "move", "at": 5, "move": "e4", "lag": -1}, 422, "invalid_request"),
    ({"type": "move", "at": 5}, 422, "invalid_request"),
    ({"type": "teleport", "at": 5}, 422, "invalid_request"),
    ({"type": "flag", "at": 5, "color": "black"}, 422, "inconsistent_event"),
    ({"type": "flag", "at": 5, "color": "green"}, 422, "invalid_request"),
    ({"type": "clock", "at": 5, "white": 10}, 422, "invalid_request"),
    ({"type": "resign", "at": "soon", "color": "white"}, 422, "invalid_request"),
])
def test_bad_events_are_4xx_json_and_change_nothing(client: TestClient, event: dict[str, Any],
                                                    status: int, code: str) -> None:
    client.post(f"{PREFIX}/games", json=GAME)
    before = client.get(f"{PREFIX}/games/r1-t1").json()
    assert error_of(post_event(client, event)) == (status, code)
    assert client.get(f"{PREFIX}/games/r1-t1").json() == before


def test_out_of_order_and_malformed_json(client: TestClient) -> None:
    client.post(f"{PREFIX}/games", json=GAME)
    post_event(client, {"type": "move", "at": 10, "move": "e4"})
    assert error_of(post_event(client, {"type": "move", "at": 9, "move": "e5"})) == (
        422, "out_of_order")
    raw = client.post(f"{PREFIX}/games/r1-t1/events", content=b"{not json",
                      headers={"Content-Type": "application/json"})
    assert error_of(raw) == (422, "invalid_request")
    assert error_of(client.get(f"{PREFIX}/decisions", params={"since": -1})) == (
        422, "invalid_request")


def test_router_mounts_in_another_app_with_the_same_errors(
        robot_and_clock: tuple[Robot, ManualClock]) -> None:
    app = FastAPI()
    app.include_router(create_robot_router(robot_and_clock[0], tokens=TOKENS))
    with TestClient(app, headers=AUTH) as c:
        assert error_of(c.get(f"{PREFIX}/games/none")) == (404, "game_not_found")
        assert error_of(c.post(f"{PREFIX}/games", json={})) == (422, "invalid_request")


def test_standalone_app_health_and_lifespan(robot_and_clock: tuple[Robot, ManualClock]) -> None:
    app = create_robot_app(robot_and_clock[0], run_checks=True, tokens=TOKENS)
    with TestClient(app, headers=AUTH) as c:
        assert c.get(f"{PREFIX}/health").json() == {"status": "ok", "games": 0,
                                                    "next_check": None}
        assert "/api/v1/robot/games" in c.get("/openapi.json").json()["paths"]


def test_default_app_builds_without_starting_an_engine() -> None:
    app = create_robot_app(run_checks=False, tokens=TOKENS)
    with TestClient(app, headers=AUTH) as c:
        assert c.post(f"{PREFIX}/games", json=GAME).status_code == 201


def test_item8_player_names_with_control_characters_are_refused(client: TestClient) -> None:
    for name in ("alice\x00", "alice\x1b[2J", "a" * 190 + "ß" * 10):
        answer = client.post(f"{PREFIX}/games", json={**GAME, "white": name})
        assert error_of(answer) == (422, "bad_text"), answer.text
    made = client.post(f"{PREFIX}/games", json={**GAME, "white": "ali\u200bce"})
    assert made.status_code == 201 and made.json()["white"] == "alice", made.text

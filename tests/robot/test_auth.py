"""Issue 10 item 4: the robot's HTTP API needs the game server's token, a tournament's token
acts only in its tournament, a game links only to a tournament whose organizer allowed the
robot, tokens are kept hashed and can be revoked; on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import chess
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from typer.testing import CliRunner

from tests.robot.builders import make_robot, setup
from tests.robot.online_builders import (
    LAGGING,
    audit,
    events,
    first_check,
    moves,
    online_event,
    register,
    robot_on,
)
from tests.services.builders import ORGANIZER
from turnir.cli.main import app as cli
from turnir.robot.auth import StaticTokens, new_token, token_hash
from turnir.robot.game import Resigned
from turnir.robot.journal import TournamentLink
from turnir.robot.robot import Robot
from turnir.services.online import (
    UNAPPLIED,
    ServicesResultSink,
    online_results,
    robot_allowed,
    set_robot_allowed,
)
from turnir.services.robot_tokens import (
    DatabaseTokens,
    create_robot_token,
    list_robot_tokens,
    revoke_robot_token,
    revoke_tournament_tokens,
)
from turnir.storage.database import Database
from turnir.storage.tables import audit_log, tournaments
from turnir.storage.tables_robot import robot_games, robot_tokens
from turnir.web.robot_api import PREFIX, create_robot_app, create_robot_router

runner = CliRunner()
GAME = {"game_id": "g1", "white": "alice", "black": "bob", "time_control": "3+0",
        "round_start": 0}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def error_of(response: Any) -> tuple[int, str]:
    body = response.json()
    assert set(body) == {"error"} and body["error"]["message"], body
    return response.status_code, body["error"]["code"]


@contextmanager
def robot_api(db: Database) -> Iterator[tuple[TestClient, Robot, ServicesResultSink]]:
    """The robot of the database behind its API, called without a token by default."""
    robot, results, _ = robot_on(db)
    app = create_robot_app(robot, run_checks=False, results=results, tokens=DatabaseTokens(db))
    with TestClient(app) as client:
        yield client, robot, results


def link(tid: int, table: int = 1) -> dict[str, Any]:
    return {"id": tid, "round": 1, "table": table, "game": 1, "white": "a"}


# Every route of the router, called the way the game server calls it.
ROUTES = [
    ("post", "/games", GAME),
    ("get", "/games", None),
    ("get", "/games/g1", None),
    ("post", "/games/g1/events", {"type": "move", "at": 10, "move": "e4"}),
    ("post", "/games/g1/events/batch", {"events": [{"type": "move", "at": 10, "move": "e4"}]}),
    ("get", "/games/g1/decisions", None),
    ("get", "/decisions", None),
    ("post", "/checks/run", None),
    ("get", "/results", None),
]


def call(client: TestClient, method: str, path: str, body: Any,
         headers: dict[str, str] | None = None) -> Any:
    if method == "get":
        return client.get(PREFIX + path, headers=headers)
    return client.post(PREFIX + path, json=body, headers=headers)


def test_item4_no_token_is_401_on_every_route(db: Database) -> None:
    ev = online_event(db)
    robot, results, _ = robot_on(db)
    app = create_robot_app(robot, run_checks=False, results=results, tokens=DatabaseTokens(db))
    router = create_robot_router(robot, tokens=DatabaseTokens(db), results=results)
    assert {getattr(r, "path", "") for r in router.routes} == {
        PREFIX + p.replace("g1", "{game_id}") for _, p, _ in ROUTES}   # every route is called
    with TestClient(app) as client:
        robot.register(setup("g1"), TournamentLink(ev.id, 1, 1, 1, "a"))
        for method, path, body in ROUTES:
            response = call(client, method, path, body)
            assert error_of(response) == (401, "unauthorized"), path
            assert response.headers["WWW-Authenticate"].startswith("Bearer")
        # the token is checked before the body is read: a malformed body is still a 401
        raw = client.post(f"{PREFIX}/games", content=b"{not json",
                          headers={"Content-Type": "application/json"})
        assert error_of(raw) == (401, "unauthorized")
        assert client.get(f"{PREFIX}/health").status_code == 200   # shows no game
        assert robot.snapshot("g1").plies == 0
    with db.read() as conn:
        assert conn.execute(select(robot_games.c.game_id)).scalars().all() == ["g1"]


@pytest.mark.parametrize("header", [
    "Bearer trb_" + "x" * 43,               # well formed, never created
    "Bearer not-a-robot-token",
    "Bearer " + "trb_" + "y" * 500,           # too long to be one
    "Basic dXNlcjpwYXNz",
    "Bearer",
    "trb_no-scheme",
])
def test_item4_wrong_token_is_401(db: Database, header: str) -> None:
    online_event(db)
    create_robot_token(db, actor=ORGANIZER)
    with robot_api(db) as (client, robot, _):
        for method, path, body in ROUTES:
            response = call(client, method, path, body, headers={"Authorization": header})
            assert response.status_code == 401, (header, path)
            assert error_of(response)[1] in {"unauthorized", "invalid_token"}
        assert robot.game_ids() == []


def test_item4_token_of_tournament_a_used_for_b_is_403(db: Database) -> None:
    a = online_event(db, name="Кубок А")
    b = online_event(db, name="Кубок Б")
    _, token_a = create_robot_token(db, tournament_id=a.id, actor=ORGANIZER)
    _, token_b = create_robot_token(db, tournament_id=b.id, actor=ORGANIZER)
    with robot_api(db) as (client, robot, _):
        as_a, as_b = bearer(token_a), bearer(token_b)
        # A's token registers A's games, not B's, nor games of no tournament
        ok = client.post(f"{PREFIX}/games", json={**GAME, "game_id": "ga",
                                                  "tournament": link(a.id)}, headers=as_a)
        assert ok.status_code == 201, ok.json()
        refused = client.post(f"{PREFIX}/games", json={**GAME, "game_id": "gb",
                                                       "tournament": link(b.id)}, headers=as_a)
        assert error_of(refused) == (403, "wrong_tournament")
        assert error_of(client.post(f"{PREFIX}/games", json={**GAME, "game_id": "free"},
                                    headers=as_a)) == (403, "wrong_tournament")
        assert "gb" not in robot.game_ids() and "free" not in robot.game_ids()
        assert client.post(f"{PREFIX}/games", json={**GAME, "game_id": "gb",
                                                     "tournament": link(b.id)},
                           headers=as_b).status_code == 201
        # B's game can be neither read nor played nor re-registered with A's token
        for method, path, body in [
                ("get", "/games/gb", None), ("get", "/games/gb/decisions", None),
                ("post", "/games/gb/events", {"type": "resign", "at": 5, "color": "white"}),
                ("post", "/games/gb/events/batch",
                 {"events": [{"type": "resign", "at": 5, "color": "white"}]})]:
            assert error_of(call(client, method, path, body, as_a)) == (
                403, "wrong_tournament"), path
        assert robot.snapshot("gb").end is None
        assert error_of(client.get(f"{PREFIX}/results", params={"tournament": b.id},
                                   headers=as_a)) == (403, "wrong_tournament")
        # the lists show each token its own games only
        assert [g["game_id"] for g in client.get(f"{PREFIX}/games", headers=as_a).json()] == [
            "ga"]
        assert [g["game_id"] for g in client.get(f"{PREFIX}/games", headers=as_b).json()] == [
            "gb"]
        assert client.post(f"{PREFIX}/games/gb/events", headers=as_b,
                           json={"type": "resign", "at": 30, "color": "black"}).status_code == 200
        assert client.get(f"{PREFIX}/results", headers=as_a).json() == []
        assert [r["game_id"] for r in client.get(f"{PREFIX}/results",
                                                 headers=as_b).json()] == ["gb"]


def test_item4_decisions_and_checks_show_a_tournament_token_only_its_games(
        db: Database) -> None:
    a = online_event(db, name="Кубок А")
    b = online_event(db, name="Кубок Б")
    _, token_a = create_robot_token(db, tournament_id=a.id, actor=ORGANIZER)
    _, everywhere = create_robot_token(db, actor=ORGANIZER)
    robot, results, clock = robot_on(db, {"ga/first": 0.2, "gb/first": 0.2})
    app = create_robot_app(robot, run_checks=False, results=results, tokens=DatabaseTokens(db))
    with TestClient(app, headers=bearer(everywhere)) as client:
        register(client, "ga", "w", "b", a.id, 1, white_side="a")
        register(client, "gb", "w", "b", b.id, 1, white_side="a")
        events(client, "ga", *LAGGING)
        events(client, "gb", *LAGGING)
        clock.set(450_000)
        run = client.post(f"{PREFIX}/checks/run", headers=bearer(token_a)).json()
        assert [o["game_id"] for o in run["outcomes"]] == ["ga"]
        assert {d["game_id"] for d in client.get(f"{PREFIX}/decisions").json()} == {"ga", "gb"}
        own = client.get(f"{PREFIX}/decisions", headers=bearer(token_a)).json()
        assert [d["game_id"] for d in own] == ["ga"]
        assert client.get(f"{PREFIX}/decisions", params={"since": 1},
                          headers=bearer(token_a)).json() == []


def test_item4_tournament_not_allowed_is_refused(db: Database) -> None:
    ev = online_event(db, robot=False)
    assert robot_allowed(db, ev.id) is False          # off unless the organizer allows it
    _, token = create_robot_token(db, actor=ORGANIZER)
    with robot_api(db) as (client, robot, _):
        refused = client.post(f"{PREFIX}/games", json={**GAME, "tournament": link(ev.id)},
                              headers=bearer(token))
        assert error_of(refused) == (403, "robot_not_allowed")
        assert "does not let the online robot" in refused.json()["error"]["message"]
        assert robot.game_ids() == []
        with db.read() as conn:
            assert conn.execute(select(robot_games)).first() is None
        # the organizer allows it: the same registration goes through
        assert set_robot_allowed(db, ev.id, True, actor=ORGANIZER) is True
        assert client.post(f"{PREFIX}/games", json={**GAME, "tournament": link(ev.id)},
                           headers=bearer(token)).status_code == 201
        # and stops it again: the game's end is kept unapplied, the match gets no result
        set_robot_allowed(db, ev.id, False, actor=ORGANIZER)
        robot.post("g1", Resigned(1_000, chess.BLACK))
    [kept] = online_results(db, state=UNAPPLIED)
    assert kept.problem_code == "robot_not_allowed"
    assert audit(db, "result.record") == []
    changes = audit(db, "tournament.robot")
    assert [(c["before"]["robot_allowed"], c["after"]["robot_allowed"]) for c in changes] == [
        (False, True), (True, False)]
    assert set_robot_allowed(db, ev.id, False, actor=ORGANIZER) is False   # unchanged
    assert len(audit(db, "tournament.robot")) == 2


def test_item4_revoked_token_is_401(db: Database) -> None:
    ev = online_event(db)
    info, token = create_robot_token(db, tournament_id=ev.id, actor=ORGANIZER, label="сервер")
    _, other = create_robot_token(db, tournament_id=ev.id, actor=ORGANIZER)
    with robot_api(db) as (client, _, _):
        assert client.get(f"{PREFIX}/games", headers=bearer(token)).status_code == 200
        revoked = revoke_robot_token(db, info.id, actor=ORGANIZER)
        assert revoked.revoked_at is not None and revoked.revoked_by == ORGANIZER
        assert error_of(client.get(f"{PREFIX}/games", headers=bearer(token))) == (
            401, "invalid_token")
        assert revoke_robot_token(db, info.id, actor=ORGANIZER) == revoked   # again: unchanged
        assert client.get(f"{PREFIX}/games", headers=bearer(other)).status_code == 200
        assert [t.id for t in revoke_tournament_tokens(db, ev.id, actor=ORGANIZER)] == [
            info.id + 1]
        assert error_of(client.get(f"{PREFIX}/games", headers=bearer(other))) == (
            401, "invalid_token")
    assert list_robot_tokens(db) == []
    assert [t.id for t in list_robot_tokens(db, revoked=True)] == [info.id, info.id + 1]
    assert len(audit(db, "robot.token.revoke")) == 2


def test_item4_tokens_stored_hashed(db: Database) -> None:
    ev = online_event(db)
    made = [create_robot_token(db, actor=ORGANIZER),
            create_robot_token(db, tournament_id=ev.id, actor=ORGANIZER, label="игровой")]
    with db.read() as conn:
        stored = [dict(r) for r in conn.execute(select(robot_tokens)).mappings()]
        logged = [dict(r) for r in conn.execute(select(audit_log)).mappings()]
    dump = json.dumps([stored, logged], default=str, ensure_ascii=False)
    for _, token in made:
        assert token.startswith("trb_") and len(token) >= 40
        assert token not in dump and token[4:20] not in dump
        assert hashlib.sha256(token.encode()).hexdigest() in [r["token_hash"] for r in stored]
        assert token_hash(token) not in json.dumps(logged, default=str)   # not even the hash
    assert made[0][1] != made[1][1]
    assert [(r["tournament_id"], r["label"]) for r in stored] == [(None, ""), (ev.id, "игровой")]
    assert DatabaseTokens(db).verify(made[1][1]) is not None
    assert DatabaseTokens(db).verify(new_token()) is None


def test_item4_deployment_token_works_in_every_allowed_tournament(db: Database) -> None:
    a = online_event(db, name="Кубок А")
    b = online_event(db, name="Кубок Б")
    _, token = create_robot_token(db, actor=ORGANIZER)
    robot, results, clock = robot_on(db, {"gb/first": 0.2})
    app = create_robot_app(robot, run_checks=False, results=results, tokens=DatabaseTokens(db))
    with TestClient(app, headers=bearer(token)) as client:
        register(client, "ga", "w", "b", a.id, 1, white_side="a")
        register(client, "gb", "w", "b", b.id, 1, white_side="a")
        assert client.post(f"{PREFIX}/games", json={**GAME, "game_id": "free"}).status_code \
            == 201
        events(client, "ga", *moves("e2e4"), {"type": "resign", "at": 30, "color": "black"})
        events(client, "gb", *LAGGING)
        first_check(client, clock)
        assert {r["game_id"] for r in client.get(f"{PREFIX}/results").json()} == {"ga", "gb"}
    assert len(audit(db, "result.record")) == 2


def test_item4_memory_robot_and_static_tokens() -> None:
    token = new_token()
    app = create_robot_app(make_robot()[0], run_checks=False, tokens=StaticTokens.of(token))
    with TestClient(app) as client:
        assert error_of(client.post(f"{PREFIX}/games", json=GAME)) == (401, "unauthorized")
        assert error_of(client.post(f"{PREFIX}/games", json=GAME,
                                    headers=bearer(new_token()))) == (401, "invalid_token")
        assert client.post(f"{PREFIX}/games", json=GAME,
                           headers=bearer(token)).status_code == 201
        assert "robot token" in json.dumps(client.get("/openapi.json").json()["components"])


def test_item4_cli_tokens_and_the_tournaments_robot_setting(db: Database,
                                                            database_url: str) -> None:
    ev = online_event(db, robot=False)
    env = {"TURNIR_DATABASE_URL": database_url, "TURNIR_ACTOR": ORGANIZER}
    made = runner.invoke(cli, ["robot", "token", "create", "--tournament", str(ev.id),
                               "--label", "lichess-зеркало"], env=env)
    assert made.exit_code == 0, made.output
    token = made.stdout.strip()
    assert token.startswith("trb_") and "\n" not in token
    assert "shown only now" in made.stderr
    assert DatabaseTokens(db).verify(token) is not None
    listed = runner.invoke(cli, ["robot", "token", "list", "--json"], env=env)
    assert listed.exit_code == 0 and token not in listed.output
    [row] = json.loads(listed.stdout)
    assert (row["tournament"], row["label"], row["revoked_at"]) == (ev.id, "lichess-зеркало",
                                                                    None)
    table = runner.invoke(cli, ["robot", "token", "list", "--tournament", str(ev.id)], env=env)
    assert table.exit_code == 0 and "lichess" in table.output and token not in table.output
    assert runner.invoke(cli, ["robot", "token", "revoke"], env=env).exit_code == 2
    assert runner.invoke(cli, ["robot", "token", "revoke", "999"], env=env).exit_code == 2
    revoked = runner.invoke(cli, ["robot", "token", "revoke", str(row["id"])], env=env)
    assert revoked.exit_code == 0 and "revoked" in revoked.output
    assert DatabaseTokens(db).verify(token) is None
    assert "no live robot tokens" in runner.invoke(cli, ["robot", "token", "list"],
                                                   env=env).output
    # the organizer's setting
    shown = runner.invoke(cli, ["tournament", "set", str(ev.id)], env=env)
    assert shown.exit_code == 0 and "may not record" in shown.output
    allowed = runner.invoke(cli, ["tournament", "set", str(ev.id), "--robot", "on"], env=env)
    assert allowed.exit_code == 0 and "may record results" in allowed.output
    assert robot_allowed(db, ev.id) is True
    with db.read() as conn:
        version = conn.execute(select(tournaments.c.version).where(
            tournaments.c.id == ev.id)).scalar_one()
    assert runner.invoke(cli, ["tournament", "set", str(ev.id), "--robot", "off"],
                         env=env).exit_code == 0
    assert robot_allowed(db, ev.id) is False
    with db.read() as conn:
        assert conn.execute(select(tournaments.c.version).where(
            tournaments.c.id == ev.id)).scalar_one() == version + 1
    assert runner.invoke(cli, ["tournament", "set", "nope", "--robot", "on"],
                         env=env).exit_code == 2


def test_item4_offline_robot_commands_need_no_token(tmp_path: Any) -> None:
    simulated = runner.invoke(cli, ["robot", "simulate", "--games", "20", "--json"], env={})
    assert simulated.exit_code == 0, simulated.output
    assert json.loads(simulated.stdout)["games"] == 20
    replayed = runner.invoke(cli, ["robot", "replay", "tests/data/robot/lagger_queen_up.pgn",
                                   "--engine", "fake", "--json"], env={})
    assert replayed.exit_code == 0, replayed.output


def test_item4_serve_memory_takes_its_token_from_the_environment(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import typer

    from turnir.cli.robot import TOKEN_ENV, _memory_tokens

    token = new_token()
    monkeypatch.setenv(TOKEN_ENV, token)
    assert _memory_tokens().verify(token) is not None
    monkeypatch.setenv(TOKEN_ENV, "not-a-token")
    with pytest.raises(typer.Exit):
        _memory_tokens()
    monkeypatch.delenv(TOKEN_ENV)
    fresh = _memory_tokens()
    printed = capsys.readouterr().err.split()[-1]
    assert printed.startswith("trb_") and fresh.verify(printed) is not None
    assert fresh.verify(token) is None

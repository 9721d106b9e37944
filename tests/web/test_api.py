"""Step 4: the REST API calls the same services as the pages; errors are ``{code, message}``
with the documented status; a cookie session needs the CSRF header; it runs on PostgreSQL
too."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.web.conftest import PASSWORD, add_account, csrf_of, log_in, settings_for
from turnir.services.accounts import AccountRole
from turnir.services.players import list_players
from turnir.services.queries import audit_log
from turnir.storage.database import Database
from turnir.web.app import create_app


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """The API's messages in English (``Accept-Language: en``), as these tests read them."""
    with TestClient(app, raise_server_exceptions=False,
                    headers={"accept-language": "en"}) as c:
        yield c


def _token(client: TestClient, login: str) -> dict[str, str]:
    answer = client.post("/api/v1/session", json={"login": login, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return {"authorization": f"Bearer {answer.json()['token']}"}


def test_a_tournament_through_the_api(db: Database) -> None:
    """On SQLite and on PostgreSQL."""
    add_account(db, "org", AccountRole.ORGANIZER)
    with TestClient(create_app(settings_for(db), db=db)) as client:
        org = _token(client, "org")
        made = client.post("/api/v1/tournaments", headers=org, json={
            "name": "API-кубок", "swiss_rounds": 2, "top_size": 2, "best_of": 3,
            "points": {"win": 3, "draw": 1, "loss": 0, "bye": 3}, "seed": 5})
        assert made.status_code == 201
        tid = made.json()["id"]
        for i in range(1, 6):
            assert client.post(f"/api/v1/tournaments/{tid}/players", headers=org,
                               json={"name": f"Игрок {i}"}).status_code == 201
        person = list_players(db, tid)[0].person_id
        add_account(db, "p1", AccountRole.PLAYER, person_id=person)
        for _ in range(2):
            rnd = client.post(f"/api/v1/tournaments/{tid}/rounds", headers=org, json={})
            assert rnd.status_code == 201
            number = rnd.json()["number"]
            for line in rnd.json()["pairings"]:
                if line["b"] is not None:
                    put = client.put(f"/api/v1/tournaments/{tid}/rounds/{number}/tables/"
                                     f"{line['table']}/result", headers=org,
                                     json={"score": "2-0"})
                    assert put.status_code == 200 and put.json()["status"] == "recorded"
        standings = client.get(f"/api/v1/tournaments/{tid}/standings").json()
        assert len(standings["rows"]) == 5
        assert {tb["key"] for tb in standings["tiebreaks"]} >= {"quality_of_wins", "lot"}
        top = client.post(f"/api/v1/tournaments/{tid}/rounds", headers=org, json={}).json()
        assert top["stage"] == "top"
        final = top["pairings"][0]
        url = f"/api/v1/tournaments/{tid}/rounds/{top['number']}/tables/1/result"
        assert client.put(url, headers=org, json={"score": "1-1"}).json()["code"] == \
            "drawn_elimination"
        client.put(url, headers=org, json={"score": "2-1"})
        fixed = client.put(url, headers=org, json={"score": "0-2", "correction": True})
        assert fixed.json()["status"] == "corrected"
        assert audit_log(db, tid, action="result.correct")[-1].actor == "Org"
        assert client.post(f"/api/v1/tournaments/{tid}/finish", headers=org,
                           json={}).status_code == 200
        places = client.get(f"/api/v1/tournaments/{tid}/final-places").json()
        assert places[0]["player"] == final["b"] and len(places) == 5


def test_errors_are_json_with_a_code(client: TestClient, web_db: Database) -> None:
    add_account(web_db, "org", AccountRole.ORGANIZER)
    org = _token(client, "org")
    assert client.get("/api/v1/tournaments/77").json() == {
        "code": "unknown_tournament", "message": "no tournament #77"}
    answer = client.post("/api/v1/tournaments", json={"name": "x"})
    assert answer.status_code == 401 and answer.json()["code"] == "login_required"
    bad = client.post("/api/v1/tournaments", headers=org, json={"name": "x", "best_of": 2})
    assert bad.status_code == 422 and bad.json()["code"] == "invalid_request"
    assert "best_of" in bad.json()["message"]
    wrong = client.post("/api/v1/session", json={"login": "org", "password": "nope"})
    assert wrong.status_code == 422 and wrong.json()["code"] == "bad_credentials"
    tid = client.post("/api/v1/tournaments", headers=org, json={"name": "Т"}).json()["id"]
    conflict = client.delete(f"/api/v1/tournaments/{tid}/rounds/last", headers=org)
    assert conflict.status_code == 409 and conflict.json()["code"] == "no_round"
    assert "Traceback" not in conflict.text


def test_a_cookie_session_needs_the_csrf_header(client: TestClient, web_db: Database) -> None:
    add_account(web_db, "org", AccountRole.ORGANIZER)
    log_in(client, "org")
    assert client.get("/api/v1/me").json()["login"] == "org"
    refused = client.post("/api/v1/tournaments", json={"name": "Т"})
    assert refused.status_code == 403 and refused.json()["code"] == "csrf"
    token = csrf_of(client, "/")
    assert client.post("/api/v1/tournaments", json={"name": "Т"},
                       headers={"x-csrf-token": token}).status_code == 201


def test_logging_out_ends_the_token(client: TestClient, web_db: Database) -> None:
    add_account(web_db, "judge", AccountRole.FLOOR_JUDGE)
    judge = _token(client, "judge")
    assert client.get("/api/v1/me", headers=judge).json()["role"] == "floor_judge"
    assert client.delete("/api/v1/session", headers=judge).status_code == 204
    assert client.get("/api/v1/me", headers=judge).status_code == 401

"""The live draft's API (issue 14, ``turnir.web.draft_api``): a player reads their seat and
picks; a repeated pick is a 409 JSON refusal and is applied once; the table for the judges,
the log for the staff (a player's before the end: 409); another tournament's people get 403;
bodies are bounded (422)."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient

from tests.services.test_live_draft import PICK_S, _draft_event
from tests.services.test_reports import PASSWORD as PLAYER_PASSWORD
from tests.web.conftest import add_account
from tests.web.test_deck_api_checks_and_registers_decks import bearer
from turnir.services.accounts import AccountRole
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.live_draft import pick_log, start_live_draft
from turnir.storage.database import Database
from turnir.web.serve import draft_loop


def test_a_player_picks_once_and_a_repeated_pick_is_a_409(client: TestClient,
                                                          web_db: Database) -> None:
    tid, accounts = _draft_event(web_db)
    start_live_draft(web_db, tid, actor="Организатор", account_id=None)
    me = bearer(client, accounts[1].login, PLAYER_PASSWORD)
    seat = client.get(f"/api/v1/tournaments/{tid}/draft", headers=me)
    assert seat.status_code == 200, seat.text
    view = seat.json()
    assert view["status"] == "picking" and view["cards_left"] == 7 and view["number"] == 1
    body = {"booster": view["booster"], "cards_left": 7, "card": view["cards"][0]["uid"]}
    picked = client.post(f"/api/v1/tournaments/{tid}/draft/picks", json=body, headers=me)
    assert picked.status_code == 200, picked.text
    assert [c["uid"] for c in picked.json()["pool"]] == [body["card"]]
    again = client.post(f"/api/v1/tournaments/{tid}/draft/picks", json=body, headers=me)
    assert again.status_code == 409 and again.json()["code"] == "stale_pick"
    assert client.get(f"/api/v1/tournaments/{tid}/draft/log", headers=me).status_code == 409

    add_account(web_db, "floor", AccountRole.FLOOR_JUDGE)
    add_judge(web_db, tid, role=JudgeRole.FLOOR_JUDGE, login="floor", actor="Организатор")
    judge = bearer(client, "floor")
    log = client.get(f"/api/v1/tournaments/{tid}/draft/log", headers=judge)
    assert log.status_code == 200
    assert [(p["player_number"], p["reason"]) for p in log.json()] == [(1, "pick")]
    table = client.get(f"/api/v1/tournaments/{tid}/draft/tables/1", headers=judge).json()
    assert len(table["rows"]) == 8 and table["status"] == "picking"
    assert client.get(f"/api/v1/tournaments/{tid}/draft/tables/1",
                      headers=me).status_code == 403


def test_another_tournaments_people_are_refused_and_bodies_are_bounded(
        client: TestClient, web_db: Database) -> None:
    tid, accounts = _draft_event(web_db)
    start_live_draft(web_db, tid, actor="Организатор", account_id=None)
    other, strangers = _draft_event(web_db, 4, name="Другой драфт", who="Участник")
    add_account(web_db, "floor_b", AccountRole.FLOOR_JUDGE)
    add_judge(web_db, other, role=JudgeRole.FLOOR_JUDGE, login="floor_b", actor="Организатор")
    stranger = bearer(client, strangers[1].login, PLAYER_PASSWORD)
    judge_b = bearer(client, "floor_b")
    assert client.get(f"/api/v1/tournaments/{tid}/draft", headers=stranger).status_code == 403
    body = {"booster": 1, "cards_left": 7, "card": "b1c01"}
    assert client.post(f"/api/v1/tournaments/{tid}/draft/picks", json=body,
                       headers=stranger).status_code == 403
    assert client.get(f"/api/v1/tournaments/{tid}/draft/tables/1",
                      headers=judge_b).status_code == 403
    assert client.get(f"/api/v1/tournaments/{tid}/draft/log",
                      headers=judge_b).status_code == 403
    me = bearer(client, accounts[2].login, PLAYER_PASSWORD)
    for bad in ({**body, "cards_left": 13}, {**body, "card": "x" * 21},
                {**body, "card": "<b>"}, {**body, "booster": 0}, {**body, "admin": True}):
        answer = client.post(f"/api/v1/tournaments/{tid}/draft/picks", json=bad, headers=me)
        assert answer.status_code == 422, bad
    # seated where the live draft has not started: waiting for the start
    assert client.get(f"/api/v1/tournaments/{other}/draft",
                      headers=stranger).json()["status"] == "waiting_start"
    assert client.get(f"/api/v1/tournaments/{tid}/draft/log?table=0",
                      headers=me).status_code == 422


def test_the_servers_draft_loop_advances_a_table_whose_timer_ran_out(web_db: Database) -> None:
    tid, _ = _draft_event(web_db)
    start_live_draft(web_db, tid, actor="Организатор", account_id=None,
                     now=datetime.now(UTC) - timedelta(seconds=PICK_S + 1))
    stop = threading.Event()
    worker = threading.Thread(target=draft_loop, args=(web_db, stop), kwargs={"every_s": 0.05})
    worker.start()
    try:
        for _ in range(200):
            if pick_log(web_db, tid, account_id=None):
                break
            time.sleep(0.05)
    finally:
        stop.set()
        worker.join()
    log = pick_log(web_db, tid, account_id=None)
    assert len(log) == 8 and {p.reason for p in log} == {"timeout"}

"""The deck API (issue 13, ``turnir.web.decks_api``): the public check answers every problem in
the request's language; a player reads and registers their own deck until round 1 is paired
(409 after), a judge of the tournament any time; another player and another tournament's judge
get 403; bodies are bounded (422)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.services.test_decks import BANNED, CARDS, LEGAL, constructed
from tests.services.test_reports import PASSWORD as PLAYER_PASSWORD
from tests.services.test_reports import players
from tests.web.conftest import PASSWORD, add_account, log_in
from turnir.domain.decks import MAX_TEXT
from turnir.services.accounts import AccountRole
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.rounds import start_round
from turnir.services.tournaments import create_tournament
from turnir.storage.database import Database

EN = {"accept-language": "en"}


def bearer(client: TestClient, login: str, password: str = PASSWORD) -> dict[str, str]:
    answer = client.post("/api/v1/session", json={"login": login, "password": password})
    assert answer.status_code == 201, answer.text
    return {"authorization": f"Bearer {answer.json()['token']}"}


def test_the_public_check_answers_every_problem_in_the_requests_language(
        client: TestClient, web_db: Database) -> None:
    _, format_id = constructed(web_db, 4)
    body = {"text": f"{LEGAL}\n1 {BANNED}\n1 Лесной страш", "format_id": format_id}
    russian = client.post("/api/v1/deck-check", json=body)
    assert russian.status_code == 200, russian.text
    found = russian.json()
    assert (found["ok"], found["total"]) == (False, 37)
    assert [(p["kind"], p["rule"], p["card"], p["line"]) for p in found["problems"]] == [
        ("banned", "C-1", BANNED, 12), ("unknown_card", "C-1", "Лесной страш", 13)]
    assert found["problems"][1]["suggestions"][0] == CARDS[0]
    assert "запрещ" in found["problems"][0]["message"]
    english = client.post("/api/v1/deck-check", json=body, headers=EN).json()
    assert "banned" in english["problems"][0]["message"]
    legal = client.post("/api/v1/deck-check", json={"text": LEGAL, "format_id": format_id})
    assert legal.json() == {"ok": True, "total": 35, "problems": []}
    unknown = client.post("/api/v1/deck-check", json={"text": LEGAL, "format_id": 999})
    assert unknown.status_code == 404
    too_long = client.post("/api/v1/deck-check",
                           json={"text": "x" * (MAX_TEXT + 1), "format_id": format_id})
    assert too_long.status_code == 422 and too_long.json()["code"] == "invalid_request"
    extra = client.post("/api/v1/deck-check", json={**body, "admin": True})
    assert extra.status_code == 422


def test_a_player_registers_their_own_deck_until_round_1_then_a_judge_changes_it(
        client: TestClient, web_db: Database) -> None:
    tid, _ = constructed(web_db, 4)
    accounts = players(web_db, tid)
    add_account(web_db, "floor", AccountRole.FLOOR_JUDGE)
    add_judge(web_db, tid, role=JudgeRole.FLOOR_JUDGE, login="floor", actor="Организатор")
    me = _player_bearer(client, accounts[1].login)
    url = f"/api/v1/tournaments/{tid}/decks/1"
    empty = client.get(url, headers=me).json()
    assert (empty["registered"], empty["version"], empty["can_change"]) == (False, 0, True)
    bad = client.put(url, json={"text": f"1 {BANNED}", "expected_version": 0}, headers=me)
    assert bad.status_code == 200, bad.text
    assert (bad.json()["valid"], bad.json()["version"], bad.json()["total"]) == (False, 1, 1)
    assert [p["kind"] for p in bad.json()["problems"]] == ["banned", "size"]
    stale = client.put(url, json={"text": LEGAL, "expected_version": 0}, headers=me)
    assert stale.status_code == 409
    good = client.put(url, json={"text": LEGAL, "expected_version": 1}, headers=me).json()
    assert (good["valid"], good["ok"], good["version"], good["text"]) == (True, True, 2, LEGAL)
    other = _player_bearer(client, accounts[2].login)
    for answer in (client.get(url, headers=other),
                   client.put(url, json={"text": LEGAL}, headers=other),
                   client.get(f"/api/v1/tournaments/{tid}/decks", headers=other)):
        assert answer.status_code == 403, answer.text
    start_round(web_db, tid, actor="Организатор")
    locked = client.put(url, json={"text": LEGAL}, headers={**me, **EN})
    assert locked.status_code == 409
    assert locked.json() == {"code": "deck_locked",
                             "message": "the deck is locked: round 1 is paired; ask a judge"}
    judge = bearer(client, "floor")
    changed = client.put(url, json={"text": LEGAL + f"\n1 {CARDS[11]}"}, headers=judge)
    assert changed.status_code == 200 and changed.json()["locked"] is True
    listed = client.get(f"/api/v1/tournaments/{tid}/decks", headers=judge).json()
    assert [(d["number"], d["registered"], d["total"]) for d in listed] == [
        (1, True, 36), (2, False, 0), (3, False, 0), (4, False, 0)]
    assert listed[0]["updated_by"] == "Floor"


def _player_bearer(client: TestClient, login: str) -> dict[str, str]:
    return bearer(client, login, PLAYER_PASSWORD)


def test_another_tournaments_judge_and_the_anonymous_are_refused(
        client: TestClient, web_db: Database) -> None:
    tid, _ = constructed(web_db, 4)
    other = create_tournament(web_db, name="Другой", actor="Организатор").id
    add_account(web_db, "elsewhere", AccountRole.HEAD_JUDGE)
    add_judge(web_db, other, role=JudgeRole.HEAD_JUDGE, login="elsewhere", actor="Организатор")
    stranger = bearer(client, "elsewhere")
    url = f"/api/v1/tournaments/{tid}/decks"
    assert client.get(url, headers=stranger).status_code == 403
    assert client.get(f"{url}/1", headers=stranger).status_code == 403
    assert client.put(f"{url}/1", json={"text": LEGAL}, headers=stranger).status_code == 403
    assert client.get(f"{url}/1").status_code == 401
    assert client.put(f"{url}/1", json={"text": LEGAL}).status_code == 401


def test_the_log_page_says_a_judges_deck_change_in_words(client: TestClient,
                                                          web_db: Database) -> None:
    tid, _ = constructed(web_db, 4)
    add_account(web_db, "head", AccountRole.HEAD_JUDGE)
    add_judge(web_db, tid, role=JudgeRole.HEAD_JUDGE, login="head", actor="Организатор")
    head = bearer(client, "head")
    client.put(f"/api/v1/tournaments/{tid}/decks/2", json={"text": LEGAL}, headers=head)
    start_round(web_db, tid, actor="Организатор")
    changed = LEGAL.replace(f"3 {CARDS[0]}", f"2 {CARDS[0]}") + f"\n1 {BANNED}"
    assert client.put(f"/api/v1/tournaments/{tid}/decks/2", json={"text": changed},
                      headers=head).status_code == 200
    log_in(client, "head")
    page = client.get(f"/t/{tid}/log", headers={"accept-language": "ru"}).text
    assert "Колода зарегистрирована" in page and "Колода изменена судьёй" in page
    assert f"−1 {CARDS[0]}" in page and f"+1 {BANNED}" in page
    assert "колода нарушает правила" in page

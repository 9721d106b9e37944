"""The penalty pages (issue 5): three taps to give a penalty, the list with appeals to the head
judge, a player's own history, the report's penalties section; and the refusals."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from fastapi.testclient import TestClient

from tests.services.builders import ORGANIZER
from tests.services.penalty_builders import FLOOR, HEAD, give, judged_event
from tests.web.conftest import PASSWORD, Clients, csrf_of, log_in
from turnir.services.accounts import AccountRole, create_account, make_hasher
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.penalties import list_penalties
from turnir.services.players import list_players
from turnir.services.rounds import start_round
from turnir.storage.database import Database


@dataclass
class Event:
    tid: int
    me: int
    """The person behind player #1 (the ``player`` login)."""
    other: int
    """The person behind player #2."""


def _account(db: Database, login: str, name: str, role: AccountRole,
             person_id: int | None = None) -> None:
    create_account(db, login=login, name=name, password=PASSWORD, role=role,
                   person_id=person_id, actor="test", hasher=make_hasher(fast=True))


@pytest.fixture
def ev(web_db: Database) -> Event:
    tid = judged_event(web_db, 8, rounds=3)
    start_round(web_db, tid, actor=ORGANIZER)
    players = list_players(web_db, tid)
    me, other = players[0].person_id, players[1].person_id
    assert me is not None and other is not None
    _account(web_db, "head", HEAD, AccountRole.HEAD_JUDGE)
    _account(web_db, "floor", FLOOR, AccountRole.FLOOR_JUDGE)
    _account(web_db, "player", "Игрок 01", AccountRole.PLAYER, person_id=me)
    # the logins act as the judges named in the event (roles are per tournament, issue 10)
    add_judge(web_db, tid, role=JudgeRole.HEAD_JUDGE, login="head", actor=ORGANIZER)
    add_judge(web_db, tid, role=JudgeRole.FLOOR_JUDGE, login="floor", actor=ORGANIZER)
    return Event(tid, me, other)


def _post(client: TestClient, url: str, data: dict[str, str]) -> int:
    data = {**data, "csrf_token": csrf_of(client, "/login")}
    return client.post(url, data=data, follow_redirects=False).status_code


def test_three_taps_give_a_penalty(web_db: Database, clients: Clients, ev: Event) -> None:
    floor = clients.as_("floor")
    t = f"/t/{ev.tid}/penalties"
    first = floor.get(f"{t}/give")
    assert first.status_code == 200 and "?player=1" in first.text
    second = floor.get(f"{t}/give?player=1")
    assert "Затягивание игры" in second.text
    assert 'data-code="slow_play"' in second.text
    third = floor.get(f"{t}/give?player=1&reason=slow_play")
    assert third.status_code == 200 and 'id="explanation"' in third.text
    assert 'id="confirm-penalty"' in third.text
    assert _post(floor, t, {"player": "1", "reason": "slow_play", "key": "k1"}) == 303
    assert _post(floor, t, {"player": "1", "reason": "slow_play", "key": "k1"}) == 303
    assert len(list_penalties(web_db, ev.tid)) == 1  # a double tap gives one
    listing = floor.get(t)
    assert listing.status_code == 200 and 'id="penalty-1"' in listing.text
    english = clients.as_("floor")
    english.cookies.set("turnir_lang", "en")
    page = english.get(f"{t}/give?player=1&reason=slow_play")
    assert "second offence for slow play: raised from warning to game loss" in page.text


def test_a_player_cannot_give_penalties(web_db: Database, clients: Clients, ev: Event) -> None:
    player = clients.as_("player")
    t = f"/t/{ev.tid}/penalties"
    assert player.get(f"{t}/give").status_code == 403
    assert player.get(t).status_code == 403
    assert player.get(f"{t}/report").status_code == 403
    assert _post(player, t, {"player": "2", "reason": "slow_play"}) == 403
    assert list_penalties(web_db, ev.tid) == []
    assert clients.new().get(f"{t}/give", follow_redirects=False).status_code == 303  # log in


def test_a_floor_judge_cannot_suspend(web_db: Database, clients: Clients, ev: Event) -> None:
    floor = clients.as_("floor")
    t = f"/t/{ev.tid}/penalties"
    assert floor.get(f"{t}/give?player=1&reason=slow_play&penalty=suspension").status_code == 422
    status = _post(floor, t, {"player": "1", "reason": "slow_play", "penalty": "suspension",
                              "confirmed_by": HEAD})
    assert status == 422
    assert list_penalties(web_db, ev.tid) == []


def test_a_deviation_needs_the_head_judge(web_db: Database, clients: Clients,
                                          ev: Event) -> None:
    floor = clients.as_("floor")
    t = f"/t/{ev.tid}/penalties"
    page = floor.get(f"{t}/give?player=1&reason=slow_play&penalty=match_loss")
    assert 'name="confirmed_by"' in page.text
    assert _post(floor, t, {"player": "1", "reason": "slow_play",
                            "penalty": "match_loss"}) == 422
    assert _post(floor, t, {"player": "1", "reason": "slow_play", "penalty": "match_loss",
                            "confirmed_by": HEAD}) == 303
    [given] = list_penalties(web_db, ev.tid)
    assert given.penalty.value == "match_loss" and given.confirmed_by == HEAD


def test_appeal_to_the_head_judge(web_db: Database, clients: Clients, ev: Event) -> None:
    give(web_db, ev.tid, 1, "slow_play")
    t = f"/t/{ev.tid}/penalties"
    floor = clients.as_("floor")
    assert "Решить апелляцию" not in floor.get(t).text
    assert _post(floor, f"{t}/1/appeal", {"outcome": "withdrawn"}) == 403
    head = clients.as_("head")
    assert "Решить апелляцию" in head.get(t).text
    assert _post(head, f"{t}/1/appeal", {"outcome": "withdrawn", "note": "не подтвердилось"}) \
        == 303
    [penalty] = list_penalties(web_db, ev.tid)
    assert not penalty.active
    listing = head.get(t).text
    assert "не подтвердилось" in listing and "отменено" in listing


def test_penalty_history(web_db: Database, clients: Clients, ev: Event) -> None:
    give(web_db, ev.tid, 1, "slow_play")
    give(web_db, ev.tid, 2, "slow_play")
    t = f"/t/{ev.tid}/penalties/history"
    player = log_in(clients.new(), "player")
    own = player.get(t)
    assert own.status_code == 200 and "Игрок 01" in own.text and 'id="history"' in own.text
    assert own.text.count("<li>") == 1
    assert player.get(f"{t}?person={ev.other}").status_code == 403
    assert player.get(f"{t}?person={ev.me}").status_code == 200
    judge = clients.as_("floor")
    anyone = judge.get(f"{t}?person={ev.other}")
    assert anyone.status_code == 200 and "Игрок 02" in anyone.text
    assert "<li>" in anyone.text


def test_report_page(web_db: Database, clients: Clients, ev: Event) -> None:
    give(web_db, ev.tid, 1, "slow_play")
    head = clients.as_("head")
    page = head.get(f"/t/{ev.tid}/penalties/report")
    assert page.status_code == 200 and 'id="report"' in page.text
    assert "Кубок судей" in page.text and HEAD in page.text

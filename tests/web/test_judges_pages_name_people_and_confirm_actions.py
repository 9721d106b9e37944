"""Issue 12, QA walk-through (h11) on the judges' pages: the audit log on a phone is a stack of
entries that fits 390 px (Medium 9); a player's own leaving is said in Russian and as leaving,
not as being dropped, also for entries stored before (Medium 10); the log's "Who" filter names
each person once (Low 15); a penalty given and a ruling recorded are confirmed (Low 5, Low 23);
the give-penalty step finds a player by name (ё = е, any word order) or by table (Low 6); the
penalties page's actions are tidy 44 px rows on a phone (Low 9); the penalty report names a
game only when one was given (Low 14); rulings name the players, not A and B (Low 23)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import expect

from tests.services.builders import ORGANIZER
from tests.services.penalty_builders import FLOOR, HEAD, give, judged_event
from tests.services.test_reports import players as player_accounts
from tests.web.conftest import PASSWORD, Clients, LiveServer, csrf_of, sign_in
from tests.web.test_browser import PHONE, new_page
from turnir.domain.penalties import GivenAt
from turnir.domain.results import parse_result
from turnir.formats.players_csv import PlayerLine
from turnir.services.accounts import AccountRole, create_account, make_hasher
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.player_match import SELF_DROP_REASON, leave_tournament
from turnir.services.players import drop_player, register_players
from turnir.services.reports import report_result
from turnir.services.rounds import current_round, start_round
from turnir.storage.database import Database
from turnir.web.form_once import FIELD

DESKTOP = {"width": 1366, "height": 900}
NAMES = ["Семён Ёлкин", "Иван Ковалёв", "Анна Петрова", "Пётр Иванов", "Ольга Смирнова",
         "Кирилл Попов", "Мария Волкова", "Егор Соколов"]


@pytest.fixture
def tid(web_db: Database) -> int:
    """Eight named players in round 1; staff logins ``org``, ``head``, ``floor``."""
    tid = judged_event(web_db, 0, rounds=3)
    register_players(web_db, tid, [PlayerLine(n, "Тверь") for n in NAMES], actor=ORGANIZER)
    staff = {"org": (ORGANIZER, JudgeRole.ORGANIZER), "head": (HEAD, JudgeRole.HEAD_JUDGE),
             "floor": (FLOOR, JudgeRole.FLOOR_JUDGE)}
    for account, (name, role) in staff.items():  # the logins are the judges the event names
        create_account(web_db, login=account, name=name, password=PASSWORD,
                       role=AccountRole(role.value), actor=ORGANIZER,
                       hasher=make_hasher(fast=True))
        add_judge(web_db, tid, name=name, role=role, actor=ORGANIZER, login=account)
    start_round(web_db, tid, actor=ORGANIZER)
    return tid


def _post(client: TestClient, url: str, data: dict[str, str]) -> Any:
    return client.post(url, data={**data, "csrf_token": csrf_of(client, "/")},
                       follow_redirects=False)


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_a_player_leaving_on_their_own_is_said_in_russian_as_leaving(
        web_db: Database, clients: Clients, tid: int) -> None:
    accounts = player_accounts(web_db, tid)
    leave_tournament(web_db, tid, account=accounts[2])  # stores the English reason, as before
    drop_player(web_db, tid, 3, actor=ORGANIZER, reason="опоздал")  # a judge's drop: typed
    log = _text(clients.as_("org").get(f"/t/{tid}/log").text)
    assert SELF_DROP_REASON not in log and "left on their own" not in log
    assert "Игрок вышел из турнира" in log and "по своей воле" in log
    assert "Игрок исключён" in log and "причина: опоздал" in log  # the judge's drop stays so


def test_the_who_filter_names_each_person_once_without_the_confirmation_suffix(
        web_db: Database, clients: Clients, tid: int) -> None:
    accounts = player_accounts(web_db, tid)
    line = next(p for p in current_round(web_db, tid).round.pairings if p.b is not None)
    assert line.b is not None
    report_result(web_db, tid, 1, line.table, parse_result("2-0"), account=accounts[line.a])
    report_result(web_db, tid, 1, line.table, parse_result("0-2"), account=accounts[line.b])
    org = clients.as_("org")
    page = org.get(f"/t/{tid}/log").text
    select = page.split('name="actor"', 1)[1].split("</select>", 1)[0]
    shown = re.findall(r"<option value=\"([^\"]*)\"[^>]*>([^<]*)</option>", select)
    names = [name for _, name in shown]
    assert len(names) == len(set(names)), names
    assert not any("подтвердили оба" in n or "confirmed by both" in n for n in names), names
    confirmer = f"Игрок {line.b}"  # the second report recorded the result
    assert confirmer in names
    mine = org.get(f"/t/{tid}/log", params={"actor": confirmer}).text
    codes = set(re.findall(r'data-action="([^"]+)"', mine))
    assert {"report.submit", "result.record"} <= codes  # the confirmed result is theirs too


def test_a_penalty_given_from_the_page_is_confirmed_with_player_reason_and_penalty(
        clients: Clients, tid: int) -> None:
    floor = clients.as_("floor")
    form = floor.get(f"/t/{tid}/penalties/give", params={"player": "2",
                                                         "reason": "slow_play"}).text
    key = re.search(r'name="key" value="([^"]+)"', form)
    token = re.search(rf'name="{FIELD}" value="([^"]+)"', form)
    assert key
    data = {"player": "2", "reason": "slow_play", "key": key.group(1)}
    if token:
        data[FIELD] = token.group(1)
    answer = _post(floor, f"/t/{tid}/penalties", data)
    assert answer.status_code == 303
    shown = floor.get(answer.headers["location"]).text
    message = re.search(r'<p class="msg ok" id="penalty-given">([^<]+)</p>', shown)
    assert message, "no confirmation"
    assert message.group(1).startswith("Пенальти выдано: Иван Ковалёв, ")
    assert "предупреждение" in message.group(1) or "замечание" in message.group(1)
    plain = floor.get(f"/t/{tid}/penalties").text
    assert 'id="penalty-given"' not in plain  # only right after giving one


def test_step_one_finds_the_player_by_name_any_order_yo_as_ye_or_by_table(
        web_db: Database, clients: Clients, tid: int) -> None:
    floor = clients.as_("floor")
    url = f"/t/{tid}/penalties/give"

    def listed(**params: str) -> list[str]:
        page = floor.get(url, params=params).text
        block = page.split('id="pick-player"', 1)[1].split("</ul>", 1)[0]
        return re.findall(r'href="\?player=(\d+)"', block)

    assert len(listed()) == 8
    assert listed(q="елкин семен") == ["1"]  # ё typed as е, surname first
    assert listed(q="КОВАЛЕВ") == ["2"]
    assert listed(q="4") == ["4"]  # a number is the player's number
    line = next(p for p in current_round(web_db, tid).round.pairings
                if p.b is not None and p.table == 3)
    assert sorted(listed(table="3"), key=int) == sorted([str(line.a), str(line.b)], key=int)
    page = floor.get(url, params={"table": "3"}).text
    assert 'id="player-table"' in page and "стол 3" in page
    assert "Игрок не найден" in floor.get(url, params={"q": "Зззз"}).text
    assert floor.get(url, params={"table": "x"}).status_code == 422
    assert floor.get(url, params={"q": "я" * 201}).status_code == 422


def test_the_penalty_report_names_a_game_only_when_one_was_given(
        web_db: Database, clients: Clients, tid: int) -> None:
    give(web_db, tid, 1, "slow_play")  # the web's way: no game chosen
    give(web_db, tid, 3, "slow_play", given_at=GivenAt.during_game(1, 2))
    report = _text(clients.as_("head").get(f"/t/{tid}/penalties/report").text)
    assert "тур 1, партия 1" not in report
    assert "тур 1, во время матча" in report
    assert "тур 1, партия 2" in report  # a game the judge gave is named


def test_rulings_name_the_players_and_a_recorded_ruling_is_confirmed(
        web_db: Database, clients: Clients, tid: int) -> None:
    head = clients.as_("head")
    line = next(p for p in current_round(web_db, tid).round.pairings
                if p.b is not None and p.table == 1)
    assert line.b is not None
    names = {n: NAMES[n - 1] for n in (line.a, line.b)}
    answer = _post(head, f"/t/{tid}/rulings/technical", {
        "round": "1", "table": "1", "a_silver": "9", "b_silver": "6", "wins_a": "1",
        "wins_b": "1"})
    assert answer.status_code == 303 and "recorded=" in answer.headers["location"]
    page = _text(head.get(answer.headers["location"]).text)
    assert "игрока A" not in page and "игрок A" not in page and "игрок B" not in page
    assert f"техническая победа: {names[line.a]} (9 кристаллов против 6, порог 1)" in page
    assert "Решение записано: тур 1, стол 1" in page
    claim = _post(head, f"/t/{tid}/rulings/claim", {
        "round": "1", "claimant": f"1:{line.b}", "kind": "clean_victory", "granted": "false",
        "correct": "true"})
    assert claim.status_code == 303
    page = _text(head.get(claim.headers["location"]).text)
    assert f"{names[line.b]} требует: чистая победа; отклонено" in page
    plain = head.get(f"/t/{tid}/rulings").text
    assert 'id="ruling-recorded"' not in plain
    report = _text(head.get(f"/t/{tid}/penalties/report").text)  # the report names them too
    assert f"{names[line.b]} требует: чистая победа; отклонено" in report
    assert "игрок A" not in report and "игрок B" not in report


def test_the_log_and_the_penalties_page_fit_a_phone_as_stacked_entries_and_44px_rows(
        live_server: LiveServer, browser: Any, web_db: Database, tid: int) -> None:
    for number in range(1, 9):  # long entries: many penalties with notes
        give(web_db, tid, number, "slow_play",
             note="очень длинное примечание судьи о том, что именно произошло за столом")
    for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page = new_page(browser, viewport=size)
        sign_in(page, live_server, "head")
        page.goto(f"{live_server.url}/t/{tid}/log")
        expect(page.locator("#log tbody tr").first).to_be_visible()
        assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"]
        table_width = page.evaluate("() => document.getElementById('log').scrollWidth")
        assert table_width <= size["width"], table_width
        display = page.evaluate(
            "() => getComputedStyle(document.querySelector('#log tbody tr')).display")
        what = page.locator("#log tbody tr td.what").first.bounding_box()
        assert what is not None
        if name == "phone":
            assert display != "table-row"  # a block per entry, not a table row
            assert what["width"] >= 300  # "what changed" gets the phone's width
        else:
            assert display == "table-row"
        page.goto(f"{live_server.url}/t/{tid}/penalties")
        actions = page.locator(".penalty-actions > a, .penalty-actions > button")
        boxes = [actions.nth(i).bounding_box() for i in range(actions.count())]
        assert len(boxes) >= 4 and all(b is not None for b in boxes)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"]
        if name == "phone":
            assert all(b["height"] >= 44 for b in boxes if b), boxes
            lefts = {round(b["x"]) for b in boxes if b}
            assert len(lefts) == 1, lefts  # one column, aligned
        else:
            middles = {round(b["y"] + b["height"] / 2) for b in boxes if b}
            assert max(middles) - min(middles) <= 2, middles  # one row, centred alike
        page.context.close()

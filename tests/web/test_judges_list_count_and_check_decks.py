"""Issue 13, the judges' tools on the web: the decks list (every player's deck status), the deck
counting view (element, cost, type), random deck checks drawn by lot (the same lot, the same
draw; a chosen player; done with a note) and the S-8 crystal count from the cards on the
rulings page (the totals fill the technical result form the head judge confirms). Staff of the
tournament only: another tournament's judge and a player are refused. The pages fit a 390 px
phone."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import expect

from tests.services.builders import ORGANIZER, event
from tests.services.test_deck_checks import DECK, constructed
from tests.services.test_reports import PASSWORD as PLAYER_PASSWORD
from tests.services.test_reports import players
from tests.web.conftest import Clients, LiveServer, add_account, csrf_of, log_in, sign_in
from tests.web.pages_check import assert_accessible, assert_fits, assert_tap_targets
from tests.web.test_browser import PHONE, new_page
from turnir.domain.deck_lots import draw_by_lot
from turnir.services.accounts import AccountRole
from turnir.services.deck_checks import deck_checks_page, list_deck_checks
from turnir.services.decks import register_deck
from turnir.services.game_rulings import list_rulings
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.queries import audit_log
from turnir.services.rounds import current_round
from turnir.storage.database import Database

DESKTOP = {"width": 1366, "height": 900}
_BROKEN_WORDS = """() => [...document.querySelectorAll('#crystal-result td.card-name')]
  .flatMap(cell => {
    const text = cell.firstChild, broken = [];
    for (const m of text.textContent.matchAll(/[^\\s-]+/g)) {
      const range = document.createRange();
      range.setStart(text, m.index); range.setEnd(text, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (tops.size > 1) broken.push(m[0]);
    }
    return broken; })"""
"""The card names' words split over two lines in the crystal count (a name may wrap between
words or after a hyphen, never inside a word)."""


def _site(db: Database) -> int:
    """A constructed tournament in round 1 (9 players, a bye; player 2's deck has an unknown
    card, player 9 has none) with the accounts org, head, floor; «other» is the head judge of
    another tournament; players' accounts t{tid}p{n}."""
    for who, role in (("org", AccountRole.ORGANIZER), ("head", AccountRole.HEAD_JUDGE),
                      ("floor", AccountRole.FLOOR_JUDGE), ("other", AccountRole.HEAD_JUDGE)):
        add_account(db, who, role)
    tid = constructed(db)
    for who, role in (("org", JudgeRole.ORGANIZER), ("head", JudgeRole.HEAD_JUDGE),
                      ("floor", JudgeRole.FLOOR_JUDGE)):
        add_judge(db, tid, role=role, login=who, actor=ORGANIZER)
    other = event(db, 4, name="Чужой турнир")
    add_judge(db, other, role=JudgeRole.HEAD_JUDGE, login="other", actor=ORGANIZER)
    players(db, tid)
    return tid


@pytest.fixture
def tid(web_db: Database) -> int:
    return _site(web_db)


def _post(client: TestClient, url: str, data: dict[str, str], **kw: Any) -> Any:
    return client.post(url, data={**data, "csrf_token": csrf_of(client, "/")},
                       follow_redirects=False, **kw)


def _player(clients: Clients, tid: int, number: int = 1) -> TestClient:
    return log_in(clients.new(), f"t{tid}p{number}", PLAYER_PASSWORD)


def test_the_decks_list_shows_each_players_status_and_links_for_staff_only(
        clients: Clients, tid: int) -> None:
    floor = clients.as_("floor")
    page = floor.get(f"/t/{tid}/decks", headers={"accept-language": "ru"})
    assert page.status_code == 200
    assert f'href="/t/{tid}/decks"' in page.text and ">Колоды</a>" in page.text  # the tab
    row1 = re.search(r'<tr id="deck-1".*?</tr>', page.text, re.S)
    row2 = re.search(r'<tr id="deck-2".*?</tr>', page.text, re.S)
    row9 = re.search(r'<tr id="deck-9".*?</tr>', page.text, re.S)
    assert row1 and row2 and row9
    assert "без ошибок" in row1.group(0) and ">34<" in row1.group(0)
    for link in ("count", "print", "edit"):
        assert f'/t/{tid}/decks/1/{link}"' in row1.group(0)
    assert "ошибок: 1" in row2.group(0) and "нет колоды" in row9.group(0)
    assert "Организатор Орлов" in row1.group(0)  # who changed it last
    assert clients.as_("other").get(f"/t/{tid}/decks").status_code == 403
    assert _player(clients, tid).get(f"/t/{tid}/decks").status_code == 403
    assert clients.as_(None).get(f"/t/{tid}/decks",
                                 follow_redirects=False).status_code in (303, 401)


def test_the_count_view_groups_by_element_with_counts_and_costs(clients: Clients,
                                                                 tid: int) -> None:
    page = clients.as_("floor").get(f"/t/{tid}/decks/2/count",
                                    headers={"accept-language": "ru"})
    assert page.status_code == 200
    text = page.text
    assert "Проверка колоды: Игрок 02 (№2)" in text and "Карт: 35" in text
    groups = re.findall(r'<h2>([^<]+) <span class="group-total">(\d+)</span>', text)
    assert ("Лес", "9") in groups and ("Нет в каталоге", "1") in groups
    forest = text[text.index("<h2>Лес "):]
    assert forest.index("Лесная фея") < forest.index("Дубовый щит") < forest.index("Лесной страж")
    assert "5 золото" in text and "Неизвестный дракон" in text
    assert _player(clients, tid, 2).get(f"/t/{tid}/decks/2/count").status_code == 403
    assert clients.as_("other").get(f"/t/{tid}/decks/2/count").status_code == 403


def test_a_judge_draws_decks_by_lot_adds_one_and_marks_a_check_done(
        web_db: Database, clients: Clients, tid: int) -> None:
    floor = clients.as_("floor")
    left = [s.number for s in deck_checks_page(web_db, tid, account_id=None).left]
    page = floor.get(f"/t/{tid}/deck-checks", headers={"accept-language": "ru"})
    assert page.status_code == 200 and "Осталось игроков для жребия: 8." in page.text
    answer = _post(floor, f"/t/{tid}/deck-checks/draw", {"round": "1", "count": "3"})
    assert answer.status_code == 303 and "drawn=3" in answer.headers["location"]
    drawn = list_deck_checks(web_db, tid, account_id=None)
    assert tuple(c.number for c in drawn) == draw_by_lot(left, 3, seed=7, round_number=1,
                                                         draw=1).numbers  # the same lot
    shown = floor.get(answer.headers["location"], headers={"accept-language": "ru"}).text
    assert "По жребию выбрано колод: 3." in shown and "7/deck-checks/round/1/draw/1" in shown
    # the lot in words; its technical text only inside the <details> under it
    assert re.search(r'<details class="lot"><summary>жребий: тур 1, розыгрыш 1</summary>'
                     r'<small>[^<]*<code>7/deck-checks/round/1/draw/1</code>', shown)
    assert "по жребию <code>" not in shown
    chosen = next(n for n in left if n not in {c.number for c in drawn})
    assert _post(floor, f"/t/{tid}/deck-checks/add",
                 {"round": "1", "number": str(chosen)}).status_code == 303
    assert _post(floor, f"/t/{tid}/deck-checks/add", {"round": "1", "number": str(chosen)},
                 headers={"accept-language": "ru"}).status_code == 409  # once a round
    check = drawn[0].id
    assert _post(floor, f"/t/{tid}/deck-checks/{check}/done",
                 {"note": "совпадает"}).status_code == 303
    assert [c.note for c in list_deck_checks(web_db, tid, account_id=None)
            if c.id == check] == ["совпадает"]
    assert {e.action for e in audit_log(web_db, tid) if e.action.startswith("deck.check")} == {
        "deck.check_draw", "deck.check_add", "deck.check_done"}
    log = clients.as_("org").get(f"/t/{tid}/log", headers={"accept-language": "ru"}).text
    assert "Колода выбрана на проверку по жребию" in log and "Колода проверена" in log
    assert ": по жребию, розыгрыш 1<" in log and "deck-checks/round" not in log


def test_another_tournaments_judge_and_a_player_cannot_draw(web_db: Database,
                                                             clients: Clients, tid: int) -> None:
    for client in (clients.as_("other"), _player(clients, tid)):
        assert client.get(f"/t/{tid}/deck-checks").status_code == 403
        assert _post(client, f"/t/{tid}/deck-checks/draw",
                     {"round": "1", "count": "2"}).status_code == 403
    assert list_deck_checks(web_db, tid, account_id=None) == []
    bad = _post(clients.as_("floor"), f"/t/{tid}/deck-checks/draw",
                {"round": "1", "count": "999"}, headers={"accept-language": "ru"})
    assert bad.status_code == 422 and "сколько колод" in bad.text


def _table_1(db: Database, tid: int) -> tuple[int, int]:
    line = next(p for p in current_round(db, tid).round.pairings if p.table == 1)
    assert line.b is not None
    return line.a, line.b


def test_s8_the_crystal_count_from_the_cards_fills_the_head_judges_form(
        web_db: Database, clients: Clients, tid: int) -> None:
    head = clients.as_("head")
    page = head.get(f"/t/{tid}/rulings")
    assert 'id="crystal-cards"' in page.text
    answer = _post(head, f"/t/{tid}/rulings/crystals", {
        "round": "1", "table": "1", "cards_a": "2 Горный тролль\nлесная фея",
        "cards_b": "Тёмный маг", "do": "count"}, headers={"accept-language": "ru"})
    assert answer.status_code == 200
    text = answer.text
    assert 'name="a_silver" id="a-silver" value="1"' in text
    assert 'name="a_gold" id="a-gold" value="10"' in text
    assert 'name="b_gold" id="b-gold" value="4"' in text
    assert re.search(r'<option value="1" selected>[^<]*</option>', text.split(
        'id="technical-table"')[1])
    assert "Предлагается: техническая победа" in text and "11 кристаллов против 4" in text
    assert list_rulings(web_db, tid) == []  # nothing recorded until the head judge confirms
    a, b = _table_1(web_db, tid)
    assert a and b


def test_s8_with_an_unknown_card_nothing_is_proposed_nor_filled_in(clients: Clients,
                                                                   tid: int) -> None:
    answer = _post(clients.as_("head"), f"/t/{tid}/rulings/crystals", {
        "round": "1", "table": "1", "cards_a": "2 Горный тролль\nлесная фея",
        "cards_b": "Тёмный маг\nГорный трол", "do": "count"}, headers={"accept-language": "ru"})
    assert answer.status_code == 200
    text = answer.text
    assert "карты «Горный трол» нет в каталоге" in text and "Может быть: Горный тролль" in text
    assert "Предлагается" not in text and 'id="crystal-proposal"' not in text
    assert "исправьте неизвестные карты, чтобы получить предложение" in text
    for field in ("a-silver", "a-gold", "b-silver", "b-gold"):  # the form is not prefilled
        assert f'id="{field}" value="0"' in text


def test_s8_a_card_not_in_the_players_registered_deck_is_flagged(
        web_db: Database, clients: Clients, tid: int) -> None:
    a, _ = _table_1(web_db, tid)
    register_deck(web_db, tid, a, text=DECK.replace("3 Тёмный маг\n", ""), actor=ORGANIZER,
                  account_id=None)
    answer = _post(clients.as_("floor"), f"/t/{tid}/rulings/crystals", {
        "round": "1", "table": "1", "cards_a": "Тёмный маг\nЛесная фея",
        "cards_b": "Тёмный маг", "do": "count"}, headers={"accept-language": "ru"})
    assert answer.status_code == 200
    side_a = answer.text.split('id="crystals-a"')[1].split('id="crystals-b"')[0]
    side_b = answer.text.split('id="crystals-b"')[1]
    row = re.search(r'<tr class="not-in-deck">.*?</tr>', side_a, re.S)
    assert row and "Тёмный маг" in row.group(0)
    assert "нет в зарегистрированной колоде" in row.group(0)
    assert side_a.count('class="not-in-deck"') == 1  # «Лесная фея» is in the deck
    assert 'class="msg warn beyond-deck"' in side_a and "not-in-deck" not in side_b
    assert "Предлагается: техническая победа" in answer.text  # still counted: 5 against 4


def test_s8_a_card_found_by_search_is_added_and_a_floor_judge_only_sees_the_totals(
        clients: Clients, tid: int) -> None:
    floor = clients.as_("floor")
    found = _post(floor, f"/t/{tid}/rulings/crystals", {
        "round": "1", "table": "1", "cards_a": "", "cards_b": "", "q": "тролль",
        "do": "search"}, headers={"accept-language": "ru"})
    assert found.status_code == 200 and 'value="b|Горный тролль"' in found.text
    added = _post(floor, f"/t/{tid}/rulings/crystals", {
        "round": "1", "table": "1", "cards_a": "Лесная фея", "cards_b": "", "q": "тролль",
        "add": "b|Горный тролль"}, headers={"accept-language": "ru"})
    assert added.status_code == 200
    assert "1 Горный тролль</textarea>" in added.text
    assert "Технический результат вносит только главный судья" in added.text
    assert 'id="record-technical"' not in added.text  # the form is the head judge's
    assert _post(clients.as_("other"), f"/t/{tid}/rulings/crystals",
                 {"round": "1", "cards_a": "Лесная фея"}).status_code == 403
    assert _post(_player(clients, tid), f"/t/{tid}/rulings/crystals",
                 {"round": "1", "cards_a": "Лесная фея"}).status_code == 403


def test_the_judges_deck_pages_fit_a_phone(live_server: LiveServer, browser: Any) -> None:
    db = live_server.db
    tid = _site(db)
    phone = new_page(browser, viewport=PHONE)
    sign_in(phone, live_server, "head")
    phone.goto(f"{live_server.url}/t/{tid}/decks")
    assert_fits(phone, "decks list 390")
    assert_tap_targets(phone, "decks list 390")
    assert_accessible(phone, "decks list 390")
    phone.goto(f"{live_server.url}/t/{tid}/decks/2/count")
    assert_fits(phone, "count view 390")
    assert_accessible(phone, "count view 390")
    phone.goto(f"{live_server.url}/t/{tid}/deck-checks")
    phone.click("#draw-decks")
    expect(phone.locator("#drawn")).to_be_visible()
    assert_fits(phone, "deck checks 390")
    assert_tap_targets(phone, "deck checks 390")
    assert_accessible(phone, "deck checks 390")
    phone.goto(f"{live_server.url}/t/{tid}/rulings")
    phone.fill("#cards-a", "2 Горный тролль\nЛесная фея")
    phone.fill("#cards-b", "Тёмный маг")
    phone.click("#count-crystals")
    expect(phone.locator("#crystal-proposal")).to_be_visible()
    assert phone.input_value("#a-gold") == "10" and phone.input_value("#b-gold") == "4"
    assert_fits(phone, "rulings with the crystal count 390")
    assert_tap_targets(phone, "rulings with the crystal count 390")
    assert_accessible(phone, "rulings with the crystal count 390")
    desk = new_page(browser, viewport=DESKTOP)
    sign_in(desk, live_server, "floor")
    desk.goto(f"{live_server.url}/t/{tid}/decks")
    assert_fits(desk, "decks list 1366")
    desk.goto(f"{live_server.url}/t/{tid}/rulings")
    desk.fill("#cards-a", "Болотный змей\nОгненный дух\nГном-рудокоп")
    desk.fill("#cards-b", "Речная нимфа\nСтепной волк\nГорный тролль")
    desk.click("#count-crystals")
    expect(desk.locator("#crystal-result")).to_be_visible()
    assert desk.evaluate(_BROKEN_WORDS) == []  # «Ополчен ец» at 1366 px (QA, issue 13)
    assert_fits(desk, "rulings with the crystal count 1366")

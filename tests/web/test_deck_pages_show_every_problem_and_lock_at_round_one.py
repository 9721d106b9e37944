"""Issue 13, the deck pages (``turnir.web.deck_pages``; C-1, C-2): a player registers a deck on
``/t/{tid}/deck`` and sees every problem at once (the rule, the line, the suggestions of an
unknown name); once round 1 is paired the deck is read-only for the player and a judge changes
it on ``/t/{tid}/decks/{number}/edit``; nobody else sees a deck (another player 403, the
anonymous sent to the login, another tournament's judge 403); the public check page needs no
login; the printable registration sheet lists the deck by element, then name; the round
wizard names the players without a legal deck before round 1."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient
from playwright.sync_api import expect

from tests.services.builders import ORGANIZER, event
from tests.services.test_decks import BANNED, CARDS, HORDE, LEGAL, seed_catalogue
from tests.services.test_reports import PASSWORD as PLAYER_PASSWORD
from tests.services.test_reports import players
from tests.web.conftest import Clients, LiveServer, add_account, csrf_of, log_in
from tests.web.conftest import sign_in as browser_login
from tests.web.pages_check import assert_fits
from tests.web.test_browser import new_page
from turnir.formats.players_csv import PlayerLine
from turnir.services.accounts import AccountRole
from turnir.services.deck_formats import set_tournament_format
from turnir.services.decks import register_deck
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.players import register_players
from turnir.services.rounds import start_round
from turnir.storage.database import Database

RU = {"accept-language": "ru"}
TYPO = "Лесной страш"
"""A misspelled «Лесной страж» (its suggestion)."""
PROBLEM_DECK = f"{LEGAL}\n1 {BANNED}\n2 {TYPO}"
"""The legal deck with one banned card (line 12) and one unknown name (line 13)."""


def _tournament(db: Database) -> int:
    """A constructed tournament in registration (6 players, the format «Тестовый»), its
    organizer «org», floor judge «judge», a judge of another tournament «stranger» and a login
    for every player (``t{tid}p{n}``)."""
    format_id = seed_catalogue(db)
    tid = event(db, 6)
    set_tournament_format(db, tid, actor=ORGANIZER, account_id=None, format_id=format_id)
    other = event(db, 4, name="Другой турнир")
    for login, role in (("org", AccountRole.ORGANIZER), ("judge", AccountRole.FLOOR_JUDGE),
                        ("stranger", AccountRole.HEAD_JUDGE)):
        add_account(db, login, role)
    add_judge(db, tid, role=JudgeRole.ORGANIZER, login="org", actor=ORGANIZER)
    add_judge(db, tid, role=JudgeRole.FLOOR_JUDGE, login="judge", actor=ORGANIZER)
    add_judge(db, other, role=JudgeRole.HEAD_JUDGE, login="stranger", actor=ORGANIZER)
    players(db, tid)
    return tid


def _player(clients: Clients, tid: int, number: int) -> TestClient:
    client = log_in(clients.new(), f"t{tid}p{number}", PLAYER_PASSWORD)
    client.headers.update(RU)
    return client


def _post(client: TestClient, url: str, page: str, **data: str) -> int:
    answer = client.post(url, data={"csrf_token": csrf_of(client, page), **data},
                         follow_redirects=False)
    return answer.status_code


def test_a_player_saves_a_deck_and_sees_every_problem_with_suggestions(
        web_db: Database, clients: Clients) -> None:
    tid = _tournament(web_db)
    me = _player(clients, tid, 1)
    page = me.get(f"/t/{tid}/deck")
    assert page.status_code == 200
    assert "Колода ещё не зарегистрирована" in page.text and 'id="deck-form"' in page.text
    assert f'href="/t/{tid}/deck"' in page.text  # the tab «Моя колода»
    assert _post(me, f"/t/{tid}/deck", f"/t/{tid}/deck", text=PROBLEM_DECK, version="0") == 303
    page = me.get(f"/t/{tid}/deck?saved=1").text
    assert "Колода недопустима" in page and "ошибок: 2" in page
    problems = re.findall(r'<li class="problem" data-kind="(\w+)" data-line="(\d+)">', page)
    assert problems == [("banned", "12"), ("unknown_card", "13")]
    assert f"«{BANNED}» запрещена" in page and "(C-1)" in page  # C-1, in Russian
    # each problem once: the message names its line and rule, no «правило · строка» after it
    assert "правило C-1" not in page and 'class="where"' not in page
    assert f'data-line="13" data-from="{TYPO}" data-to="{CARDS[0]}"' in page  # a suggestion
    assert TYPO in page.split('id="deck-text"')[1]  # the list as it was pasted
    # fixed, as a file (.csv: count;name): legal, version 2
    rows = "".join(line.replace(" ", ";", 1) + "\n" for line in LEGAL.splitlines())
    answer = me.post(f"/t/{tid}/deck", data={"csrf_token": csrf_of(me, f"/t/{tid}/deck"),
                                             "text": PROBLEM_DECK, "version": "1"},
                     files={"file": ("deck.csv", rows.encode(), "text/csv")},
                     follow_redirects=False)
    assert answer.status_code == 303, answer.text
    page = me.get(f"/t/{tid}/deck").text
    assert "Колода допустима" in page and "карт: 35" in page and 'class="problem"' not in page


def test_decks_are_seen_by_their_player_and_the_tournaments_staff_only(
        web_db: Database, clients: Clients) -> None:
    tid = _tournament(web_db)
    register_deck(web_db, tid, 1, text=LEGAL, actor=ORGANIZER, account_id=None)
    other_player = _player(clients, tid, 2)
    for url in (f"/t/{tid}/decks/1/print", f"/t/{tid}/decks/1/edit"):
        assert other_player.get(url).status_code == 403, url
    assert _post(other_player, f"/t/{tid}/decks/1/edit", f"/t/{tid}/deck",
                 text="1 x") == 403
    anonymous = clients.new()
    for url in (f"/t/{tid}/deck", f"/t/{tid}/decks/1/edit", f"/t/{tid}/decks/1/print"):
        answer = anonymous.get(url, follow_redirects=False)
        assert answer.status_code == 303 and answer.headers["location"].startswith("/login"), url
    stranger = clients.as_("stranger")  # a head judge, of another tournament
    assert stranger.get(f"/t/{tid}/decks/1/edit").status_code == 403
    assert stranger.get(f"/t/{tid}/decks/1/print").status_code == 403
    assert stranger.get(f"/t/{tid}/deck").status_code == 403  # not a player
    judge = clients.as_("judge")
    judge.headers.update(RU)
    page = judge.get(f"/t/{tid}/decks/1/edit")
    assert page.status_code == 200 and "записывается в журнал турнира" in page.text
    assert judge.get(f"/t/{tid}/decks/1/print").status_code == 200


def test_round_1_locks_the_deck_for_the_player_and_a_judges_change_is_logged(
        web_db: Database, clients: Clients) -> None:
    tid = _tournament(web_db)
    register_deck(web_db, tid, 1, text=f"{LEGAL}\n1 {BANNED}", actor=ORGANIZER, account_id=None)
    org = clients.as_("org")
    org.headers.update(RU)
    wizard = org.get(f"/t/{tid}/manage").text  # the warning, with a link to each deck
    assert "Без допустимой колоды (6)" in wizard and f'/t/{tid}/decks/1/edit">Игрок 01' in wizard
    assert 'id="pair-next"' in wizard  # pairing is allowed all the same
    start_round(web_db, tid, actor=ORGANIZER)
    me = _player(clients, tid, 1)
    page = me.get(f"/t/{tid}/deck").text
    assert "Колода закрыта" in page and 'id="deck-form"' not in page and BANNED in page
    assert _post(me, f"/t/{tid}/deck", f"/t/{tid}/deck", text=LEGAL) == 409
    judge = clients.as_("judge")
    judge.headers.update(RU)
    page = judge.get(f"/t/{tid}/decks/1/edit").text
    assert "решение судьи" in page and 'id="deck-form"' in page
    assert _post(judge, f"/t/{tid}/decks/1/edit", f"/t/{tid}/decks/1/edit", text=LEGAL,
                 version="1") == 303
    assert "Колода допустима" in me.get(f"/t/{tid}/deck").text


def test_the_public_check_page_lists_every_problem_without_a_login(
        web_db: Database, clients: Clients) -> None:
    format_id = seed_catalogue(web_db)
    anonymous = clients.new()
    anonymous.headers.update(RU)
    page = anonymous.get("/deck-check")
    assert page.status_code == 200 and f'<option value="{format_id}"' in page.text
    assert _post(anonymous, "/deck-check", "/deck-check", text=PROBLEM_DECK,
                 format="") == 422  # a format must be chosen
    answer = anonymous.post("/deck-check", data={
        "csrf_token": csrf_of(anonymous, "/deck-check"), "text": f"4 {CARDS[0]}\n2 {TYPO}",
        "format": str(format_id)})
    assert answer.status_code == 200
    kinds = re.findall(r'data-kind="(\w+)"', answer.text)
    assert kinds == ["copies", "unknown_card", "size"], kinds
    assert "Колода недопустима" in answer.text and "карт: 6" in answer.text
    assert f"4 {CARDS[0]}" in answer.text  # the list stays in the form


def test_the_registration_sheet_lists_the_deck_by_element_then_name(
        web_db: Database, clients: Clients) -> None:
    tid = _tournament(web_db)
    register_deck(web_db, tid, 1, text=f"3 {CARDS[1]}\n5 {HORDE}\n3 {CARDS[0]}\n1 {TYPO}",
                  actor=ORGANIZER, account_id=None)
    me = _player(clients, tid, 1)
    sheet = me.get(f"/t/{tid}/decks/1/print").text
    names = re.findall(r'<td class="num">\d+</td><td>([^<]+)</td>', sheet)
    assert names == [HORDE, CARDS[1], CARDS[0], TYPO]  # Горы, then Лес by name; unknown last
    for text in ("Лист регистрации колоды", "Кубок клуба", "Тестовый", "Игрок 01",
                 "Проверил судья", "Подпись судьи", '<td class="num total">12</td>'):
        assert text in sheet, text
    blank = clients.new().get(f"/t/{tid}/deck-sheet", headers=RU).text
    assert blank.count('<tr class="blank">') == 30 and "Тестовый" in blank


def test_the_my_deck_tab_is_shown_only_to_a_player_entered_in_the_tournament(
        web_db: Database, clients: Clients) -> None:
    tid = _tournament(web_db)
    other = event(web_db, 0, name="Третий турнир")
    outsider = register_players(web_db, other, [PlayerLine("Посторонний игрок", "Тверь")],
                                actor=ORGANIZER)[0].person_id
    add_account(web_db, "outsider", AccountRole.PLAYER, person_id=outsider)
    stranger = clients.as_("outsider")
    page = stranger.get(f"/t/{tid}", headers=RU)
    assert page.status_code == 200 and 'class="tabs' in page.text
    assert f'href="/t/{tid}/deck"' not in page.text  # not entered: no tab to a 403
    assert stranger.get(f"/t/{tid}/deck").status_code == 403
    assert f'href="/t/{tid}/deck"' in _player(clients, tid, 2).get(f"/t/{tid}").text


def test_the_deck_tabs_are_on_the_cached_public_pages_too(web_db: Database,
                                                          clients: Clients) -> None:
    """Pairings, standings and the top are built from a cached shell (issue 14 QA): the
    «Моя колода» and «Колоды» tabs must be there as on the overview."""
    tid = _tournament(web_db)
    player, judge = _player(clients, tid, 2), clients.as_("judge")
    for path in (f"/t/{tid}/standings",):
        assert f'href="/t/{tid}/deck"' in player.get(path, headers=RU).text, path
        assert f'href="/t/{tid}/decks"' in judge.get(path, headers=RU).text, path


def test_a_judges_change_is_shown_to_the_player_and_its_reason_in_the_log(
        web_db: Database, clients: Clients) -> None:
    tid = _tournament(web_db)
    latin = CARDS[4].replace("о", "o")  # typed with a Latin «o»
    me = _player(clients, tid, 1)
    assert _post(me, f"/t/{tid}/deck", f"/t/{tid}/deck",
                 text=LEGAL.replace(CARDS[4], latin), version="0") == 303
    start_round(web_db, tid, actor=ORGANIZER)
    page = me.get(f"/t/{tid}/deck").text
    assert f"<td>{CARDS[4]}</td>" in page and latin not in page  # the catalogue's name
    assert "изменена судьёй" not in page
    judge = clients.as_("judge")
    judge.headers.update(RU)
    form = judge.get(f"/t/{tid}/decks/1/edit").text
    assert 'name="reason"' in form and "Причина (необязательно)" in form
    assert _post(judge, f"/t/{tid}/decks/1/edit", f"/t/{tid}/decks/1/edit", text=LEGAL,
                 version="1", reason="Исправлено написание") == 303
    page = me.get(f"/t/{tid}/deck").text
    saved_at = page.split('id="deck-saved-at">')[1].split("</span>")[0]
    assert saved_at.startswith("изменена судьёй Judge, ")
    assert "Причина, указанная судьёй: Исправлено написание" in page
    org = clients.as_("org")
    log = org.get(f"/t/{tid}/log", headers=RU).text
    assert "причина: Исправлено написание" in log
    line = next(part for part in log.split("<li") if "Исправлено написание" in part)
    assert "+3" not in line and "−3" not in line  # a spelling only is no change of cards


def test_a_long_saved_by_line_wraps_on_a_phone(live_server: LiveServer, browser: Any) -> None:
    tid = _tournament(live_server.db)
    register_deck(live_server.db, tid, 1, text=LEGAL, actor="Судья в зале (демо) "
                  "Константинопольская-Верхнеднепровская", account_id=None)
    page = new_page(browser, viewport={"width": 390, "height": 844})
    browser_login(page, live_server, "judge")
    page.goto(f"{live_server.url}/t/{tid}/decks/1/edit")
    expect(page.locator("#deck-saved-at")).to_contain_text("Верхнеднепровская")
    assert_fits(page, "the judge's deck page at 390 px")

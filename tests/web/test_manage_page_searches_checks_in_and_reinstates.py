"""Issue 12, registration on the manage page: "check in all" with its count, the players list
searched by name (ё as е, any word order) and filtered, a drop undone before the next round is
paired (and refused after it, with a translated message), the surname and the given name kept
apart so that the list and the pairings by name sort by surname, and a players file with
surname and given name columns; in Chromium at 1366x900 and 390x844, and without JS."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from playwright.sync_api import Page, expect

from tests.services.builders import ORGANIZER, play_round
from tests.web.conftest import LiveServer, add_account, log_in, sign_in
from turnir.domain.model import Settings
from turnir.services.accounts import AccountRole
from turnir.services.players import drop_player, list_players, register_player
from turnir.services.rounds import start_round
from turnir.services.tournaments import create_tournament
from turnir.storage.database import Database

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
RU = {"accept-language": "ru"}


def tournament(db: Database) -> int:
    add_account(db, "org", AccountRole.ORGANIZER)
    return create_tournament(db, name="Кубок регистрации", actor=ORGANIZER, seed=5,
                             settings=Settings(swiss_rounds=3, top_size=0),
                             organizer_login="org").id


def names_listed(page: Page) -> list[str]:
    return page.locator("#player-list table.players tbody tr td:nth-child(2)").all_inner_texts()


def fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= \
        page.evaluate("window.innerWidth")


def test_registration_in_the_browser(live_server: LiveServer, browser: Any,
                                     tmp_path: Path) -> None:
    tid = tournament(live_server.db)
    context = browser.new_context(locale="ru-RU", viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("dialog", lambda dialog: dialog.accept())
    sign_in(page, live_server, "org")
    page.goto(f"{live_server.url}/t/{tid}/manage")
    # a players file with surname and given name columns, then one player by hand
    csv = tmp_path / "players.csv"
    csv.write_text("Фамилия;Имя;Город\nКовалёв;Иван;Тверь\nВолкова;Ольга;Тверь\n"
                   "Андреев;Пётр;Москва\n", encoding="utf-8")
    page.set_input_files("#players input[name=file]", str(csv))
    page.click("#import-csv")
    expect(page.locator("#player-list tbody tr")).to_have_count(3)
    page.fill("#register input[name=surname]", "Котова")
    page.fill("#register input[name=given_name]", "Анна")
    page.click("#add-player")
    expect(page.locator("#player-list tbody tr")).to_have_count(4)
    assert names_listed(page) == ["Пётр Андреев", "Ольга Волкова", "Иван Ковалёв",
                                  "Анна Котова"]  # by surname
    # search: ё as е, any word order; the list alone is fetched again (HTMX)
    page.fill("#player-search input[name=q]", "ковалев")
    expect(page.locator("#player-list tbody tr")).to_have_count(1)
    expect(page.locator("#player-list tbody tr")).to_contain_text("Иван Ковалёв")
    page.fill("#player-search input[name=q]", "Анна Котова")
    expect(page.locator("#player-list tbody tr")).to_contain_text("Анна Котова")
    page.fill("#player-search input[name=q]", "")
    expect(page.locator("#player-list tbody tr")).to_have_count(4)
    # one checks in by hand, "check in all" does the three others and says how many
    page.locator("#p2 button", has_text="отметить").click()
    expect(page.locator("#p2 button", has_text="на месте")).to_be_visible()
    expect(page.locator("#check-in-all")).to_contain_text("(3)")
    expect(page.locator("#rounds #unchecked")).to_be_visible()  # the wizard names the three
    page.click("#check-in-all")
    expect(page.locator("#messages")).to_contain_text("Отмечено игроков: 3.")
    expect(page.locator("#rounds #unchecked")).to_have_count(0)  # ... and is refreshed too
    expect(page.locator("#player-list button", has_text="на месте")).to_have_count(4)
    expect(page.locator("#check-in-all")).to_have_count(0)  # no one left to check in
    page.select_option("#player-search select[name=show]", "not_checked_in")
    expect(page.locator("#player-list tbody")).to_contain_text("Никого не нашлось.")
    page.select_option("#player-search select[name=show]", "all")
    expect(page.locator("#player-list tbody tr")).to_have_count(4)
    # drop, then reinstate before round 1 is paired
    page.locator("#p3 button", has_text="исключить").click()
    expect(page.locator("#p3.dropped button", has_text="вернуть")).to_be_visible()
    page.select_option("#player-search select[name=show]", "dropped")
    expect(page.locator("#player-list tbody tr")).to_have_count(1)
    page.locator("#p3 button", has_text="вернуть").click()
    page.wait_for_url(re.compile(r"show=dropped"))  # the page again, with its filter
    expect(page.locator("#player-list tbody")).to_contain_text("Никого не нашлось.")
    assert all(p.dropped_after is None for p in list_players(live_server.db, tid))
    fits(page)
    # round 1: pairings by name in surname order
    start_round(live_server.db, tid, actor=ORGANIZER)
    page.goto(f"{live_server.url}/t/{tid}/pairings?by=name")
    players = page.locator("table.byname tbody td.a").all_inner_texts()
    assert [p.split(" #")[0] for p in players] == ["Пётр Андреев", "Ольга Волкова",
                                                   "Иван Ковалёв", "Анна Котова"]
    # the phone: the manage page fits, the search works
    phone = browser.new_context(locale="ru-RU", viewport={"width": 390, "height": 844},
                                storage_state=context.storage_state())
    small = phone.new_page()
    small.set_default_timeout(15_000)
    small.goto(f"{live_server.url}/t/{tid}/manage")
    fits(small)
    small.fill("#player-search input[name=q]", "волкова ольга")
    expect(small.locator("#player-list tbody tr")).to_have_count(1)
    fits(small)
    phone.close()
    context.close()


def test_search_filter_and_check_in_all_without_js(web_db: Database,
                                                   client: TestClient) -> None:
    """The same list with plain forms: GET ?q=&show= on the manage page, a 303 after "check
    in all"."""
    tid = tournament(web_db)
    for surname, given in (("Ковалёв", "Иван"), ("Волкова", "Ольга"), ("Андреев", "Пётр")):
        register_player(web_db, tid, surname=surname, given_name=given, actor=ORGANIZER)
    org = log_in(client, "org")
    page = org.get(f"/t/{tid}/manage", params={"q": "Иван ковалев"}, headers=RU).text
    listed = re.findall(r'<tr id="p(\d+)"', page)
    assert listed == ["1"]
    assert "Найдено: 1 из 3" in page
    page = org.get(f"/t/{tid}/manage", headers=RU).text
    assert re.findall(r'<tr id="p(\d+)"', page) == ["3", "2", "1"]  # Андреев, Волкова, Ковалёв
    assert "Отметить всех (3)" in page
    csrf = CSRF.search(page)
    assert csrf
    answer = org.post(f"/t/{tid}/players/checkin-all", data={"csrf_token": csrf.group(1)},
                      follow_redirects=False)
    assert answer.status_code == 303
    assert all(p.checked_in for p in list_players(web_db, tid))
    page = org.get(f"/t/{tid}/manage", params={"show": "not_checked_in"}, headers=RU).text
    assert "Никого не нашлось." in page
    assert org.get(f"/t/{tid}/players/list", params={"show": "nobody"}).status_code == 422


def test_reinstate_is_refused_once_the_next_round_is_paired(web_db: Database,
                                                            client: TestClient) -> None:
    tid = tournament(web_db)
    for i in range(1, 7):
        register_player(web_db, tid, name=f"Игрок Номер{i}", actor=ORGANIZER)
    play_round(web_db, tid)
    drop_player(web_db, tid, 2, actor=ORGANIZER)
    org = log_in(client, "org")
    page = org.get(f"/t/{tid}/manage", headers=RU).text
    assert f'action="/t/{tid}/players/2/reinstate"' in page  # before round 2: offered
    play_round(web_db, tid)  # round 2 paired (and played) without #2
    page = org.get(f"/t/{tid}/manage", headers=RU).text
    assert f'action="/t/{tid}/players/2/reinstate"' not in page  # round 2 paired: gone
    csrf = CSRF.search(page)
    assert csrf
    refused = org.post(f"/t/{tid}/players/2/reinstate", data={"csrf_token": csrf.group(1)},
                       headers={**RU, "HX-Request": "true"})
    assert refused.status_code == 409
    assert "тур 2 уже составлен" in refused.text
    assert next(p for p in list_players(web_db, tid) if p.number == 2).dropped_after == 1

"""A player enters an online tournament from its page (issue 13, ``web.self_entry_pages``): the
«Записаться на турнир» button shows only to a player's account on an online tournament in
registration; pressing it enters the player once (CSRF and the one-time form token), and the
page then says «Вы записаны» with the deck and the player's page; C-2's refusal is a Russian
message on the page; the API does the same for a player's token; the page fits 390 px."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient
from playwright.sync_api import expect

from tests.services.builders import ORGANIZER
from tests.services.test_game_age import AT, a_format, starter_event
from tests.web.conftest import PASSWORD, Clients, LiveServer, add_account, sign_in
from tests.web.pages_check import assert_accessible, assert_fits, assert_tap_targets
from tests.web.test_browser import PHONE, new_page
from turnir.domain.accounts import AccountRole
from turnir.services.accounts import find_account
from turnir.services.deck_formats import set_tournament_format
from turnir.services.game_age import set_own_game_age
from turnir.services.players import list_players
from turnir.services.tournaments import create_tournament
from turnir.storage.database import Database
from turnir.storage.repositories import person_for

RU = {"accept-language": "ru"}
BUTTON = "Записаться на турнир"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
TOKEN = re.compile(r'id="self-entry-form">\s*<input type="hidden" name="csrf_token" '
                   r'value="[^"]+">\s*<input type="hidden" name="form_token" value="([^"]+)"')
DESKTOP = {"width": 1366, "height": 900}


def online_event(db: Database, *, starter: bool = False, name: str = "Онлайн-кубок") -> int:
    info = create_tournament(db, name=name, actor=ORGANIZER)
    set_tournament_format(db, info.id, actor=ORGANIZER, account_id=None, online=True,
                          format_id=a_format(db, starter=starter,
                                             name="Стартовый" if starter else "Открытый"))
    return info.id


def player_account(db: Database, login: str, name: str, age: int | None) -> int:
    """A player's account (the tests' password) of a new person, its age in game years set;
    the person's id."""
    with db.write() as conn:
        person = person_for(conn, name=name, city="", club="", at=AT)
    add_account(db, login, AccountRole.PLAYER, person_id=person)
    account = find_account(db, login)
    assert account is not None
    if age is not None:
        set_own_game_age(db, account.id, age, actor=name)
    return person


def form_of(client: TestClient, tid: int) -> dict[str, str]:
    page = client.get(f"/t/{tid}", headers=RU).text
    csrf, token = CSRF.search(page), TOKEN.search(page)
    assert csrf and token, "no self-entry form"
    return {"csrf_token": csrf.group(1), "form_token": token.group(1)}


def test_the_button_shows_only_to_a_player_on_an_online_tournament_in_registration(
        clients: Clients, web_db: Database) -> None:
    online = online_event(web_db)
    tabletop = starter_event(web_db, online=False)
    player_account(web_db, "ivan", "Иван Игроков", 12)
    add_account(web_db, "judge", AccountRole.FLOOR_JUDGE)
    add_account(web_db, "org", AccountRole.ORGANIZER)
    player = clients.as_("ivan")
    assert BUTTON in player.get(f"/t/{online}", headers=RU).text
    assert BUTTON not in player.get(f"/t/{tabletop}", headers=RU).text
    for who in (None, "judge", "org"):
        assert BUTTON not in clients.as_(who).get(f"/t/{online}", headers=RU).text, who


def test_pressing_it_enters_the_player_once_and_the_page_says_so(
        clients: Clients, web_db: Database) -> None:
    tid = online_event(web_db)
    person = player_account(web_db, "ivan", "Иван Игроков", None)
    player = clients.as_("ivan")
    form = form_of(player, tid)
    first = player.post(f"/t/{tid}/entry", data=form, follow_redirects=False)
    assert first.status_code == 303 and first.headers["location"] == f"/t/{tid}#my-entry"
    again = player.post(f"/t/{tid}/entry", data=form, follow_redirects=False)  # a double tap
    assert again.status_code == 303
    assert [p.person_id for p in list_players(web_db, tid)] == [person]
    page = player.get(f"/t/{tid}", headers=RU).text
    assert "Вы записаны" in page and BUTTON not in page
    for link in (f'href="/t/{tid}/deck"', f'href="/t/{tid}/me"', f'href="/t/{tid}/me/leave"'):
        assert link in page
    assert player.get(f"/t/{tid}/me", headers=RU).status_code == 200
    assert player.get(f"/t/{tid}/deck", headers=RU).status_code == 200


def test_without_the_csrf_token_nothing_is_entered(clients: Clients, web_db: Database) -> None:
    tid = online_event(web_db)
    player_account(web_db, "ivan", "Иван Игроков", None)
    player = clients.as_("ivan")
    form = form_of(player, tid)
    answer = player.post(f"/t/{tid}/entry", data={"form_token": form["form_token"]},
                         follow_redirects=False)
    assert answer.status_code == 403
    assert list_players(web_db, tid) == []


def test_c2_the_refusal_of_an_adult_character_is_a_russian_message_on_the_page(
        clients: Clients, web_db: Database) -> None:
    tid = online_event(web_db, starter=True)
    player_account(web_db, "adult", "Взрослый Игроков", 18)
    player = clients.as_("adult")
    page = player.get(f"/t/{tid}", headers=RU).text
    assert "младше 18 игровых лет" in page and "18" in page  # said before the tap
    plain = player.post(f"/t/{tid}/entry", data=form_of(player, tid), headers=RU)
    assert plain.status_code == 422
    assert "младше 18 игровых лет" in plain.text and "возраст персонажа — 18" in plain.text
    htmx = player.post(f"/t/{tid}/entry", data=form_of(player, tid),
                       headers={**RU, "hx-request": "true", "hx-target": "entry-msg"})
    assert htmx.status_code == 422 and htmx.headers["hx-retarget"] == "#entry-msg"
    assert "младше 18 игровых лет" in htmx.text
    assert list_players(web_db, tid) == []


def test_a_tournament_that_is_not_online_refuses_in_russian(clients: Clients,
                                                            web_db: Database) -> None:
    tid = starter_event(web_db, online=False)
    player_account(web_db, "ivan", "Иван Игроков", 12)
    player = clients.as_("ivan")
    csrf = CSRF.search(player.get(f"/t/{tid}").text)
    assert csrf
    answer = player.post(f"/t/{tid}/entry", data={"csrf_token": csrf.group(1)}, headers=RU)
    assert answer.status_code == 403 and "только на онлайн-турниры" in answer.text


def test_the_api_enters_a_player_by_token(clients: Clients, web_db: Database) -> None:
    tid = online_event(web_db)
    person = player_account(web_db, "ivan", "Иван Игроков", None)
    api = clients.new()
    token = api.post("/api/v1/session", json={"login": "ivan", "password": PASSWORD}).json()
    auth = {"authorization": f"Bearer {token['token']}", **RU}
    made = api.post(f"/api/v1/tournaments/{tid}/entries/me", headers=auth)
    assert made.status_code == 201 and made.json()["person_id"] == person
    twice = api.post(f"/api/v1/tournaments/{tid}/entries/me", headers=auth)
    assert twice.status_code == 409 and twice.json()["code"] == "already_entered"
    assert "уже записаны" in twice.json()["message"]


def _look(page: Any, what: str) -> None:
    assert_fits(page, what)
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_a_player_enters_from_the_phone_and_the_page_fits(live_server: LiveServer,
                                                           browser: Any) -> None:
    db = live_server.db
    tid = online_event(db, starter=True, name="Стартовый онлайн 9:15")
    player_account(db, "ivan", "Иван Игроков", 12)
    for viewport in (DESKTOP, PHONE):
        page = new_page(browser, viewport=viewport)
        sign_in(page, live_server, "ivan")
        page.goto(f"{live_server.url}/t/{tid}")
        _look(page, f"before, {viewport['width']}")
        if viewport is PHONE:
            assert_tap_targets(page, "the self-entry", "#my-entry")
            page.get_by_role("button", name=BUTTON).click()
            expect(page.locator("#my-entry h2")).to_contain_text("Вы записаны")
            _look(page, "entered, 390")
            assert_tap_targets(page, "the entry's links", "#my-entry")
            assert_accessible(page, "the tournament page after the entry")
        page.context.close()
    assert [p.name for p in list_players(db, tid)] == ["Иван Игроков"]


def test_a_player_who_entered_leaves_by_the_existing_path_and_the_page_says_so(
        clients: Clients, web_db: Database) -> None:
    tid = online_event(web_db)
    player_account(web_db, "ivan", "Иван Игроков", None)
    player = clients.as_("ivan")
    player.post(f"/t/{tid}/entry", data=form_of(player, tid), follow_redirects=False)
    csrf = CSRF.search(player.get(f"/t/{tid}/me/leave").text)
    assert csrf
    left = player.post(f"/t/{tid}/me/leave", data={"csrf_token": csrf.group(1),
                                                   "confirm": "yes"}, follow_redirects=False)
    assert left.status_code == 303
    [entry] = list_players(web_db, tid)
    assert entry.dropped_after is not None
    page = player.get(f"/t/{tid}", headers=RU).text
    assert "Вы вышли из этого турнира" in page and BUTTON not in page

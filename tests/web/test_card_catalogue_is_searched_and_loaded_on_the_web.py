"""The card catalogue on the web (issue 13): anyone finds cards (the page, the HTMX partial the
deck builder uses, the JSON API); a site organizer loads a file, and a bad file's problems are
listed on the page in Russian by row and column; players, judges and the anonymous are refused;
the page fits a phone."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.services.builders import ORGANIZER, event
from tests.web.conftest import Clients, add_account, csrf_of
from tests.web.pages_check import assert_accessible, assert_fits, assert_tap_targets
from turnir.domain.accounts import AccountRole
from turnir.formats.players_csv import PlayerLine
from turnir.services.cards import card_catalogue, load_sample_cards
from turnir.services.players import list_players, register_players
from turnir.storage.database import Database

TOKEN = re.compile(r'name="form_token" value="([^"]+)"')
GOOD = ("название;выпуск;стоимость;кристалл;особенности\n"
        "Новая карта;Выпуск 3;4;золото;Орда\n").encode("cp1251")
BAD = ("название;выпуск;стоимость;кристалл\n"
       "Карта;Выпуск;дорого;серебро\n"
       ";Выпуск;1;платина\n").encode()


@pytest.fixture
def sample(web_db: Database) -> Database:
    load_sample_cards(web_db, actor="test")
    add_account(web_db, "org", AccountRole.ORGANIZER)
    add_account(web_db, "head", AccountRole.HEAD_JUDGE)
    add_account(web_db, "floor", AccountRole.FLOOR_JUDGE)
    return web_db


def _upload(client: TestClient, data: bytes, *, replace: bool = False,
            htmx: bool = False) -> Any:
    page = client.get("/cards").text
    token = TOKEN.search(page)
    form = {"csrf_token": csrf_of(client, "/login"), "form_token": token.group(1) if token
            else ""}
    if replace:
        form["replace"] = "1"
    headers = {"hx-request": "true", "hx-target": "cards-import-msg"} if htmx else {}
    return client.post("/cards/import", data=form, files={"file": ("cards.csv", data,
                                                                   "text/csv")},
                       headers=headers, follow_redirects=False)


def test_anyone_finds_cards_on_the_page_and_by_the_partial(sample: Database,
                                                           clients: Clients) -> None:
    anonymous = clients.new()
    page = anonymous.get("/cards?q=горныи+козел")
    assert page.status_code == 200
    assert "Горный козёл" in page.text and "Образец: Начало" in page.text
    assert 'action="/cards/import"' not in page.text  # no upload form for the anonymous
    part = anonymous.get("/cards/search", params={"q": "Tёмный", "limit": 5})
    assert part.status_code == 200 and "<html" not in part.text
    assert 'data-card="Тёмный рыцарь"' in part.text and "<button" in part.text
    table = anonymous.get("/cards/search", params={"q": "гоблин", "view": "table"})
    assert "Болотный гоблин" in table.text and "<table" in table.text
    assert "Первые 50 карт по алфавиту" in anonymous.get("/cards").text
    assert anonymous.get("/cards/search", params={"q": "x" * 201}).status_code == 422
    assert anonymous.get("/cards/search", params={"limit": 101}).status_code == 422


def test_the_api_searches_with_bounded_parameters(sample: Database, client: TestClient) -> None:
    answer = client.get("/api/v1/cards", params={"q": "dark knight"})
    assert answer.status_code == 200
    found = answer.json()["cards"]
    assert found[0]["name"] == "Тёмный рыцарь" and found[0]["crystal"] == "gold"
    assert {"cost", "element", "features", "horde", "unique", "aliases"} <= set(found[0])
    assert len(client.get("/api/v1/cards", params={"q": "о", "limit": 3}).json()["cards"]) == 3
    assert client.get("/api/v1/cards", params={"limit": 0}).status_code == 422
    assert client.get("/api/v1/cards", params={"q": "я" * 201}).status_code == 422


def test_an_organizer_loads_a_file_and_a_bad_one_is_listed_by_row(sample: Database,
                                                                  clients: Clients) -> None:
    organizer = clients.as_("org")
    assert 'action="/cards/import"' in organizer.get("/cards").text
    answer = _upload(organizer, BAD)
    assert answer.status_code == 422
    assert "строка 2, столбец «стоимость»: стоимость — целое число от 0 до 99" in answer.text
    assert "строка 3, столбец «название»: значение не указано" in answer.text
    assert "строка 3, столбец «кристалл»" in answer.text
    htmx = _upload(organizer, BAD, htmx=True)
    assert htmx.status_code == 422 and htmx.headers["hx-retarget"] == "#cards-import-msg"
    assert "<ol" in htmx.text and "строка 2" in htmx.text
    assert card_catalogue(sample).find("Карта") is None  # nothing stored
    done = _upload(organizer, GOOD, replace=True)
    assert done.status_code == 303
    shown = organizer.get(done.headers["location"]).text
    assert "Загружено: новых 1, обновлено 0; в каталоге карт: 1." in shown
    assert [c.name for c in card_catalogue(sample).cards] == ["Новая карта"]


def test_players_judges_and_the_anonymous_may_not_load(sample: Database,
                                                       clients: Clients) -> None:
    before = len(card_catalogue(sample))
    anonymous = clients.new()
    assert _upload(anonymous, GOOD).status_code == 401  # the anonymous: log in first
    tid = event(sample, 0, rounds=3, top=0, name="Кубок")
    register_players(sample, tid, [PlayerLine("Игрок Один", "Москва")], actor=ORGANIZER)
    add_account(sample, "player", AccountRole.PLAYER,
                person_id=list_players(sample, tid)[0].person_id)
    for login in ("player", "head", "floor"):
        someone = clients.as_(login)
        assert 'action="/cards/import"' not in someone.get("/cards").text
        assert _upload(someone, GOOD).status_code == 403
    assert len(card_catalogue(sample)) == before


def test_the_page_fits_a_phone_and_a_desktop(sample: Database, live_server: Any,
                                             browser: Any) -> None:
    """Searching as you type (HTMX); no horizontal scroll at 1366 nor at 390 px, no serious
    axe finding, 44 px tap targets on the phone."""
    page = browser.new_page(viewport={"width": 1366, "height": 900}, locale="ru-RU")
    try:
        page.goto(f"{live_server.url}/cards")
        page.fill("#cards-q", "гоблин")
        page.wait_for_selector("#cards-found tbody tr:nth-child(12)", state="detached")
        assert "Гоблин-шаман" in page.inner_text("#cards-found")
        assert_fits(page)
        page.set_viewport_size({"width": 390, "height": 844})
        assert_fits(page)
        assert_accessible(page)
        assert_tap_targets(page)
    finally:
        page.close()


def test_the_upload_form_and_its_problems_come_before_the_catalogue(
        sample: Database, clients: Clients) -> None:
    organizer = clients.as_("org")
    page = organizer.get("/cards").text
    assert page.index('id="import"') < page.index('id="cards-search"') \
        < page.index('id="cards-found"')  # seen without scrolling past 50 cards
    answer = _upload(organizer, BAD).text  # the page again, with the problems
    assert answer.index('id="cards-import-msg"') < answer.index("<table")
    assert "строка 2" in answer[:answer.index("<table")]


def test_the_values_of_a_bad_file_are_quoted_in_russian(sample: Database,
                                                        clients: Clients) -> None:
    organizer = clients.as_("org")
    answer = _problems(_upload(organizer, BAD).text)
    assert "стоимость — целое число от 0 до 99, а не «дорого»" in answer
    assert "кристалл — золото или серебро, а не «платина»" in answer
    assert "&#39;" not in answer  # no straight quotes
    twice = _upload(organizer, "название;выпуск;название\nКарта;Выпуск;Карта\n".encode(),
                    htmx=True)  # a whole-file problem: in the form's message box
    assert twice.status_code == 422 and "<html" not in twice.text
    assert "столбец «название» указан дважды" in twice.text
    no_name = _upload(organizer, "выпуск;стоимость\nВыпуск;1\n".encode(), htmx=True).text
    assert "нужен столбец «" in no_name and "&#39;" not in no_name


def _problems(page: str) -> str:
    """The upload's message box of the catalogue page."""
    start = page.index('id="cards-import-msg"')
    return page[start:page.index("</section>", start)]

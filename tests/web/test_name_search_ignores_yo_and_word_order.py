"""Issue 12, item 13: every search by name treats е and ё as one letter and ignores the order
of the words ("ковалев" and "Ковалёв Иван" find "Иван Ковалёв"): the tournament's "find my
table" page, the rating list's search, and the look-ups of a player or a person by name. The
normalisation is one function (``turnir.domain.text.search_key``); the rating search runs in
SQL, so it is checked on SQLite and PostgreSQL as well as in the browser."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import expect

from tests.services.builders import ORGANIZER
from tests.web.conftest import LiveServer
from turnir.domain.model import Settings
from turnir.domain.text import name_key, name_matches, search_key, search_words
from turnir.formats.players_csv import PlayerLine
from turnir.formats.rating_list import RatingListLine
from turnir.services.players import register_players
from turnir.services.rating_lists import import_rating_list
from turnir.services.rating_queries import find_person, leaderboard
from turnir.services.rounds import start_round
from turnir.services.tournaments import create_tournament
from turnir.storage.database import Database
from turnir.storage.repositories import entry_by_ref

PEOPLE = ["Иван Ковалёв", "Пётр Семёнов", "Анна Котова", "Ёлка Щукина"]
QUERIES = [  # what people type, and whom it must find
    ("ковалев", ["Иван Ковалёв"]),
    ("КОВАЛЁВ", ["Иван Ковалёв"]),
    ("Ковалёв Иван", ["Иван Ковалёв"]),
    ("ковалев  иван", ["Иван Ковалёв"]),
    ("Семенов Петр", ["Пётр Семёнов"]),
    ("петр", ["Пётр Семёнов"]),
    ("елка", ["Ёлка Щукина"]),
    ("Котова Анна", ["Анна Котова"]),
    ("Ковалёв Анна", []),
]


def test_item13_one_search_normalisation() -> None:
    assert search_key("  Пётр   СЕМЁНОВ ") == "петр семенов"
    assert search_key("ЁЛКА") == search_key("елка") == "елка"
    assert search_key("Е\u0308лка") == "елка"  # ё written as е + combining diaeresis
    assert search_key("Ива\u200bн") == "иван"  # invisible characters go
    assert search_words("Ковалёв  иван ковалев") == ("ковалев", "иван")
    assert search_words("   ") == ()
    assert name_key("Ковалёв") != name_key("Ковалев")  # duplicates still tell them apart
    for query, names in QUERIES:
        assert [n for n in PEOPLE if name_matches(query, n)] == names, query
    assert name_matches("ков ива", "Иван Ковалёв")  # parts of words, any order
    assert not name_matches("", "Иван Ковалёв")


def rated(db: Database) -> None:
    import_rating_list(db, [RatingListLine(name, "Тверь", "", Decimal(200 - i), None)
                            for i, name in enumerate(PEOPLE)], actor=ORGANIZER)


def test_item13_rating_search_and_person_lookup(db: Database) -> None:
    """On SQLite and PostgreSQL: the rating list's search and ``find_person``."""
    rated(db)
    for query, names in QUERIES:
        board = leaderboard(db, search=query)
        assert [line.person.name for line in board.lines] == names, query
        assert board.total == len(names)
    assert find_person(db, "Ковалев Иван").name == "Иван Ковалёв"
    assert find_person(db, "семенов").name == "Пётр Семёнов"
    assert leaderboard(db, search="100%").total == 0  # LIKE's wildcards are plain letters


def paired(db: Database) -> int:
    info = create_tournament(db, name="Кубок Ёлки", actor=ORGANIZER, seed=3,
                             settings=Settings(swiss_rounds=3, top_size=0, best_of=3))
    register_players(db, info.id, [PlayerLine(name, "Тверь") for name in PEOPLE],
                     actor=ORGANIZER)
    start_round(db, info.id, actor=ORGANIZER)
    return info.id


def test_item13_entry_by_name_in_a_tournament(db: Database) -> None:
    tid = paired(db)
    with db.engine.connect() as conn:
        assert entry_by_ref(conn, tid, "Ковалев Иван")["name"] == "Иван Ковалёв"
        assert entry_by_ref(conn, tid, "семенов")["name"] == "Пётр Семёнов"


def found_names(html: str) -> list[str]:
    return re.findall(r'<p class="big">([^:<]+):', html)


@pytest.mark.parametrize(("query", "names"), QUERIES[:5])
def test_item13_find_page_without_browser(web_db: Database, client: TestClient, query: str,
                                          names: list[str]) -> None:
    tid = paired(web_db)
    page = client.get(f"/t/{tid}/find", params={"name": query})
    assert found_names(page.text) == names


def test_item13_browser_find_my_table_and_rating_search(live_server: LiveServer,
                                                        browser: Any) -> None:
    tid = paired(live_server.db)
    rated(live_server.db)
    context = browser.new_context(locale="ru-RU", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/t/{tid}/find")
    for query, name in [("ковалев", "Иван Ковалёв"), ("Семенов Петр", "Пётр Семёнов")]:
        page.fill("input[name=name]", query)
        page.click("form.card button[type=submit]")
        found = page.locator(".card.found")
        expect(found).to_have_count(1)
        expect(found.locator("p.big")).to_contain_text(name)
        expect(found.locator("b.table-no")).to_be_visible()
    page.goto(f"{live_server.url}/ratings")
    for query, name in [("Ковалёв Иван", "Иван Ковалёв"), ("елка", "Ёлка Щукина")]:
        page.fill("#rating-filters input[name=q]", query)
        page.click("#rating-filters button[type=submit]")
        links = page.locator("a[href^='/ratings/players/']")
        expect(links).to_have_count(1)
        expect(links).to_have_text(name)
    context.close()

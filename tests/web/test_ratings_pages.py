"""The rating pages (issue 6): the leaderboard with both ratings, search, city and club
filters and paging; a player's profile with the history chart as inline SVG (no JavaScript
needed) and the rated tournaments; a tournament's rating report with the 70/30 prize split;
the links from the site navigation and the tournament's tabs; Russian and English. Ends with
the browser test: after two submitted tournaments the profile shows the chart and history."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from decimal import Decimal
from typing import Any

from fastapi.testclient import TestClient
from playwright.sync_api import expect

from tests.services.rating_builders import HEAD, ORGANIZER, finished_event
from tests.web.conftest import LiveServer
from turnir.formats.rating_list import RatingListLine
from turnir.services.rating_lists import import_rating_list
from turnir.services.rating_queries import find_person
from turnir.services.rating_terms import set_rating_terms
from turnir.services.ratings import submit_tournament
from turnir.storage.database import Database

SVG = "{http://www.w3.org/2000/svg}"
NAMES = ["Анна", "Борис", "Вера", "Глеб"]


def two_submitted(db: Database) -> tuple[int, int]:
    """Two finished 4-player tournaments submitted by the head judge; Анна wins the first
    and comes last in the second; the first has a prize fund of 1000."""
    first = finished_event(db, NAMES, name="Осенний кубок")
    second = finished_event(db, list(reversed(NAMES)), name="Зимний кубок")
    set_rating_terms(db, first, actor=ORGANIZER, prize_fund="1000")
    submit_tournament(db, first, actor=HEAD)
    submit_tournament(db, second, actor=HEAD)
    return first, second


def chart_of(html: str) -> ET.Element:
    found = re.search(r"<svg .*?</svg>", html, re.S)
    assert found, "no inline SVG"
    return ET.fromstring(found.group(0))


def test_profile_shows_the_chart_and_history_without_javascript(
        web_db: Database, client: TestClient) -> None:
    first, second = two_submitted(web_db)
    anna = find_person(web_db, "Анна").id
    page = client.get(f"/ratings/players/{anna}", headers={"accept-language": "ru"})
    assert page.status_code == 200
    html = page.text
    svg = chart_of(html)
    points = svg.findall(f".//{SVG}g[@class='series professional']/{SVG}circle")
    assert len(points) == 3  # the start and the two tournaments
    assert "История рейтинга" in html and "Рейтинговые турниры" in html
    rows = re.findall(r'<tr><td><a href="/t/(\d+)/rating">', html)
    assert rows == [str(second), str(first)]  # latest first
    assert "1 из 4" in html and "4 из 4" in html
    english = client.get(f"/ratings/players/{anna}", headers={"accept-language": "en"}).text
    assert "Rating history" in english and "1 of 4" in english
    assert client.get("/ratings/players/999999").status_code == 404


def test_leaderboard_both_ratings_search_filters_and_paging(
        web_db: Database, client: TestClient) -> None:
    import_rating_list(web_db, [
        RatingListLine(f"Игрок {i:02}", "Тверь" if i % 2 else "Москва", "Ладья" if i < 5 else "",
                       Decimal(100 + i), Decimal(100 + i) if i < 10 else None)
        for i in range(60)], actor=ORGANIZER)
    ru = client.get("/ratings", headers={"accept-language": "ru"})
    assert ru.status_code == 200 and "Рейтинг-лист" in ru.text
    assert ru.text.index("Игрок 59") < ru.text.index("Игрок 58")  # strongest first
    assert "Игрок 09" not in ru.text  # rank 51 and lower: page 2
    assert 'href="/ratings?by=professional&amp;q=&amp;city=&amp;club=&amp;page=2"' in ru.text
    page2 = client.get("/ratings?page=2").text
    assert "Игрок 09" in page2 and "Игрок 59" not in page2
    warlock = client.get("/ratings?by=warlock").text
    assert warlock.count('href="/ratings/players/') == 10
    found = client.get("/ratings", params={"q": "игрок 0", "city": "Тверь"}).text
    assert re.findall(r">(Игрок \d+)</a>", found) == ["Игрок 09", "Игрок 07", "Игрок 05",
                                                      "Игрок 03", "Игрок 01"]
    club = client.get("/ratings", params={"club": "Ладья"}).text
    assert len(re.findall(r">(Игрок \d+)</a>", club)) == 5
    assert '<option selected>Ладья</option>' in club
    assert "Rating list" in client.get("/ratings", headers={"accept-language": "en"}).text
    assert client.get("/ratings?by=nobody").status_code == 422


def test_tournament_rating_report_and_links(web_db: Database, client: TestClient) -> None:
    first, _ = two_submitted(web_db)
    report = client.get(f"/t/{first}/rating", headers={"accept-language": "en"})
    assert report.status_code == 200
    html = report.text
    assert "Rating report" in html and "Осенний кубок" in html
    assert re.search(r'id="prize-split">Prize fund 1,000: the winner gets 700 \(70%\), '
                     r'the second 300 \(30%\)', html)
    assert re.findall(r'href="/ratings/players/\d+">(\w+)</a>', html) == NAMES
    assert "prize 700" in html and "prize 300" in html
    ru = client.get(f"/t/{first}/rating", headers={"accept-language": "ru"}).text
    assert "Рейтинговый отчёт" in ru and "Призовой фонд" in ru
    overview = client.get(f"/t/{first}").text
    assert f'href="/t/{first}/rating"' in overview and 'href="/ratings"' in overview
    assert 'href="/ratings"' in client.get("/").text


def test_an_unfinished_tournament_has_no_report_yet(web_db: Database,
                                                    client: TestClient) -> None:
    tid = finished_event(web_db, NAMES, finish=False)
    answer = client.get(f"/t/{tid}/rating")
    assert answer.status_code == 200  # issue 12 item 2: a message, no longer a 409
    assert 'id="rating-problem"' in answer.text
    assert "Traceback" not in answer.text


def test_browser_profile_shows_chart_and_history(live_server: LiveServer, browser: Any) -> None:
    first, second = two_submitted(live_server.db)
    context = browser.new_context(locale="ru-RU", java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/ratings")
    page.click("text=Анна")
    expect(page.locator("h1")).to_have_text("Анна")
    chart = page.locator("#rating-chart svg")
    expect(chart).to_be_visible()
    expect(chart.locator("g.series.professional circle")).to_have_count(3)
    rows = page.locator("#rating-history tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Зимний кубок")
    expect(rows.nth(1)).to_contain_text("Осенний кубок")
    assert [rows.nth(i).locator("a").get_attribute("href") for i in range(2)] == [
        f"/t/{second}/rating", f"/t/{first}/rating"]
    box = chart.bounding_box()
    assert box is not None and box["width"] > 200 and box["height"] > 100
    context.close()

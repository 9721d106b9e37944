"""Issue 12, the QA walk-through's look defects (QA h11: Medium 5-7, Low 7, 8, 11, 12, 16, 21).

- the rating profile speaks Russian on a phone («Проф.», not «Pro.»), and a first Warlock
  rating shows no change (there was none before);
- exact numbers (K) in the page's locale: «K = 2,5» on a Russian page, «K = 2.5» in English;
- the tournament's tab bar is the same on every page of it (the «ТОП» tab on the rating terms
  page as on the overview), whether the route says so or not;
- an error shown on a page reads as a sentence (a capital first letter, by the stylesheet);
  the API keeps its text;
- on a 390 px phone: the header of a signed-in judge is two rows (not 3-4), and the links in
  lists, tables and link rows (home, overview, projector, rating report, penalties) and the
  check boxes' labels of the rating terms are at least 44 px tall.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from tests.services.rating_builders import HEAD, ORGANIZER, finished_event
from tests.web.conftest import LiveServer, add_account, log_in, shoot, sign_in
from tests.web.pages_check import TAP, assert_fits
from tests.web.test_browser import DESKTOP, PHONE, new_page
from turnir.domain.model import Settings
from turnir.formats.players_csv import PlayerLine
from turnir.services.accounts import AccountRole
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.players import register_players
from turnir.services.rating_queries import find_person
from turnir.services.rating_terms import set_rating_terms
from turnir.services.ratings import submit_tournament
from turnir.services.rounds import start_round
from turnir.services.tournaments import create_tournament
from turnir.storage.database import Database

RU = {"accept-language": "ru"}
EN = {"accept-language": "en"}
NAMES = ["Анна Зуева", "Борис Яшин", "Вера Юдина", "Глеб Щукин"]


def rated(db: Database) -> int:
    """A finished tournament rated with K 2.5 (its players had no Warlock rating before)."""
    tid = finished_event(db, NAMES, name="Осенний кубок")
    set_rating_terms(db, tid, actor=ORGANIZER, professional_k="2.5")
    submit_tournament(db, tid, actor=HEAD)
    return tid


def test_profile_in_russian_first_warlock_without_change_and_k_in_the_locale(
        web_db: Database, client: TestClient) -> None:
    tid = rated(web_db)
    anna = find_person(web_db, "Анна Зуева").id
    html = client.get(f"/ratings/players/{anna}", headers=RU).text
    assert "Pro." not in html and "Проф." in html
    row = re.search(r'<tr><td><a href="/t/\d+/rating">.*?</tr>', html, re.S)
    assert row, html
    assert "(+" not in row.group(0) and "(первый турнир)" in row.group(0)  # no "100,00 (+100,00)"
    assert ">2,5<" in row.group(0)  # K
    report = client.get(f"/t/{tid}/rating", headers=RU).text
    assert "K = 2,5" in report and "K = 2.5" not in report
    assert "K = 2.5" in client.get(f"/t/{tid}/rating", headers=EN).text


def test_the_tab_bar_is_the_same_on_every_page_of_a_tournament(
        web_db: Database, client: TestClient) -> None:
    add_account(web_db, "head", AccountRole.HEAD_JUDGE)
    info = create_tournament(web_db, name="С топом", actor=ORGANIZER, seed=3,
                             settings=Settings(swiss_rounds=3, top_size=4, best_of=3))
    add_judge(web_db, info.id, role=JudgeRole.HEAD_JUDGE, login="head", actor=ORGANIZER)
    log_in(client, "head")

    def tabs(path: str) -> list[str]:
        nav = re.search(r'<nav class="tabs noprint".*?</nav>', client.get(path, headers=RU).text,
                        re.S)
        assert nav, path
        return re.findall(r'href="([^"]+)"', nav.group(0))

    overview = tabs(f"/t/{info.id}")
    assert f"/t/{info.id}/top" in overview
    for page in ("rating/terms", "penalties", "catalogue"):
        assert tabs(f"/t/{info.id}/{page}") == overview, page


def test_an_error_keeps_the_catalogue_text_in_the_page_and_the_api(
        web_db: Database, client: TestClient) -> None:
    """The page shows the catalogue's text (the capital is the stylesheet's, see the browser
    test below); the API's message stays as it is."""
    add_account(web_db, "org", AccountRole.ORGANIZER)
    info = create_tournament(web_db, name="Пустой", actor=ORGANIZER, seed=3,
                             organizer_login="org")
    log_in(client, "org")
    page = client.get(f"/t/{info.id}/manage", headers=RU)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert token
    answer = client.post(f"/t/{info.id}/rounds/start", headers=RU,
                         data={"csrf_token": token.group(1)})
    shown = re.search(r'<p class="msg error" role="alert">(.*?)</p>', answer.text, re.S)
    assert answer.status_code >= 400 and shown, answer.text[:2000]
    assert shown.group(1).startswith("для тура 1"), shown.group(1)
    api = client.get("/api/v1/tournaments/999999", headers=RU).json()
    assert api["message"][:1].islower(), api


# ----- the browser: phone sizes ---------------------------------------------------------------

_HEIGHTS = """(selector) => [...document.querySelectorAll(selector)]
  .filter(el => el.getBoundingClientRect().height > 0)
  .map(el => [(el.innerText || '').trim().slice(0, 30),
              Math.round(el.getBoundingClientRect().height)])"""


def small(page: Any, selector: str) -> list[Any]:
    """The visible elements of ``selector`` under 44 px tall."""
    found = page.evaluate(_HEIGHTS, selector)
    assert found, f"nothing matches {selector} on {page.url}"
    return [item for item in found if item[1] + 0.5 < TAP]


def running_with_top(db: Database) -> int:
    info = create_tournament(db, name="Кубок города", actor=ORGANIZER, seed=3,
                             settings=Settings(swiss_rounds=3, top_size=4, best_of=3))
    register_players(db, info.id, [PlayerLine(n, "Тверь") for n in
                                   ("Дина Ли", "Егор Ким", "Жанна Ро", "Зоя Ян")],
                     actor=ORGANIZER)
    add_judge(db, info.id, role=JudgeRole.ORGANIZER, login="org", actor=ORGANIZER)
    start_round(db, info.id, actor=ORGANIZER)
    return info.id


def test_phone_header_two_rows_and_list_links_and_check_boxes_are_44_px(
        live_server: LiveServer, browser: Any, screens: Any) -> None:
    db = live_server.db
    add_account(db, "org", AccountRole.ORGANIZER)
    done = rated(db)
    add_judge(db, done, role=JudgeRole.ORGANIZER, login="org", actor=ORGANIZER)
    tid = running_with_top(db)
    page = new_page(browser, viewport=PHONE)
    sign_in(page, live_server, "org")
    checks = {"/": "table.tournaments td a", f"/t/{tid}": "main p > a[href$='/pairings']",
              f"/t/{tid}/projector": ".proj-exit a", f"/t/{done}/rating": "main a",
              f"/t/{tid}/penalties": "main p a",
              f"/t/{tid}/catalogue": "main table",  # its hidden labels once made it 668 px
              f"/t/{done}/rating/terms": "label:has(> input[type=checkbox])"}
    for path, selector in checks.items():
        page.goto(live_server.url + path)
        assert_fits(page)
        assert not small(page, selector), (path, small(page, selector))
        if "projector" not in path:  # the projector has no header
            header = page.locator("header.bar").bounding_box()
            assert header and header["height"] <= 2 * TAP + 4, (path, header)
        shoot(page, str(screens / f"qa_look{path.replace('/', '_')}_m.png"),
                        full_page=True)
    page.goto(f"{live_server.url}/t/999999")  # «турнира №999999 нет»: shown «Турнира…»
    assert page.evaluate("getComputedStyle(document.querySelector('p.msg'), '::first-letter')"
                         ".textTransform") == "uppercase"
    page.goto(f"{live_server.url}/t/{done}/rating/terms")
    boxes = page.evaluate("[...document.querySelectorAll('input[type=checkbox]')]"
                          ".map(b => b.getBoundingClientRect().height)")
    assert boxes and min(boxes) >= 24, boxes
    desk = new_page(browser, viewport=DESKTOP)
    sign_in(desk, live_server, "org")
    for path in ("/", f"/t/{done}/rating", f"/ratings/players/{find_person(db, NAMES[0]).id}"):
        desk.goto(live_server.url + path)
        assert_fits(desk)
        header = desk.locator("header.bar").bounding_box()
        assert header and header["height"] < TAP + 20  # one row at 1280 px
        assert "организатор" in desk.locator(".bar .who").inner_text()  # the role shown
        shoot(desk, str(screens / f"qa_look{path.replace('/', '_')}_d.png"))

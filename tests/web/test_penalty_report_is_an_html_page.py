"""Issue 12 item 12 in Debian's Chromium: the penalty report is a page of headings, lists and
tables (not Markdown in a monospace box), names in it are text (escaped), the Markdown is a
download; and the judge's pages call penalties one thing, «пенальти», never «наказание»."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.services.builders import ORGANIZER
from tests.services.penalty_builders import FLOOR, HEAD, give, judged_event
from tests.web.conftest import PASSWORD, LiveServer, shoot, sign_in
from tests.web.test_browser import PHONE, new_page
from turnir.formats.players_csv import PlayerLine
from turnir.services.accounts import AccountRole, create_account, make_hasher
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.players import list_players, register_players
from turnir.services.rounds import start_round
from turnir.storage.database import Database

WIDE = {"width": 1366, "height": 900}
TRICKY = "Игрок <i>09</i> | Тест"
"""A name with markup and a Markdown table bar: shown as typed, never as an element."""


def _event(db: Database) -> int:
    tid = judged_event(db, 8, rounds=3)
    register_players(db, tid, [PlayerLine(TRICKY, "Тверь")], actor=ORGANIZER)
    start_round(db, tid, actor=ORGANIZER)
    tricky = next(p.number for p in list_players(db, tid) if p.name == TRICKY)
    give(db, tid, 1, "slow_play", note="думал | долго")
    give(db, tid, 1, "slow_play")
    give(db, tid, tricky, "cheating")
    for login_name, name, role, staff in (
            ("head", HEAD, AccountRole.HEAD_JUDGE, JudgeRole.HEAD_JUDGE),
            ("floor", FLOOR, AccountRole.FLOOR_JUDGE, JudgeRole.FLOOR_JUDGE)):
        create_account(db, login=login_name, name=name, password=PASSWORD, role=role,
                       actor="test", hasher=make_hasher(fast=True))
        add_judge(db, tid, role=staff, login=login_name, actor=ORGANIZER)
    return tid


def _no_punishment_word(page: Page, url: str) -> None:
    page.goto(url)
    text = page.content()
    assert not re.search("наказан", text, re.IGNORECASE), (url, re.findall(
        r".{0,40}наказан.{0,40}", text, re.IGNORECASE))


def test_item12_the_penalty_report_is_html(live_server: LiveServer, browser: Any,
                                            tmp_path: Path) -> None:
    tid = _event(live_server.db)
    base = f"{live_server.url}/t/{tid}/penalties"
    page = new_page(browser, viewport=WIDE)
    sign_in(page, live_server, "head")
    page.goto(f"{base}/report")
    report = page.locator("#report")
    expect(report.locator("h2")).to_have_text("Пенальти: Кубок судей")
    expect(report.locator("h3", has_text="Выданные пенальти")).to_be_visible()
    expect(report.locator("h3", has_text="Дисквалификации")).to_be_visible()
    assert report.locator("li").count() >= 3          # the facts and the disqualification
    given = report.locator("table#report-given")
    expect(given.locator("thead th")).to_have_count(9)
    expect(given.locator("tbody tr")).to_have_count(3)
    expect(given.locator("tbody tr").nth(0).locator("td").nth(1)).to_have_text("#1 Игрок 01")
    expect(report.locator("table#report-counts tbody tr")).to_have_count(2)
    shown = report.inner_text()
    assert "## " not in shown and "| ---" not in shown and "|---" not in shown
    assert "\\|" not in shown                        # the Markdown escape is not on the page
    assert report.locator("pre").count() == 0
    # the name is text, never markup: no <i> element, the bar and the brackets as typed
    assert report.locator("i").count() == 0
    expect(report.locator("#report-dq li")).to_contain_text(TRICKY)
    shoot(page, str(tmp_path / "penalty-report-1366.png"), full_page=True)

    href = page.locator("#report-download").get_attribute("href")
    assert href == f"/t/{tid}/penalties/report?download=md"
    markdown = page.request.get(f"{live_server.url}{href}")
    assert markdown.ok and markdown.headers["content-type"].startswith("text/markdown")
    assert "attachment" in markdown.headers["content-disposition"]
    body = markdown.text()
    assert body.startswith("## Пенальти: Кубок судей") and "### Выданные пенальти" in body
    assert "Игрок <i>09</i> \\| Тест" in body

    phone = new_page(browser, viewport=PHONE)
    sign_in(phone, live_server, "floor")
    phone.goto(f"{base}/report")
    expect(phone.locator("#report table#report-given")).to_be_visible()
    width = phone.evaluate("document.querySelector('#report').getBoundingClientRect().right")
    assert width <= PHONE["width"], width            # the wide table scrolls in its box
    shoot(phone, str(tmp_path / "penalty-report-390.png"), full_page=True)


def test_item12_one_word_for_penalties_on_the_judges_pages(live_server: LiveServer,
                                                            browser: Any) -> None:
    tid = _event(live_server.db)
    person = list_players(live_server.db, tid)[0].person_id
    base = f"{live_server.url}/t/{tid}"
    page = new_page(browser, viewport=PHONE)
    sign_in(page, live_server, "head")
    for url in (base, f"{base}/penalties", f"{base}/penalties/give",
                f"{base}/penalties/give?player=2",
                f"{base}/penalties/give?player=2&reason=slow_play",
                f"{base}/penalties/give?player=2&reason=slow_play&penalty=match_loss",
                f"{base}/penalties/history", f"{base}/penalties/history?person={person}",
                f"{base}/penalties/report"):
        _no_punishment_word(page, url)
    page.goto(f"{base}/penalties")
    expect(page.locator("h1")).to_have_text("Пенальти")
    expect(page.locator("nav.tabs a.on")).to_have_text("Пенальти")

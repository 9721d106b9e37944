"""Issue 12, the projector view in Debian's Chromium: the round's pairings by name for the
venue's wall, alphabetical by surname in Russian order (ё beside е), each player with table and
opponent in big type, the round clock, no page wider than the screen; it scrolls by itself when
longer than the screen (a screenful at a time for reduced motion) and shows the next round once
paired. Public: the anonymous open it from the pairings page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.services.builders import ORGANIZER, play_round
from tests.web.conftest import LiveServer, shoot
from tests.web.test_browser import PHONE, new_page
from turnir.domain.model import Settings
from turnir.formats.players_csv import PlayerLine
from turnir.services.players import register_players
from turnir.services.round_clock import start_timer
from turnir.services.rounds import start_round
from turnir.services.tournaments import create_tournament

DESKTOP = {"width": 1366, "height": 900}
PAUSE_MS, PAGE_TURN_MS = 5_100, 9_100
"""Just past ``static/projector.js``'s pause at the top and its page turn for reduced motion:
the browser's clock is moved on by these (Playwright's ``page.clock``) instead of the test
waiting them out, with the list gliding at 60 frames a second meanwhile."""
NAMES = ["Алёна Ёлкина", "Егор Елизаров", "Жора Жуков", "Яков Яковлев", "Анна Абрамова",
         "Борис Борисов", "Вера Васильева", "Глеб Григорьев", "Дарья Дмитриева",
         "Захар Зайцев", "Ирина Иванова", "Кирилл Котов", "Лада Лебедева", "Марк Морозов",
         "Нина Никитина", "Олег Орлов", "Полина Павлова", "Роман Романов",
         "Софья Семёнова", "Тимур Тихонов", "Александра Константинопольская-Щербакова"]
ORDER = sorted(NAMES, key=lambda n: [w.casefold().replace("ё", "е") for w in reversed(n.split())])
"""By surname (the names are written given name first), in Russian order: "Ёлкина" after
"Елизаров" and before "Жуков" (Unicode puts ё after я)."""

FACTS = """() => {
  const rows = [...document.querySelectorAll("table.proj-list tbody tr")];
  return {
    rows: rows.map((r) => [...r.cells].map((c) => c.textContent.trim())),
    font: parseFloat(getComputedStyle(document.querySelector("td.me")).fontSize),
    clockFont: document.querySelector(".timer")
      ? parseFloat(getComputedStyle(document.querySelector(".timer")).fontSize) : 0,
    scrollWidth: document.documentElement.scrollWidth, width: window.innerWidth,
    scrollHeight: document.documentElement.scrollHeight, height: window.innerHeight,
    bar: document.querySelectorAll("header.bar, nav.tabs").length,
  };
}"""


@pytest.fixture
def tournament(live_server: LiveServer) -> int:
    """21 players (one gets the bye), round 1 played, its clock started."""
    db = live_server.db
    tid = create_tournament(db, name="Кубок «Зал»", actor=ORGANIZER, seed=3,
                            settings=Settings(swiss_rounds=3)).id
    register_players(db, tid, [PlayerLine(n, "Тверь") for n in NAMES], actor=ORGANIZER)
    play_round(db, tid)
    start_timer(db, tid, 1, minutes=50, actor=ORGANIZER)
    return tid


def check_screen(page: Page) -> dict[str, Any]:
    """The facts every size must show: everyone once, in order, with table and opponent, the
    clock, nothing wider than the screen."""
    expect(page.locator("table.proj-list tbody tr")).to_have_count(len(NAMES))
    expect(page.locator(".timer .clock")).to_have_text(re.compile(r"^(49|50):\d\d$"))
    facts: dict[str, Any] = page.evaluate(FACTS)
    rows = facts["rows"]
    assert [r[0] for r in rows] == ORDER
    seat = {name: (table, opponent) for name, table, opponent in rows}
    byes = [name for name, (table, opponent) in seat.items() if opponent == "Автопобеда"]
    assert len(byes) == 1 and seat[byes[0]][0] == "—"
    for name, (table, opponent) in seat.items():
        if opponent != "Автопобеда":
            assert seat[opponent] == (table, name)  # the opponent's line says the same
    assert facts["scrollWidth"] <= facts["width"], facts
    assert facts["bar"] == 0  # no site header, no tabs: the whole screen is the list
    return facts


def test_the_projector_shows_the_round_by_name_in_big_type_with_the_clock_at_1366(
        live_server: LiveServer, browser: Any, tournament: int, screens: Path) -> None:
    page = new_page(browser, viewport=DESKTOP)  # anonymous, Russian
    page.clock.install()  # the page's own time, moved on below instead of waited for
    page.goto(f"{live_server.url}/t/{tournament}/pairings")
    page.click("a.projector-link")
    page.wait_for_url(f"**/t/{tournament}/projector")
    facts = check_screen(page)
    assert facts["font"] >= 32 and facts["clockFont"] >= 40, facts  # read from the back row
    assert facts["scrollHeight"] > facts["height"]  # 21 lines do not fit: it scrolls itself
    shoot(page, screens / "projector-desktop.png")
    page.clock.fast_forward(PAUSE_MS)  # the pause at the top is over: the list glides
    page.wait_for_function("() => window.scrollY > 40", timeout=20_000)
    start_round(live_server.db, tournament, actor=ORGANIZER)  # the next round is paired
    expect(page.locator("#projector")).to_have_attribute("data-round", "2", timeout=20_000)
    expect(page.locator(".proj-round")).to_contain_text("Тур 2")
    assert [r[0] for r in page.evaluate(FACTS)["rows"]] == ORDER
    page.context.close()


def test_the_projector_fits_a_phone_and_turns_pages_for_reduced_motion(
        live_server: LiveServer, browser: Any, tournament: int, screens: Path) -> None:
    context = browser.new_context(locale="ru-RU", viewport=PHONE, reduced_motion="reduce")
    page: Page = context.new_page()
    page.clock.install()
    page.goto(f"{live_server.url}/t/{tournament}/projector")
    facts = check_screen(page)
    assert facts["font"] >= 20, facts
    shoot(page, screens / "projector-phone.png")
    page.clock.fast_forward(PAGE_TURN_MS)
    page.wait_for_function("() => window.scrollY > 0", timeout=20_000)
    # a screenful at once, not a glide
    assert page.evaluate("window.scrollY") >= facts["height"] * 0.5
    context.close()

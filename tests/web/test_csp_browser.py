"""Issue 10 item 11 in Debian's Chromium: every main page works under the
Content-Security-Policy (no inline script or style, no eval): no CSP violation and no console
error on any of them, anonymous and as the organizer, on a desktop; the styles apply, the live
parts poll, the round clock ticks, the results grid holds its poll while a score is being typed,
the bracket and the rating chart are drawn (on a phone too), the language switch works. The same
pages on a phone, every role's, are watched for CSP violations and console errors by
``test_main_pages_fit_the_screen_pass_axe_and_keep_the_csp`` (the same HTML and scripts: walking
them twice here was suite time).

With ``TURNIR_SCREENSHOTS=1`` every page is saved to ``docs/screenshots/`` for a look by eye
(``tests.web.conftest.shoot``: a full-page screenshot costs Chromium about 0.15 s of CPU;
nothing here reads them).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.services.rating_builders import HEAD, finished_event
from tests.web.conftest import LiveServer, shoot
from tests.web.pages_check import watch_csp
from turnir.services.accounts import make_hasher
from turnir.services.demo import DEMO_FINISHED, seed_accounts, seed_tournaments
from turnir.services.rating_queries import find_person
from turnir.services.ratings import submit_tournament
from turnir.services.tournaments import list_tournaments

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


class Watched:
    """A browser page whose CSP violations, console errors and script errors are collected."""

    def __init__(self, browser: Any, viewport: dict[str, int], locale: str = "ru-RU") -> None:
        self.context = browser.new_context(locale=locale, viewport=viewport)
        self.context.clock.install()  # time flows, and the tests move it on to the next poll
        self.problems: list[str] = []
        watch_csp(self.context, self.problems)
        self.page: Page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: self.problems.append(f"script error: {e}"))

    def _console(self, message: Any) -> None:
        if message.type not in ("error", "warning"):
            return
        where = message.location.get("url", "")
        if "status of 404" in message.text and where == self.page.url and self.expect_404:
            return  # the error page's own status
        self.problems.append(f"console {message.type}: {message.text} ({where})")

    expect_404 = False

    def visit(self, url: str) -> Page:
        self.page.goto(url)
        self.page.wait_for_load_state("load")
        return self.page

    def check(self, where: str) -> None:
        self.page.wait_for_timeout(150)  # let late violation reports arrive
        assert not self.problems, f"{where}: " + "\n".join(self.problems)

    def close(self) -> None:
        self.context.close()


def styled(page: Page) -> None:
    """The site's stylesheet applies (a style attribute or inline CSS is not needed)."""
    rules = page.evaluate("Array.from(document.styleSheets).reduce("
                          "(n, s) => n + s.cssRules.length, 0)")
    assert rules > 20
    assert page.evaluate("getComputedStyle(document.body).margin") != "8px"  # not the default


def log_in(watched: Watched, server: LiveServer, login: str, password: str) -> None:
    page = watched.visit(f"{server.url}/login")
    page.fill("input[name=login]", login)
    page.fill("input[name=password]", password)
    page.click("form.card button[type=submit]")
    expect(page.locator("form[action='/logout']")).to_be_visible()


def _rated_player(server: LiveServer) -> int:
    db = server.db
    names = ["Анна Рейтинг", "Борис Рейтинг", "Вера Рейтинг", "Глеб Рейтинг"]
    submit_tournament(db, finished_event(db, names, name="Осенний кубок"), actor=HEAD)
    submit_tournament(db, finished_event(db, names[::-1], name="Зимний кубок"), actor=HEAD)
    return find_person(db, "Анна Рейтинг").id


def _bracket_and_chart(watched: Watched, url: str, finished: int, person: int) -> None:
    """The finished tournament's bracket is laid out in columns side by side and the rating
    profile's chart is drawn."""
    page = watched.visit(f"{url}/t/{finished}/top")
    rounds = page.locator(".bracket .bracket-round")
    expect(rounds.nth(2)).to_be_visible()
    # columns side by side, read in the page until laid out (a box read while the part is
    # being replaced or styled is all zeros): both boxes in one step
    page.wait_for_function(
        """() => {
          const b = [...document.querySelectorAll(".bracket .bracket-round")].slice(0, 2)
            .map(r => r.getBoundingClientRect());
          return b.length === 2 && b[1].x > b[0].x + 50 && Math.abs(b[1].y - b[0].y) < 2;
        }""")

    page = watched.visit(f"{url}/ratings/players/{person}")
    chart = page.locator("#rating-chart svg")
    box = chart.bounding_box()
    assert box and box["width"] > 200 and box["height"] > 100
    assert page.locator("#rating-chart svg circle").count() >= 3
    watched.check("bracket and rating chart")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_item11_main_pages_work_under_the_csp_in_chromium(
        live_server: LiveServer, browser: Any, screens: Path,
        viewport: dict[str, int]) -> None:
    db = live_server.db
    tid = seed_tournaments(db)
    finished = next(t.id for t in list_tournaments(db) if t.name == DEMO_FINISHED)
    logins = {item.role.value: item for item in seed_accounts(db, tid, make_hasher(fast=True))}
    person = _rated_player(live_server)
    size = "desktop" if viewport == DESKTOP else "phone"
    url = live_server.url

    anonymous = Watched(browser, viewport)
    if viewport == PHONE:  # what a phone lays out differently: the bracket, the chart
        _bracket_and_chart(anonymous, url, finished, person)
        anonymous.close()
        return
    public_pages = {
        "index": "/", "overview": f"/t/{tid}", "pairings": f"/t/{tid}/pairings",
        "pairings-by-name": f"/t/{tid}/pairings?by=name", "standings": f"/t/{tid}/standings",
        "find": f"/t/{tid}/find?name=%D0%B0", "top": f"/t/{finished}/top",
        "places": f"/t/{finished}/places", "login": "/login", "ratings": "/ratings",
        "rating-profile": f"/ratings/players/{person}", "error": "/t/999999",
    }
    for name, path in public_pages.items():
        anonymous.expect_404 = name == "error"
        page = anonymous.visit(url + path)
        styled(page)
        shoot(page, screens / f"csp-{size}-anonymous-{name}.png", full_page=True)
        anonymous.check(name)

    page = anonymous.visit(f"{url}/t/{tid}")
    clock = page.locator(".timer .clock").first
    before = clock.inner_text()
    page.clock.fast_forward(1_000)
    expect(clock).not_to_have_text(before, timeout=5_000)  # the round clock ticks
    with page.expect_request(lambda r: r.headers.get("hx-request") == "true",
                             timeout=8_000):
        page.clock.fast_forward(2_100)  # the live part polls (every 2 s here)
    anonymous.check("overview polling")

    _bracket_and_chart(anonymous, url, finished, person)

    page = anonymous.visit(f"{url}/t/{tid}/standings")
    page.click("a[data-lang=en]")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert re.search(r"/t/\d+/standings$", page.url)
    page.click("a[data-lang=ru]")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    anonymous.check("language switch")
    anonymous.close()

    organizer = Watched(browser, viewport)
    log_in(organizer, live_server, logins["organizer"].login, logins["organizer"].password)
    organizer.check("login")
    staff_pages = {
        "manage": f"/t/{tid}/manage", "results": f"/t/{tid}/results",
        "penalty-give": f"/t/{tid}/penalties/give", "penalties": f"/t/{tid}/penalties",
        "accounts": "/accounts", "new": "/new", "print-slips": f"/t/{tid}/print/slips",
        "overview": f"/t/{tid}", "standings": f"/t/{tid}/standings",
    }
    for name, path in staff_pages.items():
        page = organizer.visit(url + path)
        styled(page)
        shoot(page, screens / f"csp-{size}-organizer-{name}.png", full_page=True)
        organizer.check(name)

    page = organizer.visit(f"{url}/t/{tid}/print/slips")
    page.evaluate("window.print = function () { window.printed = true; }")
    page.click("button[data-print]")
    assert page.evaluate("window.printed === true")  # the Print button, without onclick
    page = organizer.visit(f"{url}/t/{tid}/manage")
    organizer.expect_404 = True
    page = organizer.visit(f"{url}/t/999999")
    page.click("a[data-back]")
    page.wait_for_url(f"{url}/t/{tid}/manage")  # Back, without javascript: URL
    organizer.expect_404 = False

    page = organizer.visit(f"{url}/t/{tid}/results")
    page.locator("#grid tr.open input[name=score]").first.fill("2-")  # issue 12: an open table
    assert page.locator("#grid [data-dirty]").count() == 1
    polls: list[str] = []
    page.on("request", lambda r: polls.append(r.url)
            if "/results" in r.url and r.method == "GET" else None)
    # the grid's poll comes (every 5 s: its trigger works under the CSP) and is held back
    # while a score is being typed: its htmx:beforeRequest is cancelled (by app.js, before
    # this listener on window hears it)
    page.evaluate("""() => { window.gridHeld = null; window.addEventListener(
        "htmx:beforeRequest", e => {
          if (e.detail.elt.id === "grid" && window.gridHeld === null)
            window.gridHeld = e.defaultPrevented; }); }""")
    page.clock.fast_forward(5_100)
    page.wait_for_function("() => window.gridHeld !== null")
    assert page.evaluate("window.gridHeld") is True
    assert polls == []  # and no request went out
    organizer.check("results grid")
    organizer.close()

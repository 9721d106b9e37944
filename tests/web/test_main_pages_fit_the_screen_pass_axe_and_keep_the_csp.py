"""The main pages of every role, on a demo-like site (long names, 18 players, rated tournaments
with a chart; ``tests.web.demo_like_site``), in Debian's Chromium at a 390×844 phone and a
1366×900 screen, in Russian, each page visited once per size for all of these:

- Issue 12, item 10: no page is wider than the viewport (the home page was 453 px, the
  pairings 413, the results 490, the ratings 742, a profile 700, the rating report 742, the
  slips 477); the header's links, the tabs and the forms' controls are 44 px tap targets on a
  phone (the header links were 19 px); the organizer's tabs are all visible at 1366 ("Audit
  log" was cut off) and scroll inside their own bar on a phone, the current one in view; the
  stylesheet and scripts are linked with their content's hash, so phones fetch them again when
  they change; a tournament without a top is not headed "ТОП-0".
- Issue 12, accessibility: axe-core (vendored from the npm package, ``tests/web/vendor``)
  finds no serious or critical violation on the main pages (lesser findings are printed):
  anonymous (home, tournament overview, pairings, standings, find my table, ratings, a rating
  profile with its chart, a rating report), a player (the tournament, their match card), a
  floor judge (the results grid, penalties), the organizer (manage, new tournament, accounts,
  the audit log, the staff) and the head judge (give a penalty, the penalty report). Before,
  on a phone, the boxes that scroll sideways (the standings, the penalties, the audit log, the
  penalty report; the top's bracket) could not be reached from the keyboard (serious:
  scrollable-region-focusable); the header's two navigation landmarks had no names
  (moderate: landmark-unique).
- Issue 10, item 11: no page breaks the Content-Security-Policy and none logs a console or
  script error (``test_csp_browser`` works the scripts themselves on a desktop).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.demo_like_site import Site, page_as, pages_of, problems_on, site  # noqa: F401
from tests.web.pages_check import (
    assert_accessible,
    assert_fits,
    assert_tap_targets,
    page_width,
)
from turnir.web.templating import STATIC


def _axe_pages(site: Site) -> set[str]:  # noqa: F811
    """The main pages axe checks (of :func:`pages_of`)."""
    t, r = f"/t/{site.tid}", f"/t/{site.rated_tid}"
    return {"/", t, f"{t}/pairings", f"{t}/standings", f"{t}/find", f"{t}/find?q=Кржижановский",
            "/ratings", f"/ratings/players/{site.person}", f"{r}/rating", "/me",
            f"{t}/results", f"{t}/penalties", f"{t}/manage", "/new", "/accounts", f"{t}/log",
            f"{t}/staff", f"{t}/penalties/give", f"{t}/penalties/report"}


@pytest.mark.parametrize("size", ["phone", "wide"])
def test_every_main_page_fits_the_screen_passes_axe_and_keeps_the_csp(
        site: Site, browser: Any, size: str) -> None:  # noqa: F811
    # the tap targets are checked on a phone only
    found = problems_on(site, browser, size, pages_of(site), assert_fits, assert_tap_targets,
                        assert_accessible, only_on={assert_accessible: _axe_pages(site)})
    assert found == [], "\n".join(found)


def _tabs(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("""() => {
      const bar = document.querySelector('nav.tabs');
      const box = bar.getBoundingClientRect();
      return {scrolls: bar.scrollWidth > bar.clientWidth + 1, bar: [box.left, box.right],
              tabs: [...bar.querySelectorAll('a')].map(a => {
                const r = a.getBoundingClientRect();
                return {text: a.innerText, left: r.left, right: r.right, height: r.height,
                        on: a.classList.contains('on')};
              })};
    }""")
    return result


def test_item10_the_organizers_tabs_all_show_at_1366_and_scroll_in_their_bar_on_a_phone(
        site: Site, browser: Any) -> None:  # noqa: F811
    wide = page_as(site, browser, "org", "wide")
    wide.goto(f"{site.url}/t/{site.tid}/log")
    tabs = _tabs(wide)
    assert not tabs["scrolls"]
    cut = [tab["text"] for tab in tabs["tabs"]
           if tab["left"] < tabs["bar"][0] or tab["right"] > tabs["bar"][1]]
    assert cut == [] and "Журнал изменений" in [tab["text"] for tab in tabs["tabs"]]

    phone = page_as(site, browser, "org", "phone")
    phone.goto(f"{site.url}/t/{site.tid}/log")
    tabs = _tabs(phone)
    assert tabs["scrolls"]                      # the bar scrolls, the page does not
    assert page_width(phone) <= 390
    current = [tab for tab in tabs["tabs"] if tab["on"]]
    assert len(current) == 1 and current[0]["text"] == "Журнал изменений"
    assert current[0]["left"] >= 0 and current[0]["right"] <= 390   # scrolled into view
    assert all(tab["height"] >= 44 for tab in tabs["tabs"])


def test_item10_a_tournament_without_a_top_is_not_headed_top_0(site: Site,  # noqa: F811
                                                                browser: Any) -> None:
    page = page_as(site, browser, "anonymous", "phone")
    page.goto(f"{site.url}/t/{site.rated_tid}/top")
    heading = page.locator("#live h2").first.inner_text()
    assert heading == "ТОП" and "ТОП-0" not in page.content()


def test_item10_stylesheet_and_scripts_are_linked_with_their_contents_hash(
        client: TestClient) -> None:
    html = client.get("/login").text
    linked = dict(re.findall(r'/static/([\w.]+)\?v=(\w+)"', html))
    assert set(linked) >= {"style.css", "app.js", "htmx.min.js", "favicon.svg"}
    for name, version in linked.items():
        assert version == hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12]
    assert client.get(f"/static/style.css?v={linked['style.css']}").status_code == 200

"""A fault answered to a tap far down a long page is seen (issue 15 QA): a judge at table 40
of the results grid on a phone, with the database's disk full, saw only the unchanged row —
the 507 message went to the top of the page, out of sight. The message box now stays on
screen while it holds an error (``style.css``: ``#messages:has(.msg.error)``)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.web.conftest import LiveServer
from tests.web.test_browser import PHONE
from tests.web.test_results_grid_takes_one_tap_a_table import _grid


def test_a_fault_far_down_the_grid_is_shown_on_screen(live_server: LiveServer,
                                                      browser: Any) -> None:
    tid, tables, page = _grid(live_server, browser, 80, PHONE)
    last = page.locator(f"#table-{tables[-1]}")
    expect(last).to_be_attached()
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    # the network goes: the tap, and the grid's own refreshes (a refresh that succeeded would
    # take the note away again, as it should once the server answers)
    page.route(f"**/t/{tid}/**", lambda route: route.abort())
    last.locator("form.taps button.tap", has_text="2-0").click()
    note = page.locator("#messages [data-fault=offline]")
    expect(note).to_contain_text("Нет связи с сервером")
    box = note.bounding_box()
    assert box is not None and 0 <= box["y"] < PHONE["height"], box
    assert page.evaluate("window.scrollY") > PHONE["height"]  # still down at the table
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    page.context.close()

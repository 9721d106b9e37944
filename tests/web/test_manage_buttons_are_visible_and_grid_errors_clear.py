"""Issue 12, items 3 and 7 in Debian's Chromium: the Manage page's link-style buttons ("make a
login", "drop", "remove") are readable on their background at desktop and phone sizes, and an
error shown above the results grid goes away with the next result that is recorded."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.services.builders import ORGANIZER, event
from tests.web.conftest import LiveServer, add_account, sign_in
from tests.web.test_browser import PHONE, new_page
from turnir.services.accounts import AccountRole
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.rounds import start_round

DESKTOP = {"width": 1366, "height": 900}

COLOURS = """(selector) => {
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const opaque = (text) => { const c = rgb(text); return c.length === 3 || c[3] > 0; };
  const behind = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = getComputedStyle(e).backgroundColor;
      if (opaque(c)) return c;
    }
    return "rgb(255, 255, 255)";
  };
  const page = behind(document.body);
  return [...document.querySelectorAll(selector)].map((b) => {
    const style = getComputedStyle(b);
    const box = b.getBoundingClientRect();
    return {text: b.textContent.trim(), color: style.color, fill: style.webkitTextFillColor,
            own: style.backgroundColor, behind: behind(b), page, opacity: style.opacity,
            visibility: style.visibility, width: box.width, height: box.height};
  });
}"""


def _luminance(colour: str) -> float:
    channels = [float(c) for c in colour[colour.index("(") + 1:-1].split(",")[:3]]
    linear = [c / 255 / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4
              for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    """The WCAG contrast ratio of two computed ``rgb(…)`` colours (1 to 21)."""
    light, dark = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def assert_readable(page: Page, selector: str, expected: set[str]) -> None:
    found = page.evaluate(COLOURS, selector)
    assert {b["text"] for b in found} >= expected, found
    for button in found:
        assert button["visibility"] == "visible" and float(button["opacity"]) == 1, button
        assert button["width"] > 0 and button["height"] > 0, button
        for text in (button["color"], button["fill"]):
            assert text != button["behind"], button
            assert contrast(text, button["behind"]) >= 4.5, button
            if button["own"] != button["behind"]:  # a link-style button: on the page itself
                assert text != button["page"] and contrast(text, button["page"]) >= 3, button


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_item3_manage_link_buttons_are_visible(live_server: LiveServer, browser: Any,
                                               viewport: dict[str, int]) -> None:
    add_account(live_server.db, "org", AccountRole.ORGANIZER)
    tid = event(live_server.db, 4)
    add_judge(live_server.db, tid, role=JudgeRole.ORGANIZER, login="org", actor=ORGANIZER)
    page = new_page(browser, locale="en-US", viewport=viewport)
    sign_in(page, live_server, "org")
    page.goto(f"{live_server.url}/t/{tid}/manage")
    expect(page.locator("#p1 button", has_text="make a login")).to_be_visible()
    assert_readable(page, "main button", {"make a login", "drop", "check in"})
    page.goto(f"{live_server.url}/t/{tid}/staff")  # the staff list moved to its own page
    assert_readable(page, "main button", {"remove"})
    # and once the tournament runs (late entries, the round's forms)
    start_round(live_server.db, tid, actor=ORGANIZER)
    page.goto(f"{live_server.url}/t/{tid}/manage")
    expect(page.locator("#undo-round")).to_be_attached()
    assert_readable(page, "main button", {"make a login", "drop"})
    page.context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_item7_an_error_above_the_grid_goes_with_the_next_good_result(
        live_server: LiveServer, browser: Any, viewport: dict[str, int]) -> None:
    add_account(live_server.db, "judge", AccountRole.HEAD_JUDGE)
    tid = event(live_server.db, 8, rounds=3)
    add_judge(live_server.db, tid, role=JudgeRole.HEAD_JUDGE, login="judge", actor=ORGANIZER)
    view = start_round(live_server.db, tid, actor=ORGANIZER)
    first, second = [line.table for line in view.round.pairings if line.b is not None][:2]
    page = new_page(browser, locale="en-US", viewport=viewport)
    sign_in(page, live_server, "judge")
    page.goto(f"{live_server.url}/t/{tid}/results")
    banner = page.locator("#messages .msg.error")
    # a bad score: the error is shown above the grid, the table stays open
    page.locator(f"#table-{first} input[name=score]").fill("7-7")
    page.locator(f"#table-{first} button[type=submit]").click()
    expect(banner).to_be_visible()
    expect(page.locator(f"#table-{first} td.res")).to_have_text("")
    # the next good entry (another table) is recorded and the old error is gone
    page.locator(f"#table-{second} input[name=score]").fill("2-1")
    page.locator(f"#table-{second} button[type=submit]").click()
    expect(page.locator(f"#table-{second} td.res")).to_have_text("2-1")
    expect(banner).to_have_count(0)
    expect(page.locator("#messages")).to_be_empty()
    # a second error, then the corrected score at the same table: gone again
    page.locator(f"#table-{first} input[name=score]").fill("abc")
    page.locator(f"#table-{first} button[type=submit]").click()
    expect(banner).to_be_visible()
    page.locator(f"#table-{first} input[name=score]").fill("2-0")
    page.locator(f"#table-{first} button[type=submit]").click()
    expect(page.locator(f"#table-{first} td.res")).to_have_text("2-0")
    expect(banner).to_have_count(0)
    # the grid still refreshes itself and keeps its one messages area
    expect(page.locator("#messages")).to_have_count(1)
    expect(page.locator("#grid .progress")).to_contain_text("2 of 4")
    page.context.close()

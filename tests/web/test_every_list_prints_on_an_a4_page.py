"""Issue 12, "every list printable", in Debian's Chromium with the print stylesheet: the
pairings (by table and by name), the standings, the final places, the rating report, the
penalties and the Manage page's players list print without the site's header, the tabs, the
buttons and the forms, and no table is wider than an A4 page (nothing cut off); each list page
has a "Print" button (the players list prints alone)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from tests.services.builders import ORGANIZER, play_round
from tests.services.penalty_builders import give, judged_event
from tests.web.conftest import PASSWORD, LiveServer, sign_in
from turnir.services.accounts import AccountRole, create_account, make_hasher
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.tournaments import finish_tournament

A4 = {"width": 700, "height": 990}
"""An A4 page at 96 dpi less the print margins (12 mm a side)."""

PRINTED = """() => {
  const shown = (el) => el.checkVisibility();
  const width = window.innerWidth;
  return {
    width, scrollWidth: document.documentElement.scrollWidth,
    chrome: [...document.querySelectorAll("header.bar, nav.tabs, button, form, .pager")]
      .filter(shown).map((el) => el.outerHTML.slice(0, 80)),
    tables: [...document.querySelectorAll("main table")].filter(shown).map((t) => ({
      id: t.id || t.className, right: Math.round(t.getBoundingClientRect().right),
      rows: t.rows.length})),
    text: document.querySelector("main").innerText,
  };
}"""


def printed(page: Page, path: str | None = None) -> dict[str, Any]:
    if path is not None:
        page.emulate_media(media="screen")
        page.goto(path)
        assert page.locator("[data-print]").count() >= 1, path  # a "Print" button
    page.emulate_media(media="print")
    facts: dict[str, Any] = page.evaluate(PRINTED)
    assert facts["chrome"] == [], (path, facts["chrome"])
    assert facts["tables"], path
    for table in facts["tables"]:
        assert table["right"] <= facts["width"], (path, table)  # not cut at the page's edge
    assert facts["scrollWidth"] <= facts["width"], (path, facts["scrollWidth"])
    return facts


def test_every_list_prints_without_the_site_around_it_and_fits_the_page(
        live_server: LiveServer, browser: Any) -> None:
    db = live_server.db
    tid = judged_event(db, 10, rounds=2, name="Кубок «Печать» имени очень длинного названия")
    create_account(db, login="org", name=ORGANIZER, password=PASSWORD,
                   role=AccountRole.ORGANIZER, actor=ORGANIZER, hasher=make_hasher(fast=True))
    add_judge(db, tid, name=ORGANIZER, role=JudgeRole.ORGANIZER, actor=ORGANIZER, login="org")
    play_round(db, tid, seed=3)
    give(db, tid, 3, "slow_play")
    play_round(db, tid, seed=4)
    finish_tournament(db, tid, actor=ORGANIZER)
    context = browser.new_context(locale="ru-RU", viewport=A4)
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, live_server, "org")
    base = f"{live_server.url}/t/{tid}"
    for path in ("/pairings?round=1", "/pairings?round=2&by=name", "/standings", "/places",
                 "/rating", "/penalties"):
        facts = printed(page, base + path)
        assert "Кубок «Печать»" in facts["text"] or "Пенальти" in facts["text"], path
    page.emulate_media(media="screen")
    page.goto(f"{base}/manage")
    page.evaluate("() => { window.print = () => {}; }")  # headless: nothing to print to
    page.click("#print-players")
    facts = printed(page)
    assert [t["id"] for t in facts["tables"]] == ["list players"]  # the list alone
    assert facts["tables"][0]["rows"] == 11 and "Игрок 10" in facts["text"]
    assert "Судейская коллегия" not in facts["text"]  # the other cards stay off the paper
    context.close()

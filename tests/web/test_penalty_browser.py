"""Issue 5 in Debian's Chromium on a phone-sized viewport: a floor judge gives a match loss in
three taps (player, reason, confirm) and the public standings change."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.services.builders import ORGANIZER
from tests.services.penalty_builders import FLOOR, judged_event
from tests.web.conftest import PASSWORD, LiveServer, sign_in
from tests.web.test_browser import PHONE, new_page
from turnir.services.accounts import AccountRole, create_account, make_hasher
from turnir.services.common import RulesLevel
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.rounds import start_round


def test_a_judge_gives_a_match_loss_from_a_phone(live_server: LiveServer,
                                                 browser: Any) -> None:
    db = live_server.db
    tid = judged_event(db, 4, rounds=2, level=RulesLevel.AMATEUR)
    start_round(db, tid, actor=ORGANIZER)
    create_account(db, login="floor", name=FLOOR, password=PASSWORD,
                   role=AccountRole.FLOOR_JUDGE, actor="test", hasher=make_hasher(fast=True))
    add_judge(db, tid, role=JudgeRole.FLOOR_JUDGE, login="floor", actor=ORGANIZER)  # issue 10
    public = new_page(browser, viewport=PHONE)
    public.goto(f"{live_server.url}/t/{tid}/standings")
    row = public.locator("table.standings tbody tr", has_text="Игрок 01")
    expect(row).to_contain_text("0-0-0")

    page = new_page(browser, viewport=PHONE)
    sign_in(page, live_server, "floor")
    page.goto(f"{live_server.url}/t/{tid}/penalties/give")
    page.locator("#pick-player a", has_text="Игрок 01").click()          # tap 1: the player
    page.locator("#pick-reason a[data-code=slow_play]").click()           # tap 2: the reason
    expect(page.locator("#explanation")).not_to_be_empty()
    page.locator("#preview details summary").click()                     # a deviation
    page.locator("#preview details a", has_text="поражение в матче").click()
    expect(page.locator("#resulting")).to_have_text("поражение в матче")
    page.click("#confirm-penalty")                                        # tap 3: confirm
    expect(page.locator("#penalty-1")).to_contain_text("поражение в матче")

    public.goto(f"{live_server.url}/t/{tid}/standings")
    row = public.locator("table.standings tbody tr", has_text="Игрок 01")
    expect(row).to_contain_text("0-0-1")
    expect(row.locator("td.num").nth(7)).not_to_have_text("0/0/0/0")

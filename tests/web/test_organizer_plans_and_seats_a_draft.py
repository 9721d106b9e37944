"""The draft setup page (issue 14, ``turnir.web.draft_pages``): the organizer sets the plan and
seats 33 players on 4 tables without JavaScript (D-1, D-2, D-8), everyone sees the seating,
the standings show the draft table (T-8); one browser walk-through at 1366 and 390 px with the
HTMX forms."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.services.draft_builders import draft_event
from tests.web.conftest import Clients, LiveServer, add_account, shoot, sign_in
from tests.web.pages_check import assert_fits, assert_tap_targets
from tests.web.test_browser import PHONE, new_page
from turnir.domain.accounts import AccountRole
from turnir.domain.model import StaffRole
from turnir.services.draft_setup import draft_plan, draft_seating
from turnir.services.judges import add_judge
from turnir.services.rounds import start_round
from turnir.storage.database import Database

RU = {"accept-language": "ru"}
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
DESKTOP = {"width": 1366, "height": 900}
PLAN = {"twelves": "2", "sevens": "1", "profile": "tabletop", "single": "hand",
        "pick_seconds": "20", "pick_seconds_per_card": "4", "review_seconds": "45",
        "deck_min": "20"}


def staff(db: Database, tid: int) -> None:
    """``boss`` organizes tournament ``tid``, ``head`` is its head judge."""
    add_account(db, "boss", AccountRole.ORGANIZER)
    add_judge(db, tid, role=StaffRole.ORGANIZER, login="boss", actor="test")
    add_account(db, "head", AccountRole.HEAD_JUDGE)
    add_judge(db, tid, role=StaffRole.HEAD_JUDGE, login="head", actor="test")


def test_d2_organizer_plans_and_seats_33_players_on_4_tables_without_javascript(
        clients: Clients, web_db: Database) -> None:
    tid = draft_event(web_db, 33)
    staff(web_db, tid)
    boss = clients.as_("boss")
    page = boss.get(f"/t/{tid}/draft", headers=RU).text
    assert 'id="plan-form"' in page and 'id="seat-form"' in page
    assert '<option value="4">4</option>' in page and "Игроки ещё не рассажены" in page
    csrf = CSRF.search(page)
    assert csrf
    token = csrf.group(1)
    saved = boss.post(f"/t/{tid}/draft/plan", data={"csrf_token": token, **PLAN},
                      follow_redirects=False)
    assert saved.status_code == 303 and saved.headers["location"] == f"/t/{tid}/draft"
    plan = draft_plan(web_db, tid)
    assert plan is not None and plan.boosters == (12, 12, 7) and plan.review_seconds == 45
    seated = boss.post(f"/t/{tid}/draft/seat",
                       data={"csrf_token": token, "method": "lot", "tables": "4"},
                       follow_redirects=True, headers=RU)
    assert seated.status_code == 200
    view = draft_seating(web_db, tid)
    assert view is not None and [len(t.seats) for t in view.tables] == [9, 8, 8, 8]
    for number in range(1, 5):
        assert f'id="draft-table-{number}"' in seated.text
    assert "Рассадка жребием" in seated.text
    # everyone sees the seating, without the forms; the head judge may not set the plan
    public = clients.as_(None).get(f"/t/{tid}/draft", headers=RU).text
    assert 'id="draft-table-4"' in public and 'id="plan-form"' not in public
    assert view.tables[0].seats[0].name in public
    head = clients.as_("head")
    refused = head.post(f"/t/{tid}/draft/plan", data={"csrf_token": token, **PLAN})
    assert refused.status_code == 403
    wrong = boss.post(f"/t/{tid}/draft/seat", data={"csrf_token": token, "method": "lot",
                                                     "tables": "2"}, headers=RU)
    assert wrong.status_code == 422 and "33" in wrong.text
    # the standings show each player's draft table (T-8)
    start_round(web_db, tid, actor="test")
    standings = clients.as_(None).get(f"/t/{tid}/standings", headers=RU).text
    assert "Стол драфта" in standings


def _walk(page: Any, server: LiveServer, tid: int, screens: Path, tag: str) -> None:
    page.goto(f"{server.url}/t/{tid}/draft")
    expect(page.locator("nav.tabs a.on")).to_have_text("Драфт")
    page.locator("#plan-form input[name=sevens]").fill("0")
    page.locator("#plan-form input[name=twelves]").fill("3")
    with page.expect_response(lambda r: r.url.endswith("/draft/plan")):
        page.click("#save-plan")
    # "12, 12, 12 (" — the default plan's "12, 12, 12, 12" must not pass for the new one, or the
    # seating below races the swap of the whole section
    expect(page.locator("#draft-plan-summary")).to_contain_text("12, 12, 12 (")
    page.select_option("#seat-form select[name=tables]", "2")
    with page.expect_response(lambda r: r.url.endswith("/draft/seat")):  # a loaded CI worker
        page.click("#seat-players")
    expect(page.locator("#draft-table-2")).to_be_visible(timeout=15_000)
    assert page.url.endswith(f"/t/{tid}/draft")
    assert_fits(page, f"draft setup {tag}")
    assert_tap_targets(page, f"draft setup {tag}")
    shoot(page, str(screens / f"issue14-draft-setup-{tag}.png"), full_page=True)


def test_d2_the_draft_page_at_1366_and_390_px_with_htmx(
        live_server: LiveServer, browser: Any, web_db: Database, screens: Path) -> None:
    desk = draft_event(web_db, 32)
    phone = draft_event(web_db, 24)
    staff(web_db, desk)
    add_judge(web_db, phone, role=StaffRole.ORGANIZER, login="boss", actor="test")
    for tid, viewport, tag in ((desk, DESKTOP, "1366"), (phone, PHONE, "390")):
        page = new_page(browser, viewport=viewport)
        sign_in(page, live_server, "boss")
        _walk(page, live_server, tid, screens, tag)
        page.context.close()
    for tid in (desk, phone):
        seating = draft_seating(web_db, tid)
        assert seating is not None and len(seating.tables) == 2
        assert draft_plan(web_db, tid) is not None

"""Issue 14, the live draft end to end (D-4, D-8): 8 players draft 3 boosters of 7 cards on one
online table — 2 in Debian's Chromium (one at 1366×900, one on a 390×844 phone), 6 through the
JSON API — while the organizer starts the draft from its page. One browser player reloads the
page in the middle of a pick, one API player lets the pick timer run out (and its late pick is
refused), one API player disconnects for good after a few picks (never calls again). Nobody
waits on a reconnect: every player ends with a legal pool (21 cards, every card of the table in
exactly one pool), the pick log has every pick once, a repeated pick from the page is refused
in words and never applied twice, and the tournament then pairs round 1 inside the table.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.services.builders import ORGANIZER
from tests.web.conftest import PASSWORD, LiveServer, add_account
from tests.web.pages_check import assert_accessible, assert_fits, assert_tap_targets
from turnir.domain.draft.plan import DraftProfile, make_plan
from turnir.domain.model import TournamentFormat
from turnir.formats.players_csv import PlayerLine
from turnir.services.accounts import AccountRole
from turnir.services.cards import load_sample_cards
from turnir.services.draft_setup import seat_draft, set_draft_plan
from turnir.services.live_draft import draft_pool, pick_log
from turnir.services.players import list_players, register_players
from turnir.services.rounds import start_round
from turnir.services.tournaments import create_tournament
from turnir.web.security import SESSION_COOKIE

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
BOOSTERS, SIZE, PLAYERS = 3, 7, 8
PICKS = BOOSTERS * SIZE
PICK_SECONDS = 5
"""The shortest pick timer the plan allows (D-8): the timeout and the disconnect cost this."""
DEADLINE = 120.0  # a safety bound on the picking loop (a stuck page ends it), not a speed limit
"""Seconds the whole draft may take before the test gives up."""


@dataclass
class ApiPlayer:
    """A player picking through the JSON API as fast as it can, with a behaviour: ``timeout``
    once lets the timer run out (then sends the late pick: refused), ``leave_after`` stops
    calling for good after that many picks."""

    number: int
    client: httpx.Client
    timeout_at: int | None = None
    leave_after: int | None = None
    picks: int = 0
    late: dict[str, Any] | None = None
    late_status: int | None = None
    done: bool = False
    errors: list[str] = field(default_factory=list)

    def step(self, tid: int) -> bool:
        """One look at the draft and a pick when holding a booster; True when it picked."""
        if self.done or (self.leave_after is not None and self.picks >= self.leave_after):
            return False
        view = self.client.get(f"/api/v1/tournaments/{tid}/draft").json()
        if view["status"] == "done":
            self.done = True
            return False
        if view["status"] != "picking":
            return False
        pick = {"booster": view["booster"], "cards_left": view["cards_left"],
                "card": view["cards"][0]["uid"]}
        if self.timeout_at is not None and len(view["pool"]) == self.timeout_at \
                and self.late is None:
            self.late = pick  # hold it: the timer runs out and the server picks instead
            return False
        if self.late is not None and self.late_status is None:
            if (pick["booster"], pick["cards_left"]) == (self.late["booster"],
                                                         self.late["cards_left"]):
                return False  # its timer is still running
            answer = self.client.post(f"/api/v1/tournaments/{tid}/draft/picks", json=self.late)
            self.late_status = answer.status_code  # the late pick, after the automatic one
        answer = self.client.post(f"/api/v1/tournaments/{tid}/draft/picks", json=pick)
        if answer.status_code == 200:
            self.picks += 1
            return True
        if answer.status_code != 409:
            self.errors.append(f"{answer.status_code} {answer.text[:200]}")
        return False


def drive(players: list[ApiPlayer], tid: int, stop: threading.Event) -> None:
    """The API players in turn, until each is done, gone, or the test stops."""
    while not stop.is_set() and not all(
            p.done or (p.leave_after is not None and p.picks >= p.leave_after) for p in players):
        try:
            picked = sum(p.step(tid) for p in players)
        except httpx.HTTPError as error:  # reported by the test, not lost with the thread
            players[0].errors.append(repr(error))
            return
        if not picked:
            stop.wait(0.2)


def token_of(server: LiveServer, login: str) -> str:
    answer = httpx.post(f"{server.url}/api/v1/session",
                        json={"login": login, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["token"])


def browser_page(browser: Any, server: LiveServer, token: str, viewport: dict[str, int]) -> Page:
    """A browser signed in with the account's session (the API's token is a session)."""
    context = browser.new_context(locale="ru-RU", viewport=viewport)
    context.add_cookies([{"name": SESSION_COOKIE, "value": token, "url": server.url}])
    page: Page = context.new_page()
    page.set_default_timeout(20_000)
    return page


def pick_now(page: Page) -> str | None:
    """Tap the first card of the booster the page holds now; the card's id, or ``None`` when it
    holds none now (its next booster is on the way, or the draft is over). It never waits for
    a booster: the two browsers are served in turn, and one waiting would let the other's pick
    timer (5 s) run out on a busy machine. A player the server marked away after such
    timeouts says it is back («Я здесь»), as a person at the table would."""
    back = page.locator("#i-am-back")
    if back.count():
        back.click()
        expect(back).to_have_count(0)
    if not page.locator("button.pick-card").count():
        return None
    before = page.locator("#draft-state").get_attribute("data-version")
    try:  # the very card read here, or none: a refresh may replace the booster at any time
        card = page.locator("button.pick-card").first.element_handle(timeout=500)
        uid = card.get_attribute("data-uid")
        card.click(timeout=2_000)
    except PlaywrightError:
        return None
    expect(page.locator(f"#draft-state:not([data-version='{before}'])")).to_be_attached()
    return uid


def setup(server: LiveServer) -> tuple[int, list[int]]:
    """A draft tournament of 8 players with accounts p1..p8, its plan (3 × 7 cards, the
    shortest timers, no review pause) and its seating by lot; the entry numbers by seat."""
    db = server.db
    load_sample_cards(db, actor=ORGANIZER)
    add_account(db, "org", AccountRole.ORGANIZER)
    tid = create_tournament(db, name="Драфт клуба", actor=ORGANIZER, seed=14,
                            format=TournamentFormat.DRAFT, organizer_login="org").id
    register_players(db, tid, [PlayerLine(f"Игрок {i}", "Москва") for i in range(1, 9)],
                     actor=ORGANIZER)
    for p in list_players(db, tid):
        add_account(db, f"p{p.number}", AccountRole.PLAYER, person_id=p.person_id)
    plan = make_plan(twelves=0, sevens=BOOSTERS, profile=DraftProfile.ONLINE,
                     pick_seconds=PICK_SECONDS, pick_seconds_per_card=0, review_seconds=0)
    set_draft_plan(db, tid, actor=ORGANIZER, account_id=None, plan=plan)
    seating = seat_draft(db, tid, actor=ORGANIZER, account_id=None, method="lot")
    seats = [line.number for line in seating.tables[0].seats]
    return tid, seats


def test_issue14_eight_players_draft_three_boosters_and_nobody_waits_on_a_disconnect(
        live_server: LiveServer, browser: Any) -> None:
    tid, seats = setup(live_server)
    web = {seats[0], seats[4]}  # two browsers, not neighbours (each is passed to by the API)
    tokens = {n: token_of(live_server, f"p{n}") for n in seats}

    org = browser_page(browser, live_server, token_of(live_server, "org"), DESKTOP)
    org.goto(f"{live_server.url}/t/{tid}/draft/live")
    org.click("#start-live-draft")
    expect(org.locator("#draft-table-1")).to_be_visible()

    others = [n for n in seats if n not in web]
    api = [ApiPlayer(n, httpx.Client(base_url=live_server.url, timeout=20,
                                     headers={"authorization": f"Bearer {tokens[n]}"}))
           for n in others]
    api[0].timeout_at = 2  # lets the timer run out on its third pick
    api[3].leave_after = 4  # disconnects for good after four picks
    stop = threading.Event()
    thread = threading.Thread(target=drive, args=(api, tid, stop), daemon=True)
    started = time.monotonic()
    thread.start()
    desk_n, phone_n = sorted(web)
    desk = browser_page(browser, live_server, tokens[desk_n], DESKTOP)
    phone = browser_page(browser, live_server, tokens[phone_n], PHONE)
    try:
        for page in (desk, phone):
            page.goto(f"{live_server.url}/t/{tid}/draft/pick")
            expect(page.locator("button.pick-card").first).to_be_visible()
            assert_fits(page, "the pick page")  # scrollWidth <= the viewport's width
            assert_tap_targets(page, "the pick page")
        assert_accessible(phone, "the pick page")
        picked: dict[int, list[str]] = {desk_n: [], phone_n: []}
        repeated = reloaded = False
        done = [page.locator("#draft-state[data-status=done]") for page in (desk, phone)]
        while time.monotonic() - started < DEADLINE and not all(d.count() for d in done):
            progress = False
            for number, page in ((desk_n, desk), (phone_n, phone)):
                holds = page.locator("button.pick-card").count() > 0
                if number == phone_n and not repeated and len(picked[number]) >= 3 and holds:
                    repeat_a_pick(page, f"{live_server.url}/t/{tid}/draft/pick")
                    repeated = progress = True
                    continue
                if number == desk_n and not reloaded and len(picked[number]) >= 8 and holds:
                    card = page.locator("button.pick-card").first  # reload mid-pick
                    uid = card.get_attribute("data-uid")
                    card.click(no_wait_after=True)
                    page.reload()
                    assert uid is not None
                    picked[number].append(uid)
                    reloaded = progress = True
                    continue
                uid = pick_now(page)
                if uid is not None:
                    picked[number].append(uid)
                    progress = True
            if not progress:  # both wait for a booster: a refresh of either ends the wait
                desk.wait_for_timeout(100)
        for page in (desk, phone):
            expect(page.locator("#draft-state[data-status=done]")).to_be_visible(timeout=30_000)
            assert_fits(page, "the pick page after the draft")
        assert repeated and reloaded
    finally:
        stop.set()
        thread.join(timeout=30)
    org.set_viewport_size(PHONE)  # the staff's table on a phone: every column, in the width
    org.goto(f"{live_server.url}/t/{tid}/draft/live")
    table = org.locator("#draft-table-1 table.draft-seats")
    expect(table.locator("th.picks")).to_be_visible()
    assert table.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth")
    assert [p.errors for p in api] == [[]] * len(api)
    assert api[0].late_status == 409  # the late pick after the timeout: refused, not applied

    pools = {n: draft_pool(live_server.db, tid, n, account_id=None) for n in seats}
    assert {n: len(pool) for n, pool in pools.items()} == {n: PICKS for n in seats}
    uids = [c.uid for pool in pools.values() for c in pool]
    assert len(uids) == len(set(uids)) == PLAYERS * PICKS  # every card in exactly one pool
    for number in (desk_n, phone_n):  # what the browsers picked is theirs (the reloaded one
        mine = {c.uid for c in pools[number]}  # too, or an automatic pick for it)
        assert sum(uid in mine for uid in picked[number]) >= len(picked[number]) - 2
    log = pick_log(live_server.db, tid, account_id=None)
    assert len(log) == PLAYERS * PICKS
    assert len({(line.booster_round, line.seat, line.pick) for line in log}) == len(log)
    gone = [line for line in log if line.player_number == api[3].number]
    assert [line.auto for line in gone] == [False] * 4 + [True] * (PICKS - 4)

    view = start_round(live_server.db, tid, actor=ORGANIZER)  # the draft goes on to round 1
    paired = sorted(p for line in view.round.pairings for p in line.players)
    assert paired == sorted(seats)
    desk.goto(f"{live_server.url}/t/{tid}/draft/log")
    expect(desk.locator("#pick-log tbody tr")).to_have_count(PLAYERS * PICKS)
    assert_accessible(desk, "the pick log")
    expect(org.locator("#draft-table-1[data-status=done]")).to_be_visible()  # polled
    assert_accessible(org, "the live draft page")


def repeat_a_pick(page: Page, url: str) -> None:
    """Tap a card, then send the very same pick again (as a double tap or a resent form
    would): refused in words, the state shown, nothing picked twice."""
    card = page.locator("button.pick-card").first
    expect(card).to_be_visible(timeout=30_000)
    form = {"csrf_token": page.locator("#pick-form input[name=csrf_token]").input_value(),
            "booster": page.locator("#pick-form input[name=booster]").input_value(),
            "cards_left": page.locator("#pick-form input[name=cards_left]").input_value(),
            "card": card.get_attribute("data-uid") or ""}
    pool = page.locator("#draft-pool li").count()
    card.click()
    expect(page.locator("#draft-pool li")).to_have_count(pool + 1)
    again = page.request.post(url, form=form, max_redirects=0)
    assert again.status == 303 and again.headers["location"].endswith("?refused=1")
    page.goto(url + "?refused=1")
    expect(page.locator("#pick-refused")).to_contain_text("не принят")
    assert page.locator("#draft-pool li").count() == pool + 1

"""Issue 12, the players' flow, in the browser (Playwright, Debian's Chromium, phone size):
players land on their current match after logging in, report with one tap, see the
opponent's report and confirm or dispute it (a dispute shows on the judges' grid), and leave
the tournament after a confirmation page that works without JavaScript (P-7: not paired from
the next round on)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.services.builders import ORGANIZER, event
from tests.web.conftest import (
    PASSWORD,
    Clients,
    LiveServer,
    add_account,
    csrf_of,
    log_in,
    shoot,
    sign_in,
)
from tests.web.pages_check import assert_accessible, assert_fits, assert_tap_targets
from tests.web.test_browser import DESKTOP, PHONE, new_page
from turnir.domain.results import parse_result
from turnir.services import pages
from turnir.services.accounts import AccountRole, make_hasher
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.players import list_players
from turnir.services.queries import audit_log
from turnir.services.results import record_result
from turnir.services.rounds import current_round, start_round
from turnir.storage.database import Database

CARD = "#my-card"


RU = {"accept-language": "ru"}


def _table(server: LiveServer) -> tuple[int, int, int, int]:
    """A running round 1 of 8 players: (tournament, a table, its players A and B)."""
    tid = event(server.db, 8, rounds=3, name="Лига четверга")
    line = next(p for p in start_round(server.db, tid, actor=ORGANIZER).round.pairings
                if p.b is not None)
    assert line.b is not None
    return tid, line.table, line.a, line.b


def _player(browser: Any, server: LiveServer, tid: int, number: int, *,
            javascript: bool = True, viewport: dict[str, int] = PHONE) -> Page:
    """Player ``number`` signed in with the login the organizer made, landed where the login
    form lands a player (its match card; the form itself is walked by each role's day)."""
    made = pages.make_player_login(server.db, tid, number, actor=ORGANIZER,
                                   hasher=make_hasher(fast=True))
    context = browser.new_context(locale="ru-RU", viewport=viewport,
                                  java_script_enabled=javascript)
    page: Page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, server, made.login, made.password)
    assert page.url == f"{server.url}/t/{tid}/me"
    return page


def _heights(page: Page, selector: str) -> list[float]:
    return [box["height"] for box in (page.locator(selector).nth(i).bounding_box()
                                      for i in range(page.locator(selector).count())) if box]


def test_both_players_land_on_their_match_a_reports_with_one_tap_b_confirms(
        live_server: LiveServer, browser: Any, screens: Path) -> None:
    tid, table, a, b = _table(live_server)
    pa, pb = (_player(browser, live_server, tid, n) for n in (a, b))
    for page in (pa, pb):  # landed on the match: the table, six one-tap results
        expect(page.locator(f"{CARD} h2")).to_contain_text(f"Стол {table}")
        expect(page.locator(f"{CARD} button.choice")).to_have_count(6)
        expect(page.locator("header a[href='/me']")).to_have_text("Мой матч")
        assert_fits(page, "the player's card")
        assert_tap_targets(page, "the player's card")
        assert min(_heights(page, f"{CARD} button.choice")) >= 44
    assert_accessible(pa, "the player's card")
    shoot(pa, str(screens / "player-card-phone.png"), full_page=True)
    pa.click(f"{CARD} button[data-score='2-1']")  # "Победа 2-1": one tap
    expect(pa.locator(CARD)).to_have_attribute("data-state", "waiting")
    expect(pa.locator(CARD)).to_contain_text("Вы сообщили 2-1")
    # B's card refreshes by itself: the opponent's 2-1 is 1-2 from B's side
    expect(pb.locator(CARD)).to_have_attribute("data-state", "confirm")
    expect(pb.locator(CARD)).to_contain_text("Соперник сообщил 1-2")
    shoot(pb, str(screens / "player-confirm-phone.png"), full_page=True)
    expect(pb.locator(f"{CARD} button.confirm")).to_have_text("Подтвердить: поражение 1-2")
    pb.click(f"{CARD} button.confirm")  # one tap
    expect(pb.locator(CARD)).to_have_attribute("data-state", "recorded")
    expect(pb.locator(CARD)).to_contain_text("Результат записан: поражение 1-2")
    expect(pb.locator(f"{CARD} button.choice")).to_have_count(0)
    result = current_round(live_server.db, tid).round.pairing_at(table).result
    assert result is not None and result.score == "2-1"  # A's side, as recorded
    expect(pa.locator(CARD)).to_contain_text("Результат записан: победа 2-1")  # A's card refreshed
    pa.set_viewport_size(DESKTOP)
    assert_fits(pa, "the player's card on a desktop")
    shoot(pa, str(screens / "player-recorded-desktop.png"), full_page=True)
    for page in (pa, pb):
        page.context.close()


def test_a_dispute_with_a_comment_shows_on_the_judges_grid(live_server: LiveServer,
                                                           browser: Any, screens: Path) -> None:
    tid, table, a, b = _table(live_server)
    add_account(live_server.db, "judge", AccountRole.FLOOR_JUDGE)
    add_judge(live_server.db, tid, role=JudgeRole.FLOOR_JUDGE, login="judge", actor=ORGANIZER)
    pa, pb = (_player(browser, live_server, tid, n) for n in (a, b))
    pa.click(f"{CARD} button[data-score='2-0']")
    expect(pa.locator(CARD)).to_have_attribute("data-state", "waiting")
    pb.reload()
    expect(pb.locator(CARD)).to_contain_text("Соперник сообщил 0-2")
    pb.click(f"{CARD} details.dispute summary")
    pb.fill(f"{CARD} input[name=comment]", "вторую партию выиграл я")
    pb.click(f"{CARD} button.disputes[data-score='1-2']")  # B's own result: one tap
    expect(pb.locator(CARD)).to_have_attribute("data-state", "disputed")
    expect(pb.locator(CARD)).to_contain_text("судья")
    shoot(pb, str(screens / "player-dispute-phone.png"), full_page=True)
    assert current_round(live_server.db, tid).round.pairing_at(table).result is None
    expect(pa.locator(CARD)).to_have_attribute("data-state", "disputed")  # refreshed by itself
    expect(pa.locator(f"{CARD} .theirs-comment")).to_contain_text("вторую партию выиграл я")
    judge = new_page(browser, viewport=PHONE)
    sign_in(judge, live_server, "judge")
    judge.goto(f"{live_server.url}/t/{tid}/results")
    expect(judge.locator(f"#table-{table} [data-state=disputed]")).to_be_visible()
    reports = audit_log(live_server.db, tid, action="report.submit")
    assert reports[-1].after is not None
    assert reports[-1].after["comment"] == "вторую партию выиграл я"
    for page in (pa, pb, judge):
        page.context.close()


def test_a_player_leaves_after_confirming_without_javascript_and_is_not_paired_next(
        live_server: LiveServer, browser: Any, screens: Path) -> None:
    tid, table, a, _ = _table(live_server)
    pa = _player(browser, live_server, tid, a, javascript=False)
    pa.click(f"{CARD} button[data-score='2-0']")  # a plain form: posted, back on the card
    pa.wait_for_url(f"{live_server.url}/t/{tid}/me")
    expect(pa.locator(CARD)).to_have_attribute("data-state", "waiting")
    pa.click(f"{CARD} .leave a")
    pa.wait_for_url(f"{live_server.url}/t/{tid}/me/leave")
    expect(pa.locator("#leave")).to_contain_text("не будете участвовать в жеребьёвке")
    expect(pa.locator("#leave")).to_contain_text(f"столом {table}")  # the match being played
    assert_fits(pa, "the leave confirmation")
    shoot(pa, str(screens / "player-leave-phone.png"), full_page=True)
    assert list_players(live_server.db, tid)[a - 1].dropped_after is None  # not yet
    pa.click("#leave button[type=submit]")
    pa.wait_for_url(f"{live_server.url}/t/{tid}/me")
    expect(pa.locator(CARD)).to_contain_text("со 2-го тура")
    expect(pa.locator(f"{CARD} .leave")).to_have_count(0)
    assert list_players(live_server.db, tid)[a - 1].dropped_after == 1
    drop = audit_log(live_server.db, tid, action="player.drop")[-1]
    assert drop.entity_id == str(a) and drop.actor == list_players(live_server.db, tid)[a - 1].name
    # the organizer's players list says so; the match in progress is still played
    for line in current_round(live_server.db, tid).round.pairings:
        if line.b is not None:
            record_result(live_server.db, tid, 1, line.table, parse_result("2-0"),
                          actor=ORGANIZER)
    second = start_round(live_server.db, tid, actor=ORGANIZER).round
    assert all(a not in p.players for p in second.pairings)
    add_account(live_server.db, "org", AccountRole.ORGANIZER)
    add_judge(live_server.db, tid, role=JudgeRole.ORGANIZER, login="org", actor=ORGANIZER)
    org = new_page(browser, viewport=PHONE)
    sign_in(org, live_server, "org")
    org.goto(f"{live_server.url}/t/{tid}/manage")
    expect(org.locator(f"#p{a}")).to_contain_text("выбыл")
    for page in (pa, org):
        page.context.close()


def test_a_player_in_two_running_tournaments_gets_a_short_list_and_in_none_the_home_page(
        web_db: Database, clients: Clients) -> None:
    first, second = event(web_db, 6, name="Первый"), event(web_db, 6, name="Второй")
    for tid in (first, second):
        start_round(web_db, tid, actor=ORGANIZER)
    person = list_players(web_db, first)[0].person_id  # "Игрок 01" from Москва plays in both
    add_account(web_db, "both", AccountRole.PLAYER, person_id=person)
    add_account(web_db, "judge", AccountRole.FLOOR_JUDGE)
    player = log_in(clients.new(), "both")
    landed = player.get("/me", headers=RU)
    assert landed.status_code == 200
    assert [int(t) for t in re.findall(r'href="/t/(\d+)/me"', landed.text)] == [second, first]
    assert "Мои матчи" in landed.text
    judge = log_in(clients.new(), "judge")  # no person behind the account: the home page
    assert judge.get("/me", follow_redirects=False).headers["location"] == "/"
    assert judge.get(f"/t/{first}/me").status_code == 403


def test_leaving_needs_the_confirmation_form(web_db: Database, clients: Clients) -> None:
    tid = event(web_db, 6)
    start_round(web_db, tid, actor=ORGANIZER)
    made = pages.make_player_login(web_db, tid, 1, actor=ORGANIZER,
                                   hasher=make_hasher(fast=True))
    player = log_in(clients.new(), made.login, made.password)
    token = csrf_of(player, f"/t/{tid}/me")
    answer = player.post(f"/t/{tid}/me/leave", data={"csrf_token": token},
                         follow_redirects=False)  # a hand-made request without "yes"
    assert answer.headers["location"] == f"/t/{tid}/me/leave"
    assert list_players(web_db, tid)[0].dropped_after is None
    answer = player.post(f"/t/{tid}/me/leave", data={"csrf_token": token, "confirm": "yes"},
                         follow_redirects=False)
    assert answer.headers["location"] == f"/t/{tid}/me"
    assert list_players(web_db, tid)[0].dropped_after == 1


def test_a_poll_of_the_card_gets_nothing_until_the_opponent_reports(
        web_db: Database, clients: Clients) -> None:
    """The card polls with the state it shows: 204 (nothing swapped, a typed comment stays)
    until it changes, then the new card."""
    tid = event(web_db, 6)
    line = next(p for p in start_round(web_db, tid, actor=ORGANIZER).round.pairings
                if p.b is not None)
    assert line.b is not None
    logins = [pages.make_player_login(web_db, tid, n, actor=ORGANIZER,
                                      hasher=make_hasher(fast=True)) for n in (line.a, line.b)]
    pa, pb = (log_in(clients.new(), made.login, made.password) for made in logins)
    poll = {"hx-request": "true", **RU}
    seen = re.search(r'me\?seen=([^"]+)"', pb.get(f"/t/{tid}/me", headers=RU).text)
    assert seen and seen.group(1) == "open.."
    assert pb.get(f"/t/{tid}/me?seen=open..", headers=poll).status_code == 204
    token = csrf_of(pa, f"/t/{tid}/me")
    pa.post(f"/t/{tid}/me/report", data={"csrf_token": token, "round": "1",
                                         "table": str(line.table), "score": "2-1"})
    changed = pb.get(f"/t/{tid}/me?seen=open..", headers=poll)
    assert changed.status_code == 200 and 'data-state="confirm"' in changed.text
    assert "<html" not in changed.text  # the card alone
    assert pb.get(f"/t/{tid}/me?seen=confirm..1-2", headers=poll).status_code == 204


def test_the_match_card_says_which_side_is_the_players(web_db: Database,
                                                        clients: Clients) -> None:
    """QA h11 M8: on a shared or borrowed phone the card says "You: …" and "Opponent: …"."""
    tid = event(web_db, 6)
    line = next(p for p in start_round(web_db, tid, actor=ORGANIZER).round.pairings
                if p.b is not None)
    assert line.b is not None
    names = {p.number: p.name for p in list_players(web_db, tid)}
    made = pages.make_player_login(web_db, tid, line.b, actor=ORGANIZER,
                                   hasher=make_hasher(fast=True))
    card = log_in(clients.new(), made.login, made.password).get(f"/t/{tid}/me", headers=RU)
    text = " ".join(re.sub(r"<[^>]+>", " ", card.text).split())
    assert f"Вы: {names[line.b]} · Соперник: {names[line.a]}" in text


def test_after_login_staff_land_on_the_tournament_they_work_at(web_db: Database,
                                                                clients: Clients) -> None:
    """QA h11 L1: a judge lands on the results grid of the newest running tournament of
    their staff, an organizer on its Manage page; staff of none, the home page; a ``next``
    still wins."""
    older, newer, done = (event(web_db, 6, name=n) for n in ("Старый", "Новый", "Черновик"))
    for tid in (older, newer):
        start_round(web_db, tid, actor=ORGANIZER)
    add_account(web_db, "floor", AccountRole.FLOOR_JUDGE)
    add_account(web_db, "org", AccountRole.ORGANIZER)
    add_account(web_db, "idle", AccountRole.HEAD_JUDGE)
    for tid in (older, newer):
        add_judge(web_db, tid, role=JudgeRole.FLOOR_JUDGE, login="floor", actor=ORGANIZER)
    add_judge(web_db, older, role=JudgeRole.ORGANIZER, login="org", actor=ORGANIZER)
    add_judge(web_db, done, role=JudgeRole.HEAD_JUDGE, login="idle", actor=ORGANIZER)

    def landing(login: str, next_page: str = "/") -> str:
        client = clients.new()
        answer = client.post("/login", data={"login": login, "password": PASSWORD,
                                             "csrf_token": csrf_of(client), "next": next_page},
                             follow_redirects=False)
        assert answer.status_code == 303, answer.text
        return str(answer.headers["location"])

    assert landing("floor") == f"/t/{newer}/results"
    assert landing("org") == f"/t/{older}/manage"
    assert landing("idle") == "/"  # its tournament is not running
    assert landing("floor", f"/t/{older}/standings") == f"/t/{older}/standings"

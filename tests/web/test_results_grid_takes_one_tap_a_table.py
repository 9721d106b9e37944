"""Issue 12, fast results: the judges' results grid has one-tap buttons on each table (the
round's best-of, no drawn result in the top, S-3), a keyboard entry (table, result, Enter: the
next table without a result), an "only missing" filter, and shows who reported and who
confirmed, with a one-tap "accept" of a player's report. In Debian's Chromium at 1366×900 and
390×844 (no page wider than the viewport, taps at least 44 px on the phone), and without JS
(plain form posts)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.services.builders import ORGANIZER, event, play_round, snapshot
from tests.web.conftest import CSRF, PASSWORD, Clients, LiveServer, add_account, sign_in
from tests.web.test_browser import PHONE, new_page
from turnir.domain.results import MatchResult
from turnir.services.accounts import AccountInfo, AccountRole, create_account, make_hasher
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.players import list_players
from turnir.services.reports import report_result
from turnir.services.rounds import current_round, start_round
from turnir.storage.database import Database

DESKTOP = {"width": 1366, "height": 900}
EN = {"accept-language": "en"}
TAPS = re.compile(r'<button name="score" value="([^"]+)" class="tap[ "]')


def _judged(db: Database, players: int, **kwargs: Any) -> tuple[int, list[int]]:
    """A tournament with a head judge "judge", round 1 paired; its match tables."""
    add_account(db, "judge", AccountRole.HEAD_JUDGE)
    tid = event(db, players, **kwargs)
    add_judge(db, tid, role=JudgeRole.HEAD_JUDGE, login="judge", actor=ORGANIZER)
    view = start_round(db, tid, actor=ORGANIZER)
    return tid, sorted(p.table for p in view.round.pairings if p.b is not None)


def _results(db: Database, tid: int) -> dict[int, str | None]:
    rnd = current_round(db, tid).round
    return {p.table: p.result.score if p.result else None
            for p in rnd.pairings if p.b is not None}


def _fits(page: Page, viewport: dict[str, int]) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], width


def _taps(html: str, table: int) -> list[str]:
    row = re.search(rf'<tr id="table-{table}".*?</tr>', html, re.S)
    assert row is not None, html[:2000]
    return TAPS.findall(row.group(0))


def _grid(server: LiveServer, browser: Any, players: int, viewport: dict[str, int]
          ) -> tuple[int, list[int], Page]:
    """``_judged``, and the judge's results page open in Chromium."""
    tid, tables = _judged(server.db, players)
    page = new_page(browser, viewport=viewport)
    sign_in(page, server, "judge")
    page.goto(f"{server.url}/t/{tid}/results")
    return tid, tables, page


class Clicks:
    """Every click of the test goes through here, so it can be counted."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, target: Locator) -> None:
        self.count += 1
        target.click()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_round_of_10_tables_takes_10_taps(live_server: LiveServer, browser: Any,
                                            viewport: dict[str, int]) -> None:
    tid, tables, page = _grid(live_server, browser, 20, viewport)
    assert len(tables) == 10
    first = page.locator(f"#table-{tables[0]}")
    assert [b.inner_text() for b in first.locator("form.taps button.tap").all()] == [
        "2-0", "2-1", "1-1", "1-2", "0-2", "ID"]
    if viewport is PHONE:
        heights = first.locator("button, input:not([type=hidden]), summary").evaluate_all(
            "(els) => els.map((e) => e.getBoundingClientRect().height)")
        assert heights and min(heights) >= 44, heights
    _fits(page, viewport)
    scores = ["2-0", "2-1", "1-1", "1-2", "0-2", "ID", "2-0", "2-1", "0-2", "1-2"]
    click = Clicks()
    for table, score in zip(tables, scores, strict=True):
        click(page.locator(f"#table-{table} form.taps button.tap", has_text=score))
        expect(page.locator(f"#table-{table} td.res")).to_have_text(score)
    expect(page.locator("#grid .progress")).to_contain_text("10 из 10")
    print(f"\nclicks for one round of 10 tables with one-tap buttons ({viewport['width']} px): "
          f"{click.count}")
    assert click.count <= 10 + 2
    assert _results(live_server.db, tid) == dict(zip(tables, scores, strict=True))
    _fits(page, viewport)
    # a correction is opened first (the confirmation), then one tap
    row = page.locator(f"#table-{tables[0]}")
    expect(row.locator("form.taps")).to_be_hidden()
    row.locator("summary").click()
    row.locator("button.tap", has_text="0-2").click()
    expect(page.locator(f"#table-{tables[0]} td.res")).to_have_text("0-2")
    assert _results(live_server.db, tid)[tables[0]] == "0-2"
    page.context.close()


def test_the_keyboard_enters_a_round_and_the_filter_shows_the_missing(
        live_server: LiveServer, browser: Any) -> None:
    tid, tables, page = _grid(live_server, browser, 20, DESKTOP)
    table, score = page.locator("#entry-table"), page.locator("#entry-score")
    expect(table).to_have_value(str(tables[0]))  # the first open table is offered
    click = Clicks()
    click(score)
    keys = 0
    typed = ["21", "2-0", "id", "1-2", "02", "12", "20", "1-1"]
    for number, text in zip(tables, typed, strict=False):  # the first 8, in order
        expect(table).to_have_value(str(number))
        expect(score).to_be_focused()
        page.keyboard.type(text)
        page.keyboard.press("Enter")
        keys += len(text) + 1
        expect(page.locator(f"#table-{number} td.res")).not_to_have_text("")
    assert [_results(live_server.db, tid)[t] for t in tables[:8]] == [
        "2-1", "2-0", "ID", "1-2", "0-2", "1-2", "2-0", "1-1"]
    # the last slip first: its table typed by hand (Shift+Tab back to the table field)
    page.keyboard.press("Shift+Tab")
    page.keyboard.type(str(tables[9]))
    page.keyboard.press("Tab")
    page.keyboard.type("21")
    page.keyboard.press("Enter")
    keys += 1 + len(str(tables[9])) + 1 + 2 + 1
    expect(page.locator(f"#table-{tables[9]} td.res")).to_have_text("2-1")
    expect(table).to_have_value(str(tables[8]))  # on to the one still open, wrapping round
    expect(page.locator(f"#table-{tables[8]}")).to_have_class(re.compile(r"\bnext\b"))
    page.keyboard.type("02")
    page.keyboard.press("Enter")
    keys += 3
    expect(page.locator("#grid .progress")).to_contain_text("10 из 10")
    print(f"\nthe keyboard path for one round of 10 tables: {click.count} click, {keys} keys")
    assert click.count == 1 and keys <= 10 * 4 + 6
    expect(table).to_have_value("")  # nothing left to enter
    # only the missing tables: none now; after a correction opened elsewhere, still none
    click(page.locator("#only-missing"))
    rows = page.locator("#grid tr[id^=table-]")
    expect(rows).to_have_count(0)
    expect(page.locator("#grid")).to_contain_text("У всех столов есть результат.")
    click(page.locator("#show-all"))
    expect(rows).to_have_count(10)
    page.context.close()


def test_the_only_missing_filter_with_one_tap(live_server: LiveServer, browser: Any) -> None:
    tid, tables, page = _grid(live_server, browser, 8, PHONE)
    page.locator(f"#table-{tables[1]} button.tap", has_text="2-0").click()
    expect(page.locator("#grid .progress")).to_contain_text("1 из 4")
    page.locator("#only-missing").click()
    rows = page.locator("#grid tr[id^=table-]")
    expect(rows).to_have_count(3)
    assert [r.get_attribute("id") for r in rows.all()] == [
        f"table-{t}" for t in (tables[0], *tables[2:])]
    _fits(page, PHONE)
    page.locator(f"#table-{tables[0]} button.tap", has_text="ID").click()
    expect(rows).to_have_count(2)  # recorded: it leaves the filtered grid
    expect(page.locator("#grid .progress")).to_contain_text("2 из 4")
    expect(page.locator("#grid .entered")).to_contain_text(f"Стол {tables[0]}: записано ID.")
    page.locator("#show-all").click()
    expect(rows).to_have_count(4)
    assert _results(live_server.db, tid) == {tables[0]: "ID", tables[1]: "2-0",
                                             tables[2]: None, tables[3]: None}
    page.context.close()


def test_bad_keyboard_input_shows_a_message_and_stores_nothing(
        live_server: LiveServer, browser: Any) -> None:
    tid, tables, page = _grid(live_server, browser, 8, PHONE)
    _fits(page, PHONE)
    table, score = page.locator("#entry-table"), page.locator("#entry-score")
    before = snapshot(live_server.db)
    banner = page.locator("#messages .msg.error")
    for bad_table, bad_score, says in (
            ("99", "2-1", "нет стола 99"),  # no such table
            (str(tables[0]), "3-1", "3-1"),  # not a best-of-3 result
            (str(tables[0]), "ничья?", "ничья?")):  # not a result at all
        table.fill(bad_table)
        score.fill(bad_score)
        score.press("Enter")
        expect(banner).to_contain_text(says)
        expect(table).to_have_value(bad_table)
        expect(score).to_have_value(bad_score)
        expect(score).to_be_focused()
    assert snapshot(live_server.db) == before
    _fits(page, PHONE)
    # a result already there is not replaced from the keyboard (a correction is not a typo)
    table.fill(str(tables[0]))
    score.fill("2-0")
    score.press("Enter")
    expect(page.locator(f"#table-{tables[0]} td.res")).to_have_text("2-0")
    expect(page.locator("#messages")).to_be_empty()
    table.fill(str(tables[0]))
    score.fill("0-2")
    score.press("Enter")
    expect(banner).to_contain_text("2-0")
    assert _results(live_server.db, tid)[tables[0]] == "2-0"
    page.context.close()


def test_the_buttons_follow_the_rounds_best_of_and_the_top_has_no_draws(
        web_db: Database, clients: Clients) -> None:
    add_account(web_db, "judge", AccountRole.HEAD_JUDGE)
    judge = clients.as_("judge")
    seen = {}
    for best_of in (1, 5):
        tid = event(web_db, 4, best_of=best_of, name=f"Bo{best_of}")
        add_judge(web_db, tid, role=JudgeRole.HEAD_JUDGE, login="judge", actor=ORGANIZER)
        start_round(web_db, tid, actor=ORGANIZER)
        seen[best_of] = _taps(judge.get(f"/t/{tid}/results", headers=EN).text, 1)
    assert seen[1] == ["1-0", "0-0-1", "0-1", "ID"]
    assert seen[5] == ["3-0", "3-1", "3-2", "1-1", "2-2", "2-3", "1-3", "0-3", "ID"]
    tid = event(web_db, 8, rounds=3, top=4, name="With a top")
    add_judge(web_db, tid, role=JudgeRole.HEAD_JUDGE, login="judge", actor=ORGANIZER)
    for _ in range(3):
        play_round(web_db, tid, "2-1")
    start_round(web_db, tid, actor=ORGANIZER)
    assert current_round(web_db, tid).round.stage.value == "top"
    html = judge.get(f"/t/{tid}/results", headers=EN).text
    assert _taps(html, 1) == ["2-0", "2-1", "1-2", "0-2"]  # no 1-1, no ID (S-3)


def _player(db: Database, tid: int, number: int) -> AccountInfo:
    person = next(p.person_id for p in list_players(db, tid) if p.number == number)
    return create_account(db, login=f"p{number}", name=f"P{number}", password=PASSWORD,
                          role=AccountRole.PLAYER, person_id=person, actor="test",
                          hasher=make_hasher(fast=True))


def _post(client: Any, tid: int, data: dict[str, str], *, htmx: bool) -> Any:
    token = CSRF.search(client.get(f"/t/{tid}/results", headers=EN).text)
    assert token is not None
    return client.post(f"/t/{tid}/results", data={**data, "csrf_token": token.group(1)},
                       headers={**EN, **({"hx-request": "true"} if htmx else {})},
                       follow_redirects=False)


def test_the_grid_shows_who_reported_and_who_confirmed(web_db: Database,
                                                       clients: Clients) -> None:
    tid, tables = _judged(web_db, 8)
    rnd = current_round(web_db, tid).round
    one, two, three = (rnd.pairing_at(t) for t in tables[:3])
    assert one.b is not None and two.b is not None and three.b is not None
    a1, b1 = _player(web_db, tid, one.a), _player(web_db, tid, one.b)
    a2, b2 = _player(web_db, tid, two.a), _player(web_db, tid, two.b)
    b3 = _player(web_db, tid, three.b)
    report_result(web_db, tid, 1, one.table, MatchResult.played(2, 1), account=a1)
    report_result(web_db, tid, 1, one.table, MatchResult.played(1, 2), account=b1)  # agrees
    report_result(web_db, tid, 1, two.table, MatchResult.played(2, 0), account=a2)
    report_result(web_db, tid, 1, two.table, MatchResult.played(2, 0), account=b2)  # differs
    report_result(web_db, tid, 1, three.table, MatchResult.played(2, 0), account=b3)
    judge = clients.as_("judge")
    html = judge.get(f"/t/{tid}/results", headers=EN).text

    def row(table: int) -> str:
        found = re.search(rf'<tr id="table-{table}".*?</tr>', html, re.S)
        assert found is not None
        return found.group(0)

    assert 'data-state="confirmed"' in row(one.table)
    assert "Reported by both players: confirmed." in row(one.table)
    assert 'data-state="disputed"' in row(two.table) and "Dispute" in row(two.table)
    assert re.findall(r'class="accept" data-side="(\w)"', row(two.table)) == ["A", "B"]
    assert 'data-state="waiting"' in row(three.table)
    assert "has not confirmed yet" in row(three.table)
    accept = re.findall(r'value="([^"]+)" class="accept" data-side="B"', row(three.table))
    assert accept == ["0-2"]  # player B's 2-0 from B's side is 0-2 in the grid (A first)
    # the judge accepts B's report with one tap
    answer = _post(judge, tid, {"round": "1", "table": str(three.table), "score": "0-2"},
                   htmx=True)
    assert answer.status_code == 200, answer.text[:300]
    assert _results(web_db, tid)[three.table] == "0-2"
    assert "accepted by a judge" in answer.text


def test_without_js_a_tap_redirects_and_a_bad_entry_keeps_the_typed_text(
        web_db: Database, clients: Clients) -> None:
    tid, tables = _judged(web_db, 8)
    judge = clients.as_("judge")
    # one tap as a plain form post: back to the grid, which says what was recorded and offers
    # the next open table to the keyboard entry
    answer = _post(judge, tid, {"round": "1", "table": str(tables[0]), "score": "2-1"},
                   htmx=False)
    assert answer.status_code == 303
    assert answer.headers["location"] == f"/t/{tid}/results?round=1&after={tables[0]}"
    page = judge.get(answer.headers["location"], headers=EN).text
    assert f"Table {tables[0]}: 2-1 recorded." in page
    assert 'id="entry-table" name="table"' in page
    assert re.search(rf'id="entry-table"[^>]*value="{tables[1]}"', page)
    # a wrong result: the page again with the message and the entry as typed
    before = snapshot(web_db)
    answer = _post(judge, tid, {"round": "1", "table": str(tables[1]), "score": "5-5"},
                   htmx=False)
    assert answer.status_code == 422
    assert 'id="entry-error"' in answer.text and "5-5" in answer.text
    assert re.search(r'id="entry-score"[^>]*value="5-5"', answer.text)
    assert re.search(rf'id="entry-table"[^>]*value="{tables[1]}"', answer.text)
    assert snapshot(web_db) == before
    # the filter without JS: a plain link, only the tables without a result
    page = judge.get(f"/t/{tid}/results?round=1&missing=1", headers=EN).text
    assert f'id="table-{tables[0]}"' not in page
    assert all(f'id="table-{t}"' in page for t in tables[1:])
    assert 'name="missing" value="true"' in page


def test_a_floor_judge_reads_a_disputes_comment_on_the_grid(web_db: Database,
                                                           clients: Clients) -> None:
    """A player's words for the judge with a report (a dispute's "why") are on the table's row
    of the grid, for a floor judge too, escaped; the round's comments are read once, so a
    comment at one table never shows at another, and a report without one shows none."""
    add_account(web_db, "floor", AccountRole.FLOOR_JUDGE)
    tid, tables = _judged(web_db, 8)
    add_judge(web_db, tid, role=JudgeRole.FLOOR_JUDGE, login="floor", actor=ORGANIZER)
    rnd = current_round(web_db, tid).round
    one, two = rnd.pairing_at(tables[0]), rnd.pairing_at(tables[1])
    assert one.b is not None and two.b is not None
    a1, b1 = _player(web_db, tid, one.a), _player(web_db, tid, one.b)
    a2 = _player(web_db, tid, two.a)
    report_result(web_db, tid, 1, one.table, MatchResult.played(2, 1), account=a1)
    report_result(web_db, tid, 1, one.table, MatchResult.played(2, 1), account=b1,
                  comment="<b>he conceded</b> game 3")  # a dispute with its "why"
    report_result(web_db, tid, 1, two.table, MatchResult.played(2, 0), account=a2)
    html = clients.as_("floor").get(f"/t/{tid}/results", headers=EN).text

    def row(table: int) -> str:
        found = re.search(rf'<tr id="table-{table}".*?</tr>', html, re.S)
        assert found is not None, html[:2000]
        return found.group(0)

    assert 'data-state="disputed"' in row(one.table)
    said = re.search(r'<p class="said"[^>]*>(.*?)</p>', row(one.table), re.S)
    assert said is not None, row(one.table)
    name_b = next(p.name for p in list_players(web_db, tid) if p.number == one.b)
    assert said.group(1) == (f"{name_b} writes to the judge: "
                             "«&lt;b&gt;he conceded&lt;/b&gt; game 3»")
    assert "<b>he conceded" not in html
    assert 'class="said"' not in row(two.table)  # reported without a comment
    ru = clients.as_("floor").get(f"/t/{tid}/results").text
    assert f"{name_b} пишет судье: «&lt;b&gt;he conceded&lt;/b&gt; game 3»" in ru


def test_on_a_phone_a_long_comment_shows_two_lines_until_tapped(live_server: LiveServer,
                                                                browser: Any) -> None:
    db = live_server.db
    add_account(db, "floor", AccountRole.FLOOR_JUDGE)
    tid, tables = _judged(db, 8)
    add_judge(db, tid, role=JudgeRole.FLOOR_JUDGE, login="floor", actor=ORGANIZER)
    one = current_round(db, tid).round.pairing_at(tables[0])
    assert one.b is not None
    report_result(db, tid, 1, one.table, MatchResult.played(2, 1), account=_player(db, tid, one.a))
    words = ("Третью партию соперник сдал, когда у меня было двенадцать кристаллов; прошу "
             "судью подойти к столу и посмотреть на поле, пока мы его не убрали")
    report_result(db, tid, 1, one.table, MatchResult.played(2, 1),
                  account=_player(db, tid, one.b), comment=words)
    page = new_page(browser, viewport=PHONE)
    sign_in(page, live_server, "floor")
    page.goto(f"{live_server.url}/t/{tid}/results")
    said = page.locator(f"#table-{one.table} .said")
    expect(said).to_contain_text("пишет судье")
    line = said.evaluate("(p) => parseFloat(getComputedStyle(p).lineHeight)")
    assert said.evaluate("(p) => p.scrollHeight > p.clientHeight")  # shortened
    assert said.evaluate("(p) => p.clientHeight") <= 2 * line + 1
    said.click()  # a tap: the whole comment
    expect(said).to_be_focused()
    assert said.evaluate("(p) => p.scrollHeight <= p.clientHeight + 1")
    assert said.get_attribute("title") == words
    _fits(page, PHONE)
    page.context.close()


def test_each_players_report_reads_from_their_side_next_to_their_name(
        web_db: Database, clients: Clients) -> None:
    """QA: player B reported their own 0-2 loss; the grid once put A's-side "2-0" beside B's
    name (as if B claimed a win). Next to each name the report reads from that player's side;
    the accept button keeps the grid's order (A first), as the result column."""
    tid, tables = _judged(web_db, 8)
    rnd = current_round(web_db, tid).round
    one, two, three = (rnd.pairing_at(t) for t in tables[:3])
    assert one.b is not None and two.b is not None and three.b is not None
    report_result(web_db, tid, 1, one.table, MatchResult.played(0, 2),
                  account=_player(web_db, tid, one.b))
    report_result(web_db, tid, 1, two.table, MatchResult.played(2, 0),
                  account=_player(web_db, tid, two.a))
    report_result(web_db, tid, 1, two.table, MatchResult.played(2, 1),
                  account=_player(web_db, tid, two.b))
    report_result(web_db, tid, 1, three.table, MatchResult.played(0, 2),
                  account=_player(web_db, tid, three.b))
    judge = clients.as_("judge")
    answer = _post(judge, tid, {"round": "1", "table": str(three.table), "score": "1-1"},
                   htmx=True)  # a judge decides otherwise
    assert answer.status_code == 200
    html = judge.get(f"/t/{tid}/results", headers=EN).text
    names = {p.number: p.name for p in list_players(web_db, tid)}

    def note(table: int) -> str:
        found = re.search(rf'<tr id="table-{table}".*?<div class="reports[^>]*>(.*?)</div>',
                          html, re.S)
        assert found is not None
        return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())

    assert f"{names[one.b]} reported 0-2; {names[one.a]} has not confirmed yet." in note(
        one.table)
    assert re.findall(r'value="([^"]+)" class="accept" data-side="B"',
                      html.split(f'id="table-{one.table}"')[1].split("</tr>")[0]) == ["2-0"]
    assert f"Dispute: {names[two.a]} 2-0, {names[two.b]} 2-1" in note(two.table)
    assert f"Decided by a judge; reported: {names[three.b]} 0-2" in note(three.table)
    assert "(each player's own wins first)" in note(three.table)


def test_a_recorded_result_moves_the_table_field_and_a_judge_is_told_to_correct(
        web_db: Database, clients: Clients) -> None:
    """QA h11 M3: a one-tap result (HTMX) sends the keyboard entry's table field, pointing at
    the next open table, with the grid; a typed result for a table that has one tells the
    judge to use "Correct the result" (not "only a judge may correct it")."""
    tid, tables = _judged(web_db, 8)
    judge = clients.as_("judge")
    answer = _post(judge, tid, {"round": "1", "table": str(tables[0]), "score": "2-0"},
                   htmx=True)
    assert answer.status_code == 200
    field = re.search(r'<input id="entry-table"[^>]*>', answer.text)
    assert field is not None and 'hx-swap-oob="true"' in field.group(0)
    assert f'value="{tables[1]}"' in field.group(0)
    poll = judge.get(f"/t/{tid}/results", headers={**EN, "hx-request": "true"})
    assert 'id="entry-table"' not in poll.text  # a poll leaves what is typed alone
    refused = _post(judge, tid, {"round": "1", "table": str(tables[0]), "score": "21"},
                    htmx=True)
    assert refused.status_code == 409
    assert "Correct the result" in refused.text and "judge" not in refused.text
    assert _results(web_db, tid)[tables[0]] == "2-0"


def test_on_a_phone_a_tap_then_the_keyboard_goes_to_the_next_table(
        live_server: LiveServer, browser: Any) -> None:
    """QA h11 M3 in the browser: after a one-tap result the keyboard's table field points at
    the next open table, so the next typed result goes there (not to the table just tapped,
    refused); a refusal is cleared by the next success."""
    tid, tables, page = _grid(live_server, browser, 8, PHONE)
    table, score = page.locator("#entry-table"), page.locator("#entry-score")
    expect(table).to_have_value(str(tables[0]))
    page.locator(f"#table-{tables[0]} form.taps button.tap", has_text="2-1").click()
    expect(page.locator(f"#table-{tables[0]} td.res")).to_have_text("2-1")
    expect(table).to_have_value(str(tables[1]))
    score.fill("02")
    score.press("Enter")
    expect(page.locator(f"#table-{tables[1]} td.res")).to_have_text("0-2")
    expect(table).to_have_value(str(tables[2]))
    table.fill(str(tables[0]))  # by hand: a table that has its result
    score.fill("20")
    score.press("Enter")
    expect(page.locator("#messages")).to_contain_text("Исправить результат")
    assert _results(live_server.db, tid)[tables[0]] == "2-1"
    page.locator(f"#table-{tables[2]} form.taps button.tap", has_text="2-0").click()
    expect(page.locator(f"#table-{tables[2]} td.res")).to_have_text("2-0")
    expect(page.locator("#messages")).not_to_contain_text("Исправить результат")
    expect(table).to_have_value(str(tables[3]))
    _fits(page, PHONE)
    page.context.close()

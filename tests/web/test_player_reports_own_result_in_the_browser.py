"""Issue 12, items 5 and 9: a player's own report in the browser (Playwright, Chromium).

Item 5: a best-of-3 "0-0" with no drawn game cannot come from the games (S-2) and is refused
from a player with a readable message; a judge's match without games (intentional draw, S-4; a
double no-show) is its own ending and stays possible. Item 9 (once the opponent's report is
confirmed, the player's page shows the recorded result and no longer asks to confirm) is proven
in the players' walk of ``test_browser::test_players_report_and_confirm_and_a_judge_overrides``:
the same two phones, report and confirmation, walked once.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.services.builders import ORGANIZER
from tests.web.conftest import LiveServer, add_account, sign_in
from tests.web.test_browser import PHONE, _open_table, _player_login, new_page
from turnir.domain.model import Pairing, Settings, Stage
from turnir.domain.results import MatchEnding, MatchOutcome, MatchResult
from turnir.domain.tournament import check_result_change
from turnir.errors import UserError
from turnir.services.accounts import AccountRole
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.reports import round_reports
from turnir.services.rounds import current_round

NO_SHOWS = MatchResult(0, 0, 0, MatchOutcome.DOUBLE_LOSS, MatchEnding.NO_SHOW)


def _players(server: LiveServer, browser: Any) -> tuple[int, int, Page, Page, list[Page]]:
    """A running round; the two players of one table logged in on phones at its page."""
    add_account(server.db, "org", AccountRole.ORGANIZER)
    tid, table, _, _ = _open_table(server)
    add_judge(server.db, tid, role=JudgeRole.ORGANIZER, login="org", actor=ORGANIZER)
    line = current_round(server.db, tid).round.pairing_at(table)
    assert line.b is not None
    org = new_page(browser, locale="en-US")
    sign_in(org, server, "org")
    opened = [org]
    for number in (line.a, line.b):
        name, password = _player_login(org, server, tid, number)
        page = new_page(browser, locale="en-US", viewport=PHONE)
        sign_in(page, server, name, password)
        page.goto(f"{server.url}/t/{tid}")
        expect(page.locator("#my-match")).to_contain_text(f"Table {table}")
        opened.append(page)
    return tid, table, opened[1], opened[2], opened


def _report(page: Page, score: str) -> None:
    """The score typed into the overview's match card ("Another score": the player's games
    first, drawn games third), as the card's one-tap buttons offer only a best-of's results."""
    other = page.locator("#my-card details.other")
    other.evaluate("(details) => { details.open = true; }")
    other.locator("input[name=score]").fill(score)
    other.locator("button[type=submit]").click()


def test_item5_a_player_cannot_report_0_0_without_drawn_games(live_server: LiveServer,
                                                              browser: Any) -> None:
    tid, table, a, _, opened = _players(live_server, browser)
    _report(a, "0-0")
    expect(a.locator("#messages")).to_contain_text("no game was played")
    assert round_reports(live_server.db, tid, 1) == {}
    assert current_round(live_server.db, tid).round.pairing_at(table).result is None
    _report(a, "0-0-1")  # one drawn game is a result that can happen
    expect(a.locator("#my-card")).to_contain_text("You reported 0-0-1")
    assert table in round_reports(live_server.db, tid, 1)
    for page in opened:
        page.context.close()


@pytest.mark.parametrize("result", [MatchResult.intentional_draw(), NO_SHOWS])
def test_item5_a_judge_still_records_a_match_without_games(result: MatchResult) -> None:
    def change(by_player: bool) -> bool:
        return check_result_change(Pairing(1, 1, 2), result, round_number=1,
                                   stage=Stage.SWISS, settings=Settings(), last_round=1,
                                   correction=False, by_player=by_player)

    assert change(False) and change(True)
    with pytest.raises(UserError, match="no game was played"):
        check_result_change(Pairing(1, 1, 2), MatchResult.played(0, 0), round_number=1,
                            stage=Stage.SWISS, settings=Settings(), last_round=1,
                            correction=False, by_player=True)

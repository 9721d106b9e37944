"""Issue 15 (load): the cached live parts of the public pages (``turnir.web.public.cached``).

- A signed-in player gets the very part an anonymous visitor gets (rendered once for both);
  only the page's shell, with the account, is theirs.
- The stale tolerance (``live_stale_s``): a part rendered at most that many seconds ago is
  served although the tournament changed since, marked ``X-Turnir-Stale``; never to the
  tournament's staff; 0 is always fresh.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.services.builders import ORGANIZER, event
from tests.services.test_reports import PASSWORD as PLAYER_PASSWORD
from tests.services.test_reports import players
from tests.web.conftest import add_account, log_in, settings_for
from turnir.domain.results import parse_result
from turnir.errors import UserError
from turnir.services.accounts import AccountRole
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.results import record_result
from turnir.services.rounds import start_round
from turnir.storage.database import Database
from turnir.web.app import create_app
from turnir.web.cache import STALE_HEADER
from turnir.web.deps import WebState
from turnir.web.settings import WebSettings

HTMX = {"HX-Request": "true"}


def _open(web_db: Database, stale_s: int) -> Iterator[tuple[TestClient, WebState]]:
    app = create_app(settings_for(web_db, live_stale_s=stale_s), db=web_db)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client, app.state.web


@pytest.fixture
def fresh(web_db: Database) -> Iterator[tuple[TestClient, WebState]]:
    yield from _open(web_db, 0)


@pytest.fixture
def tolerant(web_db: Database) -> Iterator[tuple[TestClient, WebState]]:
    yield from _open(web_db, 60)


def _round(web_db: Database) -> tuple[int, int, int]:
    """A tournament of 6 in round 1: (its id, a match's table, that table's player A)."""
    tid = event(web_db, 6)
    line = next(p for p in start_round(web_db, tid, actor=ORGANIZER).round.pairings
                if p.b is not None)
    return tid, line.table, line.a


def _other(client: TestClient) -> TestClient:
    return TestClient(client.app, raise_server_exceptions=False)


@pytest.mark.parametrize("tab", ["pairings", "standings"])
def test_a_signed_in_player_gets_the_anonymous_visitors_part_rendered_once(
        web_db: Database, fresh: tuple[TestClient, WebState], tab: str) -> None:
    client, state = fresh
    tid, _, a = _round(web_db)
    players(web_db, tid)
    anonymous = client.get(f"/t/{tid}/{tab}", headers=HTMX)
    misses = state.cache.misses
    with _other(client) as player:
        log_in(player, f"t{tid}p{a}", PLAYER_PASSWORD)
        mine = player.get(f"/t/{tid}/{tab}", headers=HTMX)
        page = player.get(f"/t/{tid}/{tab}")
    assert anonymous.status_code == mine.status_code == page.status_code == 200
    assert mine.text == anonymous.text
    assert state.cache.misses == misses  # the player's part came from the cache
    assert anonymous.text in page.text  # the page: the same part inside the player's shell


def test_within_the_tolerance_a_changed_tournament_gets_the_part_rendered_before(
        web_db: Database, tolerant: tuple[TestClient, WebState]) -> None:
    client, state = tolerant
    tid, table, _ = _round(web_db)
    before = client.get(f"/t/{tid}/pairings", headers=HTMX)
    assert STALE_HEADER not in before.headers
    record_result(web_db, tid, 1, table, parse_result("2-0"), actor=ORGANIZER)
    misses = state.cache.misses
    after = client.get(f"/t/{tid}/pairings", headers=HTMX)
    page = client.get(f"/t/{tid}/pairings")  # the whole page, from the middleware's cache
    assert after.text == before.text and ">2-0<" not in after.text
    assert after.headers[STALE_HEADER] == "1" and page.headers.get(STALE_HEADER) == "1"
    assert state.cache.misses == misses


def test_the_staff_never_get_a_stale_part(web_db: Database,
                                          tolerant: tuple[TestClient, WebState]) -> None:
    client, _ = tolerant
    tid, table, _ = _round(web_db)
    add_account(web_db, "judge", AccountRole.HEAD_JUDGE)
    add_judge(web_db, tid, role=JudgeRole.HEAD_JUDGE, login="judge", actor=ORGANIZER)
    client.get(f"/t/{tid}/standings", headers=HTMX)  # cached for the public
    with _other(client) as judge:
        log_in(judge, "judge")
        judge.get(f"/t/{tid}/standings", headers=HTMX)
        record_result(web_db, tid, 1, table, parse_result("2-0"), actor=ORGANIZER)
        seen = judge.get(f"/t/{tid}/standings", headers=HTMX)
        pairings = judge.get(f"/t/{tid}/pairings", headers=HTMX)
    assert STALE_HEADER not in seen.headers and STALE_HEADER not in pairings.headers
    assert ">2-0<" in pairings.text
    public = client.get(f"/t/{tid}/standings", headers=HTMX)  # the public may lag meanwhile
    assert public.headers.get(STALE_HEADER) == "1" and public.text != seen.text


def test_a_tolerance_of_0_is_always_fresh(web_db: Database,
                                          fresh: tuple[TestClient, WebState]) -> None:
    client, _ = fresh
    tid, table, _ = _round(web_db)
    client.get(f"/t/{tid}/pairings", headers=HTMX)
    client.get(f"/t/{tid}/pairings")
    record_result(web_db, tid, 1, table, parse_result("2-0"), actor=ORGANIZER)
    part = client.get(f"/t/{tid}/pairings", headers=HTMX)
    page = client.get(f"/t/{tid}/pairings")
    assert ">2-0<" in part.text and ">2-0<" in page.text
    assert STALE_HEADER not in part.headers and STALE_HEADER not in page.headers


def test_the_tolerance_comes_from_the_environment() -> None:
    assert WebSettings.from_env({}).live_stale_s == 3
    assert WebSettings.from_env({"TURNIR_LIVE_STALE_S": "0"}).live_stale_s == 0
    assert WebSettings().live_stale_s == 0
    for wrong in ("-1", "61", "soon"):
        with pytest.raises(UserError):
            WebSettings.from_env({"TURNIR_LIVE_STALE_S": wrong})

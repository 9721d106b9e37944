"""The staff's audit log page (issue 10 item 14): the newest entries, "verified" at the top, or
the first entry that does not match after an edit behind the log's back; for the tournament's
organizer and head judge only. Runs on SQLite and PostgreSQL (the ``db`` fixture)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from tests.services.audit_builders import behind_the_triggers, entry_id
from tests.services.builders import ORGANIZER, event, play_round
from tests.web.conftest import add_account, log_in, settings_for
from turnir.services.accounts import AccountRole
from turnir.services.judges import JudgeRole, add_judge
from turnir.storage.database import Database
from turnir.storage.tables import audit_log, pairings
from turnir.web.app import create_app


@pytest.fixture
def staffed(db: Database) -> Iterator[tuple[Database, int, TestClient]]:
    """A tournament with one round played, its organizer, head judge and a floor judge."""
    tid = event(db, 6, rounds=2)
    play_round(db, tid)
    for login, role, staff in (("org", AccountRole.ORGANIZER, JudgeRole.ORGANIZER),
                               ("head", AccountRole.HEAD_JUDGE, JudgeRole.HEAD_JUDGE),
                               ("floor", AccountRole.FLOOR_JUDGE, JudgeRole.FLOOR_JUDGE)):
        add_account(db, login, role)
        add_judge(db, tid, role=staff, actor=ORGANIZER, login=login)
    with TestClient(create_app(settings_for(db), db=db), raise_server_exceptions=False) as c:
        yield db, tid, c


def _page(client: TestClient, tid: int, locale: str = "en") -> str:
    answer = client.get(f"/t/{tid}/log", headers={"accept-language": locale})
    assert answer.status_code == 200, answer.text
    return answer.text


def test_item14_the_log_page_shows_verified_to_the_organizer_and_head_judge(
        staffed: tuple[Database, int, TestClient]) -> None:
    _db, tid, client = staffed
    log_in(client, "head")
    page = _page(client, tid)
    assert 'data-status="verified"' in page and "Verified:" in page
    assert "result.record" in page and 'id="entry-1"' in page
    assert "Проверено" in _page(client, tid, "ru")
    log_in(client, "org")
    assert f'href="/t/{tid}/log"' in client.get(f"/t/{tid}/manage").text  # the tab
    assert 'data-status="verified"' in _page(client, tid)


def test_item14_the_log_page_is_for_the_tournaments_organizer_and_head_judge_only(
        staffed: tuple[Database, int, TestClient]) -> None:
    db, tid, client = staffed
    assert client.get(f"/t/{tid}/log", follow_redirects=False).status_code in (303, 401)
    log_in(client, "floor")
    assert client.get(f"/t/{tid}/log").status_code == 403
    assert f'href="/t/{tid}/log"' not in client.get(f"/t/{tid}/results").text
    other = event(db, 4, rounds=1, name="Чужой турнир")
    log_in(client, "head")
    assert client.get(f"/t/{other}/log").status_code == 403  # head judge of another one


def test_item14_the_log_page_shows_the_first_broken_entry(
        staffed: tuple[Database, int, TestClient]) -> None:
    db, tid, client = staffed
    log_in(client, "org")
    with db.write() as conn:
        conn.execute(update(pairings).where(pairings.c.tournament_id == tid,
                                            pairings.c.table_no == 2)
                     .values(wins_a=0, wins_b=2, outcome="b_wins"))
    page = _page(client, tid)
    assert 'data-status="broken"' in page and 'data-kind="differs"' in page
    assert "Round 1 table 2 differs" in page and "logged 2, stored 0" in page
    assert "Тур 1, стол 2" in _page(client, tid, "ru")
    target = entry_id(db, tid, "result.record", 0)
    with behind_the_triggers(db) as conn:
        conn.execute(update(audit_log).where(audit_log.c.id == target).values(actor="Никто"))
    page = _page(client, tid)
    assert 'data-kind="altered"' in page and f'data-entry="{target}"' in page
    assert "does not match its hash" in page and "Findings in all: 2" in page

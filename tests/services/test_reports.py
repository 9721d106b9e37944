"""Players' result reports (issue 10 items 2 and 3): a report belongs to one pairing and its
two players, so it never confirms a different match after an undo or a swap; the report that
confirms the opponent's and the result it records are one transaction."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import func, select, update

from tests.services.builders import JUDGE, ORGANIZER, event, play_round, snapshot
from turnir.domain.results import MatchResult, parse_result
from turnir.errors import ConflictError
from turnir.services.accounts import AccountInfo, AccountRole, create_account, make_hasher
from turnir.services.queries import audit_log
from turnir.services.reports import ReportStatus, report_result, round_reports
from turnir.services.results import ResultStatus, record_result
from turnir.services.rounds import start_round, swap_seats, undo_round
from turnir.services.tournaments import get_tournament
from turnir.storage.database import Database
from turnir.storage.tables import entries, pairings
from turnir.storage.tables_accounts import result_reports

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "пароль-игрока"
WIN, LOSS = parse_result("2-0"), parse_result("0-2")


def players(db: Database, tid: int) -> dict[int, AccountInfo]:
    """A player's account for every entry of the tournament, by entry number."""
    with db.read() as conn:
        rows = conn.execute(select(entries.c.number, entries.c.person_id)
                            .where(entries.c.tournament_id == tid)).all()
    return {number: create_account(db, login=f"t{tid}p{number}", name=f"Игрок {number}",
                                   password=PASSWORD, role=AccountRole.PLAYER,
                                   person_id=person, actor=ORGANIZER,
                                   hasher=make_hasher(fast=True))
            for number, person in rows}


def table_of(db: Database, tid: int, round_number: int, table: int) -> tuple[int, int]:
    line = get_tournament(db, tid).tournament.round(round_number).pairing_at(table)
    assert line.b is not None
    return line.a, line.b


def stored_reports(db: Database, tid: int) -> int:
    with db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(result_reports)
                                .where(result_reports.c.tournament_id == tid)).scalar_one())


def result_at(db: Database, tid: int, round_number: int, table: int) -> MatchResult | None:
    return get_tournament(db, tid).tournament.round(round_number).pairing_at(table).result


def test_item2_stale_report_discarded_after_undo(db: Database) -> None:
    tid = event(db, 8, rounds=3, seed=1)
    accounts = players(db, tid)
    play_round(db, tid)
    start_round(db, tid, actor=ORGANIZER)
    p1, old_opponent = table_of(db, tid, 2, 1)
    assert report_result(db, tid, 2, 1, WIN, account=accounts[p1]).status is \
        ReportStatus.WAITING
    undo_round(db, tid, actor=ORGANIZER)
    assert stored_reports(db, tid) == 0  # the pairing went, and its reports with it
    start_round(db, tid, actor=ORGANIZER)
    again, new_opponent = table_of(db, tid, 2, 1)
    assert again == p1 and new_opponent != old_opponent  # P1 now faces someone else
    assert round_reports(db, tid, 2) == {}
    # the new opponent agrees with what P1 reported against the old one: not a confirmation
    answer = report_result(db, tid, 2, 1, LOSS, account=accounts[new_opponent])
    assert answer.status is ReportStatus.WAITING and answer.recorded is None
    assert result_at(db, tid, 2, 1) is None
    assert not [e for e in audit_log(db, tid, action="result.record") if e.entity_id == "2.1"]
    # P1 reports the new match: now both players of *this* pairing agree
    confirmed = report_result(db, tid, 2, 1, WIN, account=accounts[p1])
    assert confirmed.status is ReportStatus.RECORDED
    assert result_at(db, tid, 2, 1) == WIN


def test_item2_stale_report_discarded_after_undo_even_with_the_same_players(
        db: Database) -> None:
    tid = event(db, 8, rounds=3, seed=7)
    accounts = players(db, tid)
    play_round(db, tid)
    start_round(db, tid, actor=ORGANIZER)
    a, b = table_of(db, tid, 2, 1)
    report_result(db, tid, 2, 1, WIN, account=accounts[a])
    undo_round(db, tid, actor=ORGANIZER)
    start_round(db, tid, actor=ORGANIZER)
    assert table_of(db, tid, 2, 1) == (a, b)  # re-paired the same: still a new pairing
    assert report_result(db, tid, 2, 1, LOSS, account=accounts[b]).status is \
        ReportStatus.WAITING


@pytest.mark.parametrize("moved", ["reporter's opponent", "reporter"])
def test_item2_swap_discards_the_reports_of_the_changed_tables(db: Database,
                                                               moved: str) -> None:
    tid = event(db, 8, rounds=3)
    accounts = players(db, tid)
    start_round(db, tid, actor=ORGANIZER)
    a1, b1 = table_of(db, tid, 1, 1)
    a2, b2 = table_of(db, tid, 1, 2)
    a3, b3 = table_of(db, tid, 1, 3)
    report_result(db, tid, 1, 1, WIN, account=accounts[a1])  # a1 says: I beat b1
    report_result(db, tid, 1, 3, WIN, account=accounts[a3])  # another table, untouched
    if moved == "reporter's opponent":
        swap_seats(db, tid, 1, b1, b2, actor=JUDGE)
        # table 1 is now a1 vs b2; b2 "confirms" the result a1 reported against b1
        newcomer, confirming = b2, LOSS
    else:
        swap_seats(db, tid, 1, a1, a2, actor=JUDGE)
        # table 1 is now a2 vs b1; a2 agrees with the report a1 made
        newcomer, confirming = a2, WIN
    assert newcomer in table_of(db, tid, 1, 1)
    assert set(round_reports(db, tid, 1)) == {3}
    answer = report_result(db, tid, 1, 1, confirming, account=accounts[newcomer])
    assert answer.status is ReportStatus.WAITING
    assert result_at(db, tid, 1, 1) is None
    # the untouched table keeps its report and is confirmed as usual
    assert report_result(db, tid, 1, 3, LOSS, account=accounts[b3]).status is \
        ReportStatus.RECORDED


def test_item2_a_report_counts_only_for_its_two_players(db: Database) -> None:
    """Even a pairing row changed in place without deleting its reports (a path that forgot
    to) cannot pass an old report to a new opponent: reports are bound to A and B."""
    tid = event(db, 8, rounds=3)
    accounts = players(db, tid)
    start_round(db, tid, actor=ORGANIZER)
    a1, _ = table_of(db, tid, 1, 1)
    _, b2 = table_of(db, tid, 1, 2)
    report_result(db, tid, 1, 1, WIN, account=accounts[a1])
    with db.write() as conn:  # b2 moved to table 1 behind the services' back
        conn.execute(update(pairings).where(pairings.c.tournament_id == tid,
                                            pairings.c.table_no == 1).values(b=b2))
    assert round_reports(db, tid, 1) == {}
    assert report_result(db, tid, 1, 1, LOSS, account=accounts[b2]).status is \
        ReportStatus.WAITING
    assert result_at(db, tid, 1, 1) is None
    assert stored_reports(db, tid) == 1  # the unbound report was replaced, not kept


def test_item2_a_judges_result_settles_the_reports(db: Database) -> None:
    tid = event(db, 8, rounds=3)
    accounts = players(db, tid)
    start_round(db, tid, actor=ORGANIZER)
    a, b = table_of(db, tid, 1, 1)
    report_result(db, tid, 1, 1, WIN, account=accounts[a])
    assert report_result(db, tid, 1, 1, WIN, account=accounts[b]).status is \
        ReportStatus.DISPUTED  # each says they won
    disputed = round_reports(db, tid, 1)[1]
    assert disputed.disputed and disputed.a == WIN and disputed.b == LOSS
    record_result(db, tid, 1, 1, WIN, actor=JUDGE)
    assert round_reports(db, tid, 1) == {}  # decided: nothing pending at the table
    fixed = record_result(db, tid, 1, 1, LOSS, actor=JUDGE, correction=True)
    assert fixed.status is ResultStatus.CORRECTED and round_reports(db, tid, 1) == {}
    assert report_result(db, tid, 1, 1, WIN, account=accounts[b]).status is \
        ReportStatus.UNCHANGED
    with pytest.raises(ConflictError, match="ask a judge to correct it"):
        report_result(db, tid, 1, 1, WIN, account=accounts[a])


def test_item3_a_failure_while_recording_keeps_neither_report_nor_result(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    tid = event(db, 8, rounds=3)
    accounts = players(db, tid)
    start_round(db, tid, actor=ORGANIZER)
    a, b = table_of(db, tid, 1, 1)
    report_result(db, tid, 1, 1, WIN, account=accounts[a])
    before = snapshot(db)

    def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the server died while recording")

    # the penalty hook runs last in recording, after the result and its audit record
    monkeypatch.setattr("turnir.services.results.settle_penalty_losses", crash)
    with pytest.raises(RuntimeError, match="died while recording"):
        report_result(db, tid, 1, 1, LOSS, account=accounts[b])
    assert snapshot(db) == before  # not the second report, not the result, not a log entry
    monkeypatch.undo()
    done = report_result(db, tid, 1, 1, LOSS, account=accounts[b])
    assert done.status is ReportStatus.RECORDED and done.recorded is not None
    assert done.recorded.status is ResultStatus.RECORDED
    assert result_at(db, tid, 1, 1) == WIN
    assert [e.action for e in audit_log(db, tid, action="result")] == ["result.record"]


def test_item3_sigkill_between_report_and_result_keeps_neither(database_url: str) -> None:
    db = Database.open(database_url)
    try:
        tid = event(db, 8, rounds=3)
        accounts = players(db, tid)
        start_round(db, tid, actor=ORGANIZER)
        a, b = table_of(db, tid, 1, 1)
        report_result(db, tid, 1, 1, WIN, account=accounts[a])
        worker = subprocess.run(
            [sys.executable, "-m", "tests.services.report_worker", database_url, str(tid),
             "1", "1", "0-2", accounts[b].login],
            cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
        assert worker.returncode == -9, worker.stderr
        assert "recording" in worker.stdout  # it was killed inside the recording
        assert stored_reports(db, tid) == 1  # only a's report: b's went with the transaction
        assert result_at(db, tid, 1, 1) is None
        assert audit_log(db, tid, action="result") == []
        assert report_result(db, tid, 1, 1, LOSS, account=accounts[b]).status is \
            ReportStatus.RECORDED
        assert result_at(db, tid, 1, 1) == WIN
    finally:
        db.close()

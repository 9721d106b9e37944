"""The judges' fast results grid (issue 12, ``turnir.services.fast_results``), on SQLite and
PostgreSQL: each table's reports and where they stand (waiting, a dispute, confirmed by both,
accepted or decided by a judge), the round's one-tap results, the next open table."""

from __future__ import annotations

import pytest
from sqlalchemy import event as sqlalchemy_event

from tests.services.builders import JUDGE, ORGANIZER, event, play_round
from tests.services.test_reports import players
from turnir.domain.model import Pairing
from turnir.domain.results import MatchResult, parse_result
from turnir.errors import ConflictError
from turnir.services.fast_results import (
    next_open_table,
    record_on_grid,
    round_choices,
    table_notes,
)
from turnir.services.reports import report_result
from turnir.services.results import record_result
from turnir.services.rounds import current_round, start_round
from turnir.storage.database import Database


def test_each_tables_reports_and_where_they_stand(db: Database) -> None:
    tid = event(db, 12)
    rnd = start_round(db, tid, actor=ORGANIZER).round
    accounts = players(db, tid)
    lines = [p for p in rnd.pairings if p.b is not None]
    waiting, disputed, confirmed, accepted, decided, quiet = lines
    assert all(p.b is not None for p in lines)

    def say(pairing: Pairing, side: str, wins: int, losses: int) -> None:
        number = pairing.a if side == "a" else pairing.b
        assert number is not None
        report_result(db, tid, 1, pairing.table, MatchResult.played(wins, losses),
                      account=accounts[number])

    say(waiting, "b", 2, 1)  # B won 2-1: 1-2 from A's side
    say(disputed, "a", 2, 0)
    say(disputed, "b", 2, 0)
    say(confirmed, "a", 2, 1)
    say(confirmed, "b", 1, 2)  # agrees: recorded
    say(accepted, "a", 2, 0)
    record_result(db, tid, 1, accepted.table, parse_result("2-0"), actor=JUDGE)
    say(decided, "a", 2, 0)
    record_result(db, tid, 1, decided.table, parse_result("1-1"), actor=JUDGE)
    notes = table_notes(db, tid, current_round(db, tid).round)
    assert quiet.table not in notes
    found = {t: (n.a, n.b, n.state) for t, n in notes.items()}
    assert found == {
        waiting.table: (None, "1-2", "waiting"),
        disputed.table: ("2-0", "0-2", "disputed"),
        confirmed.table: ("2-1", "2-1", "confirmed"),
        accepted.table: ("2-0", None, "accepted"),
        decided.table: ("2-0", None, "decided"),
    }
    assert notes[waiting.table].acceptable == (("B", "1-2"),)
    assert notes[disputed.table].acceptable == (("A", "2-0"), ("B", "0-2"))
    assert notes[confirmed.table].acceptable == ()


def test_the_next_open_table_and_the_rounds_choices(db: Database) -> None:
    tid = event(db, 8, rounds=3, top=4)
    rnd = start_round(db, tid, actor=ORGANIZER).round
    tables = sorted(p.table for p in rnd.pairings if p.b is not None)
    assert next_open_table(rnd, None) == tables[0]
    record_result(db, tid, 1, tables[1], parse_result("2-0"), actor=JUDGE)
    rnd = current_round(db, tid).round
    assert next_open_table(rnd, tables[0]) == tables[2]  # the recorded one is skipped
    assert next_open_table(rnd, tables[-1]) == tables[0]  # wraps round
    settings = current_round(db, tid).tournament.settings
    assert [r.score for r in round_choices(settings, rnd)] == [
        "2-0", "2-1", "1-1", "1-2", "0-2", "ID"]
    for line in rnd.pairings:
        if line.b is not None and line.result is None:
            record_result(db, tid, 1, line.table, parse_result("2-1"), actor=JUDGE)
    assert next_open_table(current_round(db, tid).round, None) is None
    for _ in range(2):
        play_round(db, tid, "2-1")
    top = start_round(db, tid, actor=ORGANIZER).round
    assert [r.score for r in round_choices(settings, top)] == ["2-0", "2-1", "1-2", "0-2"]


def test_each_reporters_comment_for_the_round_in_one_read(db: Database) -> None:
    """A report's words for the judge (a dispute's "why") are on its table's note, beside that
    player's report only; a later report without words leaves none; the round's comments are
    one query however many tables; the next round's tables do not get the earlier round's."""
    tid = event(db, 12, rounds=3)
    rnd = start_round(db, tid, actor=ORGANIZER).round
    accounts = players(db, tid)
    lines = [p for p in rnd.pairings if p.b is not None]
    assert all(p.b is not None for p in lines)
    one, two, three = lines[:3]
    assert one.b is not None and two.b is not None and three.b is not None

    def say(number: int, table: int, score: str, comment: str = "", round_no: int = 1) -> None:
        report_result(db, tid, round_no, table, parse_result(score), account=accounts[number],
                      comment=comment)

    say(one.a, one.table, "2-1")
    say(one.b, one.table, "2-1", "он сдал третью игру")  # a dispute with its "why"
    say(two.a, two.table, "2-0", "first words")
    say(two.a, two.table, "2-1")  # changed, without words this time
    say(three.b, three.table, "2-0", "опоздал на 10 минут")
    statements: list[str] = []

    def seen(*args: object) -> None:
        statements.append(str(args[2]))

    sqlalchemy_event.listen(db.engine, "before_cursor_execute", seen)
    try:
        notes = table_notes(db, tid, current_round(db, tid).round)
    finally:
        sqlalchemy_event.remove(db.engine, "before_cursor_execute", seen)
    assert (notes[one.table].a_comment, notes[one.table].b_comment) == (
        "", "он сдал третью игру")
    assert notes[one.table].state == "disputed"
    assert (notes[two.table].a_comment, notes[two.table].b_comment) == ("", "")
    assert (notes[three.table].a_comment, notes[three.table].b_comment) == (
        "", "опоздал на 10 минут")
    assert sum("audit_log" in s for s in statements) == 1, statements
    for line in lines:
        if line.result is None:
            record_result(db, tid, 1, line.table, parse_result("2-0"), actor=JUDGE)
    later = start_round(db, tid, actor=ORGANIZER).round
    at_one = later.pairing_at(one.table)
    assert at_one.b is not None
    say(at_one.a, one.table, "2-0", round_no=2)
    notes = table_notes(db, tid, current_round(db, tid).round)
    assert (notes[one.table].a_comment, notes[one.table].b_comment) == ("", "")


def test_player_bs_report_reads_from_bs_side_next_to_bs_name(db: Database) -> None:
    """QA: B's 0-2 loss is 2-0 from A's side (the result column), and 0-2 next to B's name."""
    tid = event(db, 4)
    rnd = start_round(db, tid, actor=ORGANIZER).round
    accounts = players(db, tid)
    one, two = (p for p in rnd.pairings if p.b is not None)
    assert one.b is not None and two.b is not None
    report_result(db, tid, 1, one.table, MatchResult.played(0, 2), account=accounts[one.b])
    report_result(db, tid, 1, two.table, MatchResult.played(2, 1), account=accounts[two.b])
    record_result(db, tid, 1, two.table, parse_result("1-1"), actor=JUDGE)
    notes = table_notes(db, tid, current_round(db, tid).round)
    assert (notes[one.table].b, notes[one.table].b_own) == ("2-0", "0-2")
    assert (notes[two.table].b, notes[two.table].b_own, notes[two.table].state) == (
        "1-2", "2-1", "decided")


def test_a_judge_refused_on_a_recorded_table_is_told_to_correct_it(db: Database) -> None:
    """QA h11 M3: the judge on the grid is the one who may correct: the refusal names the
    grid's "Correct the result", not "a judge's correction"; a correction still goes."""
    tid = event(db, 4)
    table = next(p.table for p in start_round(db, tid, actor=ORGANIZER).round.pairings
                 if p.b is not None)
    record_on_grid(db, tid, 1, table, "2-0", actor=JUDGE, correction=False,
                   expected_version=None, account_id=None)
    with pytest.raises(ConflictError) as refused:
        record_on_grid(db, tid, 1, table, "21", actor=JUDGE, correction=False,
                       expected_version=None, account_id=None)
    assert "Correct the result" in refused.value.message
    assert "judge" not in refused.value.message
    record_on_grid(db, tid, 1, table, "21", actor=JUDGE, correction=True,
                   expected_version=None, account_id=None)
    assert current_round(db, tid).round.pairing_at(table).result == parse_result("2-1")

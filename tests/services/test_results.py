"""Recording results (S-2, S-3), safe repeats, corrections as logged events (S-6) and the
optimistic version rule."""

from __future__ import annotations

import pytest

from tests.services.builders import JUDGE, ORGANIZER, event, play_round, snapshot
from turnir.domain.results import GameReason, MatchResult, parse_result
from turnir.errors import ConflictError, NotFoundError, UserError
from turnir.services.queries import audit_log, get_standings
from turnir.services.results import GameReport, ResultStatus, record_result
from turnir.services.rounds import build_top, start_round
from turnir.services.tournaments import finish_tournament, get_tournament
from turnir.storage.database import Database


def test_rule_S2_result_recorded_and_standings_follow(db: Database) -> None:
    tid = event(db, 4, rounds=2)
    view = start_round(db, tid, actor=ORGANIZER)
    line = view.round.pairings[0]
    done = record_result(db, tid, 1, line.table, parse_result("2-1"), actor=JUDGE)
    assert (done.status, done.version, done.a, done.b) == (ResultStatus.RECORDED, 2, line.a,
                                                           line.b)
    stored = get_tournament(db, tid).tournament.round(1).pairing_at(line.table)
    assert stored.result == parse_result("2-1")
    assert get_standings(db, tid).standings.row_of(line.a).points == 3


def test_the_same_result_twice_is_recorded_once(db: Database) -> None:
    tid = event(db, 4, rounds=2)
    start_round(db, tid, actor=ORGANIZER)
    first = record_result(db, tid, 1, 1, parse_result("2-0"), actor=JUDGE)
    before = snapshot(db)
    again = record_result(db, tid, 1, 1, parse_result("2-0"), actor="Другой судья")
    assert again.status is ResultStatus.UNCHANGED and again.version == first.version
    assert snapshot(db) == before
    assert len(audit_log(db, tid, action="result")) == 1


def test_idempotency_key_answers_once(db: Database) -> None:
    tid = event(db, 4, rounds=2)
    start_round(db, tid, actor=ORGANIZER)
    first = record_result(db, tid, 1, 1, parse_result("2-0"), actor=JUDGE,
                          idempotency_key="slip-17")
    before = snapshot(db)
    repeat = record_result(db, tid, 1, 1, parse_result("2-0"), actor=JUDGE,
                           idempotency_key="slip-17")
    assert repeat == first and repeat.status is ResultStatus.RECORDED
    assert snapshot(db) == before
    with pytest.raises(ConflictError, match="already used for another request"):
        record_result(db, tid, 1, 2, parse_result("2-0"), actor=JUDGE, idempotency_key="slip-17")


def test_rule_S6_a_different_result_needs_a_correction(db: Database) -> None:
    tid = event(db, 4, rounds=2)
    start_round(db, tid, actor=ORGANIZER)
    record_result(db, tid, 1, 1, parse_result("2-0"), actor=JUDGE)
    before = snapshot(db)
    with pytest.raises(ConflictError, match="already has the result 2-0"):
        record_result(db, tid, 1, 1, parse_result("0-2"), actor="Второй судья")
    assert snapshot(db) == before


def test_rule_S6_correction_is_a_logged_event_and_standings_recompute(db: Database) -> None:
    tid = event(db, 4, rounds=2)
    view = start_round(db, tid, actor=ORGANIZER)
    line = view.round.pairings[0]
    record_result(db, tid, 1, line.table, parse_result("2-0"), actor=JUDGE)
    assert get_standings(db, tid).standings.row_of(line.a).points == 3
    fixed = record_result(db, tid, 1, line.table, parse_result("1-2"), actor="Главный судья",
                          correction=True, expected_version=2)
    assert (fixed.status, fixed.version) == (ResultStatus.CORRECTED, 3)
    standings = get_standings(db, tid).standings
    assert standings.row_of(line.a).points == 0
    assert standings.row_of(line.b).points == 3
    entries = audit_log(db, tid, action="result")
    assert [e.action for e in entries] == ["result.record", "result.correct"]
    correction = entries[-1]
    assert correction.actor == "Главный судья"
    assert correction.entity == "pairing" and correction.entity_id == f"1.{line.table}"
    assert correction.before is not None and correction.after is not None
    assert correction.before["result"]["score"] == "2-0" and correction.before["version"] == 2
    assert correction.after["result"]["score"] == "1-2" and correction.after["version"] == 3


def test_rule_S6_no_correction_once_a_later_round_exists(db: Database) -> None:
    tid = event(db, 4, rounds=3)
    play_round(db, tid, "2-0")
    start_round(db, tid, actor=ORGANIZER)
    before = snapshot(db)
    with pytest.raises(ConflictError, match="later round"):
        record_result(db, tid, 1, 1, parse_result("0-2"), actor=JUDGE, correction=True)
    assert snapshot(db) == before
    same = record_result(db, tid, 1, 1, parse_result("2-0"), actor=JUDGE)
    assert same.status is ResultStatus.UNCHANGED


def test_stale_version_is_refused_naming_who_changed_it(db: Database) -> None:
    tid = event(db, 4, rounds=2)
    start_round(db, tid, actor=ORGANIZER)
    record_result(db, tid, 1, 1, parse_result("2-0"), actor=JUDGE)
    record_result(db, tid, 1, 1, parse_result("2-1"), actor="Анна Судьина", correction=True,
                  expected_version=2)
    before = snapshot(db)
    with pytest.raises(ConflictError, match="changed by Анна Судьина") as refused:
        record_result(db, tid, 1, 1, parse_result("0-2"), actor="Борис", correction=True,
                      expected_version=2)
    assert refused.value.code == "stale_version"
    assert "version 2, now 3" in refused.value.message
    assert snapshot(db) == before


def test_result_for_a_finished_tournament_is_refused(db: Database) -> None:
    tid = event(db, 4, rounds=1)
    play_round(db, tid, "2-0")
    finish_tournament(db, tid, actor=ORGANIZER)
    before = snapshot(db)
    with pytest.raises(ConflictError, match="finished"):
        record_result(db, tid, 1, 1, parse_result("0-2"), actor=JUDGE, correction=True)
    assert snapshot(db) == before
    assert record_result(db, tid, 1, 1, parse_result("2-0"),
                         actor=JUDGE).status is ResultStatus.UNCHANGED


@pytest.mark.parametrize(("round_number", "table", "error", "message"), [
    (9, 1, NotFoundError, "no round 9"),
    (1, 7, NotFoundError, "no table 7"),
    (1, 0, NotFoundError, "no table 0"),
])
def test_unknown_round_or_table(db: Database, round_number: int, table: int,
                                error: type[Exception], message: str) -> None:
    tid = event(db, 4, rounds=2)
    start_round(db, tid, actor=ORGANIZER)
    before = snapshot(db)
    with pytest.raises(error, match=message):
        record_result(db, tid, round_number, table, parse_result("2-0"), actor=JUDGE)
    assert snapshot(db) == before


def test_unknown_tournament(db: Database) -> None:
    with pytest.raises(NotFoundError, match="no tournament #404"):
        record_result(db, 404, 1, 1, parse_result("2-0"), actor=JUDGE)


def test_impossible_results_are_refused(db: Database) -> None:
    tid = event(db, 4, rounds=1, top=2)
    start_round(db, tid, actor=ORGANIZER)
    before = snapshot(db)
    with pytest.raises(UserError, match="best-of-3"):
        record_result(db, tid, 1, 1, MatchResult.played(3, 0), actor=JUDGE)
    with pytest.raises(UserError, match="needs the name"):
        record_result(db, tid, 1, 1, parse_result("2-0"), actor="  ")
    assert snapshot(db) == before
    for line in get_tournament(db, tid).tournament.round(1).pairings:
        record_result(db, tid, 1, line.table, parse_result("2-0"), actor=JUDGE)
    build_top(db, tid, actor=ORGANIZER)
    with pytest.raises(UserError, match="S-3"):
        record_result(db, tid, 2, 1, parse_result("1-1"), actor=JUDGE)


def test_games_reported_one_by_one(db: Database) -> None:
    tid = event(db, 4, rounds=2)
    start_round(db, tid, actor=ORGANIZER)
    games = [GameReport("a", GameReason.LETHAL_DAMAGE), GameReport("b", GameReason.DECK_OUT),
             GameReport("a", GameReason.CONCESSION)]
    record_result(db, tid, 1, 1, parse_result("2-1"), actor=JUDGE, games_played=games)
    assert record_result(db, tid, 1, 1, parse_result("2-1"), actor=JUDGE,
                         games_played=games).status is ResultStatus.UNCHANGED
    with pytest.raises(UserError, match="do not add up"):
        record_result(db, tid, 1, 2, parse_result("2-0"), actor=JUDGE, games_played=games)
    other = [GameReport("a", GameReason.TECHNICAL), *games[1:]]
    with pytest.raises(ConflictError, match="other games"):
        record_result(db, tid, 1, 1, parse_result("2-1"), actor=JUDGE, games_played=other)
    fixed = record_result(db, tid, 1, 1, parse_result("2-1"), actor=JUDGE, games_played=other,
                          correction=True)
    assert fixed.status is ResultStatus.CORRECTED
    last = audit_log(db, tid, action="result.correct")[-1]
    assert last.before is not None and last.after is not None
    assert last.before["games"][0]["reason"] == "lethal_damage"
    assert last.after["games"][0]["reason"] == "technical"

"""The audit log: every change leaves one record (who, when, what, before, after); refusals and
repeats leave none."""

from __future__ import annotations

import pytest

from tests.services.builders import JUDGE, ORGANIZER, event
from turnir.domain.results import parse_result
from turnir.errors import ConflictError
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.players import check_in, drop_player, late_entry, register_player
from turnir.services.queries import audit_log
from turnir.services.results import record_result
from turnir.services.rounds import start_round, swap_seats, undo_round
from turnir.services.tournaments import finish_tournament
from turnir.storage.database import Database


def test_every_change_leaves_one_record(db: Database) -> None:
    tid = event(db, 4, rounds=1)
    register_player(db, tid, name="Пятый Игрок", actor="Секретарь", club="Клуб")
    check_in(db, tid, "Пятый", actor="Секретарь")
    check_in(db, tid, "Пятый", actor="Секретарь")  # already checked in: no change
    add_judge(db, tid, name="Главная Судья", role=JudgeRole.HEAD_JUDGE, actor=ORGANIZER)
    start_round(db, tid, actor=ORGANIZER, leave_out_absent=False)  # everyone, checked in or not
    undo_round(db, tid, actor=ORGANIZER)
    view = start_round(db, tid, actor=ORGANIZER, leave_out_absent=False)
    matches = [line for line in view.round.pairings if line.b is not None]
    swap_seats(db, tid, 1, matches[0].a, matches[1].a, actor=JUDGE)
    late_entry(db, tid, name="Опоздавший", actor=ORGANIZER)
    record_result(db, tid, 1, 1, parse_result("2-1"), actor=JUDGE)
    record_result(db, tid, 1, 1, parse_result("2-1"), actor=JUDGE)  # repeat: no change
    with pytest.raises(ConflictError):
        record_result(db, tid, 1, 1, parse_result("0-2"), actor=JUDGE)  # refused: no record
    record_result(db, tid, 1, 1, parse_result("1-2"), actor="Главная Судья", correction=True)
    record_result(db, tid, 1, 2, parse_result("ID"), actor=JUDGE)
    drop_player(db, tid, "Опоздавший", actor=JUDGE, reason="болезнь")
    finish_tournament(db, tid, actor=ORGANIZER)

    log = audit_log(db, tid)
    assert [(e.action, e.entity) for e in log] == [
        ("tournament.create", "tournament"),
        ("player.import", "tournament"),
        ("player.register", "entry"),
        ("player.check_in", "entry"),
        ("judge.add", "judge"),
        ("round.pair", "round"),
        ("round.undo", "round"),
        ("round.pair", "round"),
        ("round.swap", "round"),
        ("player.late_entry", "entry"),
        ("result.record", "pairing"),
        ("result.correct", "pairing"),
        ("result.record", "pairing"),
        ("player.drop", "entry"),
        ("tournament.finish", "tournament"),
    ]
    assert [e.id for e in log] == sorted(e.id for e in log)
    assert all(e.at.year >= 2026 and e.tournament_id == tid for e in log)
    by_action = {e.action: e for e in log}
    register = by_action["player.register"]
    assert register.actor == "Секретарь" and register.before is None
    assert register.after is not None and register.after["name"] == "Пятый Игрок"
    assert register.after["club"] == "Клуб" and register.entity_id == "5"
    undo = by_action["round.undo"]
    assert undo.before is not None and undo.before["number"] == 1 and undo.after is None
    swap = by_action["round.swap"]
    assert swap.before is not None and swap.after is not None
    assert swap.before["pairings"] != swap.after["pairings"]
    drop = by_action["player.drop"]
    assert drop.after == {"dropped_after": 1, "version": 2, "reason": "болезнь"}
    correct = by_action["result.correct"]
    assert correct.actor == "Главная Судья"
    assert correct.before is not None and correct.before["result"]["score"] == "2-1"
    assert correct.after is not None and correct.after["result"]["score"] == "1-2"

    assert [e.action for e in audit_log(db, tid, action="result")] == [
        "result.record", "result.correct", "result.record"]
    assert [e.entity_id for e in audit_log(db, tid, entity="pairing")] == ["1.1", "1.1", "1.2"]
    assert len(audit_log(db, tid, limit=3)) == 3
    assert audit_log(db, tid, since_id=log[-2].id) == [log[-1]]


def test_the_change_stamp_moves_with_every_change_only(db: Database) -> None:
    from turnir.services.audit import ChangeStamps, change_stamp

    tid = event(db, 4, rounds=1)
    stamps = ChangeStamps(db)
    try:
        before = change_stamp(db, tid)
        assert before == stamps.stamp(tid) == audit_log(db, tid)[-1].id
        check_in(db, tid, "Игрок 01", actor=ORGANIZER)
        moved = change_stamp(db, tid)
        assert moved > before and stamps.stamp(tid) == moved
        check_in(db, tid, "Игрок 01", actor=ORGANIZER)  # already checked in: no change
        assert change_stamp(db, tid) == stamps.stamp(tid) == moved
        assert change_stamp(db, tid + 1000) == 0
    finally:
        stamps.close()

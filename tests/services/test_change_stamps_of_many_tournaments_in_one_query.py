"""Issue 15 (live updates): the change stamps of many tournaments in one query, on SQLite and
PostgreSQL (``services.audit.change_stamps``, the live watcher's one read per tick)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event as sa_event

from tests.services.builders import ORGANIZER, event
from turnir.services.audit import change_stamp, change_stamps
from turnir.services.rounds import start_round
from turnir.storage.database import Database


def test_stamps_of_many_tournaments_come_in_one_query(db: Database) -> None:
    first, second, quiet = event(db, 4), event(db, 4, name="Второй"), event(db, 0, name="Тихий")
    statements: list[str] = []

    def seen(*args: Any) -> None:
        statements.append(str(args[2]))

    sa_event.listen(db.engine, "before_cursor_execute", seen)
    try:
        found = change_stamps(db, [first, second, quiet, 999_999])
    finally:
        sa_event.remove(db.engine, "before_cursor_execute", seen)
    assert [s for s in statements if "audit_log" in s and "SELECT" in s.upper()] == \
        [s for s in statements if "SELECT" in s.upper()]
    assert len([s for s in statements if "SELECT" in s.upper()]) == 1
    assert found == {tid: change_stamp(db, tid) for tid in (first, second, quiet)}
    assert 999_999 not in found  # an unknown tournament is left out (the stream answers 404)
    assert found[first] > 0 and found[second] > found[first]


def test_a_stamp_moves_with_a_change_and_only_its_own(db: Database) -> None:
    first, second = event(db, 4), event(db, 4, name="Второй")
    before = change_stamps(db, [first, second])
    start_round(db, first, actor=ORGANIZER)
    after = change_stamps(db, [first, second])
    assert after[first] > before[first]
    assert after[second] == before[second]
    assert change_stamps(db, []) == {}

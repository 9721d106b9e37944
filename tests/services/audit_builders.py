"""Builders for the tamper-evident log tests (issue 10 item 14): a tournament run through every
kind of change that touches pairings and results, and a database owner's edits behind the
append-only triggers' back."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, select, text

from tests.services.builders import JUDGE, ORGANIZER
from tests.services.penalty_builders import HEAD, give, judged_event, line_of
from turnir.domain.penalties import CrystalCount
from turnir.domain.results import GameReason, parse_result
from turnir.services.accounts import AccountRole, create_account, make_hasher
from turnir.services.game_rulings import record_technical_result
from turnir.services.players import drop_player, late_entry, list_players
from turnir.services.reports import report_result
from turnir.services.results import GameReport, record_result
from turnir.services.rounds import current_round, start_round, swap_seats, undo_round
from turnir.storage.database import Database
from turnir.storage.tables import audit_log


def finish(db: Database, tid: int, score: str = "2-1") -> None:
    view = current_round(db, tid)
    for line in view.round.pairings:
        if line.b is not None and line.result is None:
            record_result(db, tid, view.round.number, line.table, parse_result(score),
                          actor=JUDGE)


def full_run(db: Database) -> int:
    """Pair, undo and pair again, swap seats, record results with games, correct one, a late
    entry with byes, a drop, a penalty that decides a match at once, both players' reports, a
    technical result."""
    tid = judged_event(db, 10, rounds=3)
    start_round(db, tid, actor=ORGANIZER)
    undo_round(db, tid, actor=ORGANIZER)
    view = start_round(db, tid, actor=ORGANIZER)
    matches = [p for p in view.round.pairings if p.b is not None]
    swap_seats(db, tid, 1, matches[0].a, matches[1].a, actor=JUDGE)
    record_result(db, tid, 1, 1, parse_result("2-1"), actor=JUDGE,
                  games_played=[GameReport("a"), GameReport("b"), GameReport("a")])
    record_result(db, tid, 1, 1, parse_result("1-2"), actor=HEAD, correction=True)
    finish(db, tid)
    late_entry(db, tid, name="Опоздавший Игрок", actor=ORGANIZER, byes_for_missed_rounds=True)
    drop_player(db, tid, 10, actor=JUDGE, reason="уехал")
    start_round(db, tid, actor=ORGANIZER)
    cheat = line_of(db, tid, 2).a
    give(db, tid, cheat, "cheating")              # a disqualification decides the match
    report_both(db, tid, 2, line_of(db, tid, 5).table)
    line = line_of(db, tid, 3)
    record_technical_result(db, tid, 2, line.table, crystals_a=CrystalCount(10, 4),
                            crystals_b=CrystalCount(9, 2), actor=HEAD,
                            games_before=[GameReport("a", GameReason.LETHAL_DAMAGE)])
    finish(db, tid, "2-0")
    return tid


def report_both(db: Database, tid: int, round_number: int, table: int) -> None:
    """Both players of a match report it from their accounts: the result is recorded."""
    pairing = current_round(db, tid, round_number).round.pairing_at(table)
    people = {p.number: p.person_id for p in list_players(db, tid)}
    for number, mine in ((pairing.a, "2-0"), (pairing.b, "0-2")):
        assert number is not None
        account = create_account(db, login=f"t{tid}p{number}", name=f"Игрок {number}",
                                 password="пароль игрока", role=AccountRole.PLAYER,
                                 person_id=people[number], actor=ORGANIZER,
                                 hasher=make_hasher(fast=True))
        report_result(db, tid, round_number, table, parse_result(mine), account=account)


@contextmanager
def behind_the_triggers(db: Database) -> Iterator[Connection]:
    """What a database owner can do: the append-only triggers off, an edit, the triggers back."""
    with db.write() as conn:
        if db.is_sqlite:
            conn.execute(text("DROP TRIGGER audit_log_no_update"))
            conn.execute(text("DROP TRIGGER audit_log_no_delete"))
        else:
            conn.execute(text("ALTER TABLE audit_log DISABLE TRIGGER USER"))
        yield conn
        if db.is_sqlite:
            for statement in ("UPDATE", "DELETE"):
                conn.execute(text(
                    f"CREATE TRIGGER audit_log_no_{statement.lower()} BEFORE {statement} ON "
                    "audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END"))
        else:
            conn.execute(text("ALTER TABLE audit_log ENABLE TRIGGER USER"))


def entry_id(db: Database, tid: int, action: str, index: int = 0) -> int:
    """The id of the tournament's ``index``-th entry with ``action``."""
    with db.read() as conn:
        ids = conn.execute(select(audit_log.c.id).where(audit_log.c.tournament_id == tid,
                                                        audit_log.c.action == action)
                           .order_by(audit_log.c.id)).scalars().all()
    return int(ids[index])

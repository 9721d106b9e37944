"""A database written by the release before issue 10 (schema 0005, ``tests/data/db``) upgrades
to the newest schema with its data: the audit chain is built and verifies, the pending player
report is bound to its pairing, the named judges keep their roles, and it keeps working."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from sqlalchemy import func, select

from turnir.services.accounts import find_account
from turnir.services.audit import verify_log
from turnir.services.judges import JudgeRole, staff_role
from turnir.services.reports import round_reports
from turnir.services.tournaments import get_tournament, list_tournaments
from turnir.storage.database import Database
from turnir.storage.migrate import current_revision, head_revision, upgrade
from turnir.storage.tables import audit_log
from turnir.storage.tables_penalties import penalties

RELEASE_0005 = Path(__file__).resolve().parent.parent / "data" / "db" / "release_0005.sqlite"


def _upgraded(tmp_path: Path) -> Database:
    copy = tmp_path / "turnir.db"
    shutil.copy(RELEASE_0005, copy)
    db = Database.open(f"sqlite:///{copy}", migrate=False)
    assert upgrade(db).before == "0005"
    return db


def test_a_release_0005_database_upgrades_with_its_data(tmp_path: Path) -> None:
    db = _upgraded(tmp_path)
    try:
        with db.read() as conn:
            assert current_revision(conn) == head_revision()
            entries = conn.execute(select(func.count()).select_from(audit_log)).scalar_one()
            assert conn.execute(select(func.count()).select_from(penalties)).scalar_one() == 1
        verification = verify_log(db)
        assert verification.ok, verification.first
        assert verification.entries == entries == 55

        running = next(t for t in list_tournaments(db) if t.status.value == "running")
        t = get_tournament(db, running.id).tournament
        assert t.current_round is not None
        reports = round_reports(db, running.id, t.current_round.number)
        assert [r.a for r in reports.values() if r.a is not None] \
            or [r.b for r in reports.values() if r.b is not None], "the pending report is lost"

        head = find_account(db, "judge")
        assert head is not None
        assert staff_role(db, running.id, head.id) is JudgeRole.HEAD_JUDGE
    finally:
        db.close()


def test_a_release_0005_database_keeps_working_after_the_upgrade(tmp_path: Path) -> None:
    from turnir.domain.results import MatchResult
    from turnir.services.results import record_result

    db = _upgraded(tmp_path)
    try:
        running = next(t for t in list_tournaments(db) if t.status.value == "running")
        t = get_tournament(db, running.id).tournament
        rnd = t.current_round
        assert rnd is not None
        open_table = next(p.table for p in rnd.pairings if p.b is not None and p.result is None)
        record_result(db, running.id, rnd.number, open_table, MatchResult.played(2, 0, 0),
                      actor="test")
        verification = verify_log(db, running.id)
        assert verification.ok, verification.first
    finally:
        db.close()


def test_item8_names_stored_in_nfd_or_with_invisible_characters_are_rekeyed(
        tmp_path: Path) -> None:
    """Migration 0011: a name kept before item 8 in NFD, or with a zero-width space, is found
    by today's spelling and a look-alike registration is refused; a pair of look-alikes in
    one tournament stays apart."""
    import sqlite3

    from turnir.errors import UserError
    from turnir.services.players import late_entry
    from turnir.storage.repositories import entry_by_name

    copy = tmp_path / "turnir.db"
    shutil.copy(RELEASE_0005, copy)
    nfd = "Андрей Иванович Кайзер".replace("й", "и\u0306")
    with sqlite3.connect(copy) as raw:  # as the release before stored them
        tid = raw.execute("SELECT id FROM tournaments WHERE status = 'running'").fetchone()[0]
        top = raw.execute("SELECT max(number) FROM entries WHERE tournament_id = ?",
                          (tid,)).fetchone()[0]
        for offset, name in enumerate((nfd, "Анна Кото\u200bва", "Анна Котова"), start=1):
            raw.execute("INSERT INTO entries (tournament_id, number, name, name_key, city, "
                        "club, joined_round, checked_in, version) "
                        "VALUES (?, ?, ?, ?, '', '', 1, 0, 1)",
                        (tid, top + offset, name, " ".join(name.split()).casefold()))
    db = Database.open(f"sqlite:///{copy}", migrate=False)
    try:
        upgrade(db)
        with db.read() as conn:
            found = entry_by_name(conn, tid, "Андрей Иванович Кайзер")
            assert found is not None and found["name"] == "Андрей Иванович Кайзер"
            both = {entry_by_name(conn, tid, "Анна Котова")["number"]}  # type: ignore[index]
            assert both == {top + 3}
            kept = conn.execute(select(func.count()).select_from(audit_log)).scalar_one()
            assert kept == 55
        with pytest.raises(UserError) as refused:
            late_entry(db, tid, name="андрей иванович кайзер", actor="test")
        assert refused.value.code == "duplicate_player", refused.value
    finally:
        db.close()

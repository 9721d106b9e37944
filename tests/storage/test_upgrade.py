"""A database written by the release before issue 10 (schema 0005, ``tests/data/db``) upgrades
to the newest schema with its data: the audit chain is built and verifies, the pending player
report is bound to its pairing, the named judges keep their roles, and it keeps working."""

from __future__ import annotations

import shutil
from pathlib import Path

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

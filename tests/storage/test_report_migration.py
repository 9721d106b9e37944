"""Migration 0006 (issue 10 item 2): the players' pending result reports, keyed by round, table
and side before, are carried over bound to the pairing at their table and its two players; a
report for a table that no longer exists is dropped. The downgrade goes back losslessly.

The migration's own two steps run on a database at the newest schema (through alembic's
``Operations``), so the test does not depend on the other revisions' downgrades."""

from __future__ import annotations

import importlib

from alembic.operations import Operations
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text

from tests.services.builders import ORGANIZER, event
from tests.services.test_reports import LOSS, WIN, players, table_of
from turnir.services.reports import ReportStatus, report_result, round_reports
from turnir.services.rounds import start_round
from turnir.storage.database import Database
from turnir.storage.tables_accounts import result_reports

MIGRATION = importlib.import_module("turnir.storage.migrations.versions.0006_issue10_slot")


def _migrate(db: Database, step: str) -> None:
    with db.write() as conn, Operations.context(MigrationContext.configure(conn)):
        getattr(MIGRATION, step)()


def test_item2_migration_binds_pending_reports_to_their_pairings(db: Database) -> None:
    tid = event(db, 8, rounds=3)
    accounts = players(db, tid)
    start_round(db, tid, actor=ORGANIZER)
    a, b = table_of(db, tid, 1, 1)
    c, d = table_of(db, tid, 1, 2)
    report_result(db, tid, 1, 1, WIN, account=accounts[a])
    report_result(db, tid, 1, 2, WIN, account=accounts[c])
    _migrate(db, "downgrade")
    with db.write() as conn:
        old = conn.execute(text(
            "SELECT round, table_no, side, wins_a, wins_b, outcome FROM result_reports "
            "ORDER BY table_no")).all()
        assert [tuple(row) for row in old] == [(1, 1, "a", 2, 0, "a_wins"),
                                               (1, 2, "a", 2, 0, "a_wins")]
        conn.execute(text(
            "INSERT INTO result_reports (tournament_id, round, table_no, side, account_id, "
            "wins_a, wins_b, draws, outcome, ending, at) SELECT tournament_id, round, 99, side, "
            "account_id, wins_a, wins_b, draws, outcome, ending, at FROM result_reports "
            "WHERE table_no = 1"))
    _migrate(db, "upgrade")
    with db.read() as conn:
        assert {c["name"] for c in inspect(conn).get_columns("result_reports")} == \
            set(result_reports.c.keys())
    with db.read() as conn:
        kept = conn.execute(text(
            "SELECT a, b, player, wins_a, wins_b FROM result_reports ORDER BY id")).all()
    # table 99 does not exist: its report is gone
    assert [tuple(row) for row in kept] == [(a, b, a, 2, 0), (c, d, c, 2, 0)]
    assert round_reports(db, tid, 1)[1].a == WIN
    # the carried-over report is a's, for this very match: b's agreeing report confirms it
    assert report_result(db, tid, 1, 1, LOSS, account=accounts[b]).status is \
        ReportStatus.RECORDED

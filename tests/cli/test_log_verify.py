"""``turnir log verify [TOURNAMENT]`` (issue 10 item 14): "verified: N entries" and exit 0 on a
clean database; the first entry that does not match and exit 2 after an edit behind the log's
back; ``turnir log TOURNAMENT`` still lists the entries."""

from __future__ import annotations

import json

from sqlalchemy import select, update
from typer.testing import CliRunner

from tests.services.audit_builders import behind_the_triggers, entry_id
from tests.services.builders import event, play_round
from turnir.cli.main import app
from turnir.storage.database import Database
from turnir.storage.tables import audit_log, pairings

runner = CliRunner()


def run(database_url: str, *args: object) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args],
                           env={"TURNIR_DATABASE_URL": database_url, "TURNIR_ACTOR": "Судья"})
    return result.exit_code, result.output


def test_item14_cli_verify_exit_codes(database_url: str) -> None:
    db = Database.open(database_url)
    try:
        tid = event(db, 6, rounds=2)
        play_round(db, tid)
        code, out = run(database_url, "log", "verify", tid)
        assert code == 0, out
        with db.read() as conn:
            total = len(conn.execute(select(audit_log.c.id)
                                     .where(audit_log.c.tournament_id == tid)).all())
            head = conn.execute(select(audit_log.c.seq, audit_log.c.digest)
                                .where(audit_log.c.tournament_id == tid)
                                .order_by(audit_log.c.seq.desc())).first()
        assert head is not None
        assert f"verified: {total} entries" in out and head.digest in out
        code, out = run(database_url, "log", "verify")  # every chain
        assert code == 0 and "verified:" in out and "server-wide entries" in out
        code, out = run(database_url, "log", "verify", tid, "--anchor",
                        f"{head.seq}:{head.digest}")
        assert code == 0, out
        code, out = run(database_url, "log", "verify", tid, "--anchor", f"{head.seq}:{'0' * 64}")
        assert code == 2 and "not the one written down" in out

        target = entry_id(db, tid, "result.record", 1)
        with behind_the_triggers(db) as conn:
            conn.execute(update(audit_log).where(audit_log.c.id == target).values(actor="Никто"))
        code, out = run(database_url, "log", "verify", tid)
        assert code == 2
        assert f"entry #{target}" in out and "result.record" in out
        assert "does not match its hash" in out and "verification failed" in out
        result = runner.invoke(app, ["log", "verify", str(tid), "--json"],
                               env={"TURNIR_DATABASE_URL": database_url})
        assert result.exit_code == 2
        found = json.loads(result.stdout)
        assert found["ok"] is False
        assert found["chains"][0]["problems"][0]["entry"]["id"] == target
        assert found["chains"][0]["problems"][0]["kind"] == "altered"
        code, out = run(database_url, "log", "verify", "#999")
        assert code == 2 and "no tournament" in out
    finally:
        db.close()


def test_item14_cli_verify_reports_a_result_changed_with_sql(database_url: str) -> None:
    db = Database.open(database_url)
    try:
        tid = event(db, 4, rounds=1)
        play_round(db, tid)
        with db.write() as conn:
            conn.execute(update(pairings).where(pairings.c.tournament_id == tid,
                                                pairings.c.table_no == 2)
                         .values(wins_a=0, wins_b=2, outcome="b_wins"))
        code, out = run(database_url, "log", "verify", tid)
        assert code == 2
        assert "round 1 table 2 differs" in out and "wins_a logged 2, stored 0" in out
        code, out = run(database_url, "log", tid, "--action", "result")
        assert code == 0 and "result.record" in out
        code, out = run(database_url, "log", tid, "extra")
        assert code == 2 and "unexpected argument" in out
    finally:
        db.close()

"""Issue 12, registration from the command line: ``player checkin-all`` and ``player
reinstate`` (back while the next round is not paired, refused with exit code 2 after)."""

from __future__ import annotations

from tests.cli.test_db_cli import env, ok, run  # noqa: F401 - env is a fixture
from tests.services.builders import event, play_round
from turnir.services.players import list_players
from turnir.storage.database import Database


def test_checkin_all_and_reinstate(db: Database, env: dict[str, str]) -> None:  # noqa: F811
    tid = event(db, 6)
    assert "Checked in: 6 players." in ok(env, "player", "checkin-all", tid)
    play_round(db, tid)
    ok(env, "player", "drop", tid, "Игрок 03")
    assert "is back" in ok(env, "player", "reinstate", tid, "Игрок 03")
    ok(env, "player", "drop", tid, "3")
    play_round(db, tid)
    code, out = run(env, "player", "reinstate", tid, "3")
    assert code == 2 and "already paired" in out
    assert next(p for p in list_players(db, tid) if p.number == 3).dropped_after == 1

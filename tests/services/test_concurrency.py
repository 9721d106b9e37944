"""Concurrency: two processes enter conflicting results and pair rounds at the same time against
the same tournament. No lost update (every table has exactly the one result whose call
succeeded), no duplicate round (each round paired by exactly one process), and a correction
based on an old version is refused naming who changed it."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from tests.services.builders import JUDGE, event, play_round
from tests.services.worker_processes import Worker
from turnir.domain.consistency import check_tournament
from turnir.domain.results import parse_result
from turnir.domain.tournament import Phase
from turnir.services.queries import audit_log
from turnir.services.tournaments import get_tournament
from turnir.storage.database import Database
from turnir.storage.tables import audit_log as audit_table


def run_together(*commands: list[object]) -> list[list[dict[str, Any]]]:
    workers = [Worker(*command) for command in commands]
    reports = []
    for worker in workers:
        out, errors = worker.communicate(timeout=300)
        assert worker.returncode == 0, errors
        reports.append([json.loads(line) for line in out.splitlines()])
    return reports


def test_two_processes_race_results_and_pairings(database_url: str, tmp_path: Path) -> None:
    db = Database.open(database_url)
    tid = event(db, 24, rounds=4, top=4)
    # the two meet before every write (tests.services.workers.Meeting): both read the same
    # tournament and then make the same change at the same moment, every time
    first, second = run_together(["race", database_url, tid, "Судья А", "2-0", tmp_path],
                                 ["race", database_url, tid, "Судья Б", "0-2", tmp_path])
    t = get_tournament(db, tid).tournament
    check_tournament(t)
    assert t.phase is Phase.FINISHED

    won: dict[tuple[int, int], str] = {}
    for report in (first, second):
        for item in report:
            if item["event"] == "result":
                key = (item["round"], item["table"])
                assert key not in won, f"two processes both recorded {key}"
                won[key] = item["score"]
            elif item["event"] == "refused":
                assert item["code"] in {"result_exists", "round_not_finished", "finished",
                                    "all_rounds_played"}, item
    tables = {(r.number, p.table): p.result for r in t.rounds for p in r.pairings
              if p.b is not None}
    assert set(won) == set(tables)
    for key, score in won.items():
        assert tables[key] == parse_result(score), key

    paired = [item["round"] for report in (first, second) for item in report
              if item["event"] == "paired"]
    assert sorted(paired) == [r.number for r in t.rounds] == list(range(1, len(t.rounds) + 1))
    with db.read() as conn:
        logged = conn.execute(select(func.count()).select_from(audit_table).where(
            audit_table.c.tournament_id == tid, audit_table.c.action == "result.record"
        )).scalar_one()
    assert logged == len(tables)
    # every change was tried by both at once: one made it, the other was refused
    done = [item for item in first + second if item["event"] in {"result", "paired"}]
    refused = [item for item in first + second if item["event"] == "refused"]
    assert len(refused) == len(done) == len(tables) + len(t.rounds)
    db.close()


def test_two_processes_correct_the_same_results_on_the_same_version(database_url: str) -> None:
    db = Database.open(database_url)
    tid = event(db, 16, rounds=2)
    play_round(db, tid, "1-1")
    start = time.time() + 6.0
    first, second = run_together(
        ["correct", database_url, tid, "Судья А", "2-0", start, 1],
        ["correct", database_url, tid, "Судья Б", "0-2", start, 1],
    )
    t = get_tournament(db, tid).tournament
    for line in t.round(1).pairings:
        corrected = [item for item in first + second
                     if item["event"] == "corrected" and item["table"] == line.table]
        refused = [item for item in first + second
                   if item["event"] == "refused" and item["table"] == line.table]
        assert len(corrected) == 1 and len(refused) == 1, line.table
        assert line.result == parse_result(corrected[0]["score"])
        winner = "Судья А" if corrected[0]["score"] == "2-0" else "Судья Б"
        assert refused[0]["code"] == "stale_version"
        assert f"changed by {winner}" in refused[0]["message"]
    corrections = audit_log(db, tid, action="result.correct")
    assert len(corrections) == 8
    assert all(c.before is not None and c.before["version"] == 2 for c in corrections)
    assert JUDGE not in {c.actor for c in corrections}
    db.close()

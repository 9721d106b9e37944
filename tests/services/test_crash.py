"""Crash test: a process playing a tournament through the services is killed with SIGKILL at
random points. After each kill every result and round whose call returned is in the database,
the database passes its integrity checks, and nothing half-written is visible (a round with
only part of its pairings, a result without its audit record)."""

from __future__ import annotations

import json
import random
import time
from typing import Any

from sqlalchemy import func, select

from tests.services.builders import event
from tests.services.worker_processes import Worker
from turnir.domain.consistency import check_tournament
from turnir.domain.model import Stage
from turnir.domain.results import parse_result
from turnir.domain.tournament import Phase
from turnir.services.tournaments import get_tournament
from turnir.storage.database import Database
from turnir.storage.tables import audit_log, pairings

KILLS = 7


def spawn(*args: object) -> Worker:
    return Worker(*args)


def check_database(db: Database, tid: int, promised: dict[tuple[int, int], str],
                   paired: dict[int, list[list[Any]]]) -> bool:
    """Everything promised is there and nothing half-written; ``True`` when the event is over."""
    if db.is_sqlite:
        with db.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
            assert conn.exec_driver_sql("PRAGMA foreign_key_check").all() == []
    t = get_tournament(db, tid).tournament
    check_tournament(t)
    for (number, table), score in promised.items():
        assert t.round(number).pairing_at(table).result == parse_result(score), (number, table)
    for number, lines in paired.items():
        assert [[p.table, p.a, p.b] for p in t.round(number).pairings] == lines
    for rnd in t.rounds:
        seated = sorted(pid for line in rnd.pairings for pid in line.players)
        if rnd.stage is Stage.SWISS:
            assert seated == sorted(p.id for p in t.players if t.is_active(p, rnd.number))
        else:
            assert len(seated) == t.settings.top_size >> t.top_rounds.index(rnd)
    with db.read() as conn:
        results = conn.execute(select(func.count()).select_from(pairings)
                               .where(pairings.c.tournament_id == tid,
                                      pairings.c.outcome.is_not(None))).scalar_one()
        logged = conn.execute(select(func.count()).select_from(audit_log)
                              .where(audit_log.c.tournament_id == tid,
                                     audit_log.c.action == "result.record")).scalar_one()
        rounds_logged = conn.execute(select(func.count()).select_from(audit_log)
                                     .where(audit_log.c.tournament_id == tid,
                                            audit_log.c.action == "round.pair")).scalar_one()
    assert results == logged
    assert rounds_logged == len(t.rounds)
    return t.phase is Phase.FINISHED


def test_sigkill_at_random_points_loses_nothing_that_returned(database_url: str) -> None:
    db = Database.open(database_url)
    tid = event(db, 64, rounds=4, top=4)
    rng = random.Random(20260301)
    promised: dict[tuple[int, int], str] = {}
    paired: dict[int, list[list[Any]]] = {}
    kills = 0

    def note(line: str) -> bool:
        data = json.loads(line)
        if data["event"] == "result":
            promised[(data["round"], data["table"])] = data["score"]
        elif data["event"] == "paired":
            paired[data["round"]] = data["lines"]
        return bool(data["event"] == "done")

    while kills < KILLS:
        worker = spawn("play", database_url, tid, 3)
        assert worker.stdout is not None
        wanted, seen, over = rng.randint(1, 12), 0, False
        while seen < wanted and not over:
            line = worker.stdout.readline()
            if not line:
                break
            over = note(line)
            seen += 1
        if over:
            break
        time.sleep(rng.uniform(0, 0.004))
        worker.kill()
        rest, errors = worker.communicate()
        assert worker.returncode == -9, errors
        for line in rest.splitlines():  # printed before the kill landed: returned too
            note(line)
        kills += 1
        assert not check_database(db, tid, promised, paired)

    worker = spawn("play", database_url, tid, 3)
    rest, errors = worker.communicate(timeout=300)
    assert worker.returncode == 0, errors
    for line in rest.splitlines():
        note(line)
    assert kills == KILLS
    assert check_database(db, tid, promised, paired)
    db.close()

"""Worker processes for the crash and concurrency tests: ``python -m tests.services.workers``.

Each prints one JSON line per call that *returned* (flushed at once), so the parent knows
exactly which changes it was promised before it killed the worker or the worker stopped.

- ``play URL TID SEED``: play the tournament to its end, round after round, recording the
  results it finds missing (each result drawn from ``SEED``, the round and the table, so a
  restarted worker records the same one).
- ``race URL TID NAME SCORE MEET``: in step with the other racer (``Meeting`` in the folder
  ``MEET``), record ``SCORE`` at the first table without a result, or pair the next round when
  the current one is finished, until the tournament is over; refusals because the other worker
  was first are reported too. Both read the tournament, meet, then both write at once, and meet
  again before the next read: every write races the other's same write.
- ``correct URL TID NAME SCORE START ROUND``: from ``START``, correct every table of ``ROUND``
  to ``SCORE`` based on version 2 (the version after the first result).
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

from turnir.domain.results import parse_result
from turnir.domain.tournament import Phase
from turnir.errors import ConflictError
from turnir.services.results import record_result
from turnir.services.rounds import start_round
from turnir.services.tournaments import get_tournament
from turnir.storage.database import Database

SCORES = ("2-0", "2-1", "1-2", "0-2", "1-1")
TOP_SCORES = ("2-0", "2-1", "1-2", "0-2")


def say(**fields: object) -> None:
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def score_for(seed: int, round_number: int, table: int, *, top: bool) -> str:
    rng = random.Random(f"{seed}/{round_number}/{table}")
    return rng.choice(TOP_SCORES if top else SCORES)


def play(db: Database, tid: int, seed: int) -> None:
    while True:
        t = get_tournament(db, tid).tournament
        current = t.current_round
        if current is None or current.finished:
            if t.phase is Phase.FINISHED:
                say(event="done")
                return
            view = start_round(db, tid, actor="worker")
            say(event="paired", round=view.round.number,
                lines=[[p.table, p.a, p.b] for p in view.round.pairings])
            continue
        for line in current.pairings:
            if line.b is None or line.result is not None:
                continue
            score = score_for(seed, current.number, line.table, top=current.stage.value == "top")
            record_result(db, tid, current.number, line.table, parse_result(score),
                          actor="worker")
            say(event="result", round=current.number, table=line.table, score=score)


def wait_until(start: float) -> None:
    time.sleep(max(0.0, start - time.time()))


class Meeting:
    """Two processes meet at numbered points: each leaves a file ``<point>.<name>`` in the
    folder and goes on once there are two (60 s at most: the other one died)."""

    def __init__(self, folder: str, name: str) -> None:
        self.folder, self.name, self.point = Path(folder), name, 0

    def meet(self) -> None:
        self.point += 1
        (self.folder / f"{self.point}.{self.name}").touch()
        deadline = time.monotonic() + 60
        while len(list(self.folder.glob(f"{self.point}.*"))) < 2:
            if time.monotonic() > deadline:
                raise SystemExit(f"{self.name}: the other racer never came to {self.point}")
            time.sleep(0.002)


def race(db: Database, tid: int, name: str, score: str, meeting: Meeting) -> None:
    while True:
        t = get_tournament(db, tid).tournament
        current = t.current_round
        if (current is None or current.finished) and t.phase is Phase.FINISHED:
            say(event="done")
            return
        meeting.meet()  # both have read the same tournament; now both write at once
        try:
            if current is None or current.finished:
                view = start_round(db, tid, actor=name)
                say(event="paired", round=view.round.number)
            else:
                line = next(p for p in current.pairings if p.b is not None and p.result is None)
                done = record_result(db, tid, current.number, line.table, parse_result(score),
                                     actor=name)
                say(event="result", round=current.number, table=line.table, score=score,
                    status=done.status.value)
        except ConflictError as error:
            say(event="refused", code=error.code, message=error.message)
        meeting.meet()  # both writes are over before either reads again


def correct(db: Database, tid: int, name: str, score: str, start: float,
            round_number: int) -> None:
    tables = [p.table for p in get_tournament(db, tid).tournament.round(round_number).pairings
              if p.b is not None]
    wait_until(start)
    for table in tables:
        try:
            record_result(db, tid, round_number, table, parse_result(score), actor=name,
                          correction=True, expected_version=2)
            say(event="corrected", table=table, score=score)
        except ConflictError as error:
            say(event="refused", table=table, code=error.code, message=error.message)
    say(event="done")


def main(argv: list[str]) -> None:
    mode, url, tid = argv[0], argv[1], int(argv[2])
    db = Database.open(url)
    try:
        if mode == "play":
            play(db, tid, int(argv[3]))
        elif mode == "race":
            race(db, tid, argv[3], argv[4], Meeting(argv[5], argv[3]))
        elif mode == "correct":
            correct(db, tid, argv[3], argv[4], float(argv[5]), int(argv[6]))
        else:
            raise SystemExit(f"unknown mode {mode}")
    finally:
        db.close()


if __name__ == "__main__":
    main(sys.argv[1:])

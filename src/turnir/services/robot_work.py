"""Robot workers (issue 15): several ``turnir robot work`` processes share the checks of a
round's games, no game is decided twice, and a dead worker's games are taken over.

The API process (``turnir robot serve --no-checks``) registers the games and keeps their
events; each game's row says when its next check is due (``robot_games.next_check_ms``). A
worker, in a loop (``RobotWorker.work_once``):

1. **claims** a batch of due games with a lease (``lease_owner``, ``lease_until_ms``): on
   PostgreSQL ``SELECT … FOR UPDATE SKIP LOCKED`` then an update, on SQLite one write
   transaction (``BEGIN IMMEDIATE``); only games whose lease is free or expired are taken;
2. **rebuilds** each game from the journal (its events and stored decisions, as a restart
   does: ``Robot.adopt``); a game a dead worker already decided comes back with that decision,
   so its stage is not due any more and it is not decided again, and an end the dead worker
   did not hand over is handed over now;
3. runs **the due stage's check** of those games with the evaluator (``Robot.run_due_checks``),
   stores each decision (its id ``<game>/<stage>`` is unique: a second, different decision is
   refused, ``decision_exists``), and hands the games' ends to the tournament through
   ``ServicesResultSink`` (``record_game_end``, idempotent). Recording a game's end also
   clears its next check and its lease in the same transaction: a worker killed after that
   and before step 4 leaves no lease behind on a game no worker would claim again;
4. **releases** the leases, recording each game's last stage and next check moment. A game
   whose evaluation failed keeps its lease for ``retry_ms`` and is checked again then.

While a batch is being checked, a thread renews its leases every third of the lease, so a
long check keeps its games; a worker that dies stops renewing, its leases expire after
``lease_ms`` and another worker takes the games over. A waiting worker wakes when a held
lease runs out (``next_due_ms`` counts a held game as due at its lease's end), not only at the
next free game's check.

The lease is short (``DEFAULT_LEASE_MS``, 5 s) and at most ``max_lease_ms`` (8 s): the
shortest time between two checks of a game (A-3: the unconditional check 10 s after the
second, in every time control) less ``TAKEOVER_MARGIN_MS`` for the taker to notice, claim and
rebuild the game. So a check a worker died in is taken over, and run as that same check,
before the game's next check is due. A takeover that still comes later (every worker was
down) runs only the latest due check, as after a restart (the earlier ones are logged as
missed).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from turnir.domain.robot_rules import RobotSettings
from turnir.errors import UserError
from turnir.robot.clock import Clock
from turnir.robot.engine import Evaluator
from turnir.robot.robot import CheckRun, CheckStatus, Robot
from turnir.robot.sink import FanOutSink, ResultSink
from turnir.services.common import Database, changing, reading
from turnir.services.online import ROBOT_ACTOR, ServicesResultSink
from turnir.services.robot_store import DatabaseRobotStore
from turnir.storage import robot_repo

log = logging.getLogger(__name__)

MAX_WORKER_NAME = 100
"""The longest worker name (``robot_games.lease_owner``)."""

DEFAULT_LEASE_MS = 5_000
"""A claim's lease unless renewed (renewed every third of it while the batch is checked)."""
MIN_LEASE_MS = 1_000
"""The shortest lease: renewals every third of a second at the most."""
TAKEOVER_MARGIN_MS = 2_000
"""Left between a dead worker's lease running out and the game's next check: the taker's wait
(at most 50 ms once a lease has run out), its claim and its rebuilding of the game."""


def shortest_check_gap_ms(settings: RobotSettings) -> int:
    """The least time between two checks of one game in any time control: first to second
    (A-2: 20 s bullet, 30 s blitz) and second to unconditional (A-3: 10 s)."""
    return min(settings.second_check_bullet_ms, settings.second_check_blitz_ms,
               settings.unconditional_after_ms)


def max_lease_ms(settings: RobotSettings) -> int:
    """The longest lease: a dead worker's check is taken over before the next one is due."""
    return max(MIN_LEASE_MS, shortest_check_gap_ms(settings) - TAKEOVER_MARGIN_MS)


def check_lease_ms(lease_ms: int, settings: RobotSettings) -> int:
    """A worker's lease: ``MIN_LEASE_MS`` to ``max_lease_ms`` milliseconds."""
    high = max_lease_ms(settings)
    if not MIN_LEASE_MS <= lease_ms <= high:
        raise UserError("a worker's lease is {low} to {high} ms: a dead worker's check must be "
                        "taken over before the game's next check", code="invalid_lease",
                        low=MIN_LEASE_MS, high=high)
    return lease_ms


def check_worker_name(name: str) -> str:
    """A worker's name: printable, 1 to 100 characters."""
    cleaned = name.strip()
    if not cleaned or len(cleaned) > MAX_WORKER_NAME or not cleaned.isprintable():
        raise UserError("a worker name is 1 to {limit} printable characters",
                        code="invalid_worker", limit=MAX_WORKER_NAME)
    return cleaned


@dataclass(frozen=True)
class Claim:
    """A game a worker claimed: its id, and the worker whose expired lease it took over."""

    game_id: str
    taken_from: str | None


def claim_due_games(db: Database, *, owner: str, now_ms: int, lease_ms: int,
                    limit: int) -> list[Claim]:
    """Claim up to ``limit`` games whose check is due and whose lease is free or expired."""
    with changing(db, None, ROBOT_ACTOR) as change:
        found = robot_repo.claim_due(change.conn, owner=owner, now_ms=now_ms,
                                     until_ms=now_ms + lease_ms, limit=limit)
    return [Claim(gid, was if was != owner else None) for gid, was in found]


def renew_leases(db: Database, *, owner: str, game_ids: Sequence[str], until_ms: int) -> int:
    """Extend the worker's leases on these games (those it still holds); how many of them
    another worker took over. A game whose end was recorded meanwhile holds no lease any more
    (``record_game_end``) and is not counted."""
    with changing(db, None, ROBOT_ACTOR) as change:
        kept = robot_repo.renew_leases(change.conn, owner, game_ids, until_ms)
        if kept == len(set(game_ids)):
            return 0
        return robot_repo.leases_held_by_others(change.conn, owner, game_ids)


def next_due_ms(db: Database, now_ms: int) -> int | None:
    """The earliest moment a game can be claimed: its next check, or the end of the lease
    another worker holds on it when that is later."""
    with reading(db) as tx:
        return robot_repo.next_due_ms(tx, now_ms)


@dataclass
class WorkRound:
    """What one ``work_once`` did."""

    claimed: list[Claim] = field(default_factory=list)
    run: CheckRun | None = None
    broken: tuple[str, ...] = ()
    redelivered: int = 0
    error: str | None = None

    @property
    def taken_over(self) -> list[Claim]:
        return [c for c in self.claimed if c.taken_from is not None]

    def count(self, status: CheckStatus) -> int:
        return 0 if self.run is None else len(self.run.with_status(status))


WorkReporter = Callable[[WorkRound], None]
"""Told about every round that claimed games (the CLI prints it)."""


class _Renewer:
    """Renews a batch's leases every third of the lease while the batch is checked."""

    def __init__(self, worker: RobotWorker, game_ids: Sequence[str]) -> None:
        self._worker = worker
        self._ids = list(game_ids)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="robot-lease", daemon=True)

    def __enter__(self) -> _Renewer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _loop(self) -> None:
        worker = self._worker
        while not self._stop.wait(worker.lease_ms / 3000):
            try:
                lost = renew_leases(worker.db, owner=worker.owner, game_ids=self._ids,
                                    until_ms=worker.clock.now_ms() + worker.lease_ms)
                if lost:  # late renewals: another worker took some over
                    log.warning("worker %s: %d of %d leases were taken over; their decisions "
                                "stay unique", worker.owner, lost, len(self._ids))
            except Exception:  # the next renewal tries again; an expired lease is taken over
                log.exception("renewing %d leases failed", len(self._ids))


class RobotWorker:
    """One worker: claims due games, checks them, releases them (see the module doc)."""

    def __init__(self, db: Database, *, owner: str, clock: Clock, evaluator: Evaluator,
                 lease_ms: int = DEFAULT_LEASE_MS, batch: int = 200, retry_ms: int = 1_000,
                 settings: RobotSettings | None = None, actor: str = ROBOT_ACTOR,
                 also: Sequence[ResultSink] = ()) -> None:
        self.db = db
        self.owner = check_worker_name(owner)
        self.clock = clock
        self.evaluator = evaluator
        self.settings = settings or RobotSettings()
        self.lease_ms = check_lease_ms(lease_ms, self.settings)
        self.batch = batch
        self.retry_ms = retry_ms
        self.store = DatabaseRobotStore(db, self.settings)
        self.results = ServicesResultSink(db, actor=actor)
        self.sink: ResultSink = FanOutSink(self.results, *also) if also else self.results

    def work_once(self) -> WorkRound:
        """Claim one batch of due games and run their checks; an empty round when none is
        due."""
        self.results.retry_pending()
        claims = claim_due_games(self.db, owner=self.owner, now_ms=self.clock.now_ms(),
                                 lease_ms=self.lease_ms, limit=self.batch)
        done = WorkRound(claims)
        if not claims:
            return done
        ids = [c.game_id for c in claims]
        robot = Robot(clock=self.clock, evaluator=self.evaluator, store=self.store,
                      sink=self.sink, settings=self.settings)
        try:
            with _Renewer(self, ids):
                kept, decisions = self.store.load_many(ids)
                report = robot.adopt(kept, decisions)
                done.broken, done.redelivered = report.broken, report.redelivered
                done.run = robot.run_due_checks()
        except Exception as error:  # keep working the other games; these are tried again
            log.exception("worker %s: checking %d games failed", self.owner, len(ids))
            done.error = f"{type(error).__name__}: {error}"
            self._hold(ids)
            return done
        self._release(robot, ids, done)
        return done

    def _hold(self, ids: Sequence[str]) -> None:
        """Keep the leases ``retry_ms`` longer, leaving the games as they are kept."""
        until = self.clock.now_ms() + self.retry_ms
        renew_leases(self.db, owner=self.owner, game_ids=ids, until_ms=until)

    def _release(self, robot: Robot, ids: Sequence[str], done: WorkRound) -> None:
        assert done.run is not None
        failed = {o.game_id for o in done.run.failed}
        retry_at = self.clock.now_ms() + self.retry_ms
        known = set(robot.game_ids())
        rows: list[dict[str, object]] = []
        for game_id in ids:
            if game_id not in known:  # cannot be rebuilt: logged; no worker takes it again
                rows.append({"gid": game_id, "stage": None, "next_ms": None,
                             "owner_after": None, "until_after": None})
                continue
            stage, next_ms = robot.stage_of(game_id)
            keep = game_id in failed
            rows.append({"gid": game_id, "stage": None if stage is None else stage.value,
                         "next_ms": next_ms, "owner_after": self.owner if keep else None,
                         "until_after": retry_at if keep else None})
        with changing(self.db, None, ROBOT_ACTOR) as change:
            robot_repo.release_leases(change.conn, self.owner, rows)

    def run(self, stop: threading.Event, *, poll_ms: int = 500,
            report: WorkReporter | None = None) -> None:
        """Work until ``stop`` is set: a batch after another while games are due, else a
        wait of at most ``poll_ms``."""
        while not stop.is_set():
            try:
                done = self.work_once()
            except Exception:  # the database may be away a moment: try again after a wait
                log.exception("worker %s: a round failed", self.owner)
                stop.wait(poll_ms / 1000)
                continue
            if report is not None and done.claimed:
                report(done)
            if done.claimed and done.error is None:
                continue
            stop.wait(self._wait_ms(poll_ms) / 1000)

    def _wait_ms(self, poll_ms: int) -> int:
        now = self.clock.now_ms()
        due = next_due_ms(self.db, now)
        return poll_ms if due is None else max(50, min(poll_ms, due - now))


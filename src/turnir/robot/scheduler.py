"""Driving the checks by a clock: in simulated time (tests, replays, simulations) or in real
time (a background thread of the standalone service).

``feed`` plays a timeline of events into the robot and runs every check at its moment in
between: the events stamped up to a check moment are applied before that check, the later ones
after it. Events of a game the robot already ended are not applied and are counted as ignored.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from turnir.clock import ManualClock
from turnir.errors import UserError
from turnir.robot.clock import Clock
from turnir.robot.game import GameEvent
from turnir.robot.robot import CheckRun, Robot

log = logging.getLogger(__name__)


Observer = Callable[[CheckRun], None]
"""Called after each check run (the replay uses it to take snapshots)."""


def run_until(robot: Robot, clock: ManualClock, end_ms: int, *, retry_ms: int = 1_000,
              observe: Observer | None = None) -> list[CheckRun]:
    """Simulated time: move the clock to each check moment up to ``end_ms`` and run it. A run
    with failed evaluations is retried ``retry_ms`` later (in simulated time)."""
    runs: list[CheckRun] = []
    while True:
        moment = robot.next_check_ms()
        if moment is None or moment > end_ms:
            return runs
        if moment <= clock.now_ms() and runs and runs[-1].failed:
            moment = clock.now_ms() + retry_ms
            if moment > end_ms:
                return runs
        clock.set(max(moment, clock.now_ms()))
        run = robot.run_due_checks()
        runs.append(run)
        if observe is not None:
            observe(run)


@dataclass(frozen=True)
class IgnoredEvent:
    """An event ``feed`` did not apply."""

    game_id: str
    event: GameEvent
    code: str
    """The refusal's code: ``game_over`` after the robot ended the game, or another."""
    message: str


@dataclass
class FeedReport:
    """What ``feed`` did."""

    runs: list[CheckRun] = field(default_factory=list)
    applied: int = 0
    ignored: list[IgnoredEvent] = field(default_factory=list)
    """Events not applied (the game was over, or the event was bad)."""


def feed(robot: Robot, clock: ManualClock, timeline: Iterable[tuple[str, GameEvent]], *,
         until_ms: int | None = None, observe: Observer | None = None) -> FeedReport:
    """Apply ``(game id, event)`` pairs in time order with the checks in between, then run the
    checks up to ``until_ms`` (every remaining check when ``None``)."""
    report = FeedReport()
    ordered = sorted(timeline, key=lambda item: item[1].at_ms)
    due = robot.next_check_ms()  # only checks and game ends move it, and only later
    for game_id, event in ordered:
        if due is not None and due < event.at_ms:
            report.runs.extend(run_until(robot, clock, event.at_ms - 1, observe=observe))
            due = robot.next_check_ms()
        clock.set(max(clock.now_ms(), event.at_ms))
        try:
            robot.apply(game_id, [event])
        except UserError as exc:
            report.ignored.append(IgnoredEvent(game_id, event, exc.code, exc.message))
            continue
        report.applied += 1
    end = until_ms
    if end is None:
        last = [robot.snapshot(g).schedule.unconditional_ms for g in robot.game_ids()]
        end = max([*last, clock.now_ms()])
    report.runs.extend(run_until(robot, clock, end, observe=observe))
    return report


class CheckRunner:
    """Runs the due checks on a real clock in a background thread."""

    def __init__(self, robot: Robot, *, clock: Clock, poll_ms: int = 250,
                 retry_ms: int = 1_000) -> None:
        self.robot = robot
        self.clock = clock
        self.poll_ms = poll_ms
        self.retry_ms = retry_ms
        self.runs = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._loop, name="robot-checks", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _loop(self) -> None:
        while not self._stop.is_set():
            wait_ms = self.poll_ms
            moment = self.robot.next_check_ms()
            now = self.clock.now_ms()
            if moment is not None and moment <= now:
                try:
                    run = self.robot.run_due_checks()
                    self.runs += 1
                    wait_ms = self.retry_ms if run.failed else 0
                except Exception:  # keep judging the other games; the error is in the log
                    log.exception("a check run failed")
                    wait_ms = self.retry_ms
            elif moment is not None:
                wait_ms = min(self.poll_ms, moment - now)
            self._stop.wait(max(wait_ms, 0) / 1000)

"""Replaying a recorded game through the robot in simulated time: the timeline of its checks
and decisions (``turnir robot replay``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from turnir.clock import ManualClock
from turnir.robot.decision import Decision
from turnir.robot.engine import EvaluationRequest, Evaluator, ScriptedEvaluator
from turnir.robot.game import GameSnapshot
from turnir.robot.pgn import RecordedGame
from turnir.robot.robot import CheckRun, CheckStatus, Robot
from turnir.robot.scheduler import feed


class EntryKind(StrEnum):
    START = "start"
    CHECK = "check"
    DECISION = "decision"
    END = "end"
    IGNORED = "ignored"


@dataclass(frozen=True)
class TimelineEntry:
    """One line of the timeline."""

    at_ms: int
    kind: EntryKind
    text: str
    decision: Decision | None = None
    snapshot: GameSnapshot | None = None
    """The game right after a check."""


@dataclass(frozen=True)
class ReplayReport:
    game: RecordedGame
    entries: tuple[TimelineEntry, ...]
    decisions: tuple[Decision, ...]
    final: GameSnapshot
    evaluations: int


def scripted_for(game: RecordedGame) -> ScriptedEvaluator:
    """The fake engine of a recorded game: its scripted evaluation per check, else 0."""

    def score(request: EvaluationRequest) -> float:
        return game.evaluations.get(request.stage, 0.0) if request.stage else 0.0

    return ScriptedEvaluator(score)


def replay(game: RecordedGame, evaluator: Evaluator) -> ReplayReport:
    """Play the recorded events with every check at its moment."""
    setup = game.setup
    clock = ManualClock(setup.round_start_ms)
    robot = Robot(clock=clock, evaluator=evaluator)
    robot.register(setup)
    entries: list[TimelineEntry] = [TimelineEntry(
        setup.round_start_ms, EntryKind.START,
        f"round starts; {setup.white} (white) v {setup.black} (black), "
        f"{setup.time_control.label()}")]

    def observe(run: CheckRun) -> None:
        snapshot = robot.snapshot(setup.game_id)
        for outcome in run.outcomes:
            if outcome.status is CheckStatus.DECIDED and outcome.decision is not None:
                entries.append(TimelineEntry(run.at_ms, EntryKind.DECISION,
                                             outcome.decision.message, outcome.decision,
                                             snapshot))
                continue
            what = {CheckStatus.NO_LAGGER: "no lagger: the game is not touched (A-0)",
                    CheckStatus.FAILED: f"evaluation failed ({outcome.error}); retried",
                    CheckStatus.ENDED_DURING_CHECK: "the game ended during the check"}
            lags = (f"mean lags white {float(snapshot.white_lag.mean_ms) / 1000:.2f} s, "
                    f"black {float(snapshot.black_lag.mean_ms) / 1000:.2f} s")
            entries.append(TimelineEntry(run.at_ms, EntryKind.CHECK,
                                         f"{outcome.stage.value} check: "
                                         f"{what.get(outcome.status, outcome.status.value)}; "
                                         f"{lags}", snapshot=snapshot))

    report = feed(robot, clock, [(setup.game_id, e) for e in game.events], observe=observe)
    after_end = [i for i in report.ignored if i.code == "game_over"]
    if after_end:
        entries.append(TimelineEntry(after_end[0].event.at_ms, EntryKind.IGNORED,
                                     f"{len(after_end)} later event(s) not applied: the game "
                                     "was over"))
    for ignored in report.ignored:
        if ignored.code != "game_over":
            entries.append(TimelineEntry(ignored.event.at_ms, EntryKind.IGNORED,
                                         f"{type(ignored.event).__name__} refused "
                                         f"({ignored.code}): {ignored.message}"))
    final = robot.snapshot(setup.game_id)
    decisions = tuple(robot.decisions(setup.game_id))
    for decision in decisions:
        if decision.stage is None:
            entries.append(TimelineEntry(decision.at_ms, EntryKind.DECISION, decision.message,
                                         decision))
    if final.end is not None:
        entries.append(TimelineEntry(final.end.at_ms, EntryKind.END,
                                     f"game over: {final.end.result.value} "
                                     f"({final.end.reason.value}) after {final.plies} plies"))
    else:
        entries.append(TimelineEntry(final.at_ms, EntryKind.END,
                                     f"still running after {final.plies} plies"))
    order = {kind: i for i, kind in enumerate(EntryKind)}
    entries.sort(key=lambda e: (e.at_ms, order[e.kind]))
    return ReplayReport(game, tuple(entries), decisions, final,
                        sum(run.evaluations for run in report.runs))

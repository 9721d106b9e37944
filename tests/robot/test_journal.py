"""What the robot keeps to survive a restart, without a database: the JSON forms of events and
decisions read back equal, a robot rebuilt from a journal is the same robot, a journal that
fails does not let a game run ahead of it, and results go to several sinks."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import chess
import pytest

from tests.robot.builders import FIRST, SECOND, lagging_game, setup
from turnir.clock import ManualClock
from turnir.domain.robot_rules import CheckStage, ChessResult, LaggerKind, Rule, Verdict
from turnir.robot.decision import CheckFigures, Decision
from turnir.robot.engine import Evaluation, ScriptedEvaluator
from turnir.robot.game import (
    ClockReading,
    DrawAgreed,
    EndReason,
    FlagFell,
    GameEnd,
    GameEvent,
    GameSetup,
    MovePlayed,
    Resigned,
)
from turnir.robot.journal import (
    JournaledGame,
    TournamentLink,
    decision_from_json,
    decision_json,
    event_from_json,
    event_json,
)
from turnir.robot.robot import Robot
from turnir.robot.sink import FanOutSink, InMemoryResultSink
from turnir.robot.store import InMemoryDecisionStore


class MemoryJournal:
    """A ``GameJournal`` in dictionaries; ``fail`` makes the next ``append`` raise."""

    def __init__(self) -> None:
        self.setups: dict[str, tuple[GameSetup, TournamentLink | None]] = {}
        self.events: dict[str, list[GameEvent]] = {}
        self.stages: dict[str, CheckStage] = {}
        self.fail = False

    def register(self, setup: GameSetup, link: TournamentLink | None) -> TournamentLink | None:
        self.setups.setdefault(setup.game_id, (setup, link))
        self.events.setdefault(setup.game_id, [])
        return link

    def append(self, game_id: str, first: int, events: Sequence[GameEvent]) -> None:
        if self.fail:
            self.fail = False
            raise OSError("disk full")
        assert len(self.events[game_id]) == first
        self.events[game_id].extend(events)

    def passed(self, stages: Sequence[tuple[str, CheckStage]]) -> None:
        self.stages.update(stages)

    def load(self, game_id: str | None = None, *,
             since_ms: int | None = None) -> list[JournaledGame]:
        return [JournaledGame(s, link, tuple(self.events[g]), self.stages.get(g), False)
                for g, (s, link) in self.setups.items() if game_id in (None, g)]


def test_events_and_decisions_read_back_equal() -> None:
    kept: list[GameEvent] = [MovePlayed(1, "e4", 300, 179_000), MovePlayed(2, "e5"),
                             ClockReading(3, 1, 2), Resigned(4, chess.BLACK),
                             FlagFell(5, chess.WHITE), DrawAgreed(6)]
    assert [event_from_json(event_json(e)) for e in kept] == kept
    figures = CheckFigures(white_clock_ms=1_500, black_clock_ms=40_000,
                           white_mean_lag_ms=Fraction(10_001, 3), black_mean_lag_ms=Fraction(0),
                           white_moves=3, black_moves=2, lagger_kind=LaggerKind.BOTH_RESOLVED,
                           evaluation=Evaluation(99_990, 10, 12, 5_000, "stockfish"),
                           evaluation_pov=chess.WHITE, fen=chess.STARTING_FEN)
    decision = Decision(id="g/second", game_id="g", white="a", black="b",
                        stage=CheckStage.SECOND, scheduled_at_ms=480_000, at_ms=480_001,
                        verdict=Verdict.CONTINUE, rule=Rule.B2,
                        trail=(Rule.BOTH_LAGGERS, Rule.B2), winner=None, lagger=chess.WHITE,
                        figures=figures)
    assert decision_from_json(decision_json(decision)) == decision


def test_a_robot_rebuilt_from_its_journal_is_the_same_robot() -> None:
    journal, store = MemoryJournal(), InMemoryDecisionStore()
    clock = ManualClock()
    script = {"slow/first": 3.0, "gone/first": 0.2}
    robot = Robot(clock=clock, evaluator=ScriptedEvaluator(script), store=store,
                  journal=journal)
    lagging_game(robot, "slow")                               # A3-2: compensation off
    lagging_game(robot, "gone")                               # awarded
    robot.register(setup("calm"))
    robot.post("calm", MovePlayed(5_000, "e2e4"))
    robot.register(setup("flag", fen="8/8/4k3/8/8/4K3/8/4N3 w - - 0 1"))
    clock.set(FIRST)
    robot.run_due_checks()
    robot.post("slow", MovePlayed(FIRST + 9_000, "e2e4", 2_000))   # lag charged now
    [a5] = robot.post("flag", FlagFell(FIRST + 10_000, chess.WHITE))[1]
    assert a5.rule is Rule.NO_COOPERATIVE_MATE

    again = Robot(clock=clock, evaluator=ScriptedEvaluator(script), store=store,
                  journal=journal, sink=InMemoryResultSink())
    report = again.restore()
    assert (report.games, report.broken) == (4, ())
    for game_id in robot.game_ids():
        assert again.snapshot(game_id) == robot.snapshot(game_id), game_id
    assert again.snapshot("calm").last_stage is CheckStage.FIRST
    # the ends nobody recorded go to the sink again: the award and the A-5 draw
    assert isinstance(again.sink, InMemoryResultSink)
    assert sorted(d.id for _, _, d in again.sink.delivered) == ["flag/flag", "gone/first"]
    clock.set(SECOND)
    assert {o.game_id for o in again.run_due_checks().outcomes} == {"slow", "calm"}


def test_a_failing_journal_leaves_the_game_as_kept() -> None:
    journal = MemoryJournal()
    robot = Robot(clock=ManualClock(), evaluator=ScriptedEvaluator(), journal=journal)
    robot.register(setup("g"))
    robot.post("g", MovePlayed(1_000, "e2e4"))
    journal.fail = True
    with pytest.raises(OSError):
        robot.post("g", MovePlayed(2_000, "e7e5"))
    assert robot.snapshot("g").plies == 1
    robot.post("g", MovePlayed(2_000, "e7e5"))
    assert robot.snapshot("g").plies == 2 and len(journal.events["g"]) == 2


def test_game_ends_by_events_reach_every_sink_once() -> None:
    first, second = InMemoryResultSink(), InMemoryResultSink()

    class Broken:
        def deliver(self, *args: object) -> None:
            raise RuntimeError("down")

        def deliver_end(self, *args: object) -> None:
            raise RuntimeError("down")

    robot = Robot(clock=ManualClock(), evaluator=ScriptedEvaluator(),
                  sink=FanOutSink(first, Broken(), second))
    robot.register(setup("g"))
    robot.post("g", Resigned(1_000, chess.WHITE))
    end = GameEnd(ChessResult.BLACK_WINS, EndReason.RESIGNATION, 1_000)
    assert first.ended == second.ended == [("g", end)]
    assert first.delivered == []

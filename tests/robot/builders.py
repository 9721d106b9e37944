"""One-line builders for the robot's tests."""

from __future__ import annotations

from collections.abc import Mapping

import chess

from turnir.clock import ManualClock
from turnir.domain.robot_rules import TimeControl
from turnir.robot.engine import Evaluator, Script, ScriptedEvaluator
from turnir.robot.game import ClockReading, GameSetup, MovePlayed
from turnir.robot.robot import Robot
from turnir.robot.sink import InMemoryResultSink

FIRST, SECOND, UNCONDITIONAL = 450_000, 480_000, 490_000
"""The check moments of a 3+0 game whose round started at 0."""


def setup(game_id: str = "g1", *, tc: str = "3+0", fen: str | None = None,
          round_start_ms: int = 0) -> GameSetup:
    return GameSetup(game_id=game_id, white="alice", black="bob",
                     time_control=TimeControl.parse(tc), round_start_ms=round_start_ms,
                     initial_fen=fen)


def make_robot(script: Script | Mapping[str, float] | float = 0.0, *,
               evaluator: Evaluator | None = None,
               ) -> tuple[Robot, ManualClock, InMemoryResultSink]:
    clock = ManualClock(0)
    sink = InMemoryResultSink()
    robot = Robot(clock=clock, evaluator=evaluator or ScriptedEvaluator(script), sink=sink)
    return robot, clock, sink


def lagging_game(robot: Robot, game_id: str = "g1", *, white_lag_ms: int = 300,
                 black_lag_ms: int = 5_000, fen: str | None = None,
                 moves: tuple[str, str] | None = None, clock_ms: int = 60_000) -> None:
    """Register a game, play one move each with the given lags (so the means are exactly
    those lags), and let the server read both clocks at ``clock_ms`` a second before the
    first check."""
    robot.register(setup(game_id, fen=fen))
    board = chess.Board(fen) if fen else chess.Board()
    first, second = moves or _two_quiet_moves(board)
    robot.post(game_id, MovePlayed(10_000, first, white_lag_ms if board.turn else black_lag_ms))
    robot.post(game_id, MovePlayed(20_000, second,
                                   black_lag_ms if board.turn else white_lag_ms))
    robot.post(game_id, ClockReading(FIRST - 1_000, clock_ms, clock_ms))


def _two_quiet_moves(board: chess.Board) -> tuple[str, str]:
    if board.fen() == chess.STARTING_FEN:
        return "g1f3", "g8f6"
    raise AssertionError("give the moves for a custom position")


def clocks(robot: Robot, game_id: str, at_ms: int, white_ms: int, black_ms: int) -> None:
    robot.post(game_id, ClockReading(at_ms, white_ms, black_ms))

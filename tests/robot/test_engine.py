"""Evaluations: score mapping, and the real Stockfish pool (installed by ``make``; never skipped).
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator

import chess
import chess.engine
import pytest

from tests.robot.builders import FIRST, lagging_game, make_robot
from turnir.domain.robot_rules import MATE_CP, NEAR_MATE_CP, Rule, Verdict
from turnir.errors import UserError
from turnir.robot.engine import (
    DEFAULT_STOCKFISH,
    EngineSettings,
    Evaluation,
    EvaluationFailure,
    EvaluationRequest,
    ScriptedEvaluator,
    SearchLimit,
    StockfishPool,
    pawns_to_centipawns,
    score_to_evaluation,
    terminal_evaluation,
)

WON_FOR_BLACK = "3r3k/8/8/3q4/8/8/P7/K7 w - - 0 1"   # Black (to lag) a queen and a rook up
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"  # Rd8#


def test_stockfish_is_installed() -> None:
    assert os.access(DEFAULT_STOCKFISH, os.X_OK), "run `make system-deps` (apt stockfish)"


@pytest.fixture(scope="module")
def pool() -> Iterator[StockfishPool]:
    with StockfishPool(EngineSettings(processes=2, limit=SearchLimit(nodes=20_000))) as p:
        yield p


def request(fen: str, pov: chess.Color, key: str = "k") -> EvaluationRequest:
    return EvaluationRequest(key=key, fen=fen, pov=pov)


@pytest.mark.parametrize(("cp", "pov", "turn", "expected"), [
    (chess.engine.Cp(120), chess.WHITE, chess.WHITE, Evaluation(120)),
    (chess.engine.Cp(120), chess.BLACK, chess.WHITE, Evaluation(-120)),
    (chess.engine.Mate(1), chess.WHITE, chess.WHITE, Evaluation(99_900, mate_plies=1)),
    (chess.engine.Mate(1), chess.BLACK, chess.WHITE, Evaluation(-99_900, mate_plies=-1)),
    (chess.engine.Mate(-2), chess.WHITE, chess.WHITE, Evaluation(-99_600, mate_plies=-4)),
    (chess.engine.Mate(-2), chess.BLACK, chess.WHITE, Evaluation(99_600, mate_plies=4)),
    (chess.engine.Mate(3), chess.BLACK, chess.WHITE, Evaluation(-99_500, mate_plies=-5)),
])
def test_rule_A6_scores_from_the_laggers_side_with_mates_above_25(
        cp: chess.engine.Score, pov: chess.Color, turn: chess.Color,
        expected: Evaluation) -> None:
    board = chess.Board()
    board.turn = turn
    got = score_to_evaluation(chess.engine.PovScore(cp, turn), board, pov, source="")
    assert got == expected
    if got.mate_plies is not None:
        assert abs(got.centipawns) > NEAR_MATE_CP


def test_terminal_positions_need_no_engine() -> None:
    mated = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    mated.push_san("Rd8#")
    assert terminal_evaluation(mated, chess.WHITE) == Evaluation(MATE_CP, 0, 0, 0, "board")
    assert terminal_evaluation(mated, chess.BLACK) == Evaluation(-MATE_CP, 0, 0, 0, "board")
    assert terminal_evaluation(chess.Board(), chess.WHITE) is None


def test_pawns_to_centipawns_is_exact() -> None:
    assert [pawns_to_centipawns(x) for x in (2.51, 0.5, -5.5, 25.01)] == [251, 50, -550, 2501]


def test_search_limit_validation() -> None:
    with pytest.raises(UserError):
        SearchLimit(nodes=None, time_ms=None)
    with pytest.raises(UserError):
        SearchLimit(nodes=0)
    assert SearchLimit(nodes=None, time_ms=50).engine_limit().time == 0.05


def test_scripted_evaluator_lookup_order() -> None:
    fake = ScriptedEvaluator({"g1/first": 1.0, "g2": 2.0}, default=-1.0)
    reqs = [EvaluationRequest("g1/first", "", True, "g1"),
            EvaluationRequest("g2/second", "", True, "g2"),
            EvaluationRequest("g3/first", "", True, "g3")]
    assert [e.centipawns for e in fake.evaluate_many(reqs)  # type: ignore[union-attr]
            ] == [100, 200, -100]


def test_stockfish_scores_from_the_requested_side(pool: StockfishPool) -> None:
    won, lost, mate, bad = pool.evaluate_many([
        request(WON_FOR_BLACK, chess.BLACK), request(WON_FOR_BLACK, chess.WHITE),
        request(MATE_IN_ONE, chess.WHITE), request("not a fen", chess.WHITE)])
    assert isinstance(won, Evaluation) and isinstance(lost, Evaluation)
    assert won.centipawns > 550 and lost.centipawns < -550
    assert won.source == "stockfish" and won.nodes is not None
    assert isinstance(mate, Evaluation)
    assert (mate.mate_plies, mate.centipawns) == (1, 99_900)
    assert isinstance(bad, EvaluationFailure)


def test_rule_A3_1_real_engine_won_position_for_the_lagger_continues(
        pool: StockfishPool) -> None:
    robot, clock, sink = make_robot(evaluator=pool)
    lagging_game(robot, fen=WON_FOR_BLACK, moves=("a1b1", "h8g8"), white_lag_ms=200,
                 black_lag_ms=6_000)
    clock.set(FIRST)
    [decision] = robot.run_due_checks().decisions
    assert decision.lagger == chess.BLACK
    assert decision.rule in (Rule.A3_1,) and decision.verdict is Verdict.CONTINUE
    assert decision.figures.evaluation is not None
    assert decision.figures.evaluation.centipawns > 550
    assert robot.snapshot("g1").end is None and sink.delivered == []


def test_rule_A1_real_engine_equal_position_is_awarded(pool: StockfishPool) -> None:
    robot, clock, sink = make_robot(evaluator=pool)
    lagging_game(robot, white_lag_ms=200, black_lag_ms=6_000)      # 1. Nf3 Nf6
    clock.set(FIRST)
    [decision] = robot.run_due_checks().decisions
    assert decision.figures.evaluation is not None
    assert abs(decision.figures.evaluation.centipawns) <= 250
    assert (decision.rule, decision.winner) == (Rule.FIRST_AWARD, chess.WHITE)
    assert [game_id for game_id, _, _ in sink.delivered] == ["g1"]


def _kill(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)


def test_a_killed_engine_is_restarted_and_the_check_retried() -> None:
    with StockfishPool(EngineSettings(processes=1, limit=SearchLimit(nodes=5_000))) as pool:
        pool.start()
        [pid] = pool.pids()
        _kill(pid)                                      # dead before the check
        robot, clock, _ = make_robot(evaluator=pool)
        lagging_game(robot)
        clock.set(FIRST)
        [decision] = robot.run_due_checks().decisions
        assert decision.rule is Rule.FIRST_AWARD and decision.figures.evaluation is not None
        assert pool.restarts >= 1
        assert pool.pids() and pool.pids() != [pid]


def test_an_engine_killed_mid_search_is_restarted_and_the_position_searched_again() -> None:
    settings = EngineSettings(processes=1, limit=SearchLimit(nodes=None, time_ms=1_500))
    with StockfishPool(settings) as pool:
        pool.start()
        [pid] = pool.pids()
        killer = threading.Timer(0.3, _kill, args=(pid,))
        killer.start()
        try:
            [result] = pool.evaluate_many([request(chess.STARTING_FEN, chess.WHITE)])
        finally:
            killer.cancel()
        assert isinstance(result, Evaluation)
        assert pool.restarts == 1 and pool.failures == 0
        assert pool.pids() != [pid]


def test_a_missing_engine_gives_failures_not_exceptions() -> None:
    settings = EngineSettings(path="/nonexistent/stockfish", processes=1, attempts=2)
    with StockfishPool(settings) as pool:
        [result] = pool.evaluate_many([request(chess.STARTING_FEN, chess.WHITE)])
        assert isinstance(result, EvaluationFailure)
        assert result.attempts == 2 and pool.failures == 1

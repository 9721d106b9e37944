"""The robot end to end with a scripted evaluator on a simulated clock (A-0..A-6)."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.robot.builders import (
    FIRST,
    SECOND,
    UNCONDITIONAL,
    clocks,
    lagging_game,
    make_robot,
    setup,
)
from turnir.domain.robot_rules import CheckStage, ChessResult, LaggerKind, Rule, Verdict
from turnir.errors import ConflictError, NotFoundError, UserError
from turnir.robot.engine import (
    Evaluation,
    EvaluationFailure,
    EvaluationOutcome,
    EvaluationRequest,
    ScriptedEvaluator,
)
from turnir.robot.game import EndReason, FlagFell, MovePlayed, Resigned
from turnir.robot.robot import CheckStatus, Robot
from turnir.robot.scheduler import run_until


def test_rule_A1_award_at_the_first_check_with_its_figures() -> None:
    robot, clock, sink = make_robot({"g1/first": 0.3})
    lagging_game(robot, black_lag_ms=5_000, white_lag_ms=300)
    clock.set(FIRST - 1)
    assert robot.run_due_checks().outcomes == ()
    clock.set(FIRST)
    clocks(robot, "g1", FIRST, 60_000, 45_000)
    run = robot.run_due_checks()
    assert [o.status for o in run.outcomes] == [CheckStatus.DECIDED]
    decision = run.outcomes[0].decision
    assert decision is not None
    assert (decision.rule, decision.verdict, decision.winner, decision.result) == (
        Rule.FIRST_AWARD, Verdict.AWARD, chess.WHITE, ChessResult.WHITE_WINS)
    f = decision.figures
    assert (f.white_clock_ms, f.black_clock_ms) == (60_000, 45_000)
    assert (f.white_mean_lag_ms, f.black_mean_lag_ms) == (300, 5_000)
    assert f.evaluation is not None and f.evaluation.centipawns == 30
    assert f.evaluation_pov == chess.BLACK and decision.lagger == chess.BLACK
    assert (decision.id, decision.scheduled_at_ms, decision.at_ms) == ("g1/first", FIRST, FIRST)
    assert "Awarded to white (alice): 1-0" in decision.message
    assert "mean lag 5.00 s" in decision.message
    assert robot.decisions("g1") == [decision]
    assert sink.delivered == [("g1", ChessResult.WHITE_WINS, decision)]
    snap = robot.snapshot("g1")
    assert snap.end is not None and snap.end.reason is EndReason.ROBOT
    assert robot.next_check_ms() is None


def test_rule_A3_1_continue_then_A2_award_at_the_second_check() -> None:
    robot, clock, sink = make_robot({"g1/first": 6.0, "g1/second": 6.0})
    lagging_game(robot)
    clock.set(FIRST)
    first = robot.run_due_checks().decisions
    assert [(d.rule, d.verdict) for d in first] == [(Rule.A3_1, Verdict.CONTINUE)]
    assert robot.snapshot("g1").end is None and sink.delivered == []
    assert robot.next_check_ms() == SECOND
    clock.set(SECOND)
    second = robot.run_due_checks().decisions
    assert [(d.rule, d.winner) for d in second] == [(Rule.SECOND_AWARD, chess.WHITE)]
    assert [r for _, r, _ in sink.delivered] == [ChessResult.WHITE_WINS]


def test_rule_A3_2_switches_off_the_laggers_lag_compensation() -> None:
    robot, clock, _ = make_robot({"g1/first": 3.0})
    lagging_game(robot)
    clock.set(FIRST)
    [decision] = robot.run_due_checks().decisions
    assert (decision.rule, decision.verdict) == (Rule.A3_2, Verdict.CONTINUE_NO_LAG_COMPENSATION)
    assert "lag compensation off for black (bob)" in decision.message
    assert robot.snapshot("g1").lag_compensation_off == {chess.BLACK}


def test_rule_A3_unconditional_award_after_B2() -> None:
    robot, clock, sink = make_robot({"g1/first": 30.0, "g1/second": 30.0})
    lagging_game(robot)
    runs = run_until(robot, clock, UNCONDITIONAL)
    rules = [d.rule for run in runs for d in run.decisions]
    assert rules == [Rule.A3_1, Rule.B2, Rule.UNCONDITIONAL]
    assert [run.at_ms for run in runs] == [FIRST, SECOND, UNCONDITIONAL]
    assert sink.results() == {"g1": ChessResult.WHITE_WINS}
    assert runs[-1].evaluations == 0            # the unconditional award needs no engine


def test_rule_A1_needs_no_evaluation() -> None:
    evaluator = ScriptedEvaluator(0.0)
    robot, clock, _ = make_robot(evaluator=evaluator)
    lagging_game(robot)
    clock.set(FIRST)
    clocks(robot, "g1", FIRST, 1_999, 4_001)
    [decision] = robot.run_due_checks().decisions
    assert decision.rule is Rule.A1 and decision.figures.evaluation is None
    assert evaluator.requests == []


def test_rule_A0_a_game_without_a_lagger_is_not_touched() -> None:
    evaluator = ScriptedEvaluator(0.0)
    robot, clock, sink = make_robot(evaluator=evaluator)
    lagging_game(robot, "calm", white_lag_ms=3_000, black_lag_ms=2_000)
    lagging_game(robot, "laggy", white_lag_ms=300, black_lag_ms=3_001)
    runs = run_until(robot, clock, UNCONDITIONAL + 60_000)
    assert robot.decisions("calm") == []
    assert robot.snapshot("calm").end is None
    statuses = {(o.game_id, o.stage): o.status for run in runs for o in run.outcomes}
    assert statuses[("calm", CheckStage.FIRST)] is CheckStatus.NO_LAGGER
    assert [r.game_id for r in evaluator.requests] == ["laggy"]
    assert sink.results() == {"laggy": ChessResult.WHITE_WINS}


def test_rule_A0_a_game_that_starts_lagging_later_is_checked_at_the_next_check() -> None:
    robot, clock, _ = make_robot({"g1/second": 0.0})
    lagging_game(robot, white_lag_ms=300, black_lag_ms=1_000)
    clock.set(FIRST)
    assert [o.status for o in robot.run_due_checks().outcomes] == [CheckStatus.NO_LAGGER]
    robot.post("g1", MovePlayed(FIRST + 1_000, "b1c3", 300))
    robot.post("g1", MovePlayed(FIRST + 20_000, "b8c6", 20_000))  # mean 10.5 s now
    clock.set(SECOND)
    [decision] = robot.run_due_checks().decisions
    assert (decision.stage, decision.rule) == (CheckStage.SECOND, Rule.SECOND_AWARD)


def test_rule_A4_bare_king_opponent_gets_a_draw_not_a_win() -> None:
    fen = "8/8/4k3/8/8/4K3/8/q7 w - - 0 1"          # White has only the king
    robot, clock, sink = make_robot(0.0)
    lagging_game(robot, fen=fen, moves=("e3d3", "e6d6"), white_lag_ms=200,
                 black_lag_ms=6_000)
    clock.set(FIRST)
    [decision] = robot.run_due_checks().decisions
    assert (decision.verdict, decision.rule, decision.trail) == (
        Verdict.DRAW, Rule.BARE_KING, (Rule.FIRST_AWARD, Rule.BARE_KING))
    assert sink.results() == {"g1": ChessResult.DRAW}


def test_rule_A5_flag_fall_draw_is_a_recorded_decision() -> None:
    robot, _, sink = make_robot()
    robot.register(setup(fen="8/8/4k3/8/8/3NK3/8/7q w - - 0 1"))
    robot.post("g1", MovePlayed(5_000, "e3e2", 100))
    snapshot, [decision] = robot.post("g1", FlagFell(9_000, chess.BLACK))
    assert (decision.id, decision.rule, decision.verdict, decision.stage) == (
        "g1/flag", Rule.NO_COOPERATIVE_MATE, Verdict.DRAW, None)
    assert snapshot.end is not None and snapshot.end.result is ChessResult.DRAW
    assert sink.results() == {"g1": ChessResult.DRAW}
    assert "cannot mate even cooperatively" in decision.message


def test_rule_A6_both_laggers_decided_at_the_unconditional_stage() -> None:
    robot, clock, sink = make_robot({"g1/unconditional": -2.51})
    lagging_game(robot, white_lag_ms=5_000, black_lag_ms=5_999)
    runs = run_until(robot, clock, UNCONDITIONAL)
    decisions = [d for run in runs for d in run.decisions]
    assert [(d.rule, d.verdict) for d in decisions] == [
        (Rule.BOTH_LAGGERS, Verdict.CONTINUE), (Rule.BOTH_LAGGERS, Verdict.CONTINUE),
        (Rule.BOTH_LAGGERS, Verdict.AWARD)]
    last = decisions[-1]
    assert last.winner == chess.BLACK and last.lagger is None
    assert last.figures.lagger_kind is LaggerKind.BOTH_UNRESOLVED
    assert last.figures.evaluation_pov == chess.WHITE
    assert sink.results() == {"g1": ChessResult.BLACK_WINS}


def test_rule_A6_resolved_lagger_is_the_one_with_the_larger_lag() -> None:
    robot, clock, _ = make_robot(0.0)
    lagging_game(robot, white_lag_ms=5_000, black_lag_ms=6_000)
    clock.set(FIRST)
    [decision] = robot.run_due_checks().decisions
    assert decision.lagger == chess.BLACK and decision.winner == chess.WHITE
    assert decision.trail == (Rule.BOTH_LAGGERS, Rule.FIRST_AWARD)


def test_a_failed_evaluation_is_reported_and_retried() -> None:
    calls: list[str] = []

    def flaky(request: EvaluationRequest) -> float:
        calls.append(request.key)
        if len(calls) == 1:
            raise RuntimeError("engine crashed")
        return 0.0

    robot, clock, _ = make_robot(flaky)
    lagging_game(robot)
    clock.set(FIRST)
    run = robot.run_due_checks()
    assert [(o.status, o.error) for o in run.outcomes] == [
        (CheckStatus.FAILED, "RuntimeError: engine crashed")]
    assert robot.next_check_ms() == FIRST           # still due
    clock.set(FIRST + 1_000)
    [decision] = robot.run_due_checks().decisions
    assert decision.rule is Rule.FIRST_AWARD and decision.at_ms == FIRST + 1_000


def test_an_evaluator_that_raises_fails_the_batch_loudly_not_silently() -> None:
    class Broken:
        def evaluate_many(self, requests: object) -> list[EvaluationOutcome]:
            raise OSError("no engine")

        def close(self) -> None:
            return None

    robot, clock, _ = make_robot(evaluator=Broken())
    lagging_game(robot, "a")
    lagging_game(robot, "b")
    clock.set(FIRST)
    run = robot.run_due_checks()
    assert sorted((o.game_id, o.status) for o in run.outcomes) == [
        ("a", CheckStatus.FAILED), ("b", CheckStatus.FAILED)]
    # in simulated time the retries go on until the evaluator works or the stage passes
    runs = run_until(robot, clock, FIRST + 3_000)
    assert all(o.status is CheckStatus.FAILED for r in runs for o in r.outcomes)


def test_a_game_that_ends_while_it_is_evaluated() -> None:
    robot, clock, sink = make_robot()

    def resign_meanwhile(request: EvaluationRequest) -> EvaluationOutcome:
        robot.post(request.game_id, Resigned(FIRST, chess.WHITE))
        return Evaluation(0)

    robot.evaluator = ScriptedEvaluator(resign_meanwhile)
    lagging_game(robot)
    clock.set(FIRST)
    run = robot.run_due_checks()
    assert [o.status for o in run.outcomes] == [CheckStatus.ENDED_DURING_CHECK]
    assert robot.decisions("g1") == [] and sink.delivered == []
    assert robot.snapshot("g1").end is not None


def test_only_the_latest_due_stage_runs_after_an_outage() -> None:
    robot, clock, _ = make_robot({"g1/second": 0.0})
    lagging_game(robot)
    clock.set(SECOND + 5_000)
    [decision] = robot.run_due_checks().decisions
    assert decision.stage is CheckStage.SECOND


def test_scripted_failure_object_is_reported() -> None:
    robot, clock, _ = make_robot(lambda r: EvaluationFailure("timeout", attempts=3))
    lagging_game(robot)
    clock.set(FIRST)
    assert robot.run_due_checks().failed[0].error == "timeout"


def test_registration_is_idempotent_and_unknown_games_are_refused() -> None:
    robot, _, _ = make_robot()
    robot.register(setup())
    robot.register(setup())
    with pytest.raises(ConflictError):
        robot.register(setup(tc="1+0"))
    with pytest.raises(NotFoundError):
        robot.post("nope", MovePlayed(1, "e2e4"))
    with pytest.raises(NotFoundError):
        robot.decisions("nope")
    with pytest.raises(UserError):
        robot.post("g1", MovePlayed(1, "e2e5"))
    assert robot.snapshot("g1").plies == 0


def test_sink_failure_does_not_lose_the_decision() -> None:
    class Exploding:
        def deliver(self, *args: object) -> None:
            raise RuntimeError("down")

    robot, clock, _ = make_robot()
    robot.sink = Exploding()
    lagging_game(robot)
    clock.set(FIRST)
    run = robot.run_due_checks()
    assert len(run.decisions) == 1
    assert robot.decisions("g1") == run.decisions


def test_robot_uses_the_default_in_memory_store_and_sink() -> None:
    robot = Robot(clock=make_robot()[1], evaluator=ScriptedEvaluator())
    assert robot.decisions() == []


BARE_WHITE = "8/8/4k3/8/8/4K3/8/q7 w - - 0 1"     # White has only the king
BARE_BLACK = "Q7/8/4k3/8/8/4K3/8/8 w - - 0 1"     # Black has only the king


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([None, BARE_WHITE, BARE_BLACK]), st.integers(0, 9_000),
       st.integers(0, 9_000), st.integers(0, 120_000), st.integers(0, 120_000),
       st.floats(-30, 30, allow_nan=False))
def test_property_robot_never_awards_a_bare_king_and_never_touches_a_calm_game(
        fen: str | None, white_lag: int, black_lag: int, white_ms: int, black_ms: int,
        pawns: float) -> None:
    robot, clock, sink = make_robot(round(pawns, 2))
    moves = None if fen is None else ("e3d3", "e6d6")
    lagging_game(robot, fen=fen, moves=moves, white_lag_ms=white_lag, black_lag_ms=black_lag)
    clocks(robot, "g1", FIRST - 500, white_ms, black_ms)
    runs = run_until(robot, clock, UNCONDITIONAL)
    decisions = robot.decisions("g1")
    calm = white_lag <= 3_000 and black_lag <= 3_000
    if calm:
        assert decisions == [] and robot.snapshot("g1").end is None
        return
    assert decisions, "a game with a lagger is always decided at the first check"
    for d in decisions:
        if d.winner is not None:
            assert not (d.winner == chess.WHITE and fen == BARE_WHITE)
            assert not (d.winner == chess.BLACK and fen == BARE_BLACK)
    assert decisions[-1].ends_game                   # always over by the unconditional stage
    assert sink.results() == {"g1": decisions[-1].result}
    assert sum(len(r.outcomes) for r in runs) == len(decisions)

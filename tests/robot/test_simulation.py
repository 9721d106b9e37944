"""A whole simulated round (A-0..A-6) in simulated time, checked against an independent replay
of every game's events: each game with a lagger at a check moment gets a decision at that
moment, a lagger at the unconditional stage always ends the game, and a game without a lagger
is never touched by a check."""

from __future__ import annotations

import chess
import pytest

from turnir.domain.robot_rules import (
    STAGES,
    CheckStage,
    LaggerKind,
    LagStats,
    RobotSettings,
    Rule,
    check_schedule,
    find_lagger,
)
from turnir.robot.decision import Decision
from turnir.robot.game import ClockReading, DrawAgreed, FlagFell, MovePlayed, Resigned
from turnir.robot.simulate import ScriptedGame, SimulationSettings, simulate_round
from turnir.robot.sink import InMemoryResultSink

S = RobotSettings()


def expected_checks(game: ScriptedGame,
                    decisions: dict[CheckStage | None, Decision]) -> list[tuple[CheckStage, bool]]:
    """(stage, has a lagger) for every check moment at which the game was still running,
    computed from the raw events without the robot's game model."""
    schedule = check_schedule(game.setup.time_control, game.setup.round_start_ms, S)
    board = chess.Board()
    lag = {chess.WHITE: LagStats(), chess.BLACK: LagStats()}
    events = list(game.events)
    ended = False
    out: list[tuple[CheckStage, bool]] = []
    for stage in STAGES:
        moment = schedule.at(stage)
        while events and events[0].at_ms <= moment and not ended:
            event = events.pop(0)
            if isinstance(event, MovePlayed):
                mover = board.turn
                board.push_uci(event.move)
                lag[mover] = lag[mover].add(event.lag_ms)
                ended = board.outcome() is not None
            elif isinstance(event, Resigned | FlagFell | DrawAgreed):
                ended = True
            else:
                assert isinstance(event, ClockReading)
        if ended:
            break
        has_lagger = find_lagger(lag[chess.WHITE], lag[chess.BLACK], S).kind is not LaggerKind.NONE
        out.append((stage, has_lagger))
        decision = decisions.get(stage)
        if decision is not None and decision.ends_game:
            break
    return out


@pytest.mark.parametrize(("games", "laggers", "control", "seed"), [
    (200, 0.3, "3+0", 11),
    (120, 0.5, "1+0", 5),
])
def test_rule_A0_A3_whole_round_every_lagging_game_decided_no_other_touched(
        games: int, laggers: float, control: str, seed: int) -> None:
    report = simulate_round(SimulationSettings(games=games, laggers=laggers, seed=seed,
                                               time_control=control))
    by_game: dict[str, dict[CheckStage | None, Decision]] = {}
    for d in report.decisions:
        assert d.stage not in by_game.setdefault(d.game_id, {}), "one decision per moment"
        by_game[d.game_id][d.stage] = d
    lagging_games = untouched = 0
    for game in report.games:
        decided = by_game.get(game.setup.game_id, {})
        checks = expected_checks(game, decided)
        for stage, has_lagger in checks:
            assert (stage in decided) is has_lagger, (game.setup.game_id, stage)
        check_decisions = {s: d for s, d in decided.items() if s is not None}
        assert set(check_decisions) == {s for s, lagging in checks if lagging}
        if (CheckStage.UNCONDITIONAL, True) in checks:
            assert check_decisions[CheckStage.UNCONDITIONAL].ends_game
        if any(lagging for _, lagging in checks):
            lagging_games += 1
            last = check_decisions[max(check_decisions, key=STAGES.index)]
            # by the unconditional stage every lagging game is decided or has lost its lagger
            assert last.ends_game or last.stage is not CheckStage.UNCONDITIONAL
        else:
            untouched += 1
            assert check_decisions == {}
        flag = decided.get(None)
        if flag is not None:
            assert flag.rule is Rule.NO_COOPERATIVE_MATE
    assert lagging_games >= games * laggers * 0.5        # the round really had laggers
    assert untouched >= games * (1 - laggers) * 0.8
    assert all(not o.failed for o in report.feed.runs)
    summary = report.summary()
    assert summary["games"] == games
    # every game a decision ended was handed to the result sink, with the decision's result
    sink = report.robot.sink
    assert isinstance(sink, InMemoryResultSink)
    assert sink.results() == {d.game_id: d.result for d in report.decisions if d.ends_game}


def test_simulation_is_reproducible() -> None:
    settings = SimulationSettings(games=30, laggers=0.5, seed=3)
    first = simulate_round(settings)
    second = simulate_round(settings)
    assert [d.message for d in first.decisions] == [d.message for d in second.decisions]

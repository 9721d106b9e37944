"""A synthetic round in simulated time: N games, a share of them with a lagger, random lags.

Every game starts at the round start with the same time control and plays random legal moves.
A normal player thinks 0.5-6 s a move and lags 0.05-1.5 s on average; a lagging player's mean
lag is drawn from 2.5-12 s (so some "laggers" stay under the 3 s threshold, as in life); each
move's lag is uniform in [0, 2 x mean]. Lag compensation means the clock is charged only the
thinking time. Games end by the board (mate, dead draw…), by a flag fall (A-5 may draw it), by
a resignation (a share of the games), or by the robot. The generator uses its own seeded
``random.Random``: the same settings give the same round.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import chess

from turnir.clock import ManualClock
from turnir.domain.robot_rules import (
    CheckStage,
    RobotSettings,
    Rule,
    TimeControl,
    Verdict,
    check_schedule,
)
from turnir.errors import InvariantError, UserError
from turnir.robot.decision import Decision
from turnir.robot.engine import EvaluationRequest, Evaluator, ScriptedEvaluator
from turnir.robot.game import FlagFell, GameEvent, GameSetup, MovePlayed, Resigned
from turnir.robot.robot import Robot
from turnir.robot.scheduler import FeedReport, feed
from turnir.robot.sink import InMemoryResultSink


@dataclass(frozen=True)
class SimulationSettings:
    """The shape of a synthetic round."""

    games: int = 200
    laggers: float = 0.1
    """The share of games with a lagging player."""
    both_laggers: float = 0.15
    """Among those, the share where both players lag (A-6)."""
    resignations: float = 0.1
    """The share of games someone resigns at a random moment."""
    time_control: str = "3+0"
    seed: int = 1
    round_start_ms: int = 0

    def __post_init__(self) -> None:
        if self.games < 1:
            raise UserError("a round needs at least one game", code="invalid_simulation")
        for name in ("laggers", "both_laggers", "resignations"):
            if not 0 <= getattr(self, name) <= 1:
                raise UserError("{name} must be a share between 0 and 1",
                                code="invalid_simulation", name=name)


@dataclass(frozen=True)
class ScriptedGame:
    """One generated game: its registration and every event the server would send."""

    setup: GameSetup
    events: tuple[GameEvent, ...]
    designed_laggers: tuple[bool, bool]
    """(White, Black) drawn as lagging players (their actual mean may stay under 3 s)."""


def random_legal_move(board: chess.Board, rng: random.Random) -> chess.Move:
    """A uniformly drawn pseudo-legal move, redrawn until legal (cheaper than listing every
    legal move); the caller has checked that the game is not over, so one exists."""
    moves = list(board.generate_pseudo_legal_moves())
    while moves:
        move = moves.pop(rng.randrange(len(moves)))
        if board.is_legal(move):
            return move
    raise InvariantError("a running game without a legal move")


def _one_game(index: int, settings: SimulationSettings, control: TimeControl,
              end_ms: int) -> ScriptedGame:
    rng = random.Random(f"{settings.seed}:game:{index}")
    lagging = rng.random() < settings.laggers
    both = lagging and rng.random() < settings.both_laggers
    first_lags = rng.random() < 0.5
    designed = (both or (lagging and first_lags), both or (lagging and not first_lags))
    mean_lag = {color: rng.uniform(2.5, 12.0) if lags else rng.uniform(0.05, 1.5)
                for color, lags in zip((chess.WHITE, chess.BLACK), designed, strict=True)}
    resign_at = (rng.uniform(0.3, 1.1) * end_ms if rng.random() < settings.resignations
                 else None)
    setup = GameSetup(game_id=f"g{index:05d}", white=f"white{index}", black=f"black{index}",
                      time_control=control, round_start_ms=settings.round_start_ms)
    board = chess.Board()
    clocks = {chess.WHITE: control.base_ms, chess.BLACK: control.base_ms}
    now = settings.round_start_ms
    events: list[GameEvent] = []
    while board.outcome() is None:
        mover = board.turn
        think = round(rng.uniform(500, 6_000))
        lag = round(rng.uniform(0, 2 * mean_lag[mover]) * 1000)
        if think >= clocks[mover]:
            events.append(FlagFell(now + clocks[mover], mover))
            break
        moment = now + think + lag
        if resign_at is not None and moment >= resign_at:
            events.append(Resigned(max(now, round(resign_at)), rng.choice((chess.WHITE,
                                                                          chess.BLACK))))
            break
        if moment > end_ms:
            break
        move = random_legal_move(board, rng)
        clocks[mover] = clocks[mover] - think + control.increment_ms
        events.append(MovePlayed(moment, move.uci(), lag, clocks[mover]))
        board.push(move)
        now = moment
    return ScriptedGame(setup, tuple(events), designed)


def generate_round(settings: SimulationSettings, *,
                   robot_settings: RobotSettings | None = None) -> list[ScriptedGame]:
    """The games of a synthetic round, ending a little after the unconditional award."""
    control = TimeControl.parse(settings.time_control)
    schedule = check_schedule(control, settings.round_start_ms, robot_settings or RobotSettings())
    end_ms = schedule.unconditional_ms + 5_000
    return [_one_game(i, settings, control, end_ms) for i in range(settings.games)]


def random_evaluator(seed: int) -> ScriptedEvaluator:
    """A fake engine with a plausible spread of scores: mostly small, sometimes winning, now
    and then a mate; the same request always gets the same score."""

    def score(request: EvaluationRequest) -> float:
        rng = random.Random(f"{seed}:eval:{request.key}")
        roll = rng.random()
        if roll < 0.6:
            return round(rng.uniform(-2.5, 2.5), 2)
        if roll < 0.8:
            return round(rng.uniform(2.5, 5.5), 2)
        if roll < 0.95:
            return round(rng.uniform(5.5, 25.0), 2)
        return round(1000 - rng.randint(1, 20), 2)

    return ScriptedEvaluator(score)


@dataclass
class SimulationReport:
    """What happened in a simulated round."""

    games: list[ScriptedGame]
    robot: Robot
    feed: FeedReport
    decisions: list[Decision] = field(default_factory=list)

    @property
    def decided_games(self) -> set[str]:
        return {d.game_id for d in self.decisions}

    @property
    def ended_by_robot(self) -> set[str]:
        return {d.game_id for d in self.decisions if d.ends_game and d.stage is not None}

    @property
    def evaluations(self) -> int:
        return sum(run.evaluations for run in self.feed.runs)

    def rule_counts(self) -> Counter[Rule]:
        return Counter(d.rule for d in self.decisions)

    def verdict_counts(self) -> Counter[Verdict]:
        return Counter(d.verdict for d in self.decisions)

    def stage_counts(self) -> Counter[CheckStage | None]:
        return Counter(d.stage for d in self.decisions)

    def summary(self) -> dict[str, object]:
        return {
            "games": len(self.games),
            "games_with_decisions": len(self.decided_games),
            "ended_by_robot": len(self.ended_by_robot),
            "untouched": len(self.games) - len(self.decided_games),
            "decisions": len(self.decisions),
            "evaluations": self.evaluations,
            "check_runs": len(self.feed.runs),
            "events_applied": self.feed.applied,
            "events_ignored": len(self.feed.ignored),
            "rules": {rule.value: n for rule, n in sorted(self.rule_counts().items())},
            "verdicts": {v.value: n for v, n in sorted(self.verdict_counts().items())},
        }


def simulate_round(settings: SimulationSettings, *, evaluator: Evaluator | None = None,
                   robot_settings: RobotSettings | None = None) -> SimulationReport:
    """Generate a round and play it through a robot on a simulated clock."""
    games = generate_round(settings, robot_settings=robot_settings)
    clock = ManualClock(settings.round_start_ms)
    robot = Robot(clock=clock, evaluator=evaluator or random_evaluator(settings.seed),
                  sink=InMemoryResultSink(), settings=robot_settings)
    for game in games:
        robot.register(game.setup)
    report = feed(robot, clock, [(g.setup.game_id, e) for g in games for e in g.events])
    return SimulationReport(games, robot, report, robot.decisions())

"""The robot: registers the round's games, takes their events, and at each check moment decides
every running game with a lagger (A-0..A-6).

A check run (``Robot.run_due_checks``) looks at every running game whose next check moment
(first, second, unconditional; ``CheckSchedule``) has come. A game without a lagger is not
touched (A-0): only its stage is marked as passed. For the others the robot asks the evaluator
for the positions the rules need, all in one batch, then decides each game with the pure table
(``turnir.domain.robot_rules.decide``), stores the ``Decision``, ends the game when the decision
does, and hands the result to the ``ResultSink``. Every game of a run comes back in
``CheckRun.outcomes``; a game whose evaluation failed is reported as ``FAILED`` and checked
again at the next run, so no game is ever skipped silently.

If the robot was not running at a check moment and several stages have come, only the latest
one is run (the earlier ones are logged as missed).

With a ``GameJournal`` the robot keeps its games, their events and the stages they went through
(``turnir.robot.journal``); ``Robot.restore()`` rebuilds them after a restart from the journal
and the stored decisions, and hands the sink the ends it had not recorded yet. Games that end
by an event (mate, resignation, flag fall, agreed draw) go to the sink too (``deliver_end``).

Several processes (issue 15): with ``shared=True`` the robot only takes games and events and
other processes decide them (``turnir robot work``, ``turnir.services.robot_work``). Before it
applies events to a game it looks at the store, and when that holds a decision this robot has
not seen (a worker awarded the game), it rebuilds the game from the journal first, so a move
after an award is refused as in one process. A worker builds a robot without a journal for
each batch of games it claimed, gives it those games (``adopt``) and runs their due checks.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

import chess

from turnir.domain.robot_rules import (
    STAGES,
    CheckStage,
    LaggerFinding,
    LaggerKind,
    RobotSettings,
    Rule,
    Ruling,
    Verdict,
    bare_kings,
    decide,
    evaluation_side,
)
from turnir.errors import ConflictError, InvariantError, NotFoundError, UserError
from turnir.robot.clock import Clock
from turnir.robot.decision import CheckFigures, Decision, build_decision
from turnir.robot.engine import (
    Evaluation,
    EvaluationFailure,
    EvaluationOutcome,
    EvaluationRequest,
    Evaluator,
)
from turnir.robot.game import Game, GameEnd, GameEvent, GameSetup, GameSnapshot
from turnir.robot.journal import GameJournal, JournaledGame, TournamentLink, rebuild_game
from turnir.robot.sink import InMemoryResultSink, ResultSink
from turnir.robot.store import DecisionStore, InMemoryDecisionStore

log = logging.getLogger(__name__)


class CheckStatus(StrEnum):
    """What happened to one game in a check run."""

    DECIDED = "decided"
    """A decision was made and stored (continue, award, draw…)."""
    NO_LAGGER = "no_lagger"
    """No lagger at this moment: the game is not touched (A-0)."""
    FAILED = "failed"
    """The evaluation failed after every retry; the game is checked again at the next run."""
    ENDED_DURING_CHECK = "ended_during_check"
    """The game ended (resignation, mate…) while its position was being evaluated."""


@dataclass(frozen=True)
class CheckOutcome:
    """One game's part of a check run."""

    game_id: str
    stage: CheckStage
    status: CheckStatus
    decision: Decision | None = None
    error: str | None = None


@dataclass(frozen=True)
class CheckRun:
    """Everything one run of the due checks did."""

    at_ms: int
    outcomes: tuple[CheckOutcome, ...]
    evaluations: int
    """Positions sent to the evaluator."""

    def with_status(self, status: CheckStatus) -> list[CheckOutcome]:
        return [o for o in self.outcomes if o.status is status]

    @property
    def decisions(self) -> list[Decision]:
        return [o.decision for o in self.outcomes if o.decision is not None]

    @property
    def failed(self) -> list[CheckOutcome]:
        return self.with_status(CheckStatus.FAILED)


@dataclass(frozen=True)
class _Plan:
    """A game due for a check, with the figures taken at the check moment."""

    game: Game
    stage: CheckStage
    finding: LaggerFinding
    figures: CheckFigures
    pov: chess.Color | None
    bare: frozenset[chess.Color]

    @property
    def key(self) -> str:
        return f"{self.game.game_id}/{self.stage.value}"


class Robot:
    """The online judge robot for one server (many rounds, many games)."""

    def __init__(self, *, clock: Clock, evaluator: Evaluator, store: DecisionStore | None = None,
                 sink: ResultSink | None = None, settings: RobotSettings | None = None,
                 journal: GameJournal | None = None, shared: bool = False) -> None:
        self.clock = clock
        self.evaluator = evaluator
        self.store: DecisionStore = store if store is not None else InMemoryDecisionStore()
        self.sink: ResultSink = sink if sink is not None else InMemoryResultSink()
        self.settings = settings or RobotSettings()
        self.journal = journal
        self.shared = shared
        """Other processes decide these games: reload a game whose stored decisions are new."""
        self._games: dict[str, Game] = {}
        self._seen: dict[str, set[str]] = {}
        """game id → the ids of its decisions this robot made or rebuilt it with."""
        self._links: dict[str, TournamentLink | None] = {}
        self._lock = threading.RLock()
        self._run_lock = threading.Lock()

    # --- games and events ------------------------------------------------------------------

    def register(self, setup: GameSetup, link: TournamentLink | None = None) -> GameSnapshot:
        """Register a game, optionally as a game of a tournament match (``link``, checked by
        the journal); registering the same game again is harmless (idempotent)."""
        with self._lock:
            known = self._games.get(setup.game_id)
            if known is not None:
                kept = self._links.get(setup.game_id)
                same_link = (link is None if kept is None
                             else link is None or kept.accepts(link))
                if known.setup != setup or not same_link:
                    raise ConflictError("game {game} is already registered with other details",
                                        code="game_exists", game=setup.game_id)
                return known.snapshot(self._now_for(known))
            if self.journal is not None:
                self.journal.register(setup, link)
                # Kept from before (a game older than the restore window): as it was kept.
                self._reload(setup.game_id)
                game = self._game(setup.game_id)
                return game.snapshot(self._now_for(game))
            game = Game(setup, self.settings)
            self._games[setup.game_id] = game
            self._links[setup.game_id] = link
            return game.snapshot(self._now_for(game))

    def link(self, game_id: str) -> TournamentLink | None:
        """The tournament match game a registered game is, if any."""
        with self._lock:
            self._game(game_id)
            return self._links.get(game_id)

    def post(self, game_id: str, event: GameEvent) -> tuple[GameSnapshot, list[Decision]]:
        """Apply one event; returns the game and the decisions it caused (A-5 on a flag
        fall). A bad event raises ``UserError`` and changes nothing."""
        return self.post_many(game_id, [event])

    def post_many(self, game_id: str,
                  events: Sequence[GameEvent]) -> tuple[GameSnapshot, list[Decision]]:
        """Apply events in order; the first bad one raises and the ones before it stay."""
        decisions = self.apply(game_id, events)
        return self.snapshot(game_id), decisions

    def apply(self, game_id: str, events: Sequence[GameEvent]) -> list[Decision]:
        """``post_many`` without the snapshot (for fast feeding)."""
        decisions: list[Decision] = []
        ended: list[tuple[str, GameEnd]] = []
        try:
            self._apply(game_id, events, decisions, ended)
        finally:
            self._deliver(decisions, ended)
        return decisions

    def _apply(self, game_id: str, events: Sequence[GameEvent], decisions: list[Decision],
               ended: list[tuple[str, GameEnd]]) -> None:
        with self._lock:
            if self.shared and self.journal is not None:
                self._catch_up(game_id)
            game = self._game(game_id)
            first = game.events
            try:
                self._apply_events(game, events, decisions, ended)
            finally:
                if self.journal is not None and game.events > first:
                    self._keep_events(game, first, events[:game.events - first])

    def _catch_up(self, game_id: str) -> None:
        """Rebuild the game when the store holds decisions about it this robot has not seen
        (another process decided it)."""
        self._game(game_id)
        seen = self._seen.get(game_id, set())
        if any(d.id not in seen for d in self.store.for_game(game_id)):
            log.info("game %s: decided elsewhere; reloading it", game_id)
            self._reload(game_id)

    def _keep_events(self, game: Game, first: int, events: Sequence[GameEvent]) -> None:
        assert self.journal is not None
        try:
            self.journal.append(game.game_id, first, events)
        except Exception:
            # The game must not run ahead of what is kept: back to the journal's version.
            log.exception("game %s: keeping %d events failed; reloading the game",
                          game.game_id, len(events))
            self._reload(game.game_id)
            raise

    def _apply_events(self, game: Game, events: Sequence[GameEvent], decisions: list[Decision],
                      ended: list[tuple[str, GameEnd]]) -> None:
        game_id = game.game_id
        for event in events:
            end = game.apply(event)
            if end is None:
                continue
            if end.rule is not Rule.NO_COOPERATIVE_MATE:
                ended.append((game_id, end))
            else:
                ruling = Ruling(Verdict.DRAW, Rule.NO_COOPERATIVE_MATE,
                                (Rule.NO_COOPERATIVE_MATE,))
                decision = build_decision(
                    game_id=game_id, white=game.setup.white, black=game.setup.black,
                    stage=None, scheduled_at_ms=None, at_ms=end.at_ms, ruling=ruling,
                    figures=_figures(game, end.at_ms, game.lagger(self.settings)))
                self.store.add(decision)
                self._seen.setdefault(game_id, set()).add(decision.id)
                decisions.append(decision)

    def snapshot(self, game_id: str) -> GameSnapshot:
        with self._lock:
            game = self._game(game_id)
            return game.snapshot(self._now_for(game))

    def game_ids(self) -> list[str]:
        with self._lock:
            return list(self._games)

    def decisions(self, game_id: str | None = None) -> list[Decision]:
        if game_id is None:
            return self.store.since(0)
        with self._lock:
            self._game(game_id)
        return self.store.for_game(game_id)

    def _game(self, game_id: str) -> Game:
        game = self._games.get(game_id)
        if game is None:
            raise NotFoundError("no game {game!r} is registered", code="game_not_found",
                                game=game_id)
        return game

    def _now_for(self, game: Game) -> int:
        return max(self.clock.now_ms(), game.last_event_ms)

    # --- checks ----------------------------------------------------------------------------

    def stage_of(self, game_id: str) -> tuple[CheckStage | None, int | None]:
        """A game's last check stage passed and when its next check is due (``None``: ended
        or no stage left)."""
        with self._lock:
            game = self._game(game_id)
            return game.last_stage, game.next_check_ms()

    def next_check_ms(self) -> int | None:
        """The earliest moment a running game is due for its next check (may be in the past
        when a check failed and waits to be retried)."""
        with self._lock:
            return min((m for game in self._games.values()
                        if (m := game.next_check_ms()) is not None), default=None)

    def run_due_checks(self) -> CheckRun:
        """Run every check whose moment has come (see the module doc)."""
        with self._run_lock:
            now = self.clock.now_ms()
            outcomes: list[CheckOutcome] = []
            with self._lock:
                plans = self._plan(now, outcomes)
            requests = [EvaluationRequest(key=p.key, fen=p.figures.fen, pov=p.pov,
                                          game_id=p.game.game_id, stage=p.stage)
                        for p in plans if p.pov is not None]
            results = self._evaluate(requests)
            ending: list[Decision] = []
            try:
                with self._lock:
                    for plan in plans:
                        outcome = self._conclude(plan, now, results.get(plan.key))
                        outcomes.append(outcome)
                        if outcome.decision is not None and outcome.decision.ends_game:
                            ending.append(outcome.decision)
            finally:
                # Also when storing a decision failed midway: what was decided is kept and
                # handed over; the games not concluded are checked again at the next run.
                self._keep_stages(outcomes)
                self._deliver(ending)
            return CheckRun(now, tuple(outcomes), len(requests))

    def _keep_stages(self, outcomes: list[CheckOutcome]) -> None:
        if self.journal is None:
            return
        passed = [(o.game_id, o.stage) for o in outcomes if o.status is not CheckStatus.FAILED]
        if not passed:
            return
        try:
            self.journal.passed(passed)
        except Exception:  # the decisions are stored; only untouched stages may be checked again
            log.exception("keeping the stages of %d games failed", len(passed))

    def _plan(self, now: int, outcomes: list[CheckOutcome]) -> list[_Plan]:
        plans: list[_Plan] = []
        for game in self._games.values():
            if not game.running:
                continue
            stage = game.schedule.latest_due(now)
            if stage is None or (game.last_stage is not None
                                 and STAGES.index(stage) <= STAGES.index(game.last_stage)):
                continue
            expected = game.schedule.next_after(game.last_stage)
            if expected is not None and expected is not stage:
                log.warning("game %s: the %s check was missed; running the %s check",
                            game.game_id, expected.value, stage.value)
            finding = game.lagger(self.settings)
            if finding.kind is LaggerKind.NONE:
                game.last_stage = stage
                outcomes.append(CheckOutcome(game.game_id, stage, CheckStatus.NO_LAGGER))
                continue
            figures = _figures(game, now, finding)
            pov = evaluation_side(stage=stage, finding=finding, white_ms=figures.white_clock_ms,
                                  black_ms=figures.black_clock_ms)
            plans.append(_Plan(game, stage, finding, figures, pov, bare_kings(game.board)))
        return plans

    def _evaluate(self, requests: list[EvaluationRequest]) -> dict[str, EvaluationOutcome]:
        if not requests:
            return {}
        try:
            results = self.evaluator.evaluate_many(requests)
        except Exception as exc:  # the evaluator broke its promise; fail the batch, loudly
            log.exception("the evaluator failed on a batch of %d positions", len(requests))
            failure = EvaluationFailure(f"{type(exc).__name__}: {exc}", attempts=1)
            return {r.key: failure for r in requests}
        if len(results) != len(requests):
            raise InvariantError("the evaluator returned a different number of results")
        return {r.key: result for r, result in zip(requests, results, strict=True)}

    def _conclude(self, plan: _Plan, now: int,
                  evaluation: EvaluationOutcome | None) -> CheckOutcome:
        game = plan.game
        if not game.running:
            game.last_stage = plan.stage
            return CheckOutcome(game.game_id, plan.stage, CheckStatus.ENDED_DURING_CHECK)
        if isinstance(evaluation, EvaluationFailure):
            log.error("game %s, %s check: evaluation failed (%s); will retry", game.game_id,
                      plan.stage.value, evaluation.message)
            return CheckOutcome(game.game_id, plan.stage, CheckStatus.FAILED,
                                error=evaluation.message)
        if plan.pov is not None and evaluation is None:
            raise InvariantError(f"no evaluation for {plan.key}")
        figures = plan.figures
        if isinstance(evaluation, Evaluation):
            figures = replace(figures, evaluation=evaluation, evaluation_pov=plan.pov)
        ruling = decide(stage=plan.stage, finding=plan.finding,
                        white_ms=figures.white_clock_ms, black_ms=figures.black_clock_ms,
                        evaluation_cp=None if evaluation is None else evaluation.centipawns,
                        bare_kings=plan.bare, settings=self.settings)
        if ruling is None:
            raise InvariantError("a game with a lagger got no ruling")
        decision = build_decision(game_id=game.game_id, white=game.setup.white,
                                  black=game.setup.black, stage=plan.stage,
                                  scheduled_at_ms=game.schedule.at(plan.stage), at_ms=now,
                                  ruling=ruling, figures=figures)
        self.store.add(decision)
        self._seen.setdefault(game.game_id, set()).add(decision.id)
        game.last_stage = plan.stage
        result = ruling.result
        if result is not None:
            game.finish(result, at_ms=max(now, game.last_event_ms))
        elif ruling.verdict is Verdict.CONTINUE_NO_LAG_COMPENSATION and ruling.lagger is not None:
            game.lag_compensation_off.add(ruling.lagger)
        return CheckOutcome(game.game_id, plan.stage, CheckStatus.DECIDED, decision=decision)

    def _deliver(self, decisions: list[Decision],
                 ended: Sequence[tuple[str, GameEnd]] = ()) -> None:
        for decision in decisions:
            result = decision.result
            if result is None:
                continue
            try:
                self.sink.deliver(decision.game_id, result, decision)
            except Exception:  # the decision is stored; the sink's failure must be seen
                log.exception("the result sink failed for decision %s", decision.id)
        for game_id, end in ended:
            try:
                self.sink.deliver_end(game_id, end)
            except Exception:  # the event is applied; the sink's failure must be seen
                log.exception("the result sink failed for the end of game %s", game_id)

    # --- restart -----------------------------------------------------------------------------

    def restore(self, *, since_ms: int | None = None) -> RestoreReport:
        """Rebuild every game the journal keeps (after a restart), with the stored decisions,
        and hand the sink the ends it has not recorded (see ``turnir.robot.journal``).
        ``since_ms``: only the games of rounds that started then or later. Games already
        registered in this robot are left as they are."""
        if self.journal is None:
            return RestoreReport(0, 0, ())
        kept = self.journal.load(since_ms=since_ms)
        by_game: dict[str, list[Decision]] = {}
        for decision in self.store.since(0):
            by_game.setdefault(decision.game_id, []).append(decision)
        return self.adopt(kept, by_game)

    def adopt(self, kept: Sequence[JournaledGame],
              by_game: Mapping[str, Sequence[Decision]]) -> RestoreReport:
        """Take games as a journal kept them, rebuilt with their stored decisions
        (``by_game``: game id → its decisions), and hand the sink the ends it has not
        recorded. Games already here are left as they are."""
        games = 0
        broken: list[str] = []
        ends: list[tuple[JournaledGame, Game]] = []
        with self._lock:
            for item in kept:
                game_id = item.setup.game_id
                if game_id in self._games:
                    continue
                try:
                    game = rebuild_game(item, by_game.get(game_id, []), self.settings)
                except UserError:
                    log.exception("game %s cannot be rebuilt from what was kept", game_id)
                    broken.append(game_id)
                    continue
                self._games[game_id] = game
                self._links[game_id] = item.link
                self._seen[game_id] = {d.id for d in by_game.get(game_id, [])}
                games += 1
                if game.end is not None and not item.end_delivered:
                    ends.append((item, game))
        for item, game in ends:
            self._deliver_again(game, list(by_game.get(item.setup.game_id, [])))
        return RestoreReport(games, len(ends), tuple(broken))

    def _deliver_again(self, game: Game, decisions: list[Decision]) -> None:
        assert game.end is not None
        ending = [d for d in decisions if d.ends_game]
        if ending:
            self._deliver(ending[-1:])
        else:
            self._deliver([], [(game.game_id, game.end)])

    def _reload(self, game_id: str) -> None:
        """Replace a game by what the journal and the store keep of it."""
        assert self.journal is not None
        kept = self.journal.load(game_id)
        if not kept:
            self._games.pop(game_id, None)
            self._links.pop(game_id, None)
            self._seen.pop(game_id, None)
            return
        decisions = self.store.for_game(game_id)
        self._games[game_id] = rebuild_game(kept[0], decisions, self.settings)
        self._links[game_id] = kept[0].link
        self._seen[game_id] = {d.id for d in decisions}


@dataclass(frozen=True)
class RestoreReport:
    """What ``Robot.restore`` did."""

    games: int
    """Games rebuilt."""
    redelivered: int
    """Ended games whose end went to the sink again (it had not recorded them)."""
    broken: tuple[str, ...]
    """Games that could not be rebuilt (logged; their rows are kept for a person to look at)."""


def _figures(game: Game, now: int, finding: LaggerFinding) -> CheckFigures:
    white_ms, black_ms = game.clocks_at(now)
    white, black = game.lags[chess.WHITE], game.lags[chess.BLACK]
    return CheckFigures(white_clock_ms=white_ms, black_clock_ms=black_ms,
                        white_mean_lag_ms=white.mean_ms, black_mean_lag_ms=black.mean_ms,
                        white_moves=white.moves, black_moves=black.moves,
                        lagger_kind=finding.kind, fen=game.board.fen())

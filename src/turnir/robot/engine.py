"""Position evaluation for the checks: the ``Evaluator`` protocol, a Stockfish pool, a fake.

The evaluation is from one side (the lagger's, A-0) in integer centipawns; a mate in ``p``
plies is ``1000 - p`` pawns for the mating side and always above the near-mate bound of 25
pawns (A-6), minus that for the mated side.

``StockfishPool`` keeps ``processes`` engine processes (Debian's ``/usr/games/stockfish``)
spoken to over UCI with python-chess; each search is bounded by nodes or time (a setting). If
a process dies or hangs, it is restarted and the position searched again, up to ``attempts``
times; a position that still fails comes back as an ``EvaluationFailure`` and never silently
disappears. ``ScriptedEvaluator`` returns scripted scores for unit tests.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Protocol, TypeVar

import chess
import chess.engine

from turnir.domain.robot_rules import MATE_CP, CheckStage, mate_to_centipawns
from turnir.errors import UserError

log = logging.getLogger(__name__)

DEFAULT_STOCKFISH = "/usr/games/stockfish"
T = TypeVar("T")


@dataclass(frozen=True)
class EvaluationRequest:
    """One position to evaluate from one side."""

    key: str
    """Unique within a batch; the robot uses ``"<game id>/<stage>"``."""
    fen: str
    """The position."""
    pov: chess.Color
    """The side the score is from (the lagger, or White for an unresolved A-6)."""
    game_id: str = ""
    """The game, for scripted evaluators and logs."""
    stage: CheckStage | None = None
    """The check, for scripted evaluators and logs."""


@dataclass(frozen=True)
class Evaluation:
    """An engine's score of a position from one side."""

    centipawns: int
    """The score from ``EvaluationRequest.pov`` in centipawns (mates mapped, see module doc)."""
    mate_plies: int | None = None
    """Plies to mate when the engine sees one: positive when the side mates, negative when it
    is mated."""
    depth: int | None = None
    """The search depth reached, when the engine says."""
    nodes: int | None = None
    """Nodes searched, when the engine says."""
    source: str = ""
    """Which evaluator produced it (``stockfish``, ``scripted``, ``board``)."""

    @property
    def pawns(self) -> float:
        return self.centipawns / 100


@dataclass(frozen=True)
class EvaluationFailure:
    """A position that could not be evaluated after every attempt."""

    message: str
    attempts: int


EvaluationOutcome = Evaluation | EvaluationFailure


class Evaluator(Protocol):
    """Evaluates positions in batches (one batch per check)."""

    def evaluate_many(self, requests: Sequence[EvaluationRequest]) -> list[EvaluationOutcome]:
        """One outcome per request, in order; never raises for a single bad position."""
        ...

    def close(self) -> None:
        """Free the evaluator's resources (engine processes)."""
        ...


def pawns_to_centipawns(pawns: float) -> int:
    """Pawns as people write them (``2.51``) to exact centipawns."""
    return int((Decimal(str(pawns)) * 100).to_integral_value())


def terminal_evaluation(board: chess.Board, pov: chess.Color) -> Evaluation | None:
    """The score of a finished position without asking an engine: mate or a dead draw."""
    if board.is_checkmate():
        sign = -1 if board.turn == pov else 1
        return Evaluation(sign * MATE_CP, mate_plies=0, depth=0, nodes=0, source="board")
    if board.is_stalemate() or board.is_insufficient_material():
        return Evaluation(0, depth=0, nodes=0, source="board")
    return None


def score_to_evaluation(score: chess.engine.PovScore, board: chess.Board, pov: chess.Color, *,
                        depth: int | None = None, nodes: int | None = None,
                        source: str = "stockfish") -> Evaluation:
    """An engine score as an ``Evaluation`` from ``pov``; mates become ``1000 - plies`` pawns."""
    relative = score.pov(pov)
    mate = relative.mate()
    if mate is None:
        cp = relative.score()
        if cp is None:  # pragma: no cover - only mates have no centipawn score
            raise chess.engine.EngineError("the engine gave no score")
        return Evaluation(cp, depth=depth, nodes=nodes, source=source)
    to_move = board.turn == pov
    if mate > 0 or (mate == 0 and relative > chess.engine.Cp(0)):
        plies = max(2 * mate - 1 if to_move else 2 * mate, 0)
        return Evaluation(mate_to_centipawns(plies), mate_plies=plies, depth=depth, nodes=nodes,
                          source=source)
    plies = max(-2 * mate if to_move else -2 * mate - 1, 0)
    return Evaluation(-mate_to_centipawns(plies), mate_plies=-plies, depth=depth, nodes=nodes,
                      source=source)


@dataclass(frozen=True)
class SearchLimit:
    """How long the engine searches each position: nodes, time, or both (whichever first)."""

    nodes: int | None = 10_000
    """Nodes per search; deterministic for a given position and engine build."""
    time_ms: int | None = None
    """Milliseconds per search."""

    def __post_init__(self) -> None:
        if self.nodes is None and self.time_ms is None:
            raise UserError("a search limit needs nodes or time", code="invalid_search_limit")
        if (self.nodes is not None and self.nodes <= 0) or (
                self.time_ms is not None and self.time_ms <= 0):
            raise UserError("a search limit must be positive", code="invalid_search_limit")

    def engine_limit(self) -> chess.engine.Limit:
        time_s = None if self.time_ms is None else self.time_ms / 1000
        return chess.engine.Limit(nodes=self.nodes, time=time_s)


@dataclass(frozen=True)
class EngineSettings:
    """The Stockfish pool's settings."""

    path: str = DEFAULT_STOCKFISH
    """The engine binary (Debian's ``stockfish`` package)."""
    processes: int = 2
    """Engine processes searching in parallel (one per core is right)."""
    limit: SearchLimit = field(default_factory=SearchLimit)
    """The bound of every search."""
    attempts: int = 3
    """Tries per position; the engine is restarted between tries."""
    hash_mb: int = 16
    """UCI ``Hash`` per process."""
    threads: int = 1
    """UCI ``Threads`` per process."""
    timeout_s: float = 10.0
    """How long python-chess waits for the engine beyond the search limit."""

    def __post_init__(self) -> None:
        if self.processes < 1 or self.attempts < 1:
            raise UserError("the engine pool needs at least one process and one attempt",
                            code="invalid_engine_settings")



class _Slot:
    """One engine process of the pool, started lazily and restarted on faults."""

    def __init__(self, settings: EngineSettings, index: int) -> None:
        self.settings = settings
        self.index = index
        self.engine: chess.engine.SimpleEngine | None = None

    def ensure(self) -> chess.engine.SimpleEngine:
        if self.engine is None:
            engine = chess.engine.SimpleEngine.popen_uci(self.settings.path,
                                                         timeout=self.settings.timeout_s)
            try:
                engine.configure({"Threads": self.settings.threads,
                                  "Hash": self.settings.hash_mb})
            except Exception:
                engine.close()
                raise
            self.engine = engine
        return self.engine

    def pid(self) -> int | None:
        if self.engine is None:
            return None
        pid = self.engine.transport.get_pid()
        return int(pid) if pid is not None else None

    def discard(self) -> None:
        engine, self.engine = self.engine, None
        if engine is None:
            return
        try:
            engine.close()
        except Exception:  # a dead process may fail to close; it is gone either way
            log.debug("closing a dead engine failed", exc_info=True)


class StockfishPool:
    """``processes`` Stockfish processes evaluating a batch of positions in parallel."""

    def __init__(self, settings: EngineSettings | None = None) -> None:
        self.settings = settings or EngineSettings()
        self._slots: queue.Queue[_Slot] = queue.Queue()
        self._all = [_Slot(self.settings, i) for i in range(self.settings.processes)]
        for slot in self._all:
            self._slots.put(slot)
        self._executor = ThreadPoolExecutor(max_workers=self.settings.processes,
                                            thread_name_prefix="stockfish")
        self._lock = threading.Lock()
        self.evaluations = 0
        """Positions evaluated so far."""
        self.restarts = 0
        """Engine processes restarted after a fault."""
        self.failures = 0
        """Positions given up after every attempt."""

    def start(self) -> None:
        """Start every process now rather than at the first search."""
        for _ in self._all:  # the slots queue is FIFO: each slot comes up once
            self._with_slot(_Slot.ensure)

    def pids(self) -> list[int]:
        """The running processes' ids (tests kill them to prove the restart)."""
        return [pid for slot in self._all if (pid := slot.pid()) is not None]

    def evaluate_many(self, requests: Sequence[EvaluationRequest]) -> list[EvaluationOutcome]:
        futures = [self._executor.submit(self.evaluate_one, r) for r in requests]
        return [f.result() for f in futures]

    def evaluate_one(self, request: EvaluationRequest) -> EvaluationOutcome:
        try:
            board = chess.Board(request.fen)
        except ValueError as exc:
            return EvaluationFailure(f"bad position {request.fen!r}: {exc}", attempts=0)
        done = terminal_evaluation(board, request.pov)
        if done is not None:
            return done
        return self._with_slot(lambda slot: self._search(slot, board, request))

    def _with_slot(self, work: Callable[[_Slot], T]) -> T:
        slot = self._slots.get()
        try:
            return work(slot)
        finally:
            self._slots.put(slot)

    def _search(self, slot: _Slot, board: chess.Board,
                request: EvaluationRequest) -> EvaluationOutcome:
        last_error = ""
        for attempt in range(1, self.settings.attempts + 1):
            try:
                engine = slot.ensure()
                # Only the score and the basic figures: parsing every PV costs more Python
                # time per search than the rules can use.
                info = engine.analyse(board, self.settings.limit.engine_limit(),
                                      info=chess.engine.INFO_BASIC | chess.engine.INFO_SCORE)
                score = info.get("score")
                if score is None:
                    raise chess.engine.EngineError("the engine returned no score")
                evaluation = score_to_evaluation(score, board, request.pov,
                                                 depth=info.get("depth"), nodes=info.get("nodes"))
                with self._lock:
                    self.evaluations += 1
                return evaluation
            except Exception as exc:
                # A dead or stuck process shows up as EngineTerminatedError, EngineError,
                # TimeoutError, OSError or concurrent.futures.CancelledError (python-chess
                # cancels the pending command when the process is gone): whatever it is, the
                # process is restarted and the position searched again.
                last_error = f"{type(exc).__name__}: {exc}"
                log.warning("engine %d failed on %s (attempt %d/%d): %s; restarting",
                            slot.index, request.key, attempt, self.settings.attempts, last_error)
                slot.discard()
                with self._lock:
                    self.restarts += 1
        with self._lock:
            self.failures += 1
        return EvaluationFailure(f"engine failed {self.settings.attempts} times: {last_error}",
                                 attempts=self.settings.attempts)

    def close(self) -> None:
        self._executor.shutdown(wait=True)
        for slot in self._all:
            engine = slot.engine
            slot.engine = None
            if engine is None:
                continue
            try:
                engine.quit()
            except Exception:
                log.debug("engine quit failed", exc_info=True)
                try:
                    engine.close()
                except Exception:
                    log.debug("engine close failed", exc_info=True)

    def __enter__(self) -> StockfishPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


Script = Callable[[EvaluationRequest], float | EvaluationOutcome]
"""Returns pawns (``2.6``), an ``Evaluation`` or an ``EvaluationFailure``; may raise."""


class ScriptedEvaluator:
    """A fake evaluator for unit tests: scores come from a function, a mapping or a constant.

    A mapping is looked up by the request's ``key`` (``"g1/first"``), then by its game id,
    then ``default`` is used. A script that raises gives an ``EvaluationFailure``.

    ``delay_ms`` (a test aid: ``turnir robot work --engine fake`` takes it from
    ``$TURNIR_ROBOT_FAKE_DELAY_MS``) makes each position take that long, like a real search,
    so that a test can stop a worker in the middle of a check.
    """

    def __init__(self, script: Script | Mapping[str, float] | float = 0.0, *,
                 default: float = 0.0, delay_ms: int = 0) -> None:
        self._script = script
        self._default = default
        self.delay_ms = max(0, delay_ms)
        self.requests: list[EvaluationRequest] = []
        """Every request seen, in order."""

    def _one(self, request: EvaluationRequest) -> EvaluationOutcome:
        script = self._script
        if isinstance(script, Mapping):
            value: float | EvaluationOutcome = script.get(
                request.key, script.get(request.game_id, self._default))
        elif callable(script):
            try:
                value = script(request)
            except Exception as exc:
                return EvaluationFailure(f"{type(exc).__name__}: {exc}", attempts=1)
        else:
            value = script
        if isinstance(value, Evaluation | EvaluationFailure):
            return value
        return Evaluation(pawns_to_centipawns(value), source="scripted")

    def evaluate_many(self, requests: Sequence[EvaluationRequest]) -> list[EvaluationOutcome]:
        self.requests.extend(requests)
        if self.delay_ms:
            time.sleep(self.delay_ms * len(requests) / 1000)
        return [self._one(r) for r in requests]

    def close(self) -> None:
        return None

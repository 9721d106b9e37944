"""One chess game as the robot sees it, fed by the game server's events.

Events: the game's registration (``GameSetup``: players, time control "base+increment", the
round's start), moves (UCI or SAN, the server's timestamp, the lag measured for the move and
optionally the mover's clock after it), clock readings, resignations, flag falls and draw
agreements. The board is python-chess's. An event is checked completely before it changes
anything: an illegal move or an inconsistent event raises ``UserError`` and leaves the game as
it was.

Clocks are estimated from the timestamps between the server's readings: the side to move's
clock runs from the last move (or reading), the mover's lag is not charged while the mover's
lag compensation is on, and the increment is added after each move. A reading or a move's
``clock_ms`` always replaces the estimate (the server is authoritative).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

import chess

from turnir.domain.robot_rules import (
    CheckSchedule,
    CheckStage,
    ChessResult,
    LaggerFinding,
    LagStats,
    RobotSettings,
    Rule,
    TimeControl,
    check_schedule,
    find_lagger,
    flag_fall_result,
)
from turnir.errors import ConflictError, Term, UserError

_UCI = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")
_GAME_ID = re.compile(r"^[A-Za-z0-9._:\-]{1,100}$")


class EndReason(StrEnum):
    """Why a game ended."""

    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    INSUFFICIENT_MATERIAL = "insufficient_material"
    SEVENTYFIVE_MOVES = "seventyfive_moves"
    FIVEFOLD_REPETITION = "fivefold_repetition"
    RESIGNATION = "resignation"
    FLAG_FALL = "flag_fall"
    DRAW_AGREED = "draw_agreed"
    ROBOT = "robot"
    """Awarded or drawn by the robot's check (A-1..A-4, A-6)."""


_BOARD_ENDS = {
    chess.Termination.CHECKMATE: EndReason.CHECKMATE,
    chess.Termination.STALEMATE: EndReason.STALEMATE,
    chess.Termination.INSUFFICIENT_MATERIAL: EndReason.INSUFFICIENT_MATERIAL,
    chess.Termination.SEVENTYFIVE_MOVES: EndReason.SEVENTYFIVE_MOVES,
    chess.Termination.FIVEFOLD_REPETITION: EndReason.FIVEFOLD_REPETITION,
}


@dataclass(frozen=True)
class GameSetup:
    """A game registered by the game server."""

    game_id: str
    """The server's id of the game (letters, digits, ``._:-``; at most 100)."""
    white: str
    """White's name."""
    black: str
    """Black's name."""
    time_control: TimeControl
    """The clock, "base+increment"."""
    round_start_ms: int
    """When the round started; the checks are counted from here (A-0)."""
    started_at_ms: int | None = None
    """When the game's clocks started; the round start when not given."""
    initial_fen: str | None = None
    """A start position other than the standard one (tests, simulations)."""

    def __post_init__(self) -> None:
        if not _GAME_ID.match(self.game_id):
            raise UserError("bad game id {game!r}: use 1-100 letters, digits, ._:-",
                            code="invalid_game_id", game=self.game_id)
        if not self.white.strip() or not self.black.strip():
            raise UserError("both players need a name", code="invalid_player")
        if self.started_at_ms is not None and self.started_at_ms < self.round_start_ms:
            raise UserError("a game cannot start before its round", code="inconsistent_event")
        if self.initial_fen is not None:
            try:
                board = chess.Board(self.initial_fen)
            except ValueError as exc:
                raise UserError("bad start position: {reason}", code="invalid_fen",
                                reason=str(exc)) from exc
            if not board.is_valid():
                raise UserError("the start position is not a legal chess position",
                                code="invalid_fen")

    @property
    def clocks_start_ms(self) -> int:
        return self.round_start_ms if self.started_at_ms is None else self.started_at_ms

    def player(self, color: chess.Color) -> str:
        return self.white if color == chess.WHITE else self.black


@dataclass(frozen=True)
class MovePlayed:
    """A move as the server saw it."""

    at_ms: int
    """The server's timestamp of the move."""
    move: str
    """UCI (``e2e4``) or SAN (``e4``)."""
    lag_ms: int = 0
    """The lag measured for this move (the mover's)."""
    clock_ms: int | None = None
    """The mover's clock after the move, when the server sends it."""


@dataclass(frozen=True)
class ClockReading:
    """Both clocks as the server shows them at a moment."""

    at_ms: int
    white_ms: int
    black_ms: int


@dataclass(frozen=True)
class Resigned:
    """``color`` resigned."""

    at_ms: int
    color: chess.Color


@dataclass(frozen=True)
class FlagFell:
    """``color``'s time ran out (A-5 may make it a draw)."""

    at_ms: int
    color: chess.Color


@dataclass(frozen=True)
class DrawAgreed:
    """Both players agreed to a draw."""

    at_ms: int


GameEvent = MovePlayed | ClockReading | Resigned | FlagFell | DrawAgreed


@dataclass(frozen=True)
class GameEnd:
    """How a game ended."""

    result: ChessResult
    reason: EndReason
    at_ms: int
    rule: Rule | None = None
    """``A-5`` when a flag fall was drawn for want of mating material."""


def parse_move(board: chess.Board, text: str) -> chess.Move:
    """A legal move from UCI or SAN text, or ``UserError``."""
    value = text.strip()
    try:
        if _UCI.match(value):
            return board.parse_uci(value)
        return board.parse_san(value)
    except ValueError as exc:
        raise UserError("illegal move {move!r}: {reason}", code="illegal_move", move=text,
                        reason=str(exc)) from exc


def _colour(color: chess.Color) -> Term:
    """``color_name`` as a word of a message."""
    return Term("white") if color == chess.WHITE else Term("black")


class Game:
    """A running or finished game; every change goes through ``apply`` or ``finish``."""

    def __init__(self, setup: GameSetup, settings: RobotSettings) -> None:
        self.setup = setup
        self.schedule: CheckSchedule = check_schedule(setup.time_control, setup.round_start_ms,
                                                      settings)
        self.board = chess.Board(setup.initial_fen) if setup.initial_fen else chess.Board()
        self.lags: dict[chess.Color, LagStats] = {chess.WHITE: LagStats(),
                                                  chess.BLACK: LagStats()}
        self.end: GameEnd | None = None
        self.lag_compensation_off: set[chess.Color] = set()
        """Sides whose lag compensation the robot switched off (A3-2, B1-2)."""
        self.last_stage: CheckStage | None = None
        """The last check stage this game has been through."""
        self.events = 0
        self._clock = {chess.WHITE: setup.time_control.base_ms,
                       chess.BLACK: setup.time_control.base_ms}
        self._clock_as_of = setup.clocks_start_ms
        self._last_at = setup.clocks_start_ms

    @property
    def game_id(self) -> str:
        return self.setup.game_id

    @property
    def running(self) -> bool:
        return self.end is None

    @property
    def last_event_ms(self) -> int:
        return self._last_at

    def next_check_ms(self) -> int | None:
        """When this game's next check is due; ``None`` once over or past the last check."""
        if self.end is not None:
            return None
        stage = self.schedule.next_after(self.last_stage)
        return None if stage is None else self.schedule.at(stage)

    def mean_lag_ms(self, color: chess.Color) -> Fraction:
        return self.lags[color].mean_ms

    def lagger(self, settings: RobotSettings) -> LaggerFinding:
        return find_lagger(self.lags[chess.WHITE], self.lags[chess.BLACK], settings)

    def clocks_at(self, now_ms: int) -> tuple[int, int]:
        """(White, Black) remaining at ``now_ms``; only the side to move's clock runs."""
        white, black = self._clock[chess.WHITE], self._clock[chess.BLACK]
        if self.end is not None or now_ms <= self._clock_as_of:
            return white, black
        spent = now_ms - self._clock_as_of
        if self.board.turn == chess.WHITE:
            return max(0, white - spent), black
        return white, max(0, black - spent)

    def apply(self, event: GameEvent) -> GameEnd | None:
        """Apply one event; returns how the game ended if this event ended it."""
        self._check_can_apply(event.at_ms)
        if isinstance(event, MovePlayed):
            end = self._move(event)
        elif isinstance(event, ClockReading):
            if event.white_ms < 0 or event.black_ms < 0:
                raise UserError("a clock reading cannot be negative", code="invalid_clock")
            self._clock = {chess.WHITE: event.white_ms, chess.BLACK: event.black_ms}
            self._clock_as_of = event.at_ms
            end = None
        elif isinstance(event, Resigned):
            end = GameEnd(ChessResult.win_for(not event.color), EndReason.RESIGNATION,
                          event.at_ms)
        elif isinstance(event, FlagFell):
            if event.color != self.board.turn:
                raise UserError(
                    "{color}'s flag cannot fall: it is {turn}'s move and only that clock runs",
                    code="inconsistent_event", color=_colour(event.color),
                    turn=_colour(self.board.turn))
            result, rule = flag_fall_result(self.board, event.color)
            self._clock[event.color] = 0
            end = GameEnd(result, EndReason.FLAG_FALL, event.at_ms, rule)
        else:
            end = GameEnd(ChessResult.DRAW, EndReason.DRAW_AGREED, event.at_ms)
        self._last_at = event.at_ms
        self.events += 1
        if end is not None:
            self._stop_clock(end.at_ms)
            self.end = end
        return end

    def _check_can_apply(self, at_ms: int) -> None:
        if self.end is not None:
            raise ConflictError("game {game} is over ({result}, {reason})", code="game_over",
                                game=self.game_id, result=self.end.result.value,
                                reason=self.end.reason.value)
        if at_ms < self._last_at:
            raise UserError("an event at {at} ms comes before the game's last event or start "
                            "at {last} ms", code="out_of_order", at=at_ms, last=self._last_at)

    def _move(self, event: MovePlayed) -> GameEnd | None:
        if event.lag_ms < 0:
            raise UserError("a lag cannot be negative", code="invalid_lag")
        if event.clock_ms is not None and event.clock_ms < 0:
            raise UserError("a clock cannot be negative", code="invalid_clock")
        move = parse_move(self.board, event.move)
        mover = self.board.turn
        spent = event.at_ms - self._clock_as_of
        if mover not in self.lag_compensation_off:
            spent = max(0, spent - event.lag_ms)
        remaining = (event.clock_ms if event.clock_ms is not None else
                     max(0, self._clock[mover] - spent) + self.setup.time_control.increment_ms)
        self.board.push(move)
        self.lags[mover] = self.lags[mover].add(event.lag_ms)
        self._clock[mover] = remaining
        self._clock_as_of = event.at_ms
        outcome = self.board.outcome()
        if outcome is None:
            return None
        return GameEnd(ChessResult(outcome.result()),
                       _BOARD_ENDS.get(outcome.termination, EndReason.CHECKMATE), event.at_ms)

    def _stop_clock(self, at_ms: int) -> None:
        white, black = self.clocks_at(at_ms)
        self._clock = {chess.WHITE: white, chess.BLACK: black}
        self._clock_as_of = at_ms

    def finish(self, result: ChessResult, *, at_ms: int, reason: EndReason = EndReason.ROBOT,
               rule: Rule | None = None) -> GameEnd:
        """End the game by a decision of the robot."""
        if self.end is not None:
            raise ConflictError("game {game} is already over", code="game_over",
                                game=self.game_id)
        self._stop_clock(at_ms)
        self.end = GameEnd(result, reason, at_ms, rule)
        self._last_at = max(self._last_at, at_ms)
        return self.end

    def snapshot(self, now_ms: int) -> GameSnapshot:
        """A frozen copy of the game's state at ``now_ms`` (for the API and reports)."""
        white_ms, black_ms = self.clocks_at(max(now_ms, self._clock_as_of))
        return GameSnapshot(setup=self.setup, schedule=self.schedule, fen=self.board.fen(),
                            plies=len(self.board.move_stack), end=self.end,
                            white_clock_ms=white_ms, black_clock_ms=black_ms,
                            white_lag=self.lags[chess.WHITE], black_lag=self.lags[chess.BLACK],
                            lag_compensation_off=frozenset(self.lag_compensation_off),
                            last_stage=self.last_stage, at_ms=now_ms)


@dataclass(frozen=True)
class GameSnapshot:
    """A game's state at a moment."""

    setup: GameSetup
    schedule: CheckSchedule
    fen: str
    plies: int
    """Half-moves played."""
    end: GameEnd | None
    white_clock_ms: int
    black_clock_ms: int
    white_lag: LagStats
    black_lag: LagStats
    lag_compensation_off: frozenset[chess.Color]
    last_stage: CheckStage | None
    at_ms: int
    """The moment of the snapshot."""

"""The online judge robot's rules A-0..A-6 (source 003, robot "Magic"), pure.

Terms (Russian in brackets):

- *lag* (лаг): the network delay the chess server measured for one move; the *mean lag* of a
  player is the mean over that player's moves in the game.
- *lagger* (лагер): a player whose mean lag is strictly greater than the threshold (3 s, a
  setting) at the moment of a check (A-0).
- *check* (проверка): one of three fixed moments after the round start at which every running
  game with a lagger is looked at: the *first* (A-1), the *second* (A-2) and the
  *unconditional award* (безусловное присуждение, A-3).
- *award* (присуждение): the game is ended by the robot in favour of the lagger's opponent.
- *lag compensation* (компенсация лага): the server does not charge a player's lag to the clock;
  the robot may switch it off for the lagger (A3-2, B1-2); the game server applies that.
- *evaluation* (оценка): the engine's score in pawns **from the lagger's side**; here it is kept
  as integer centipawns so the boundaries (0.5, 2.5, 5.5, 25, 10000, 100000 pawns) compare
  exactly. Intervals are (low, high] as the source writes them. A mate score counts as above 25.
- *bullet* (пуля) / *blitz* (блиц): **Decided** (A-6): bullet is a base under 3 minutes.
- *cooperative mate* (кооперативный мат): a mate with the most helpful play of the mated side
  (A-5).

Clocks, lags and times are integer milliseconds; mean lags are exact ``Fraction``s. Nothing
here reads a clock or does I/O: the robot (``turnir.robot``) feeds the figures in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from fractions import Fraction

import chess

from turnir.errors import InvariantError, UserError

# The boundaries of the source's table. Clocks in ms, evaluations in centipawns.
A1_OPPONENT_UNDER_MS = 2_000
A1_LAGGER_OVER_MS = 4_000
A2_OPPONENT_UNDER_MS = 5_000
A2_LAGGER_OVER_MS = 10_000
A2_EVAL_CP = (50, 1_000_000)
"""A2: the lagger has at least a small advantage, (0.5, 10000] pawns."""
A3_1_EVAL_CP = (550, 10_000_000)
"""A3-1 and B1-1: (5.5, 100000] pawns."""
A3_2_EVAL_CP = (250, 550)
"""A3-2 and B1-2: (2.5, 5.5] pawns."""
B1_OPPONENT_UNDER_MS = 1_000
B1_LAGGER_OVER_MS = 3_000
B2_EVAL_CP = (2_500, 10_000_000)
"""B2, near mate: (25, 100000] pawns."""
MATE_CP = 100_000
"""A mate in ``p`` plies is scored ``MATE_CP - 100 * p`` centipawns (1000 - p pawns)."""
NEAR_MATE_CP = 2_500
"""The near-mate bound (25 pawns); every mate score is mapped strictly above it."""


class CheckStage(StrEnum):
    """The three checks of a round (A-0, A-2, A-3), in order."""

    FIRST = "first"
    SECOND = "second"
    UNCONDITIONAL = "unconditional"


STAGES: tuple[CheckStage, ...] = (CheckStage.FIRST, CheckStage.SECOND, CheckStage.UNCONDITIONAL)


class Verdict(StrEnum):
    """What a check decides."""

    AWARD = "award"
    """The game ends with a win for ``winner``."""
    CONTINUE = "continue"
    """The game goes on."""
    CONTINUE_NO_LAG_COMPENSATION = "continue_no_lag_compensation"
    """The game goes on and the game server switches off the lagger's lag compensation."""
    DRAW = "draw"
    """The game ends drawn (A-4, A-5, A-6)."""

    @property
    def ends_game(self) -> bool:
        return self in (Verdict.AWARD, Verdict.DRAW)


class Rule(StrEnum):
    """The rule that fired; the values are the source's labels."""

    A1 = "A1"
    A2 = "A2"
    A3_1 = "A3-1"
    A3_2 = "A3-2"
    FIRST_AWARD = "A-1"
    """First check, no exception applied: awarded to the lagger's opponent."""
    B1_1 = "B1-1"
    B1_2 = "B1-2"
    B2 = "B2"
    SECOND_AWARD = "A-2"
    """Second check, no exception applied: awarded to the lagger's opponent."""
    UNCONDITIONAL = "A-3"
    BARE_KING = "A-4"
    NO_COOPERATIVE_MATE = "A-5"
    BOTH_LAGGERS = "A-6"


class ChessResult(StrEnum):
    """A chess game's result in PGN notation."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"

    @staticmethod
    def win_for(color: chess.Color) -> ChessResult:
        return ChessResult.WHITE_WINS if color == chess.WHITE else ChessResult.BLACK_WINS


def color_name(color: chess.Color) -> str:
    return "white" if color == chess.WHITE else "black"


def parse_color(text: str) -> chess.Color:
    """``"white"``/``"w"`` or ``"black"``/``"b"``."""
    value = text.strip().lower()
    if value in ("white", "w"):
        return chess.WHITE
    if value in ("black", "b"):
        return chess.BLACK
    raise UserError("unknown colour {text!r}: use white or black", code="invalid_color",
                    text=text)


@dataclass(frozen=True)
class RobotSettings:
    """The robot's settings; the defaults are the source's figures."""

    lagger_threshold_ms: int = 3_000
    """A-0: a player is a lagger when the mean lag is strictly greater than this."""
    both_laggers_gap_ms: int = 1_000
    """A-6: with two laggers, the larger mean lag must exceed the other by at least this."""
    both_laggers_win_cp: int = 250
    """A-6 at the unconditional stage: a side whose evaluation exceeds this wins."""
    bullet_base_under_ms: int = 180_000
    """A-6 (decided): a base under 3 minutes is bullet."""
    first_check_factor: Fraction = Fraction(5, 2)
    """A-0: the first check is at base x 2.5 after the round start."""
    second_check_blitz_ms: int = 30_000
    """A-2: the second check this long after the first in blitz."""
    second_check_bullet_ms: int = 20_000
    """A-2: the second check this long after the first in bullet."""
    unconditional_after_ms: int = 10_000
    """A-3: the unconditional award this long after the second check."""

    def __post_init__(self) -> None:
        if self.lagger_threshold_ms < 0 or self.both_laggers_gap_ms < 0:
            raise UserError("lag thresholds cannot be negative", code="invalid_settings")
        if self.first_check_factor <= 0:
            raise UserError("the first check factor must be positive", code="invalid_settings")


_TC = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*\+\s*(\d+(?:\.\d+)?)\s*$")


@dataclass(frozen=True)
class TimeControl:
    """A chess clock "base+increment" (контроль): minutes + seconds, e.g. ``3+0``, ``1+0``."""

    base_ms: int
    """The base time of each side."""
    increment_ms: int
    """Added to the mover's clock after each move."""

    def __post_init__(self) -> None:
        if self.base_ms <= 0 or self.increment_ms < 0:
            raise UserError("a time control needs a positive base and an increment >= 0",
                            code="invalid_time_control")

    @staticmethod
    def parse(text: str) -> TimeControl:
        """``"3+0"``: base in minutes (``0.5`` allowed), increment in seconds."""
        return TimeControl._parse(text, base_unit_ms=60_000)

    @staticmethod
    def parse_pgn(text: str) -> TimeControl:
        """The PGN tag form ``"180+0"``: base and increment in seconds."""
        return TimeControl._parse(text, base_unit_ms=1_000)

    @staticmethod
    def _parse(text: str, *, base_unit_ms: int) -> TimeControl:
        match = _TC.match(text)
        if match is None:
            raise UserError("bad time control {text!r}: expected base+increment like 3+0",
                            code="invalid_time_control", text=text)
        try:
            base = Decimal(match.group(1)) * base_unit_ms
            increment = Decimal(match.group(2)) * 1_000
        except InvalidOperation as exc:  # pragma: no cover - the regex admits only numbers
            raise UserError("bad time control {text!r}", code="invalid_time_control",
                            text=text) from exc
        return TimeControl(base_ms=int(base), increment_ms=int(increment))

    def label(self) -> str:
        """``"3+0"``: base in minutes, increment in seconds."""
        base = (Decimal(self.base_ms) / 60_000).normalize()
        increment = (Decimal(self.increment_ms) / 1_000).normalize()
        return f"{base:f}+{increment:f}"

    def is_bullet(self, settings: RobotSettings) -> bool:
        return self.base_ms < settings.bullet_base_under_ms


@dataclass(frozen=True)
class CheckSchedule:
    """When the three checks of a game happen (A-0, A-2, A-3), in ms on the server's timeline."""

    first_ms: int
    second_ms: int
    unconditional_ms: int

    def at(self, stage: CheckStage) -> int:
        if stage is CheckStage.FIRST:
            return self.first_ms
        return self.second_ms if stage is CheckStage.SECOND else self.unconditional_ms

    def latest_due(self, now_ms: int) -> CheckStage | None:
        """The latest stage whose moment has come, or ``None`` before the first check."""
        due = [stage for stage in STAGES if self.at(stage) <= now_ms]
        return due[-1] if due else None

    def next_after(self, done: CheckStage | None) -> CheckStage | None:
        """The stage after ``done`` (the first when nothing is done), ``None`` after the last."""
        if done is None:
            return CheckStage.FIRST
        index = STAGES.index(done)
        return STAGES[index + 1] if index + 1 < len(STAGES) else None


def check_schedule(time_control: TimeControl, round_start_ms: int,
                   settings: RobotSettings) -> CheckSchedule:
    """A-0: first at base x 2.5 after the round start; A-2: +30 s (blitz) or +20 s (bullet);
    A-3: +10 s more."""
    offset = time_control.base_ms * settings.first_check_factor
    first = round_start_ms + (offset.numerator + offset.denominator - 1) // offset.denominator
    delay = (settings.second_check_bullet_ms if time_control.is_bullet(settings)
             else settings.second_check_blitz_ms)
    second = first + delay
    return CheckSchedule(first, second, second + settings.unconditional_after_ms)


@dataclass(frozen=True)
class LagStats:
    """One player's lags in one game: the number of measured moves and their sum."""

    moves: int = 0
    total_ms: int = 0

    def add(self, lag_ms: int) -> LagStats:
        if lag_ms < 0:
            raise UserError("a lag cannot be negative", code="invalid_lag")
        return LagStats(self.moves + 1, self.total_ms + lag_ms)

    @property
    def mean_ms(self) -> Fraction:
        """The exact mean lag; 0 before the first measured move."""
        return Fraction(self.total_ms, self.moves) if self.moves else Fraction(0)

    def is_lagger(self, settings: RobotSettings) -> bool:
        """A-0: strictly greater than the threshold."""
        return self.mean_ms > settings.lagger_threshold_ms


class LaggerKind(StrEnum):
    """How many laggers a game has at a check (A-0, A-6)."""

    NONE = "none"
    ONE = "one"
    BOTH_RESOLVED = "both_resolved"
    """Both lag; the larger mean lag exceeds the other by the gap or more (A-6)."""
    BOTH_UNRESOLVED = "both_unresolved"
    """Both lag and the gap is smaller than 1 s (A-6)."""


@dataclass(frozen=True)
class LaggerFinding:
    """Who is the lagger at a check."""

    kind: LaggerKind
    lagger: chess.Color | None
    """The lagger for ``ONE`` and ``BOTH_RESOLVED``; ``None`` otherwise."""


def find_lagger(white: LagStats, black: LagStats, settings: RobotSettings) -> LaggerFinding:
    """A-0 and A-6: the lagger of a game, if any."""
    white_lags, black_lags = white.is_lagger(settings), black.is_lagger(settings)
    if white_lags and black_lags:
        gap = white.mean_ms - black.mean_ms
        if abs(gap) >= settings.both_laggers_gap_ms:
            return LaggerFinding(LaggerKind.BOTH_RESOLVED, chess.WHITE if gap > 0 else chess.BLACK)
        return LaggerFinding(LaggerKind.BOTH_UNRESOLVED, None)
    if white_lags:
        return LaggerFinding(LaggerKind.ONE, chess.WHITE)
    if black_lags:
        return LaggerFinding(LaggerKind.ONE, chess.BLACK)
    return LaggerFinding(LaggerKind.NONE, None)


@dataclass(frozen=True)
class Ruling:
    """The outcome of one check for one game."""

    verdict: Verdict
    rule: Rule
    """The rule that decided."""
    trail: tuple[Rule, ...]
    """Every rule applied, in order (e.g. ``A-6, A-1, A-4``); ends with ``rule``."""
    winner: chess.Color | None = None
    """The side the game is awarded to (``AWARD`` only)."""
    lagger: chess.Color | None = None
    """The side whose lag compensation is switched off, for ``CONTINUE_NO_LAG_COMPENSATION``;
    otherwise the lagger the rules were applied to (``None`` for an unresolved A-6)."""

    @property
    def result(self) -> ChessResult | None:
        if self.verdict is Verdict.AWARD:
            if self.winner is None:
                raise InvariantError("an award without a winner")
            return ChessResult.win_for(self.winner)
        return ChessResult.DRAW if self.verdict is Verdict.DRAW else None


def _within(value: int, bounds: tuple[int, int]) -> bool:
    """The source's interval ``(low..high]``."""
    low, high = bounds
    return low < value <= high


def first_check(*, lagger_ms: int, opponent_ms: int, evaluation_cp: int | None) -> Rule:
    """A-1 with A1, A2, A3-1, A3-2; the evaluation is needed unless A1 applies."""
    if opponent_ms < A1_OPPONENT_UNDER_MS and lagger_ms > A1_LAGGER_OVER_MS:
        return Rule.A1
    if evaluation_cp is None:
        raise InvariantError("the first check needs an evaluation unless A1 applies")
    if opponent_ms < A2_OPPONENT_UNDER_MS:
        if lagger_ms > A2_LAGGER_OVER_MS and _within(evaluation_cp, A2_EVAL_CP):
            return Rule.A2
        return Rule.FIRST_AWARD
    return _level_game(evaluation_cp, Rule.A3_1, Rule.A3_2) or Rule.FIRST_AWARD


def _level_game(evaluation_cp: int, nearly: Rule, roughly: Rule) -> Rule | None:
    """``nearly`` when the evaluation is within A3-1's range, ``roughly`` within A3-2's (the
    first check's A3-1/A3-2 and the second's B1-1/B1-2), else ``None``."""
    if _within(evaluation_cp, A3_1_EVAL_CP):
        return nearly
    if _within(evaluation_cp, A3_2_EVAL_CP):
        return roughly
    return None


def second_check(*, lagger_ms: int, opponent_ms: int, evaluation_cp: int) -> Rule:
    """A-2 with B1-1, B1-2 (opponent under 1 s, lagger over 3 s) and B2 (near mate)."""
    if opponent_ms < B1_OPPONENT_UNDER_MS and lagger_ms > B1_LAGGER_OVER_MS:
        found = _level_game(evaluation_cp, Rule.B1_1, Rule.B1_2)
        if found is not None:
            return found
    if _within(evaluation_cp, B2_EVAL_CP):
        return Rule.B2
    return Rule.SECOND_AWARD


_VERDICT_OF = {
    Rule.A1: Verdict.CONTINUE, Rule.A2: Verdict.CONTINUE, Rule.A3_1: Verdict.CONTINUE,
    Rule.A3_2: Verdict.CONTINUE_NO_LAG_COMPENSATION, Rule.B1_1: Verdict.CONTINUE,
    Rule.B1_2: Verdict.CONTINUE_NO_LAG_COMPENSATION, Rule.B2: Verdict.CONTINUE,
    Rule.FIRST_AWARD: Verdict.AWARD, Rule.SECOND_AWARD: Verdict.AWARD,
    Rule.UNCONDITIONAL: Verdict.AWARD,
}


def evaluation_side(*, stage: CheckStage, finding: LaggerFinding, white_ms: int,
                    black_ms: int) -> chess.Color | None:
    """The side the evaluation is needed from at this check, or ``None`` when the rules that
    can fire do not depend on it (no lagger, A1, the unconditional award, A-6 continue)."""
    if finding.kind is LaggerKind.NONE:
        return None
    if finding.kind is LaggerKind.BOTH_UNRESOLVED:
        return chess.WHITE if stage is CheckStage.UNCONDITIONAL else None
    lagger = finding.lagger
    if lagger is None:
        raise InvariantError("a lagger finding without the lagger")
    if stage is CheckStage.UNCONDITIONAL:
        return None
    lagger_ms, opponent_ms = (white_ms, black_ms) if lagger == chess.WHITE else (black_ms,
                                                                                   white_ms)
    if (stage is CheckStage.FIRST and opponent_ms < A1_OPPONENT_UNDER_MS
            and lagger_ms > A1_LAGGER_OVER_MS):
        return None
    return lagger


def decide(*, stage: CheckStage, finding: LaggerFinding, white_ms: int, black_ms: int,
           evaluation_cp: int | None, bare_kings: frozenset[chess.Color],
           settings: RobotSettings) -> Ruling | None:
    """The decision table A-1..A-4 and A-6 for one game at one check.

    ``evaluation_cp`` is from the side ``evaluation_side`` names (the lagger, or White for an
    unresolved A-6 at the unconditional stage); ``bare_kings`` are the sides with only their
    king (A-4). Returns ``None`` when the game has no lagger: it is not checked (A-0).
    """
    if finding.kind is LaggerKind.NONE:
        return None
    prefix: tuple[Rule, ...] = ()
    if finding.kind is not LaggerKind.ONE:
        prefix = (Rule.BOTH_LAGGERS,)
    if finding.kind is LaggerKind.BOTH_UNRESOLVED:
        if stage is not CheckStage.UNCONDITIONAL:
            return Ruling(Verdict.CONTINUE, Rule.BOTH_LAGGERS, prefix)
        if evaluation_cp is None:
            raise InvariantError("A-6 at the unconditional stage needs an evaluation")
        winner: chess.Color | None = None
        if evaluation_cp > settings.both_laggers_win_cp:
            winner = chess.WHITE
        elif -evaluation_cp > settings.both_laggers_win_cp:
            winner = chess.BLACK
        if winner is None:
            return Ruling(Verdict.DRAW, Rule.BOTH_LAGGERS, prefix)
        return _award(winner, Rule.BOTH_LAGGERS, prefix, bare_kings, lagger=None)
    lagger = finding.lagger
    if lagger is None:
        raise InvariantError("a lagger finding without the lagger")
    lagger_ms, opponent_ms = (white_ms, black_ms) if lagger == chess.WHITE else (black_ms,
                                                                                   white_ms)
    if stage is CheckStage.FIRST:
        rule = first_check(lagger_ms=lagger_ms, opponent_ms=opponent_ms,
                           evaluation_cp=evaluation_cp)
    elif stage is CheckStage.SECOND:
        if evaluation_cp is None:
            raise InvariantError("the second check needs an evaluation")
        rule = second_check(lagger_ms=lagger_ms, opponent_ms=opponent_ms,
                            evaluation_cp=evaluation_cp)
    else:
        rule = Rule.UNCONDITIONAL
    verdict = _VERDICT_OF[rule]
    if verdict is Verdict.AWARD:
        return _award(not lagger, rule, (*prefix, rule), bare_kings, lagger=lagger)
    return Ruling(verdict, rule, (*prefix, rule), lagger=lagger)


def _award(winner: chess.Color, rule: Rule, trail: tuple[Rule, ...],
           bare_kings: frozenset[chess.Color], *, lagger: chess.Color | None) -> Ruling:
    """A-4: a side with only its king is never awarded a win; the game is drawn instead."""
    if not trail or trail[-1] is not rule:
        trail = (*trail, rule)
    if winner in bare_kings:
        return Ruling(Verdict.DRAW, Rule.BARE_KING, (*trail, Rule.BARE_KING), lagger=lagger)
    return Ruling(Verdict.AWARD, rule, trail, winner=winner, lagger=lagger)


# --- material -------------------------------------------------------------------


def has_only_king(board: chess.Board, color: chess.Color) -> bool:
    """A-4: the side has nothing but its king."""
    return not board.occupied_co[color] & ~board.kings


def bare_kings(board: chess.Board) -> frozenset[chess.Color]:
    return frozenset(c for c in (chess.WHITE, chess.BLACK) if has_only_king(board, c))


def cannot_mate_cooperatively(board: chess.Board, color: chess.Color) -> bool:
    """A-5, the source's three conditions: ``color`` (player A) cannot mate the other side
    (player B) even with B's most helpful play when

    1. A has no piece and no pawn but the king;
    2. A has only one knight and B has no pawn, rook, bishop or knight;
    3. A has only bishops, all on squares of one colour, and B has no pawn, no knight and no
       bishop on the other colour.

    With a pawn or a rook or queen, two knights, knight and bishop, or bishops on both colours
    A can always mate cooperatively. This equals ``board.has_insufficient_material(color)`` of
    python-chess on every material: its knight case allows the opponent only queens (the same
    list as condition 2), and its bishop case demands that *all* bishops on the board stand on
    one colour with no pawn or knight anywhere, which is condition 3 once A has nothing but
    bishops. The test suite compares the two on random positions.
    """
    own = board.occupied_co[color] & ~board.kings
    theirs = board.occupied_co[not color] & ~board.kings
    if not own:
        return True
    if own == own & board.knights and chess.popcount(own) == 1:
        return not theirs & (board.pawns | board.rooks | board.bishops | board.knights)
    if own == own & board.bishops:
        on_light, on_dark = own & chess.BB_LIGHT_SQUARES, own & chess.BB_DARK_SQUARES
        if on_light and on_dark:
            return False
        other_colour = chess.BB_DARK_SQUARES if on_light else chess.BB_LIGHT_SQUARES
        return not theirs & (board.pawns | board.knights | (board.bishops & other_colour))
    return False


def flag_fall_result(board: chess.Board, flagged: chess.Color) -> tuple[ChessResult, Rule | None]:
    """A player's time ran out: the opponent wins, unless the opponent cannot mate even
    cooperatively (A-5), when the game is drawn. Returns the result and ``A-5`` if it fired."""
    if cannot_mate_cooperatively(board, not flagged):
        return ChessResult.DRAW, Rule.NO_COOPERATIVE_MATE
    return ChessResult.win_for(not flagged), None


def mate_to_centipawns(plies: int) -> int:
    """A mate ``plies`` half-moves away, for the mating side: 1000 - plies pawns, and always
    strictly above the near-mate bound of 25 pawns."""
    if plies < 0:
        raise InvariantError("a mate distance cannot be negative")
    return max(MATE_CP - 100 * plies, NEAR_MATE_CP + 1)

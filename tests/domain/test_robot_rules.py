"""Rules A-0..A-6 (the online judge robot), table-driven at and just across every boundary.

Units: clocks and lags in ms, evaluations in centipawns from the lagger's side. "Just across"
is 1 ms or 1 centipawn (0.01 pawn).
"""

from __future__ import annotations

from fractions import Fraction

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnir.domain.robot_rules import (
    MATE_CP,
    NEAR_MATE_CP,
    CheckStage,
    ChessResult,
    LaggerFinding,
    LaggerKind,
    LagStats,
    RobotSettings,
    Rule,
    TimeControl,
    Verdict,
    bare_kings,
    cannot_mate_cooperatively,
    check_schedule,
    decide,
    evaluation_side,
    find_lagger,
    first_check,
    flag_fall_result,
    has_only_king,
    mate_to_centipawns,
    second_check,
)
from turnir.errors import InvariantError, UserError

S = RobotSettings()
W, B = chess.WHITE, chess.BLACK
NOBODY: frozenset[chess.Color] = frozenset()


def lags(*ms: int) -> LagStats:
    stats = LagStats()
    for lag in ms:
        stats = stats.add(lag)
    return stats


def one(lagger: chess.Color = B) -> LaggerFinding:
    return LaggerFinding(LaggerKind.ONE, lagger)


def check(stage: CheckStage, *, lagger_ms: int, opponent_ms: int, cp: int | None,
          lagger: chess.Color = B, bare: frozenset[chess.Color] = NOBODY):
    white_ms, black_ms = (lagger_ms, opponent_ms) if lagger == W else (opponent_ms, lagger_ms)
    return decide(stage=stage, finding=one(lagger), white_ms=white_ms, black_ms=black_ms,
                  evaluation_cp=cp, bare_kings=bare, settings=S)


# --- laggers and the schedule ----------------------------------------------------------------

@pytest.mark.parametrize(("moves", "lagger"), [
    ((3000,), False),              # exactly 3 s is not "more than 3 s"
    ((3001,), True),
    ((2999,), False),
    ((3000, 3001), True),          # mean 3000.5 ms
    ((3000, 3000, 3001), True),    # mean 3000.33 ms: exact fractions, no float rounding
    ((6000, 0), False),            # mean exactly 3000
    ((), False),                   # no measured move yet
])
def test_rule_A0_lagger_is_mean_lag_strictly_over_3_s(moves: tuple[int, ...],
                                                      lagger: bool) -> None:
    assert lags(*moves).is_lagger(S) is lagger


def test_rule_A0_lagger_threshold_is_a_setting() -> None:
    strict = RobotSettings(lagger_threshold_ms=2_000)
    assert lags(2001).is_lagger(strict)
    assert not lags(2000).is_lagger(strict)


def test_rule_A0_negative_lag_is_refused() -> None:
    with pytest.raises(UserError):
        LagStats().add(-1)


@pytest.mark.parametrize(("control", "first", "second", "unconditional"), [
    ("3+0", 450_000, 480_000, 490_000),     # 7.5 min, blitz: +30 s, +10 s
    ("1+0", 150_000, 170_000, 180_000),     # 2.5 min, bullet: +20 s, +10 s
    ("3+2", 450_000, 480_000, 490_000),     # the base counts, not the increment
    ("5+0", 750_000, 780_000, 790_000),
    ("2.99+0", 448_500, 468_500, 478_500),  # 179.4 s: under 3 min is bullet
])
def test_rule_A0_A2_A3_check_schedule(control: str, first: int, second: int,
                                      unconditional: int) -> None:
    schedule = check_schedule(TimeControl.parse(control), 0, S)
    assert (schedule.first_ms, schedule.second_ms, schedule.unconditional_ms) == (
        first, second, unconditional)


@pytest.mark.parametrize(("base_ms", "bullet"), [(179_999, True), (180_000, False)])
def test_rule_A6_bullet_is_a_base_under_3_minutes(base_ms: int, bullet: bool) -> None:
    tc = TimeControl(base_ms=base_ms, increment_ms=0)
    assert tc.is_bullet(S) is bullet
    schedule = check_schedule(tc, 1_000, S)
    assert schedule.second_ms - schedule.first_ms == (20_000 if bullet else 30_000)


def test_rule_A0_schedule_counts_from_the_round_start() -> None:
    schedule = check_schedule(TimeControl.parse("3+0"), 1_700_000_000_000, S)
    assert schedule.first_ms == 1_700_000_450_000
    assert schedule.latest_due(1_700_000_449_999) is None
    assert schedule.latest_due(1_700_000_450_000) is CheckStage.FIRST
    assert schedule.latest_due(1_700_000_489_999) is CheckStage.SECOND
    assert schedule.latest_due(1_700_000_490_000) is CheckStage.UNCONDITIONAL


@pytest.mark.parametrize("text", ["3", "3+", "+0", "a+b", "0+0", "3-0", ""])
def test_time_control_refuses_bad_text(text: str) -> None:
    with pytest.raises(UserError):
        TimeControl.parse(text)


def test_time_control_forms() -> None:
    assert TimeControl.parse("3+2") == TimeControl(180_000, 2_000)
    assert TimeControl.parse_pgn("180+2") == TimeControl(180_000, 2_000)
    assert TimeControl.parse("0.5+0").label() == "0.5+0"
    assert TimeControl.parse("10+5").label() == "10+5"


# --- the first check -------------------------------------------------------------------------

@pytest.mark.parametrize(("opponent_ms", "lagger_ms", "cp", "rule"), [
    (1_999, 4_001, None, Rule.A1),          # opponent under 2 s, lagger over 4 s
    (1_999, 4_001, -5_000, Rule.A1),        # A1 does not look at the evaluation
    (2_000, 4_001, 0, Rule.FIRST_AWARD),    # opponent at 2 s: not under
    (1_999, 4_000, 0, Rule.FIRST_AWARD),    # lagger at 4 s: not over
    (0, 4_001, None, Rule.A1),
])
def test_rule_A1_opponent_under_2_s_lagger_over_4_s(opponent_ms: int, lagger_ms: int,
                                                     cp: int | None, rule: Rule) -> None:
    assert first_check(lagger_ms=lagger_ms, opponent_ms=opponent_ms, evaluation_cp=cp) is rule


@pytest.mark.parametrize(("opponent_ms", "lagger_ms", "cp", "rule"), [
    (4_999, 10_001, 51, Rule.A2),
    (4_999, 10_001, 50, Rule.FIRST_AWARD),           # 0.5 is outside (0.5, 10000]
    (4_999, 10_001, 1_000_000, Rule.A2),             # 10000 is inside
    (4_999, 10_001, 1_000_001, Rule.FIRST_AWARD),    # above 10000
    (4_999, 10_000, 51, Rule.FIRST_AWARD),           # lagger at 10 s: not over
    (5_000, 10_001, 51, Rule.FIRST_AWARD),           # opponent at 5 s: A3, and 0.51 < 2.5
    (2_000, 10_001, 51, Rule.A2),
    (4_999, 10_001, 600, Rule.A2),                   # A3 needs the opponent at 5 s or more
    (4_999, 9_000, 600, Rule.FIRST_AWARD),           # ... so a big advantage alone is not enough
])
def test_rule_A2_opponent_under_5_s_lagger_over_10_s_small_advantage(
        opponent_ms: int, lagger_ms: int, cp: int, rule: Rule) -> None:
    assert first_check(lagger_ms=lagger_ms, opponent_ms=opponent_ms, evaluation_cp=cp) is rule


@pytest.mark.parametrize(("opponent_ms", "cp", "rule"), [
    (5_000, 551, Rule.A3_1),                 # opponent at 5 s or more
    (5_000, 550, Rule.A3_2),                 # 5.5 belongs to (2.5, 5.5]
    (5_000, 10_000_000, Rule.A3_1),          # 100000 is inside
    (5_000, 10_000_001, Rule.FIRST_AWARD),   # above 100000
    (4_999, 551, Rule.FIRST_AWARD),          # opponent under 5 s: A3 does not apply
    (60_000, 99_900, Rule.A3_1),             # a mate score (1000 - 1 pawns)
])
def test_rule_A3_1_big_advantage_continues(opponent_ms: int, cp: int, rule: Rule) -> None:
    assert first_check(lagger_ms=1_000, opponent_ms=opponent_ms, evaluation_cp=cp) is rule


@pytest.mark.parametrize(("opponent_ms", "cp", "rule"), [
    (5_000, 251, Rule.A3_2),
    (5_000, 250, Rule.FIRST_AWARD),          # 2.5 is outside (2.5, 5.5]
    (5_000, 550, Rule.A3_2),
    (5_000, 551, Rule.A3_1),
    (4_999, 300, Rule.FIRST_AWARD),
    (5_000, -300, Rule.FIRST_AWARD),
])
def test_rule_A3_2_advantage_continues_without_lag_compensation(opponent_ms: int, cp: int,
                                                                  rule: Rule) -> None:
    assert first_check(lagger_ms=1_000, opponent_ms=opponent_ms, evaluation_cp=cp) is rule


@pytest.mark.parametrize(("rule", "verdict"), [
    (Rule.A1, Verdict.CONTINUE), (Rule.A2, Verdict.CONTINUE), (Rule.A3_1, Verdict.CONTINUE),
    (Rule.A3_2, Verdict.CONTINUE_NO_LAG_COMPENSATION), (Rule.FIRST_AWARD, Verdict.AWARD),
])
def test_rule_A1_verdicts_of_the_first_check(rule: Rule, verdict: Verdict) -> None:
    figures = {Rule.A1: (4_001, 1_999, None), Rule.A2: (10_001, 4_999, 51),
               Rule.A3_1: (1_000, 5_000, 551), Rule.A3_2: (1_000, 5_000, 251),
               Rule.FIRST_AWARD: (1_000, 5_000, 250)}[rule]
    ruling = check(CheckStage.FIRST, lagger_ms=figures[0], opponent_ms=figures[1],
                   cp=figures[2])
    assert ruling is not None
    assert (ruling.rule, ruling.verdict, ruling.trail) == (rule, verdict, (rule,))
    if verdict is Verdict.AWARD:
        assert ruling.winner == W and ruling.result is ChessResult.WHITE_WINS
    else:
        assert ruling.winner is None and ruling.result is None
    assert ruling.lagger == B


def test_rule_A1_first_check_needs_an_evaluation_unless_A1() -> None:
    with pytest.raises(InvariantError):
        first_check(lagger_ms=4_000, opponent_ms=1_999, evaluation_cp=None)


# --- the second check ------------------------------------------------------------------------

@pytest.mark.parametrize(("opponent_ms", "lagger_ms", "cp", "rule"), [
    (999, 3_001, 551, Rule.B1_1),
    (999, 3_001, 10_000_000, Rule.B1_1),
    (999, 3_001, 10_000_001, Rule.SECOND_AWARD),
    (999, 3_001, 550, Rule.B1_2),
    (1_000, 3_001, 551, Rule.SECOND_AWARD),   # opponent at 1 s: not under
    (999, 3_000, 551, Rule.SECOND_AWARD),     # lagger at 3 s: not over
    (999, 3_001, 2_501, Rule.B1_1),           # near mate under B1 clocks: B1-1 first
])
def test_rule_B1_1_opponent_under_1_s_big_advantage(opponent_ms: int, lagger_ms: int, cp: int,
                                                    rule: Rule) -> None:
    assert second_check(lagger_ms=lagger_ms, opponent_ms=opponent_ms, evaluation_cp=cp) is rule


@pytest.mark.parametrize(("opponent_ms", "lagger_ms", "cp", "rule"), [
    (999, 3_001, 251, Rule.B1_2),
    (999, 3_001, 250, Rule.SECOND_AWARD),
    (999, 3_001, 550, Rule.B1_2),
    (1_000, 3_001, 300, Rule.SECOND_AWARD),
    (999, 3_000, 300, Rule.SECOND_AWARD),
])
def test_rule_B1_2_opponent_under_1_s_advantage_lag_compensation_off(
        opponent_ms: int, lagger_ms: int, cp: int, rule: Rule) -> None:
    assert second_check(lagger_ms=lagger_ms, opponent_ms=opponent_ms, evaluation_cp=cp) is rule


@pytest.mark.parametrize(("opponent_ms", "lagger_ms", "cp", "rule"), [
    (60_000, 60_000, 2_501, Rule.B2),          # near mate, whatever the clocks
    (60_000, 60_000, 2_500, Rule.SECOND_AWARD),  # 25 is outside (25, 100000]
    (60_000, 60_000, 10_000_000, Rule.B2),
    (60_000, 60_000, 10_000_001, Rule.SECOND_AWARD),
    (1_000, 3_000, 2_501, Rule.B2),
    (60_000, 1, 99_999, Rule.B2),                # mate in 1 ply
    (60_000, 60_000, 2_000, Rule.SECOND_AWARD),  # a won position but not near mate
])
def test_rule_B2_near_mate_continues(opponent_ms: int, lagger_ms: int, cp: int,
                                     rule: Rule) -> None:
    assert second_check(lagger_ms=lagger_ms, opponent_ms=opponent_ms, evaluation_cp=cp) is rule


@pytest.mark.parametrize(("rule", "lagger_ms", "opponent_ms", "cp", "verdict"), [
    (Rule.B1_1, 3_001, 999, 551, Verdict.CONTINUE),
    (Rule.B1_2, 3_001, 999, 251, Verdict.CONTINUE_NO_LAG_COMPENSATION),
    (Rule.B2, 10_000, 10_000, 2_501, Verdict.CONTINUE),
    (Rule.SECOND_AWARD, 10_000, 10_000, 2_500, Verdict.AWARD),
])
def test_rule_A2_verdicts_of_the_second_check(rule: Rule, lagger_ms: int, opponent_ms: int,
                                              cp: int, verdict: Verdict) -> None:
    ruling = check(CheckStage.SECOND, lagger_ms=lagger_ms, opponent_ms=opponent_ms, cp=cp,
                   lagger=W)
    assert ruling is not None
    assert (ruling.rule, ruling.verdict) == (rule, verdict)
    assert ruling.winner == (B if verdict is Verdict.AWARD else None)


def test_rule_A2_second_check_needs_an_evaluation() -> None:
    with pytest.raises(InvariantError):
        check(CheckStage.SECOND, lagger_ms=1, opponent_ms=1, cp=None)


# --- the unconditional award -----------------------------------------------------------------

@pytest.mark.parametrize(("lagger_ms", "opponent_ms", "cp"), [
    (4_001, 1_999, None), (10_001, 4_999, None), (60_000, 0, None), (1, 60_000, None),
    (60_000, 60_000, 99_999),  # even a mate for the lagger does not save the game
])
def test_rule_A3_unconditional_award_to_the_opponent(lagger_ms: int, opponent_ms: int,
                                                     cp: int | None) -> None:
    ruling = check(CheckStage.UNCONDITIONAL, lagger_ms=lagger_ms, opponent_ms=opponent_ms,
                   cp=cp)
    assert ruling is not None
    assert (ruling.verdict, ruling.rule, ruling.winner) == (Verdict.AWARD, Rule.UNCONDITIONAL, W)


def test_rule_A3_evaluation_is_asked_only_when_a_rule_needs_it() -> None:
    def side(stage: CheckStage, finding: LaggerFinding, white_ms: int, black_ms: int):
        return evaluation_side(stage=stage, finding=finding, white_ms=white_ms,
                               black_ms=black_ms)

    both = LaggerFinding(LaggerKind.BOTH_UNRESOLVED, None)
    nobody = LaggerFinding(LaggerKind.NONE, None)
    assert side(CheckStage.FIRST, one(B), 60_000, 60_000) == B
    assert side(CheckStage.FIRST, one(B), 1_999, 4_001) is None      # A1 decides alone
    assert side(CheckStage.FIRST, one(B), 2_000, 4_001) == B
    assert side(CheckStage.SECOND, one(W), 1, 1) == W
    assert side(CheckStage.UNCONDITIONAL, one(W), 1, 1) is None
    assert side(CheckStage.FIRST, both, 1, 1) is None
    assert side(CheckStage.UNCONDITIONAL, both, 1, 1) == W
    assert side(CheckStage.FIRST, nobody, 1, 1) is None


# --- never a win for a bare king -------------------------------------------------------------

@pytest.mark.parametrize(("stage", "lagger_ms", "opponent_ms", "cp", "bare", "verdict", "rule"), [
    (CheckStage.FIRST, 1_000, 60_000, 0, {W}, Verdict.DRAW, Rule.BARE_KING),
    (CheckStage.FIRST, 1_000, 60_000, 0, {B}, Verdict.AWARD, Rule.FIRST_AWARD),  # lagger bare
    (CheckStage.FIRST, 1_000, 60_000, 551, {W}, Verdict.CONTINUE, Rule.A3_1),   # no award
    (CheckStage.SECOND, 1_000, 60_000, 0, {W}, Verdict.DRAW, Rule.BARE_KING),
    (CheckStage.UNCONDITIONAL, 1_000, 60_000, None, {W}, Verdict.DRAW, Rule.BARE_KING),
    (CheckStage.UNCONDITIONAL, 1_000, 60_000, None, {W, B}, Verdict.DRAW, Rule.BARE_KING),
    (CheckStage.UNCONDITIONAL, 1_000, 60_000, None, set(), Verdict.AWARD, Rule.UNCONDITIONAL),
])
def test_rule_A4_no_win_for_a_side_with_only_its_king(
        stage: CheckStage, lagger_ms: int, opponent_ms: int, cp: int | None,
        bare: set[chess.Color], verdict: Verdict, rule: Rule) -> None:
    ruling = check(stage, lagger_ms=lagger_ms, opponent_ms=opponent_ms, cp=cp,
                   bare=frozenset(bare))
    assert ruling is not None
    assert (ruling.verdict, ruling.rule) == (verdict, rule)
    if rule is Rule.BARE_KING:
        assert ruling.trail[-1] is Rule.BARE_KING and len(ruling.trail) == 2
        assert ruling.result is ChessResult.DRAW


@pytest.mark.parametrize(("fen", "white_bare", "black_bare"), [
    ("8/8/4k3/8/8/4K3/8/8 w - - 0 1", True, True),
    ("8/8/4k3/8/8/4K3/4P3/8 w - - 0 1", False, True),
    ("8/8/4k3/4p3/8/4K3/8/8 w - - 0 1", True, False),
])
def test_rule_A4_bare_king_on_the_board(fen: str, white_bare: bool, black_bare: bool) -> None:
    board = chess.Board(fen)
    assert has_only_king(board, W) is white_bare
    assert has_only_king(board, B) is black_bare
    assert bare_kings(board) == frozenset(c for c, bare in ((W, white_bare), (B, black_bare))
                                          if bare)


# --- flag fall without cooperative mate ------------------------------------------------------

# (FEN, can White mate cooperatively?, can Black?)
A5_POSITIONS = [
    ("8/8/4k3/8/8/4K3/8/8 w - - 0 1", False, False),            # bare kings
    ("8/8/4k3/8/8/3NK3/8/8 w - - 0 1", False, False),           # lone knight v bare king
    ("8/8/4k3/8/8/3NK3/8/7q w - - 0 1", False, True),           # lone knight v queen
    ("8/8/4k3/8/8/3NK3/8/6qq w - - 0 1", False, True),          # lone knight v two queens
    ("8/8/4k3/4p3/8/3NK3/8/8 w - - 0 1", True, True),           # lone knight v pawn
    ("8/8/4k3/8/8/3NK3/8/7r w - - 0 1", True, True),            # lone knight v rook
    ("8/8/4k3/8/8/3NK3/8/7n w - - 0 1", True, True),            # knight v knight
    ("8/8/4k3/8/8/3NK3/8/7b w - - 0 1", True, True),            # knight v bishop
    ("8/8/4k3/8/8/2NNK3/8/8 w - - 0 1", True, False),           # two knights
    ("8/8/4k3/8/8/3BK3/8/8 w - - 0 1", False, False),           # lone bishop
    ("8/8/4k3/8/8/3BK3/8/7q w - - 0 1", False, True),           # bishop v queen
    ("8/8/4k3/8/8/3BK3/8/7r w - - 0 1", False, True),           # bishop v rook
    ("8/8/4k3/8/8/3BK3/8/7b w - - 0 1", False, False),          # same-coloured bishops
    ("8/8/4k3/8/8/3BK3/8/6b1 w - - 0 1", True, True),           # opposite-coloured bishops
    ("8/8/4k3/8/3B4/3BK3/8/8 w - - 0 1", True, False),          # bishops on both colours
    ("8/8/4k3/8/2B5/3BK3/8/8 w - - 0 1", False, False),         # two bishops, one colour
    ("8/8/4k3/8/8/3BK3/8/7n w - - 0 1", True, True),            # bishop v knight
    ("8/8/4k3/4p3/8/3BK3/8/8 w - - 0 1", True, True),           # bishop v pawn
    ("8/8/4k3/8/8/3NKB2/8/8 w - - 0 1", True, False),           # knight and bishop
    ("8/8/4k3/8/8/4K3/4P3/8 w - - 0 1", True, False),           # one pawn
    ("8/8/4k3/8/8/4K3/8/7R w - - 0 1", True, False),            # rook
    ("8/8/4k3/8/8/4K3/8/7Q w - - 0 1", True, False),            # queen
]


@pytest.mark.parametrize(("fen", "white_can", "black_can"), A5_POSITIONS)
def test_rule_A5_cooperative_mate_material(fen: str, white_can: bool, black_can: bool) -> None:
    board = chess.Board(fen)
    assert cannot_mate_cooperatively(board, W) is not white_can
    assert cannot_mate_cooperatively(board, B) is not black_can
    # python-chess's own rule agrees on each of these (see the docstring of the rule)
    assert board.has_insufficient_material(W) is not white_can
    assert board.has_insufficient_material(B) is not black_can


@pytest.mark.parametrize(("fen", "flagged", "result", "rule"), [
    ("8/8/4k3/8/8/3NK3/8/7q b - - 0 1", B, ChessResult.DRAW, Rule.NO_COOPERATIVE_MATE),
    ("8/8/4k3/8/8/3NK3/8/7r b - - 0 1", B, ChessResult.WHITE_WINS, None),
    ("8/8/4k3/8/8/3NK3/8/7q w - - 0 1", W, ChessResult.BLACK_WINS, None),
    ("8/8/4k3/8/8/4K3/8/7Q b - - 0 1", B, ChessResult.WHITE_WINS, None),
    ("8/8/4k3/8/8/4K3/8/7Q w - - 0 1", W, ChessResult.DRAW, Rule.NO_COOPERATIVE_MATE),
])
def test_rule_A5_flag_fall_result(fen: str, flagged: chess.Color, result: ChessResult,
                                  rule: Rule | None) -> None:
    assert flag_fall_result(chess.Board(fen), flagged) == (result, rule)


PIECES = [chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN]


@st.composite
def sparse_boards(draw: st.DrawFn) -> chess.Board:
    """Two kings and up to five other pieces anywhere (legality does not matter here)."""
    squares = draw(st.lists(st.integers(0, 63), min_size=2, max_size=7, unique=True))
    board = chess.Board(None)
    board.set_piece_at(squares[0], chess.Piece(chess.KING, W))
    board.set_piece_at(squares[1], chess.Piece(chess.KING, B))
    for square in squares[2:]:
        piece = draw(st.sampled_from(PIECES))
        if piece is chess.PAWN and chess.square_rank(square) in (0, 7):
            piece = chess.BISHOP
        board.set_piece_at(square, chess.Piece(piece, draw(st.booleans())))
    return board


@settings(max_examples=400, deadline=None)
@given(sparse_boards())
def test_rule_A5_matches_python_chess_insufficient_material(board: chess.Board) -> None:
    for color in (W, B):
        assert cannot_mate_cooperatively(board, color) is board.has_insufficient_material(color)


# --- both laggers ----------------------------------------------------------------------------

@pytest.mark.parametrize(("white", "black", "kind", "lagger"), [
    ((5_000,), (4_000,), LaggerKind.BOTH_RESOLVED, W),      # gap exactly 1 s
    ((4_999,), (4_000,), LaggerKind.BOTH_UNRESOLVED, None),  # gap 0.999 s
    ((4_000,), (5_000,), LaggerKind.BOTH_RESOLVED, B),
    ((4_100, 4_100), (5_100,), LaggerKind.BOTH_RESOLVED, B),  # 5.1 - 4.1: exact, not 0.99999
    ((3_001,), (3_001,), LaggerKind.BOTH_UNRESOLVED, None),
    ((3_000,), (9_000,), LaggerKind.ONE, B),                 # 3 s is not a lagger
    ((3_001,), (3_000,), LaggerKind.ONE, W),
    ((3_000,), (3_000,), LaggerKind.NONE, None),
])
def test_rule_A6_who_is_the_lagger(white: tuple[int, ...], black: tuple[int, ...],
                                   kind: LaggerKind, lagger: chess.Color | None) -> None:
    assert find_lagger(lags(*white), lags(*black), S) == LaggerFinding(kind, lagger)


@pytest.mark.parametrize("stage", [CheckStage.FIRST, CheckStage.SECOND])
def test_rule_A6_unresolved_laggers_continue_to_the_next_check(stage: CheckStage) -> None:
    ruling = decide(stage=stage, finding=LaggerFinding(LaggerKind.BOTH_UNRESOLVED, None),
                    white_ms=1, black_ms=1, evaluation_cp=None, bare_kings=NOBODY, settings=S)
    assert ruling is not None
    assert (ruling.verdict, ruling.rule, ruling.trail) == (
        Verdict.CONTINUE, Rule.BOTH_LAGGERS, (Rule.BOTH_LAGGERS,))


@pytest.mark.parametrize(("white_cp", "bare", "verdict", "winner", "rule"), [
    (251, set(), Verdict.AWARD, W, Rule.BOTH_LAGGERS),
    (250, set(), Verdict.DRAW, None, Rule.BOTH_LAGGERS),     # 2.5 does not exceed 2.5
    (-250, set(), Verdict.DRAW, None, Rule.BOTH_LAGGERS),
    (-251, set(), Verdict.AWARD, B, Rule.BOTH_LAGGERS),
    (0, set(), Verdict.DRAW, None, Rule.BOTH_LAGGERS),
    (99_999, set(), Verdict.AWARD, W, Rule.BOTH_LAGGERS),
    (251, {W}, Verdict.DRAW, None, Rule.BARE_KING),          # A-4 over A-6
])
def test_rule_A6_unresolved_at_the_unconditional_stage(white_cp: int, bare: set[chess.Color],
                                                       verdict: Verdict,
                                                       winner: chess.Color | None,
                                                       rule: Rule) -> None:
    ruling = decide(stage=CheckStage.UNCONDITIONAL,
                    finding=LaggerFinding(LaggerKind.BOTH_UNRESOLVED, None), white_ms=1,
                    black_ms=1, evaluation_cp=white_cp, bare_kings=frozenset(bare), settings=S)
    assert ruling is not None
    assert (ruling.verdict, ruling.winner, ruling.rule) == (verdict, winner, rule)
    assert ruling.trail[0] is Rule.BOTH_LAGGERS


def test_rule_A6_resolved_lagger_goes_through_the_normal_table() -> None:
    ruling = decide(stage=CheckStage.FIRST, finding=LaggerFinding(LaggerKind.BOTH_RESOLVED, W),
                    white_ms=60_000, black_ms=60_000, evaluation_cp=551, bare_kings=NOBODY,
                    settings=S)
    assert ruling is not None
    assert (ruling.rule, ruling.trail, ruling.lagger) == (
        Rule.A3_1, (Rule.BOTH_LAGGERS, Rule.A3_1), W)
    award = decide(stage=CheckStage.UNCONDITIONAL,
                   finding=LaggerFinding(LaggerKind.BOTH_RESOLVED, W), white_ms=1, black_ms=1,
                   evaluation_cp=None, bare_kings=NOBODY, settings=S)
    assert award is not None and award.winner == B
    assert award.trail == (Rule.BOTH_LAGGERS, Rule.UNCONDITIONAL)


def test_rule_A6_gap_and_win_bound_are_settings() -> None:
    loose = RobotSettings(both_laggers_gap_ms=500, both_laggers_win_cp=100)
    assert find_lagger(lags(4_500), lags(4_000), loose).kind is LaggerKind.BOTH_RESOLVED
    ruling = decide(stage=CheckStage.UNCONDITIONAL,
                    finding=LaggerFinding(LaggerKind.BOTH_UNRESOLVED, None), white_ms=1,
                    black_ms=1, evaluation_cp=101, bare_kings=NOBODY, settings=loose)
    assert ruling is not None and ruling.winner == W


# --- evaluations and mates ------------------------------------------------------------------------

@pytest.mark.parametrize(("plies", "cp"), [(0, MATE_CP), (1, 99_900), (10, 99_000),
                                           (975, NEAR_MATE_CP + 1), (5_000, NEAR_MATE_CP + 1)])
def test_rule_A6_mate_scores_are_above_the_near_mate_bound(plies: int, cp: int) -> None:
    assert mate_to_centipawns(plies) == cp
    assert mate_to_centipawns(plies) > NEAR_MATE_CP


# --- properties -----------------------------------------------------------------------------------

clock_ms = st.integers(0, 200_000)
stages = st.sampled_from(list(CheckStage))
lag_lists = st.lists(st.integers(0, 15_000), max_size=12)


@settings(max_examples=500, deadline=None)
@given(stages, lag_lists, lag_lists, clock_ms, clock_ms, st.integers(-200_000, 200_000),
       st.sets(st.sampled_from([W, B])))
def test_property_no_lagger_no_decision_and_never_a_win_for_a_bare_king(
        stage: CheckStage, white_lags: list[int], black_lags: list[int], white_ms: int,
        black_ms: int, cp: int, bare: set[chess.Color]) -> None:
    finding = find_lagger(lags(*white_lags), lags(*black_lags), S)
    side = evaluation_side(stage=stage, finding=finding, white_ms=white_ms, black_ms=black_ms)
    ruling = decide(stage=stage, finding=finding, white_ms=white_ms, black_ms=black_ms,
                    evaluation_cp=None if side is None else cp, bare_kings=frozenset(bare),
                    settings=S)
    if finding.kind is LaggerKind.NONE:
        assert ruling is None
        return
    assert ruling is not None
    assert ruling.trail[-1] is ruling.rule
    if ruling.verdict is Verdict.AWARD:
        assert ruling.winner is not None and ruling.winner not in bare
        if finding.lagger is not None:
            assert ruling.winner != finding.lagger       # only the opponent is awarded
    if stage is CheckStage.UNCONDITIONAL:
        assert ruling.verdict.ends_game                  # nothing survives the last stage
    if ruling.verdict is Verdict.CONTINUE_NO_LAG_COMPENSATION:
        assert ruling.lagger == finding.lagger


def test_mean_lag_is_exact() -> None:
    assert lags(1, 2).mean_ms == Fraction(3, 2)

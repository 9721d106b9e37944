"""A decision of the robot with the rule that fired and the figures behind it.

Every check of a game with a lagger gives one ``Decision`` (continue, continue with the
lagger's lag compensation off, award, draw); a flag fall drawn by A-5 gives one too. Decisions
are stored and shown to both players (``Decision.message``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import chess

from turnir.domain.robot_rules import (
    CheckStage,
    ChessResult,
    LaggerKind,
    Rule,
    Ruling,
    Verdict,
    color_name,
)
from turnir.robot.engine import Evaluation

STAGE_LABEL = {CheckStage.FIRST: "first check", CheckStage.SECOND: "second check",
               CheckStage.UNCONDITIONAL: "unconditional award"}


@dataclass(frozen=True)
class CheckFigures:
    """What the robot saw when it decided."""

    white_clock_ms: int
    """White's remaining time."""
    black_clock_ms: int
    """Black's remaining time."""
    white_mean_lag_ms: Fraction
    """White's mean lag over ``white_moves`` moves."""
    black_mean_lag_ms: Fraction
    """Black's mean lag over ``black_moves`` moves."""
    white_moves: int
    black_moves: int
    lagger_kind: LaggerKind
    """None, one, or both laggers (A-6) at the moment of the decision."""
    evaluation: Evaluation | None = None
    """The engine's score, when the rules needed one."""
    evaluation_pov: chess.Color | None = None
    """The side the evaluation is from (the lagger; White for an unresolved A-6)."""
    fen: str = ""
    """The position."""

    def clock_ms(self, color: chess.Color) -> int:
        return self.white_clock_ms if color == chess.WHITE else self.black_clock_ms

    def mean_lag_ms(self, color: chess.Color) -> Fraction:
        return self.white_mean_lag_ms if color == chess.WHITE else self.black_mean_lag_ms


@dataclass(frozen=True)
class Decision:
    """One decision about one game."""

    id: str
    """``"<game id>/<stage>"``, or ``"<game id>/flag"`` for A-5: one decision per moment."""
    game_id: str
    white: str
    black: str
    stage: CheckStage | None
    """The check; ``None`` for a flag fall decided by A-5."""
    scheduled_at_ms: int | None
    """When the check was due (``None`` for A-5)."""
    at_ms: int
    """When the robot decided."""
    verdict: Verdict
    rule: Rule
    """The rule that fired."""
    trail: tuple[Rule, ...]
    """Every rule applied, in order."""
    winner: chess.Color | None
    """The side awarded the game (``Verdict.AWARD``)."""
    lagger: chess.Color | None
    """The lagger the rules were applied to (``None`` for an unresolved A-6 and for A-5)."""
    figures: CheckFigures

    @property
    def result(self) -> ChessResult | None:
        """The game's result when the decision ends it."""
        if self.verdict is Verdict.AWARD and self.winner is not None:
            return ChessResult.win_for(self.winner)
        return ChessResult.DRAW if self.verdict is Verdict.DRAW else None

    @property
    def ends_game(self) -> bool:
        return self.verdict.ends_game

    def name(self, color: chess.Color) -> str:
        return self.white if color == chess.WHITE else self.black

    @property
    def message(self) -> str:
        """The text shown to both players."""
        f = self.figures
        what = STAGE_LABEL[self.stage] if self.stage else "flag fall"
        parts = [f"{what.capitalize()} ({self.rule.value})."]
        if self.lagger is not None:
            parts.append(f"Lagger: {self._side(self.lagger)}, mean lag "
                         f"{format_lag(f.mean_lag_ms(self.lagger))}; opponent "
                         f"{format_lag(f.mean_lag_ms(not self.lagger))}.")
        elif f.lagger_kind is LaggerKind.BOTH_UNRESOLVED:
            parts.append(f"Both lag: white {format_lag(f.white_mean_lag_ms)}, black "
                         f"{format_lag(f.black_mean_lag_ms)} (gap under the A-6 bound).")
        parts.append(f"Clocks: white {format_clock(f.white_clock_ms)}, black "
                     f"{format_clock(f.black_clock_ms)}.")
        if f.evaluation is not None and f.evaluation_pov is not None:
            parts.append(f"Evaluation for {color_name(f.evaluation_pov)}: "
                         f"{format_evaluation(f.evaluation)}.")
        parts.append(self._outcome())
        return " ".join(parts)

    def _side(self, color: chess.Color) -> str:
        return f"{color_name(color)} ({self.name(color)})"

    def _outcome(self) -> str:
        if self.verdict is Verdict.AWARD and self.winner is not None:
            return f"Awarded to {self._side(self.winner)}: {self.result}."
        if self.verdict is Verdict.DRAW:
            why = {Rule.BARE_KING: " (a side with only its king is never awarded a win)",
                   Rule.NO_COOPERATIVE_MATE: " (the opponent cannot mate even cooperatively)"}
            return f"Drawn{why.get(self.rule, '')}: {ChessResult.DRAW}."
        if self.verdict is Verdict.CONTINUE_NO_LAG_COMPENSATION and self.lagger is not None:
            return f"The game continues; lag compensation off for {self._side(self.lagger)}."
        return "The game continues."


def decision_id(game_id: str, stage: CheckStage | None) -> str:
    return f"{game_id}/{stage.value if stage else 'flag'}"


def build_decision(*, game_id: str, white: str, black: str, stage: CheckStage | None,
                   scheduled_at_ms: int | None, at_ms: int, ruling: Ruling,
                   figures: CheckFigures) -> Decision:
    return Decision(id=decision_id(game_id, stage), game_id=game_id, white=white, black=black,
                    stage=stage, scheduled_at_ms=scheduled_at_ms, at_ms=at_ms,
                    verdict=ruling.verdict, rule=ruling.rule, trail=ruling.trail,
                    winner=ruling.winner, lagger=ruling.lagger, figures=figures)


def format_clock(ms: int) -> str:
    """``m:ss.s`` (or ``h:mm:ss.s``)."""
    tenths = round(ms / 100)
    seconds, tenth = divmod(tenths, 10)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}.{tenth}"
    return f"{minutes}:{seconds:02d}.{tenth}"


def format_lag(ms: Fraction) -> str:
    return f"{float(ms) / 1000:.2f} s"


def format_evaluation(evaluation: Evaluation) -> str:
    if evaluation.mate_plies is not None:
        side = "mates" if evaluation.centipawns > 0 else "is mated"
        return f"{evaluation.pawns:+.0f} ({side} in {abs(evaluation.mate_plies)} plies)"
    return f"{evaluation.pawns:+.2f}"

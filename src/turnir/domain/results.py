"""Game and match results and the one points table (rules S-1..S-7).

Terms (Russian in brackets):

- *game* (партия): one game of Berserk; it ends in a win, a loss or a draw (S-1), always with a
  reason (``GameReason``).
- *match* (матч): best-of-1, -3 or -5 games between two players (S-7); the player with more game
  wins wins the match, equal game wins is a match draw (S-2).
- *intentional draw* (договорная ничья): a match draw agreed before the round (S-4).
- *bye* (автопобеда): a player without an opponent wins the match (S-5).
- *elimination match* (матч на вылет): a match of the top; it cannot end drawn (S-3).

Points are integers; ``PointsTable.of`` is the one place that turns a match outcome into
points (S-7, default 3/1/0 and 3 for a bye): match results, pairings, the standings and the
pairings page all ask it. ``MatchResult`` owns its serialisation (``to_columns``/``from_columns``
for the five result columns of storage and files, ``to_json``/``from_json`` with the score for
the audit log and stored answers).

Games (``turnir.domain.games``): a game record and the match result built from games.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from turnir.errors import UserError


class GameReason(StrEnum):
    """Why a game ended (S-1, 002 §601-604)."""

    LETHAL_DAMAGE = "lethal_damage"
    """The loser's hero took lethal damage first (смертельный урон)."""
    DECK_OUT = "deck_out"
    """Third failed draw from an empty deck in the recovery phase."""
    PENALTY = "penalty"
    """A game loss given as a penalty (J-2)."""
    CONCESSION = "concession"
    """The loser conceded the game."""
    NO_CREATURES = "no_creatures"
    """Clean victory: the opponent has no creatures left (002)."""
    DECISIVE_ADVANTAGE = "decisive_advantage"
    """Clean victory claimed after time-out with a 100% advantage (S-9)."""
    CARD_EFFECT = "card_effect"
    """A card's effect says the game is won."""
    TIME_DRAW = "time_draw"
    """No winner after the extra turns at time-out."""
    SIMULTANEOUS_DEATH = "simultaneous_death"
    """Both heroes died at once: a draw."""
    AGREED_DRAW = "agreed_draw"
    """Both players agreed to a draw."""
    NO_WIN_POSSIBLE = "no_win_possible"
    """Neither player can win: a draw (S-9)."""
    TECHNICAL = "technical"
    """Technical win or draw by crystal count, head judge only (S-8)."""
    UNSPECIFIED = "unspecified"
    """Reported as a score only (e.g. ``2-1``), without per-game reasons."""
    # Online games on the chess server, reported through the robot (issue 7); a resignation
    # is a CONCESSION, an agreed draw AGREED_DRAW, too little material NO_WIN_POSSIBLE.
    CHECKMATE = "checkmate"
    """Online: the loser was checkmated."""
    FLAG_FALL = "flag_fall"
    """Online: the loser's clock ran out."""
    DRAWN_POSITION = "drawn_position"
    """Online: a draw by the board's rules (stalemate, 75 moves, fivefold repetition)."""
    ROBOT = "robot"
    """Online: awarded or drawn by the online judge robot (A-1..A-4, A-6)."""


class MatchOutcome(StrEnum):
    """Who won a match, from the first-named player's side."""

    A_WINS = "a_wins"
    B_WINS = "b_wins"
    DRAW = "draw"
    DOUBLE_LOSS = "double_loss"
    """Both players get a match loss (e.g. both did not show up, or both got a match loss)."""


class MatchEnding(StrEnum):
    """How a match came to its outcome."""

    PLAYED = "played"
    """Decided by the games (S-2)."""
    INTENTIONAL_DRAW = "intentional_draw"
    """Agreed before the round (S-4)."""
    CONCESSION = "concession"
    """One player conceded the whole match (S-2)."""
    PENALTY = "penalty"
    """A match loss given as a penalty (J-2); the other player wins."""
    NO_SHOW = "no_show"
    """A player did not come to the table."""


@dataclass(frozen=True, slots=True)
class PointsTable:
    """Match points (S-7); game-level points are not used for standings."""

    win: int = 3
    draw: int = 1
    loss: int = 0
    bye: int = 3

    def __post_init__(self) -> None:
        if not (self.win > self.draw >= self.loss >= 0):
            raise UserError(
                "points must satisfy win > draw >= loss >= 0, got {win}/{draw}/{loss}",
                code="bad_points", win=self.win, draw=self.draw, loss=self.loss,
            )
        if self.bye < 0:
            raise UserError("points for a bye cannot be negative", code="bad_points")

    def of(self, outcome: MatchOutcome) -> tuple[int, int]:
        """Match points of A and B for ``outcome`` (S-2, S-7): the one points function."""
        match outcome:
            case MatchOutcome.A_WINS:
                return self.win, self.loss
            case MatchOutcome.B_WINS:
                return self.loss, self.win
            case MatchOutcome.DRAW:
                return self.draw, self.draw
            case MatchOutcome.DOUBLE_LOSS:
                return self.loss, self.loss

    def by_outcome(self) -> dict[MatchOutcome, tuple[int, int]]:
        """``of`` for every outcome at once, for loops over many matches (the standings)."""
        return {outcome: self.of(outcome) for outcome in MatchOutcome}


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The result of one match between players A and B.

    ``wins_a``/``wins_b`` are game wins, ``draws`` drawn games. For a played match the outcome
    follows from the games (S-2); a concession or a penalty match loss sets it explicitly.
    """

    wins_a: int
    wins_b: int
    draws: int = 0
    outcome: MatchOutcome = MatchOutcome.DRAW
    ending: MatchEnding = MatchEnding.PLAYED

    @staticmethod
    def played(wins_a: int, wins_b: int, draws: int = 0) -> MatchResult:
        """A match decided by its games: more game wins wins, equal is a draw (S-2)."""
        if min(wins_a, wins_b, draws) < 0:
            raise UserError("game counts cannot be negative", code="bad_result")
        if wins_a > wins_b:
            outcome = MatchOutcome.A_WINS
        elif wins_b > wins_a:
            outcome = MatchOutcome.B_WINS
        else:
            outcome = MatchOutcome.DRAW
        return MatchResult(wins_a, wins_b, draws, outcome, MatchEnding.PLAYED)

    @staticmethod
    def intentional_draw() -> MatchResult:
        """A match draw agreed before the round (S-4)."""
        return MatchResult(0, 0, 0, MatchOutcome.DRAW, MatchEnding.INTENTIONAL_DRAW)

    @property
    def score(self) -> str:
        """The score as written on a result slip: ``2-1`` or ``1-1-1`` with draws."""
        if self.ending is MatchEnding.INTENTIONAL_DRAW:
            return "ID"
        base = f"{self.wins_a}-{self.wins_b}"
        return f"{base}-{self.draws}" if self.draws else base

    def swapped(self) -> MatchResult:
        """The same result seen from B's side."""
        flip = {
            MatchOutcome.A_WINS: MatchOutcome.B_WINS,
            MatchOutcome.B_WINS: MatchOutcome.A_WINS,
        }
        return MatchResult(
            self.wins_b, self.wins_a, self.draws, flip.get(self.outcome, self.outcome), self.ending
        )

    def validate(self, *, best_of: int, elimination: bool) -> None:
        """Refuse a result that cannot happen in a best-of-``best_of`` match (S-2, S-3, S-7)."""
        if self.ending is MatchEnding.INTENTIONAL_DRAW:
            if elimination:
                raise UserError(
                    "an elimination match cannot end in an intentional draw (S-3)",
                    code="drawn_elimination",
                )
            return
        needed = best_of // 2 + 1
        if self.wins_a > needed or self.wins_b > needed:
            raise UserError(
                "{score}: a best-of-{best_of} match ends when a player wins {needed} games",
                code="bad_result", score=self.score, best_of=best_of, needed=needed,
            )
        if self.wins_a == needed and self.wins_b == needed:
            raise UserError("{score}: both players cannot win {needed} games",
                            code="bad_result", score=self.score, needed=needed)
        if self.wins_a + self.wins_b > best_of:
            raise UserError("{score}: more decided games than a best-of-{best_of} match has",
                            code="bad_result", score=self.score, best_of=best_of)
        if self.ending is MatchEnding.PLAYED and self.outcome != MatchResult.played(
            self.wins_a, self.wins_b, self.draws
        ).outcome:
            raise UserError("{score}: the outcome does not follow the games",
                            code="bad_result", score=self.score)
        if elimination and self.outcome in (MatchOutcome.DRAW, MatchOutcome.DOUBLE_LOSS):
            raise UserError(
                "{score}: an elimination match cannot end drawn; the last game is played "
                "until someone loses (S-3)",
                code="drawn_elimination", score=self.score,
            )

    def validate_report(self) -> None:
        """A player's own report of a played match names at least one game (S-2): ``0-0``
        with no drawn game cannot come from the games. A match without games (an intentional
        draw, S-4; a no-show, a double loss) is its own ending, recorded by a judge."""
        if self.ending is MatchEnding.PLAYED and self.wins_a + self.wins_b + self.draws == 0:
            raise UserError(
                "{score}: no game was played; report the games won by each player and the "
                "drawn games, or ask a judge to record a match without games",
                code="bad_result", score=self.score,
            )

    def points(self, table: PointsTable) -> tuple[int, int]:
        """Match points of A and B (S-2, S-7; ``PointsTable.of``)."""
        return table.of(self.outcome)

    # ----- serialisation: storage columns, files, the audit log, stored answers ------------

    def to_columns(self) -> dict[str, Any]:
        """The five result columns (``wins_a``, ``wins_b``, ``draws``, ``outcome``,
        ``ending``), enums as their values: the pairing and report rows, files and the API."""
        return {"wins_a": self.wins_a, "wins_b": self.wins_b, "draws": self.draws,
                "outcome": self.outcome.value, "ending": self.ending.value}

    @staticmethod
    def from_columns(columns: Mapping[Any, Any]) -> MatchResult:
        """The result from its five columns (``to_columns``); extra keys are ignored."""
        return MatchResult.from_values(columns["wins_a"], columns["wins_b"], columns["draws"],
                                       columns["outcome"], columns["ending"])

    @staticmethod
    def from_values(wins_a: int, wins_b: int, draws: int, outcome: str,
                    ending: str) -> MatchResult:
        """``from_columns`` for the five values in column order (loops over many rows)."""
        return MatchResult(wins_a, wins_b, draws, _OUTCOMES[outcome], _ENDINGS[ending])

    def to_json(self) -> dict[str, Any]:
        """The columns with the score as written on a slip: the audit log's form."""
        return {"score": self.score, **self.to_columns()}

    @staticmethod
    def from_json(data: Mapping[Any, Any]) -> MatchResult:
        """The result from ``to_json`` (or ``to_columns``): the score is derived, not read."""
        return MatchResult.from_columns(data)


_OUTCOMES: dict[str, MatchOutcome] = {o.value: o for o in MatchOutcome}
_ENDINGS: dict[str, MatchEnding] = {e.value: e for e in MatchEnding}

_SCORE = re.compile(r"^\s*(\d+)\s*[-:]\s*(\d+)(?:\s*[-:]\s*(\d+))?\s*$")


def parse_result(text: str) -> MatchResult:
    """Parse a result as typed by a person: ``2-1``, ``1-1-1`` (with a drawn game), ``ID``.

    ``ID`` (or ``intentional``) is an intentional draw (S-4); ``0-0-0`` with nothing played is
    not a result. Raises ``UserError`` naming the text when it cannot be read.
    """
    cleaned = text.strip().lower()
    if cleaned in {"id", "intentional", "intentional-draw", "дн", "договорная"}:
        return MatchResult.intentional_draw()
    found = _SCORE.match(cleaned)
    if found is None:
        raise UserError(
            "cannot read the result {text!r}: write game wins like 2-1, 1-1-1 with a drawn "
            "game, or ID for an intentional draw",
            code="bad_result", text=text,
        )
    wins_a, wins_b = int(found.group(1)), int(found.group(2))
    draws = int(found.group(3) or 0)
    if wins_a == wins_b == draws == 0:
        raise UserError("{text!r}: no game was played", code="bad_result", text=text)
    return MatchResult.played(wins_a, wins_b, draws)

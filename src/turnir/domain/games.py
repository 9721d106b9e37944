"""Single games with their reasons, and a match result built from them (S-1, S-2, S-8, S-9).

Terms (Russian in brackets):

- *side* (сторона): player A (named first on the pairing) or player B, as in ``MatchResult``;
  ``Side`` is the one definition (its values ``"a"``/``"b"`` are what reports and files say).
- *game record* (результат партии): who won one game (nobody for a draw) and why
  (``GameReason``); every game result carries its reason.
- *penalty game* (партия, проигранная по пенальти): a game lost by a game-loss penalty; when both
  players carry a game loss into the same game, both lose it at once, which is a draw
  (002 603.1 а) with the reason ``PENALTY``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from turnir.domain.results import GameReason, MatchResult
from turnir.errors import Term, UserError


class Side(StrEnum):
    """Player A or player B of a pairing."""

    A = "a"
    B = "b"

    @property
    def other(self) -> Side:
        return Side.B if self is Side.A else Side.A


WIN_REASONS = frozenset({
    GameReason.LETHAL_DAMAGE, GameReason.DECK_OUT, GameReason.PENALTY, GameReason.CONCESSION,
    GameReason.NO_CREATURES, GameReason.DECISIVE_ADVANTAGE, GameReason.CARD_EFFECT,
    GameReason.TECHNICAL, GameReason.UNSPECIFIED,
    GameReason.CHECKMATE, GameReason.FLAG_FALL, GameReason.ROBOT,  # online (the robot)
})
"""Reasons a game can have a winner for."""

DRAW_REASONS = frozenset({
    GameReason.TIME_DRAW, GameReason.SIMULTANEOUS_DEATH, GameReason.AGREED_DRAW,
    GameReason.NO_WIN_POSSIBLE, GameReason.TECHNICAL, GameReason.PENALTY,
    GameReason.UNSPECIFIED,
    GameReason.DRAWN_POSITION, GameReason.ROBOT,  # online (the robot)
})
"""Reasons a game can be drawn for (``PENALTY``: both players lost it by penalty at once)."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game's result and its reason (S-1): as reported at the table, stored, logged and
    applied to penalties alike (``services.results.GameReport`` is this record)."""

    winner: Side | None
    """The side that won (the text ``"a"``/``"b"`` is taken too); ``None`` for a draw."""
    reason: GameReason = GameReason.UNSPECIFIED
    """Why the game ended (S-1); ``UNSPECIFIED`` when only the winner was reported."""

    def __post_init__(self) -> None:
        if self.winner is not None and not isinstance(self.winner, Side):
            object.__setattr__(self, "winner", Side(self.winner))
        if not isinstance(self.reason, GameReason):
            object.__setattr__(self, "reason", GameReason(self.reason))
        allowed = DRAW_REASONS if self.winner is None else WIN_REASONS
        if self.reason not in allowed:
            kind = Term("a drawn game") if self.winner is None else Term("a won game")
            raise UserError("{reason!r} is not a reason for {kind}", code="bad_game",
                            reason=self.reason.value, kind=kind)

    @staticmethod
    def win(side: Side, reason: GameReason = GameReason.UNSPECIFIED) -> GameRecord:
        return GameRecord(side, reason)

    @staticmethod
    def draw(reason: GameReason = GameReason.UNSPECIFIED) -> GameRecord:
        return GameRecord(None, reason)

    def to_json(self) -> dict[str, Any]:
        """``{"winner": "a" | "b" | None, "reason": …}``: the audit log's and the answers' form."""
        return {"winner": None if self.winner is None else self.winner.value,
                "reason": self.reason.value}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> GameRecord:
        winner = data["winner"]
        return GameRecord(None if winner is None else Side(winner), GameReason(data["reason"]))


def match_from_games(
    games: Iterable[GameRecord], *, best_of: int, elimination: bool
) -> MatchResult:
    """The match result of a played match from its games, in order (S-2, S-3, S-7).

    Refuses a game after the match was already decided.
    """
    needed = best_of // 2 + 1
    wins = {Side.A: 0, Side.B: 0}
    draws = 0
    for number, game in enumerate(games, start=1):
        if max(wins.values()) >= needed:
            raise UserError("game {number}: the match was already decided after game {before}",
                            code="bad_result", number=number, before=number - 1)
        if game.winner is None:
            draws += 1
        else:
            wins[game.winner] += 1
    result = MatchResult.played(wins[Side.A], wins[Side.B], draws)
    result.validate(best_of=best_of, elimination=elimination)
    return result

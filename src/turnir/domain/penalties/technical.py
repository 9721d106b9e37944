"""Technical results by crystal count and claims after time-out (rules S-8, S-9; 002 §602-604).

Terms (Russian in brackets):

- *time-out* (окончание времени): the round's time is up and the final turns are played.
- *claim* (требование): after time-out a player with a decisive advantage (решающее
  преимущество: a 100% chance to win whatever the dice) may claim a *clean victory* (чистая
  победа, 602.2); when neither player can win, either may claim a *draw* (ничья, 603.3). A judge
  decides.
- *technical result* (техническая победа / техническая ничья, 604): when time is up and both
  players can still win, the game stops after the second player's turn and the total crystal
  cost of the cards each player controls is counted, a gold crystal counting as a silver one.
  **Decided** (the tournament rules 604.1 refers to are missing): the larger total wins when the
  difference is at least the tournament's margin (default 1), otherwise a technical draw.
  Only the head judge records it (604.2 names the technical win; the count is one procedure
  whose outcome is not known before it is made, so the head judge records the draw as well).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum

from turnir.domain.games import GameRecord, Side
from turnir.domain.penalties.ladder import Text
from turnir.domain.penalties.records import Judge
from turnir.domain.results import GameReason
from turnir.errors import UserError

DEFAULT_TECHNICAL_MARGIN = 1
"""**Decided**: the crystal difference that gives a technical win (S-8)."""


@dataclass(frozen=True, slots=True)
class CrystalCount:
    """The crystal cost of the cards one player controls when the game stops (S-8)."""

    silver: int = 0
    """The summed cost of cards paid in silver crystals."""
    gold: int = 0
    """The summed cost of cards paid in gold crystals (each counts as a silver one)."""

    def __post_init__(self) -> None:
        if self.silver < 0 or self.gold < 0:
            raise UserError("crystal counts cannot be negative", code="bad_crystals")

    @property
    def total(self) -> int:
        return self.silver + self.gold


@dataclass(frozen=True, slots=True)
class TechnicalResult:
    """The head judge's technical result of one game (S-8)."""

    game: GameRecord
    """A technical win or draw, reason ``TECHNICAL``."""
    totals: tuple[int, int]
    """The crystal totals of A and B."""
    margin: int
    """The difference that was needed for a win."""
    judge: Judge
    """The head judge who recorded it."""
    explanation: Text
    """E.g. "technical win for player A: 14 crystals against 11 (margin 1)"."""


def technical_winner(total_a: int, total_b: int, *,
                     margin: int = DEFAULT_TECHNICAL_MARGIN) -> Side | None:
    """Who wins by crystal count (S-8): the larger total when it is ahead by at least
    ``margin``; ``None`` is a technical draw."""
    if margin < 1:
        raise UserError("the technical win margin is at least 1 crystal", code="bad_margin")
    diff = total_a - total_b
    return None if abs(diff) < margin else (Side.A if diff > 0 else Side.B)


def technical_result(
    a: CrystalCount, b: CrystalCount, *, judge: Judge, margin: int = DEFAULT_TECHNICAL_MARGIN
) -> TechnicalResult:
    """The technical result from the two crystal counts (S-8); only the head judge records it."""
    if not judge.is_head:
        raise UserError("{name} is not the head judge; only the head judge records a "
                        "technical result (S-8, 002 604.2)", code="not_head_judge",
                        name=judge.name)
    winner = technical_winner(a.total, b.total, margin=margin)
    counts = Text(f"{a.total} кристаллов против {b.total} (порог {margin})",
                  f"{a.total} crystals against {b.total} (margin {margin})")
    if winner is None:
        head = Text("техническая ничья: ", "technical draw: ")
    else:
        head = Text(f"техническая победа игрока {winner.value.upper()}: ",
                    f"technical win for player {winner.value.upper()}: ")
    return TechnicalResult(GameRecord(winner, GameReason.TECHNICAL), (a.total, b.total),
                           margin, judge, head + counts)


class RulingKind(StrEnum):
    """What a judge's ruling on one game is."""

    TECHNICAL = "technical"
    """A technical result by crystal count (S-8)."""
    CLAIM = "claim"
    """A decision on a claim after time-out (S-9)."""


class ClaimKind(Enum):
    """What a player claims after time-out (S-9)."""

    CLEAN_VICTORY = "clean_victory"
    """Чистая победа by decisive advantage (002 602.2)."""
    DRAW = "draw"
    """Ничья: neither player can win (002 603.3)."""


@dataclass(frozen=True, slots=True)
class Claim:
    """A claim made to a judge after time-out (S-9)."""

    claimant: Side
    """The player who claims."""
    kind: ClaimKind
    """A clean victory or a draw."""


@dataclass(frozen=True, slots=True)
class ClaimRuling:
    """A judge's decision on a claim (S-9); a floor judge's ruling can be appealed (J-8)."""

    claim: Claim
    """What was claimed."""
    granted: bool
    """The judge granted the claim."""
    judge: Judge
    """The judge who decided (a floor judge's ruling can be appealed)."""
    game: GameRecord | None
    """The game's result when granted; ``None`` when refused (play goes on to S-8)."""
    note: str = ""
    """The judge's reasons."""


def decide_claim(claim: Claim, *, granted: bool, judge: Judge, note: str = "") -> ClaimRuling:
    """Record a judge's decision on a claim after time-out (S-9)."""
    game: GameRecord | None = None
    if granted:
        game = (GameRecord(claim.claimant, GameReason.DECISIVE_ADVANTAGE)
                if claim.kind is ClaimKind.CLEAN_VICTORY
                else GameRecord(None, GameReason.NO_WIN_POSSIBLE))
    return ClaimRuling(claim, granted, judge, game, note.strip())

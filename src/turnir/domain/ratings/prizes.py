"""The prize fund split (R-7, J-4).

The entry fees (взносы) make the prize fund (призовой фонд): 70% to the winner, 30% to the
second. Money is a ``Decimal`` in roubles to the kopeck (0.01). The second's 30% is rounded
down to a kopeck and the winner gets the rest, so the two shares always add up to the fund
exactly and any odd kopeck goes to the winner (**Decided**).

A player disqualified without prizes gets no prize (J-4): the share is withheld, not passed
to the next place (**Decided**; the sources do not move prizes down).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from turnir.domain.ratings.model import PlayerKey, RatedTournament
from turnir.errors import InvariantError, UserError

WINNER_PERCENT = 70
"""The winner's share of the prize fund, percent (R-7)."""
SECOND_PERCENT = 30
"""The second's share of the prize fund, percent (R-7)."""


@dataclass(frozen=True, slots=True)
class PrizeSplit:
    """The prize fund divided between the first two places (R-7)."""

    winner: Decimal
    """70% of the fund, plus the odd kopeck."""
    second: Decimal
    """30% of the fund, rounded down to a kopeck."""


@dataclass(frozen=True, slots=True)
class PrizeAward:
    """One prize of a tournament (R-7, J-4)."""

    player: PlayerKey
    """Who finished in the prize place."""
    place: int
    """1 or 2."""
    amount: Decimal
    """The place's share of the fund."""
    withheld: bool
    """Disqualified without prizes: the share is not paid (J-4)."""


def _kopecks(fund: Decimal) -> int:
    if isinstance(fund, bool) or not isinstance(fund, Decimal | int):
        raise InvariantError(f"money must be a Decimal, got {fund!r}")
    scaled = Decimal(fund) * 100
    if not scaled.is_finite() or scaled != scaled.to_integral_value() or scaled < 0:
        raise UserError("a prize fund is a non-negative amount to the kopeck, got {fund}",
                        code="bad_money", fund=fund)
    return int(scaled)


def split_prize_fund(fund: Decimal) -> PrizeSplit:
    """70% to the winner, 30% to the second, exact to the kopeck (R-7)."""
    total = _kopecks(fund)
    second = total * SECOND_PERCENT // 100
    return PrizeSplit(winner=Decimal(total - second).scaleb(-2),
                      second=Decimal(second).scaleb(-2))


def award_prizes(tournament: RatedTournament, fund: Decimal) -> tuple[PrizeAward, ...]:
    """The winner's and the second's prizes, withheld from a player disqualified without
    prizes (J-4)."""
    split = split_prize_fund(fund)
    winner, second = tournament.participants[0], tournament.participants[1]
    return (
        PrizeAward(winner.player, 1, split.winner, winner.disqualified_without_prizes),
        PrizeAward(second.player, 2, split.second, second.disqualified_without_prizes),
    )

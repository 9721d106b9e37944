"""A tournament's rating report: every participant's change (R-1..R-6, J-4).

The report keeps the exact integer results of the formulas (``formulas.py``) and turns them
into ``RatingChange`` records, with ``Fraction`` and ``Decimal`` values, the first time
``changes`` is read: applying a whole history one tournament at a time stays cheap when
nobody reads the reports.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

from turnir.domain.ratings.formulas import (
    NEWCOMER,
    ProfessionalRow,
    WarlockRow,
    professional_denominator,
    to_rating,
)
from turnir.domain.ratings.model import (
    Participant,
    PlayerKey,
    ProfessionalChange,
    RatingChange,
    TournamentKey,
    WarlockChange,
)
from turnir.errors import NotFoundError

ReportRow = tuple[Participant, int, ProfessionalRow, WarlockRow]
"""One participant: who, the professional rating before (hundredths), the formula results."""


@dataclass(frozen=True)
class RatingReport:
    """A tournament's rating report (J-8: shown before and after the head judge submits)."""

    tournament: TournamentKey
    """The tournament's id."""
    participants: int
    """U."""
    professional_k: Fraction
    """K of R-1."""
    warlock_k: Fraction
    """K of R-5 for the format and size."""
    professional_rt: Fraction
    """Rt of R-1, exact."""
    warlock_rt: Fraction
    """Rt of R-5, exact (newcomers as 100)."""
    rows: tuple[ReportRow, ...] = field(repr=False)
    """The exact integer results in place order; ``changes`` reads them."""

    @cached_property
    def changes(self) -> tuple[RatingChange, ...]:
        """One change per participant, winner first."""
        u = self.participants
        k = self.professional_k
        d = professional_denominator(u)
        p, q = k.numerator, k.denominator
        newcomer_rs = to_rating(NEWCOMER)
        changes = []
        for participant, pro_before, pro, war in self.rows:
            num, bounded, bound, new, floor, reset = pro
            rs, gain_num, gain_den, war_new, first, war_reset = war
            formula = Fraction(num, d)
            warlock_before = None if first else to_rating(rs)
            changes.append(RatingChange(
                player=participant.player,
                place=participant.place,
                participants=u,
                disqualified_without_prizes=participant.disqualified_without_prizes,
                professional_rt=self.professional_rt,
                warlock_rt=self.warlock_rt,
                professional=ProfessionalChange(
                    before=to_rating(pro_before),
                    formula=formula,
                    bound=bound,
                    bounded=formula if bounded == num else Fraction(bounded, d),
                    k=k,
                    exact=Fraction(pro_before * d * q + 100 * bounded * p, 100 * d * q),
                    after=to_rating(new),
                    floor_applied=floor,
                    reset_applied=reset,
                ),
                warlock=WarlockChange(
                    before=warlock_before,
                    rs=newcomer_rs if warlock_before is None else warlock_before,
                    gain=Fraction(gain_num, gain_den),
                    k=self.warlock_k,
                    after=to_rating(war_new),
                    first_tournament=first,
                    reset_applied=war_reset,
                ),
            ))
        return tuple(changes)

    def change_for(self, player: PlayerKey) -> RatingChange:
        """The change of one participant."""
        for change in self.changes:
            if change.player == player:
                return change
        raise NotFoundError("player {player} did not play tournament {tournament}",
                            player=player, tournament=self.tournament)

"""The rating formulas in exact integer arithmetic (R-1..R-6).

Every stored rating is an integer number of *hundredths* (сотые доли балла): 123.45 is 12345
(R-6). The formulas are evaluated exactly over a common denominator and rounded once, half up,
to a hundredth:

- R-1/R-2, professional, for place M of U with the ratings ``b`` in hundredths, sum S and
  ``D = 160000 U``: the formula value is ``num / D`` with
  ``num = (U + 1 - 2M) D + [M = 1] 40000 U^2 + [M = 2] 20000 U^2 + 8 (S - U b)(U + 4)``
  (the last term is (Rt - Rs)(U + 4)/200 with Rt = S/(100 U), Rs = b/100). The bounds compare
  ``num`` with ``3D``, ``0``, ``0``, ``-3D``. With K = p/q the new rating in hundredths is
  ``round_half_up((b 1600 U q + num p) / (1600 U q))``; then the floor of 100 (R-3) or the
  reset (R-4).
- R-5, Warlock, with the Warlock ratings ``w`` in hundredths and their sum W (newcomers as
  100): the gain is ``U/M x Rt/Rs x K = W p / (M w q)`` points, and the new rating is
  ``round_half_up((w M w q + 100 W p) / (M w q))`` hundredths.

``tests/domain/test_ratings.py`` checks these against the textbook formulas in ``Fraction``
and ``Decimal`` (``ROUND_HALF_UP``).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from turnir.domain.ratings.model import (
    Bound,
    RatedFormat,
    RatingSettings,
    WarlockFirstTournament,
)
from turnir.errors import InvariantError, UserError

NEWCOMER = 10_000
"""The newcomer rating and the floor, 100 points, in hundredths (R-1, R-3)."""
NEWCOMER_RATING = Decimal("100.00")
"""The newcomer rating and the floor as a stored value (R-1, R-3)."""

_HUNDRED = Decimal(100)

ProfessionalRow = tuple[int, int, Bound, int, bool, bool]
"""Per place: formula numerator, bounded numerator (over ``160000 U``), the bound, the new
rating in hundredths, whether the floor applied, whether the reset applied."""

WarlockRow = tuple[int, int, int, int, bool, bool]
"""Per place: Rs in hundredths, gain numerator, gain denominator (points), the new rating in
hundredths, first tournament, reset applied."""


def round_half_up(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` rounded to an integer, ties away from zero (R-6)."""
    if denominator <= 0:
        raise InvariantError(f"denominator must be positive, got {denominator}")
    if numerator >= 0:
        return (2 * numerator + denominator) // (2 * denominator)
    return -((denominator - 2 * numerator) // (2 * denominator))


def hundredths(value: Decimal | int | str) -> int:
    """A rating given to 0.01 at most (``Decimal("123.45")``, ``"123.45"``, ``120``) in
    hundredths; anything finer is refused, so stored ratings stay exact (R-6)."""
    if isinstance(value, bool) or not isinstance(value, Decimal | int | str):
        raise InvariantError(f"a rating must be a Decimal, int or str, got {value!r}")
    try:
        scaled = Decimal(value) * _HUNDRED
    except InvalidOperation:
        raise UserError("not a rating: {value!r}", code="bad_rating", value=value) from None
    if not scaled.is_finite() or scaled != scaled.to_integral_value():
        raise UserError("a rating is stored to 0.01 (R-6), got {value}", code="bad_rating",
                        value=value)
    return int(scaled)


def to_rating(value: int) -> Decimal:
    """A rating in hundredths as the stored ``Decimal`` with two places (12345 -> 123.45)."""
    return Decimal(value).scaleb(-2)


def optional_rating(value: int | None) -> Decimal | None:
    """``to_rating`` of a rating that may be absent (a Warlock rating before the first
    tournament, R-5; a person not in the rating book)."""
    return None if value is None else to_rating(value)


def warlock_coefficient(format: RatedFormat, participants: int, settings: RatingSettings
                        ) -> Fraction:
    """K of R-5: constructed 1; 1- and 2-booster drafts 1.4; 4-booster drafts 1.8, or 2.0 with
    at least ``settings.many_participants``; 3-booster drafts ``settings.three_booster_k``."""
    if format is RatedFormat.CONSTRUCTED:
        return Fraction(1)
    if format in (RatedFormat.DRAFT_1_BOOSTER, RatedFormat.DRAFT_2_BOOSTERS):
        return Fraction(7, 5)
    if format is RatedFormat.DRAFT_3_BOOSTERS:
        return Fraction(settings.three_booster_k)
    if format is RatedFormat.DRAFT_4_BOOSTERS:
        return Fraction(2) if participants >= settings.many_participants else Fraction(9, 5)
    raise UserError("{format} tournaments are not rated (C-2, R-6)",
                    code="unrated_tournament", format=format.value)


def professional_denominator(participants: int) -> int:
    """``D = 160000 U``, the denominator of the formula numerators (R-1)."""
    return 160_000 * participants


def professional_rows(before: Sequence[int], disqualified: Sequence[bool], k: Fraction
                      ) -> list[ProfessionalRow]:
    """R-1..R-4 for one tournament: ``before`` are the ratings in hundredths in place order."""
    u = len(before)
    total = sum(before)
    d = 160_000 * u
    winner_bonus = 40_000 * u * u
    second_bonus = 20_000 * u * u
    spread = 8 * (u + 4)
    p, q = k.numerator, k.denominator
    den = 1_600 * u * q
    rows: list[ProfessionalRow] = []
    for index, rating in enumerate(before):
        place = index + 1
        num = (u - 1 - 2 * index) * d + spread * (total - u * rating)
        bounded = num
        bound = Bound.NONE
        if place == 1:
            num += winner_bonus
            bounded = num
            if num < 3 * d:
                bounded, bound = 3 * d, Bound.WINNER_AT_LEAST_3
        elif place == 2:
            num += second_bonus
            bounded = num
            if num < 0:
                bounded, bound = 0, Bound.SECOND_AT_LEAST_0
        elif place == u - 1:
            if num > 0:
                bounded, bound = 0, Bound.SECOND_TO_LAST_AT_MOST_0
        elif place == u and num > -3 * d:
            bounded, bound = -3 * d, Bound.LAST_AT_MOST_MINUS_3
        new = round_half_up(rating * den + bounded * p, den)
        floor = reset = False
        if disqualified[index]:
            new, reset = NEWCOMER, True
        elif new < NEWCOMER:
            new, floor = NEWCOMER, True
        rows.append((num, bounded, bound, new, floor, reset))
    return rows


def warlock_rows(before: Sequence[int | None], disqualified: Sequence[bool], k: Fraction,
                 settings: RatingSettings) -> list[WarlockRow]:
    """R-5 for one tournament: ``before`` are the Warlock ratings in hundredths in place order,
    ``None`` for a player's first tournament (counted as 100 in Rt and Rs)."""
    rs = [NEWCOMER if rating is None else rating for rating in before]
    total = sum(rs)
    p, q = k.numerator, k.denominator
    fixed_first = settings.warlock_first_tournament is WarlockFirstTournament.FIXED_100
    reset_on = settings.reset_warlock_on_disqualification
    gain_num = total * p
    rows: list[WarlockRow] = []
    for index, rating in enumerate(rs):
        first = before[index] is None
        den = (index + 1) * rating * q
        if first and fixed_first:
            new = NEWCOMER
        else:
            new = round_half_up(rating * den + 100 * gain_num, den)
        reset = reset_on and disqualified[index]
        if reset:
            new = NEWCOMER
        rows.append((rating, gain_num, den, new, first, reset))
    return rows

"""A tournament's rating terms (R-1, R-5, R-7, C-2, J-4): what its rating needs beyond its format.

A stored tournament has a format (swiss, draft, constructed) and a rules level. The rating
also needs (a tournament whose terms were never set has the defaults):

- ``boosters``: a draft's boosters (бустеры), 1-4 (default 4), which decide the Warlock K (R-5);
- ``starter``: a constructed event with starter decks only, which is unrated (C-2);
- ``professional_k``: K of R-1 (default 1, **Decided**: the source leaves it to the
  tournament's rules);
- ``entry_fee`` per participant (взнос), or the whole ``prize_fund`` (призовой фонд), for the
  70/30 split (R-7);
- the players *disqualified without prizes* (J-4), whose rating resets (R-4).

The rated format: a draft is ``draft_N_boosters``; constructed is ``constructed`` (or
``starter_constructed`` when ``starter``); a ``swiss`` event is read as constructed
(**Decided**: a Swiss event without a draft plays constructed decks; Warlock K 1).

Money is exact: roubles as ``Decimal`` to the kopeck, stored as whole kopecks.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from turnir.domain.model import TournamentFormat
from turnir.domain.ratings.exact import exact_text
from turnir.domain.ratings.model import RatedFormat
from turnir.errors import UserError

DEFAULT_BOOSTERS = 4
DEFAULT_PROFESSIONAL_K = Fraction(1)
MAX_KOPECKS = 2**31 - 1
"""Amounts are stored in kopecks as 32-bit integers (issue 10 item 5)."""
_DRAFTS = {1: RatedFormat.DRAFT_1_BOOSTER, 2: RatedFormat.DRAFT_2_BOOSTERS,
           3: RatedFormat.DRAFT_3_BOOSTERS, 4: RatedFormat.DRAFT_4_BOOSTERS}


def kopecks(value: Decimal | int | str, what: str) -> int:
    """Roubles to the kopeck (``300``, ``"250.50"``) as kopecks; refused when negative or finer.
    ``what`` names the amount in the message (a ``turnir.errors.Term``)."""
    try:
        amount = Decimal(str(value).strip().replace(",", "."))
        if amount.is_finite() and amount > MAX_KOPECKS:  # before scaling: 1e999999999
            raise _too_much(what)
        scaled = amount * 100
    except InvalidOperation:
        raise UserError("{what} must be an amount such as 300 or 250.50, not {value!r}",
                        code="bad_money", what=what, value=value) from None
    if not scaled.is_finite() or scaled != scaled.to_integral_value() or scaled < 0:
        raise UserError("{what} must be a non-negative amount to the kopeck, not {value}",
                        code="bad_money", what=what, value=value)
    if scaled > MAX_KOPECKS:
        raise _too_much(what)
    return int(scaled)


def _too_much(what: str) -> UserError:
    return UserError("{what} must be at most {most:,} roubles", code="bad_money", what=what,
                     most=MAX_KOPECKS // 100)


def roubles(value: int | None) -> Decimal | None:
    """Kopecks as roubles (``25050`` as ``250.50``)."""
    return None if value is None else Decimal(value).scaleb(-2)


def in_kopecks(value: Decimal | None) -> int | None:
    """Roubles already checked by ``kopecks`` (or read by ``roubles``) as kopecks."""
    return None if value is None else int(value.scaleb(2))


def rated_format(format: TournamentFormat, *, boosters: int, starter: bool) -> RatedFormat:
    """The format as the rating sees it (see the module docstring)."""
    if format is TournamentFormat.DRAFT:
        return _DRAFTS[boosters]
    return RatedFormat.STARTER_CONSTRUCTED if starter else RatedFormat.CONSTRUCTED


@dataclass(frozen=True, slots=True)
class RatingTerms:
    """A tournament's rating terms (defaults when never set: ``version`` 0)."""

    tournament_id: int
    format: TournamentFormat
    """The tournament's own format."""
    boosters: int
    """A draft's boosters (D-1), 1-4."""
    starter: bool
    """Starter constructed (C-2): unrated."""
    professional_k: Fraction
    """K of R-1."""
    entry_fee: Decimal | None
    """Per participant, roubles (R-7)."""
    prize_fund: Decimal | None
    """The whole fund, roubles, when given instead of the entry fee (R-7)."""
    disqualified_without_prizes: tuple[int, ...]
    """Entry numbers disqualified without prizes (J-4)."""
    version: int
    """0 until the terms are first set."""

    @classmethod
    def defaults(cls, tournament_id: int, format: TournamentFormat) -> RatingTerms:
        """The terms of a tournament whose terms were never set."""
        return cls(tournament_id, format, DEFAULT_BOOSTERS, False, DEFAULT_PROFESSIONAL_K,
                   None, None, (), 0)

    @property
    def rated_format(self) -> RatedFormat:
        return rated_format(self.format, boosters=self.boosters, starter=self.starter)

    @property
    def rated(self) -> bool:
        """Whether the format is rated at all (C-2); the size is checked on submission."""
        return self.rated_format is not RatedFormat.STARTER_CONSTRUCTED

    def fund(self, participants: int) -> Decimal | None:
        """The prize fund: given, or the entry fee times the participants (R-7)."""
        if self.prize_fund is not None:
            return self.prize_fund
        if self.entry_fee is not None:
            return self.entry_fee * participants
        return None

    def as_json(self) -> dict[str, Any]:
        return {"boosters": self.boosters, "starter": self.starter,
                "professional_k": exact_text(self.professional_k),
                "entry_fee": None if self.entry_fee is None else str(self.entry_fee),
                "prize_fund": None if self.prize_fund is None else str(self.prize_fund),
                "disqualified_without_prizes": list(self.disqualified_without_prizes),
                "rated_format": self.rated_format.value}

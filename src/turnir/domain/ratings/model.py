"""The records of rated tournaments and rating changes (R-1, R-2, R-5, R-6, J-4, C-2).

A ``RatedTournament`` is checked when it is built: a tournament that cannot be rated (starter
constructed, C-2; fewer than 4 participants, C-1/D-1) or whose places are not a total order
1..U is refused with a ``UserError`` that says why. Its participants are kept in place order,
so the order they were given in does not matter.

A ``RatingChange`` records, for one player, both ratings before and after, the exact formula
values, the coefficients, which R-2 bound applied, and whether the floor (R-3) or the reset
(R-4) applied. Terms are defined in ``turnir.domain.ratings``.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any, Protocol

from turnir.errors import InvariantError, UserError

PlayerKey = int | str
"""A player's identity in the rating book (stable across tournaments); never sorted."""

TournamentKey = int | str
"""A tournament's identity; unique in a history, the tie-break between equal end keys."""

MIN_PARTICIPANTS = 4
"""A rated tournament has at least 4 participants (C-1, D-1; R-6)."""


class EndKey(Protocol):
    """The caller's opaque, comparable key for when a tournament ended (a time, a number…)."""

    def __lt__(self, other: Any, /) -> bool: ...


class RatedFormat(StrEnum):
    """The tournament's format, which decides whether it is rated and its Warlock K (R-5)."""

    CONSTRUCTED = "constructed"
    """Constructed (констрактед): Warlock K 1."""
    STARTER_CONSTRUCTED = "starter_constructed"
    """Starter constructed (стартерный констрактед): unrated (C-2, R-6)."""
    DRAFT_1_BOOSTER = "draft_1_booster"
    """One-booster draft (однобустерный драфт): Warlock K 1.4."""
    DRAFT_2_BOOSTERS = "draft_2_boosters"
    """Two-booster draft (двухбустерный драфт): Warlock K 1.4."""
    DRAFT_3_BOOSTERS = "draft_3_boosters"
    """Three-booster draft: not in the source; Warlock K is a setting (**Decided**: 1.8)."""
    DRAFT_4_BOOSTERS = "draft_4_boosters"
    """Four-booster draft (четырёхбустерный драфт): Warlock K 1.8, or 2.0 with many players."""


class WarlockFirstTournament(StrEnum):
    """How "every player's first tournament gives 100" (R-5) is read; a setting."""

    FIXED_100 = "fixed_100"
    """Default: after the first tournament the Warlock rating is 100, whatever the place."""
    START_AT_100 = "start_at_100"
    """A newcomer enters with Rs = 100 and gains by the formula like everyone else."""


class Bound(StrEnum):
    """Which R-2 bound changed the formula value (before K)."""

    NONE = "none"
    """The formula value stood."""
    WINNER_AT_LEAST_3 = "winner_at_least_3"
    """The winner's value was raised to +3."""
    SECOND_AT_LEAST_0 = "second_at_least_0"
    """The second's value was raised to 0."""
    SECOND_TO_LAST_AT_MOST_0 = "second_to_last_at_most_0"
    """The second-to-last's value was lowered to 0."""
    LAST_AT_MOST_MINUS_3 = "last_at_most_minus_3"
    """The last's value was lowered to -3."""


class RatingKind(StrEnum):
    """Which of the two ratings: the professional (R-1..R-4) or the Warlock (R-5); a
    leaderboard ranks by one of them."""

    PROFESSIONAL = "professional"
    WARLOCK = "warlock"


@dataclass(frozen=True, slots=True)
class RatingSettings:
    """Every **Decided** reading of R-5/R-6 and J-4 as a setting with its default."""

    _: KW_ONLY
    many_participants: int = 32
    """A 4-booster draft with at least this many participants has Warlock K 2.0 (R-5, R-6)."""
    three_booster_k: Fraction = Fraction(9, 5)
    """Warlock K of a 3-booster draft, absent from the source (**Decided**: 1.8, as 4b)."""
    warlock_first_tournament: WarlockFirstTournament = WarlockFirstTournament.FIXED_100
    """How a newcomer's first tournament sets the Warlock rating (R-5)."""
    reset_warlock_on_disqualification: bool = False
    """Whether a disqualification without prizes also resets the Warlock rating to 100 (J-4)."""

    def __post_init__(self) -> None:
        if self.many_participants < MIN_PARTICIPANTS:
            raise UserError("'many participants' must be at least {least} (R-6)",
                            least=MIN_PARTICIPANTS)
        if not isinstance(self.three_booster_k, Fraction | int) or isinstance(
                self.three_booster_k, bool):
            raise InvariantError("three_booster_k must be an exact Fraction")
        if self.three_booster_k <= 0:
            raise UserError("the 3-booster Warlock coefficient must be positive (R-5)")


@dataclass(frozen=True, slots=True)
class Participant:
    """One player's result in a rated tournament."""

    player: PlayerKey
    """The player's identity in the rating book."""
    place: int
    """Final place M, 1 for the winner (P-6); places are a total order, never shared."""
    _: KW_ONLY
    disqualified_without_prizes: bool = False
    """Disqualified without prizes (J-4): the professional rating resets to 100 (R-4)."""


def _exact(value: object, what: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, Fraction | int):
        raise InvariantError(f"{what} must be an exact Fraction or int, got {value!r}")
    return Fraction(value)


@dataclass(frozen=True, slots=True)
class RatedTournament:
    """A finished tournament submitted to the rating book (J-8: by its head judge).

    Built only for a rated tournament: starter constructed (C-2) and fewer than 4 participants
    are refused, as are repeated players and places that are not exactly 1..U.
    """

    id: TournamentKey
    """Unique in a history; orders tournaments that ended at an equal ``ended_at``."""
    ended_at: EndKey
    """When it ended, as the caller's comparable key (no clock here); the order of R-6."""
    format: RatedFormat
    """The format: whether it is rated (C-2) and the Warlock K (R-5)."""
    professional_k: Fraction
    """The professional K of R-1, set by the tournament's rules; positive."""
    participants: tuple[Participant, ...]
    """Everyone with a final place, disqualified players included; kept sorted by place."""
    players: tuple[PlayerKey, ...] = field(init=False, repr=False, compare=False)
    """The players in place order (derived)."""
    disqualified: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    """The disqualified-without-prizes flags in place order (derived)."""

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        try:
            set_(self, "format", RatedFormat(self.format))
        except ValueError:
            raise UserError("tournament {tournament}: unknown format {format!r}",
                            code="bad_format", tournament=self.id, format=self.format) from None
        set_(self, "professional_k", _exact(self.professional_k, "professional K"))
        if self.professional_k <= 0:
            raise UserError("tournament {tournament}: the professional K must be positive (R-1)",
                            code="bad_coefficient", tournament=self.id)
        if self.format is RatedFormat.STARTER_CONSTRUCTED:
            raise UserError("tournament {tournament} is starter constructed, which does not "
                            "change the ratings (C-2, R-6)", code="unrated_tournament",
                            tournament=self.id)
        ordered = tuple(sorted(self.participants, key=lambda entry: entry.place))
        count = len(ordered)
        if count < MIN_PARTICIPANTS:
            raise UserError("tournament {tournament} has {count} participants; a rated "
                            "tournament needs at least {least} (C-1, D-1, R-6)",
                            code="unrated_tournament", tournament=self.id, count=count,
                            least=MIN_PARTICIPANTS)
        seen: set[PlayerKey] = set()
        previous: int | None = None
        for expected, entry in enumerate(ordered, start=1):
            if entry.player in seen:
                raise UserError("tournament {tournament}: player {player} is listed twice",
                                code="duplicate_player", tournament=self.id,
                                player=entry.player)
            seen.add(entry.player)
            if entry.place == previous:
                raise UserError("tournament {tournament}: place {place} is given twice; "
                                "places must be a total order", code="duplicate_place",
                                tournament=self.id, place=entry.place)
            if entry.place != expected:
                places = [other.place for other in ordered]
                raise UserError("tournament {tournament}: places must be exactly 1..{count}, "
                                "got {places}", code="bad_places", tournament=self.id,
                                count=count, places=places)
            previous = entry.place
        set_(self, "participants", ordered)
        set_(self, "players", tuple(entry.player for entry in ordered))
        set_(self, "disqualified", tuple(entry.disqualified_without_prizes for entry in ordered))

    @property
    def size(self) -> int:
        """U, the number of participants."""
        return len(self.participants)


@dataclass(frozen=True, slots=True)
class ProfessionalChange:
    """One player's professional rating in one tournament (R-1..R-4, R-6)."""

    before: Decimal
    """Rs, the stored rating before the tournament (100.00 for a newcomer)."""
    formula: Fraction
    """The R-1 value before bounds and before K, exact."""
    bound: Bound
    """Which R-2 bound applied, if any."""
    bounded: Fraction
    """The value after R-2, before K, exact."""
    k: Fraction
    """The tournament's professional K."""
    exact: Fraction
    """Rs + bounded x K, exact, before rounding, the floor and the reset."""
    after: Decimal
    """The stored new rating: ``exact`` rounded half up to 0.01, then the floor or the reset."""
    floor_applied: bool
    """The rounded value was below 100 and the floor raised it (R-3)."""
    reset_applied: bool
    """Disqualified without prizes: the rating was reset to 100 (R-4, J-4)."""

    @property
    def change(self) -> Decimal:
        """The stored change, ``after - before``."""
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class WarlockChange:
    """One player's Warlock rating in one tournament (R-5, R-6)."""

    before: Decimal | None
    """The stored Warlock rating before, ``None`` before the player's first tournament."""
    rs: Decimal
    """Rs used in the formula and in Rt: ``before``, or 100 for a newcomer."""
    gain: Fraction
    """U/M x Rt/Rs x K, exact (not used in a first tournament read as ``FIXED_100``)."""
    k: Fraction
    """The Warlock K of the tournament's format."""
    after: Decimal
    """The stored new Warlock rating."""
    first_tournament: bool
    """This was the player's first rated tournament."""
    reset_applied: bool
    """Reset to 100 by a disqualification without prizes (only with the setting on)."""

    @property
    def change(self) -> Decimal:
        """The stored change, ``after - before`` (the whole 100 in a first tournament)."""
        return self.after - (self.before if self.before is not None else Decimal("0.00"))


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one tournament did to one player's two ratings."""

    player: PlayerKey
    """The player."""
    place: int
    """M, the final place."""
    participants: int
    """U, the number of participants."""
    disqualified_without_prizes: bool
    """The J-4 flag of the participant."""
    professional_rt: Fraction
    """Rt of R-1: the mean professional rating before the tournament, exact."""
    warlock_rt: Fraction
    """Rt of R-5: the mean Warlock rating before the tournament (newcomers as 100), exact."""
    professional: ProfessionalChange
    """The professional rating's change."""
    warlock: WarlockChange
    """The Warlock rating's change."""

"""The draft plan: how many boosters of which size, the passing, the timers, what the pool
becomes (D-1, D-4, D-6, D-8).

Terms (Russian in brackets):

- *profile* (формат проведения): ``tabletop`` (за столом, 8-16 players a draft table) or
  ``online`` (онлайн, 6-12 a table) — D-2;
- *booster* (бустер): 7 or 12 cards; a draft opens 1, 2, 3 or 4 of them per player (D-1),
  12-card boosters before 7-card ones and every player the same number of each kind (D-4);
- *booster round* (круг): everyone opens their next booster and the table picks until it is
  empty; odd rounds pass left, even rounds pass right (D-4); seats are numbered 1..n around
  the table and "left" is the next seat number (seat n passes left to seat 1);
- *review* (просмотр): the minute after each booster round to look at one's picks (D-4);
- *pool* (пул): the cards a player picked; it becomes the *hand* (раздача, classic one-booster
  draft), the *squad* (отряд, squad draft) or a *deck* (колода) of at least ``deck_min`` cards
  (D-6);
- *pick timer* (время на выбор): ``pick_seconds + pick_seconds_per_card * cards_left`` — a
  fuller booster gives more time.

**Decided** (D-8, the missing Tables 2 and 3 of document 001 are settings with defaults):

- pick timer 15 s + 5 s per card in the booster: 75 s for a full 12-card booster, 50 s for a
  full 7-card one, 20 s for the last card;
- review 60 s after each booster round (D-4);
- a deck of at least 20 cards (D-6);
- a player who lets the timer run out twice in a row is *away* (отошёл) and is auto-picked at
  once until they pick again;
- the default plans: 4 boosters of 12 cards at the table, 4 boosters of 7 cards online (4 is
  the standard draft, D-1; online boosters are 7 cards, D-6).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from turnir.domain.model import RulesLevel
from turnir.errors import Term, UserError

BOOSTER_SIZES = (12, 7)
"""The booster sizes, in opening order (D-4: 12-card boosters first)."""
MAX_BOOSTERS = 4
"""A draft opens 1 to 4 boosters per player (D-1)."""

DEFAULT_PICK_SECONDS = 15
"""The pick timer's base (D-8)."""
DEFAULT_PICK_SECONDS_PER_CARD = 5
"""Seconds added to the pick timer for each card in the booster (D-8)."""
DEFAULT_REVIEW_SECONDS = 60
"""The review after each booster round (D-4: one minute)."""
DEFAULT_DECK_MIN = 20
"""The smallest deck built from a pool (D-6)."""
DEFAULT_AWAY_AFTER = 2
"""Consecutive timeouts after which a player is away and auto-picked at once (D-8)."""

PICK_SECONDS_RANGE = (5, 600)
PER_CARD_RANGE = (0, 60)
REVIEW_RANGE = (0, 600)
DECK_MIN_RANGE = (10, 60)
AWAY_AFTER_RANGE = (1, 20)


class DraftProfile(StrEnum):
    """Where the draft is played, which decides the table sizes (D-2)."""

    TABLETOP = "tabletop"
    """At a real table: 8-16 players a draft table."""
    ONLINE = "online"
    """Online: 6-12 players a draft table."""

    @property
    def bounds(self) -> tuple[int, int]:
        """The smallest and the largest draft table (D-2)."""
        return (8, 16) if self is DraftProfile.TABLETOP else (6, 12)


class PoolUse(StrEnum):
    """What a player's pool becomes after the draft (D-6)."""

    HAND = "hand"
    """The hand (раздача) of a classic draft."""
    SQUAD = "squad"
    """The squad (отряд) of a squad draft."""
    DECK = "deck"
    """A deck of at least ``DraftPlan.deck_min`` cards."""


class Direction(StrEnum):
    """Where a booster goes after a pick (D-4)."""

    LEFT = "left"
    """To the next seat number (seat n to seat 1)."""
    RIGHT = "right"
    """To the previous seat number (seat 1 to seat n)."""

    @property
    def step(self) -> int:
        """+1 for left, -1 for right: a booster at seat s goes to ``(s - 1 + step) % n + 1``."""
        return 1 if self is Direction.LEFT else -1


@dataclass(frozen=True, slots=True)
class DraftPlan:
    """A tournament's draft: boosters, timers and pool use. Checked when built (a plan that
    exists is a legal one)."""

    boosters: tuple[int, ...]
    """The size of each booster in opening order: 12s first, then 7s (D-4); 1 to 4 (D-1)."""
    profile: DraftProfile
    single: PoolUse = PoolUse.HAND
    """What a 1-booster draft makes: the hand (classic) or the squad (D-6)."""
    pick_seconds: int = DEFAULT_PICK_SECONDS
    """The pick timer's base (D-8)."""
    pick_seconds_per_card: int = DEFAULT_PICK_SECONDS_PER_CARD
    """Seconds added for each card left in the booster (D-8)."""
    review_seconds: int = DEFAULT_REVIEW_SECONDS
    """The review after each booster round (D-4)."""
    deck_min: int = DEFAULT_DECK_MIN
    """The smallest deck built from the pool (D-6)."""
    away_after: int = DEFAULT_AWAY_AFTER
    """Consecutive timeouts before a player is away and auto-picked at once."""

    def __post_init__(self) -> None:
        _check_boosters(self.boosters)
        if self.single is PoolUse.DECK:
            raise UserError("a one-booster draft makes a hand or a squad, not a deck",
                            code="bad_draft_plan")
        _check_range(self.pick_seconds, PICK_SECONDS_RANGE, Term("pick time"))
        _check_range(self.pick_seconds_per_card, PER_CARD_RANGE, Term("pick time per card"))
        _check_range(self.review_seconds, REVIEW_RANGE, Term("review time"))
        _check_range(self.deck_min, DECK_MIN_RANGE, Term("smallest deck"))
        _check_range(self.away_after, AWAY_AFTER_RANGE, Term("timeouts before away"))
        if self.count >= 3 and self.deck_min > self.cards:
            raise UserError("the smallest deck ({deck_min}) is more than the {cards} cards a "
                            "player drafts", code="bad_draft_plan", deck_min=self.deck_min,
                            cards=self.cards)

    @property
    def count(self) -> int:
        """The number of boosters each player opens (D-1)."""
        return len(self.boosters)

    @property
    def cards(self) -> int:
        """The cards each player ends with: the sum of the booster sizes."""
        return sum(self.boosters)

    @property
    def twelves(self) -> int:
        return self.boosters.count(12)

    @property
    def sevens(self) -> int:
        return self.boosters.count(7)

    def direction(self, booster_round: int) -> Direction:
        """The passing direction of a booster round (1-based): left for odd, right for even
        (D-4)."""
        if not 1 <= booster_round <= self.count:
            raise ValueError(f"booster round {booster_round} is not in 1..{self.count}")
        return Direction.LEFT if booster_round % 2 == 1 else Direction.RIGHT

    def pick_timer(self, cards_left: int) -> int:
        """The seconds a player has to pick from a booster of ``cards_left`` cards (D-8)."""
        return self.pick_seconds + self.pick_seconds_per_card * max(cards_left, 0)

    @property
    def uses_all_cards(self) -> bool:
        """Online 1- and 2-booster drafts use every card picked (D-6: all 7, all 14)."""
        return self.profile is DraftProfile.ONLINE and self.count <= 2

    def pool_use(self, pool_size: int) -> PoolUse:
        """What a pool of ``pool_size`` cards becomes (D-6): one booster → ``single``; two
        boosters → a deck when the pool has at least ``deck_min`` cards, else the hand (online:
        always a deck of all 14 cards); three and four boosters → a deck."""
        if self.count == 1:
            return self.single
        if self.count == 2 and not self.uses_all_cards and pool_size < self.deck_min:
            return PoolUse.HAND
        return PoolUse.DECK

    @property
    def rules_level(self) -> RulesLevel:
        """1- and 2-booster drafts are Amateur, 3 and 4 Professional (D-1)."""
        return RulesLevel.AMATEUR if self.count <= 2 else RulesLevel.PROFESSIONAL

    def to_json(self) -> dict[str, Any]:
        return {
            "boosters": list(self.boosters), "profile": self.profile.value,
            "single": self.single.value, "pick_seconds": self.pick_seconds,
            "pick_seconds_per_card": self.pick_seconds_per_card,
            "review_seconds": self.review_seconds, "deck_min": self.deck_min,
            "away_after": self.away_after,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DraftPlan:
        """The plan ``to_json`` wrote (missing settings take their defaults)."""
        boosters = data.get("boosters")
        if not isinstance(boosters, list | tuple):
            raise UserError("the draft plan has no boosters", code="bad_draft_plan")
        return cls(
            boosters=tuple(boosters),
            profile=_profile(data.get("profile", DraftProfile.TABLETOP.value)),
            single=_single(data.get("single", PoolUse.HAND.value)),
            pick_seconds=data.get("pick_seconds", DEFAULT_PICK_SECONDS),
            pick_seconds_per_card=data.get("pick_seconds_per_card",
                                           DEFAULT_PICK_SECONDS_PER_CARD),
            review_seconds=data.get("review_seconds", DEFAULT_REVIEW_SECONDS),
            deck_min=data.get("deck_min", DEFAULT_DECK_MIN),
            away_after=data.get("away_after", DEFAULT_AWAY_AFTER),
        )


def make_plan(
    *,
    twelves: int,
    sevens: int,
    profile: DraftProfile | str,
    single: PoolUse | str = PoolUse.HAND,
    pick_seconds: int = DEFAULT_PICK_SECONDS,
    pick_seconds_per_card: int = DEFAULT_PICK_SECONDS_PER_CARD,
    review_seconds: int = DEFAULT_REVIEW_SECONDS,
    deck_min: int = DEFAULT_DECK_MIN,
    away_after: int = DEFAULT_AWAY_AFTER,
) -> DraftPlan:
    """A plan of ``twelves`` 12-card and ``sevens`` 7-card boosters, 12s opened first (D-4);
    refuses 0 or more than 4 boosters (D-1) and settings out of their ranges (D-8)."""
    for value in (twelves, sevens):
        if not _is_int(value) or value < 0:
            raise UserError("the number of boosters must be a whole number of at least 0",
                            code="bad_draft_plan")
    return DraftPlan(
        boosters=(12,) * twelves + (7,) * sevens, profile=_profile(profile),
        single=_single(single), pick_seconds=pick_seconds,
        pick_seconds_per_card=pick_seconds_per_card, review_seconds=review_seconds,
        deck_min=deck_min, away_after=away_after,
    )


def _check_boosters(boosters: tuple[int, ...]) -> None:
    if not 1 <= len(boosters) <= MAX_BOOSTERS:
        raise UserError("a draft opens 1 to {most} boosters, not {count}", code="bad_draft_plan",
                        most=MAX_BOOSTERS, count=len(boosters))
    for size in boosters:
        if not _is_int(size) or size not in BOOSTER_SIZES:
            raise UserError("a booster has 7 or 12 cards, not {size}", code="bad_draft_plan",
                            size=size)
    if list(boosters) != sorted(boosters, reverse=True):
        raise UserError("12-card boosters are opened before 7-card ones", code="bad_draft_plan")


def _check_range(value: object, bounds: tuple[int, int], name: Term) -> None:
    low, high = bounds
    if not (isinstance(value, int) and not isinstance(value, bool) and low <= value <= high):
        raise UserError("{field} must be a whole number from {low} to {high}",
                        code="bad_draft_plan", field=name, low=low, high=high)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _profile(value: object) -> DraftProfile:
    try:
        return DraftProfile(str(value))
    except ValueError:
        raise UserError("unknown draft profile {profile}: tabletop or online",
                        code="bad_draft_plan", profile=str(value)[:40]) from None


def _single(value: object) -> PoolUse:
    try:
        return PoolUse(str(value))
    except ValueError:
        raise UserError("unknown pool use {use}: hand or squad", code="bad_draft_plan",
                        use=str(value)[:40]) from None


DEFAULT_PLAN_TABLETOP = DraftPlan(boosters=(12, 12, 12, 12), profile=DraftProfile.TABLETOP)
"""The standard draft at the table: 4 boosters of 12 cards (D-1)."""
DEFAULT_PLAN_ONLINE = DraftPlan(boosters=(7, 7, 7, 7), profile=DraftProfile.ONLINE)
"""The standard online draft: 4 boosters of 7 cards, 28 cards for a deck of 20+ (D-6)."""


def default_plan(profile: DraftProfile) -> DraftPlan:
    """The default plan of a profile."""
    return DEFAULT_PLAN_ONLINE if profile is DraftProfile.ONLINE else DEFAULT_PLAN_TABLETOP

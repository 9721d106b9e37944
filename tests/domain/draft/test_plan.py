"""The draft plan: boosters, passing, timers, pool use and rules level (D-1, D-4, D-6, D-8)."""

from __future__ import annotations

import pytest

from turnir.domain.draft.plan import (
    DEFAULT_PLAN_ONLINE,
    DEFAULT_PLAN_TABLETOP,
    Direction,
    DraftPlan,
    DraftProfile,
    PoolUse,
    default_plan,
    make_plan,
)
from turnir.domain.model import RulesLevel
from turnir.errors import UserError

TABLE, ONLINE = DraftProfile.TABLETOP, DraftProfile.ONLINE


def test_d2_profile_bounds() -> None:
    assert TABLE.bounds == (8, 16)
    assert ONLINE.bounds == (6, 12)


@pytest.mark.parametrize(("twelves", "sevens"), [(0, 1), (1, 0), (2, 2), (4, 0), (0, 4), (3, 1)])
def test_d1_one_to_four_boosters(twelves: int, sevens: int) -> None:
    plan = make_plan(twelves=twelves, sevens=sevens, profile=TABLE)
    assert plan.count == twelves + sevens
    assert plan.cards == 12 * twelves + 7 * sevens


@pytest.mark.parametrize(("twelves", "sevens"), [(0, 0), (5, 0), (3, 2), (-1, 2), (1, -1)])
def test_d1_refuses_zero_or_more_than_four_boosters(twelves: int, sevens: int) -> None:
    with pytest.raises(UserError):
        make_plan(twelves=twelves, sevens=sevens, profile=TABLE)


def test_d4_twelves_are_opened_first() -> None:
    assert make_plan(twelves=2, sevens=2, profile=TABLE).boosters == (12, 12, 7, 7)
    with pytest.raises(UserError, match="opened before"):
        DraftPlan(boosters=(7, 12), profile=TABLE)
    with pytest.raises(UserError, match="7 or 12"):
        DraftPlan(boosters=(10,), profile=TABLE)


def test_d4_odd_boosters_pass_left_even_right() -> None:
    plan = make_plan(twelves=4, sevens=0, profile=TABLE)
    assert [plan.direction(r) for r in (1, 2, 3, 4)] == [
        Direction.LEFT, Direction.RIGHT, Direction.LEFT, Direction.RIGHT]
    assert Direction.LEFT.step == 1
    assert Direction.RIGHT.step == -1
    with pytest.raises(ValueError):
        plan.direction(5)


def test_d4_review_minute_by_default() -> None:
    assert DEFAULT_PLAN_TABLETOP.review_seconds == 60


def test_d8_pick_timer_grows_with_the_cards_left() -> None:
    plan = DEFAULT_PLAN_TABLETOP
    assert plan.pick_timer(12) == 75
    assert plan.pick_timer(7) == 50
    assert plan.pick_timer(1) == 20
    custom = make_plan(twelves=1, sevens=0, profile=ONLINE, pick_seconds=30,
                       pick_seconds_per_card=0)
    assert custom.pick_timer(12) == custom.pick_timer(1) == 30


@pytest.mark.parametrize("setting", [
    {"pick_seconds": 0}, {"pick_seconds": 601}, {"pick_seconds_per_card": -1},
    {"review_seconds": 601}, {"deck_min": 5}, {"away_after": 0}, {"pick_seconds": True},
    {"single": "deck"}, {"single": "nonsense"}, {"profile": "moon"},
])
def test_d8_settings_out_of_range_are_refused(setting: dict[str, object]) -> None:
    settings: dict[str, object] = {"twelves": 4, "sevens": 0, "profile": TABLE, **setting}
    with pytest.raises(UserError):
        make_plan(**settings)  # type: ignore[arg-type]


def test_d6_deck_min_cannot_exceed_the_cards_of_a_deck_draft() -> None:
    with pytest.raises(UserError, match="smallest deck"):
        make_plan(twelves=0, sevens=3, profile=TABLE, deck_min=22)
    assert make_plan(twelves=0, sevens=3, profile=TABLE, deck_min=21).deck_min == 21


def test_d6_one_booster_makes_the_hand_or_the_squad() -> None:
    assert make_plan(twelves=1, sevens=0, profile=TABLE).pool_use(12) is PoolUse.HAND
    squad = make_plan(twelves=0, sevens=1, profile=TABLE, single="squad")
    assert squad.pool_use(7) is PoolUse.SQUAD


def test_d6_two_twelves_make_a_deck_of_twenty_else_the_hand() -> None:
    plan = make_plan(twelves=2, sevens=0, profile=TABLE)
    assert plan.pool_use(24) is PoolUse.DECK
    assert plan.pool_use(20) is PoolUse.DECK
    assert plan.pool_use(19) is PoolUse.HAND
    assert make_plan(twelves=1, sevens=1, profile=TABLE).pool_use(19) is PoolUse.HAND


@pytest.mark.parametrize(("twelves", "sevens"), [(3, 0), (0, 3), (4, 0), (0, 4), (2, 2)])
def test_d6_three_and_four_boosters_always_make_a_deck(twelves: int, sevens: int) -> None:
    plan = make_plan(twelves=twelves, sevens=sevens, profile=TABLE)
    assert plan.pool_use(plan.cards) is PoolUse.DECK
    assert not plan.uses_all_cards


def test_d6_online_uses_all_seven_all_fourteen_or_twenty_eight_for_a_deck() -> None:
    one = make_plan(twelves=0, sevens=1, profile=ONLINE)
    two = make_plan(twelves=0, sevens=2, profile=ONLINE)
    assert (one.cards, one.pool_use(7), one.uses_all_cards) == (7, PoolUse.HAND, True)
    assert (two.cards, two.pool_use(14), two.uses_all_cards) == (14, PoolUse.DECK, True)
    assert DEFAULT_PLAN_ONLINE.cards == 28
    assert DEFAULT_PLAN_ONLINE.pool_use(28) is PoolUse.DECK
    assert DEFAULT_PLAN_ONLINE.deck_min == 20
    assert not DEFAULT_PLAN_ONLINE.uses_all_cards


@pytest.mark.parametrize(("count", "level"), [
    (1, RulesLevel.AMATEUR), (2, RulesLevel.AMATEUR),
    (3, RulesLevel.PROFESSIONAL), (4, RulesLevel.PROFESSIONAL)])
def test_d1_one_and_two_booster_drafts_are_amateur(count: int, level: RulesLevel) -> None:
    assert make_plan(twelves=count, sevens=0, profile=TABLE).rules_level is level


def test_defaults_are_four_boosters_of_twelve_at_the_table_and_of_seven_online() -> None:
    assert default_plan(TABLE).boosters == (12, 12, 12, 12)
    assert default_plan(ONLINE).boosters == (7, 7, 7, 7)
    assert DEFAULT_PLAN_TABLETOP.away_after == 2


def test_json_round_trip_and_defaults_for_missing_settings() -> None:
    plan = make_plan(twelves=1, sevens=2, profile=ONLINE, single=PoolUse.HAND,
                     pick_seconds=40, pick_seconds_per_card=2, review_seconds=30,
                     deck_min=15, away_after=3)
    assert DraftPlan.from_json(plan.to_json()) == plan
    assert DraftPlan.from_json({"boosters": [12, 12, 12, 12], "profile": "tabletop"}) == (
        DEFAULT_PLAN_TABLETOP)
    with pytest.raises(UserError):
        DraftPlan.from_json({"profile": "online"})

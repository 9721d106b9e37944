"""The deck or hand built from a draft pool (D-6, D-1): ``turnir.domain.draft.pool_deck``."""

from __future__ import annotations

import pytest

from turnir.domain.cards import Card, catalogue_of
from turnir.domain.decks import DeckList, parse_deck
from turnir.domain.draft.boosters import DraftCard
from turnir.domain.draft.plan import DraftPlan, DraftProfile, PoolUse, make_plan
from turnir.domain.draft.pool_deck import (
    check_pool_deck,
    check_typed_deck,
    pool_deck_list,
    pool_rule,
    uids_of,
)
from turnir.errors import UserError

ED = "Война стихий"
CATALOGUE = catalogue_of([
    Card("Гоблин-сапёр", ED, rarity="частая", element="горы", cost=3),
    Card("Ледовый охотник", ED, rarity="редкая", element="степи", cost=5),
    Card("Костедробитель", ED, rarity="необычная", element="тьма", cost=4),
])


def pool(size: int) -> tuple[DraftCard, ...]:
    """``size`` cards, three names over and over (copies on purpose: D-1 has no limit)."""
    names = ("Гоблин-сапёр", "Ледовый охотник", "Костедробитель")
    return tuple(DraftCard(uid=f"c{n:02d}", name=names[n % 3], edition=ED, rarity="частая")
                 for n in range(size))


def uids(cards: tuple[DraftCard, ...], count: int | None = None) -> list[str]:
    return [card.uid for card in cards[:count]]


def tabletop(twelves: int = 0, sevens: int = 0, **settings: int) -> DraftPlan:
    return make_plan(twelves=twelves, sevens=sevens, profile=DraftProfile.TABLETOP, **settings)


def online(sevens: int) -> DraftPlan:
    return make_plan(twelves=0, sevens=sevens, profile=DraftProfile.ONLINE)


def messages(problems: object) -> list[str]:
    return [str(p.error) for p in problems]  # type: ignore[attr-defined]


def test_d6_one_booster_is_the_hand_all_cards() -> None:
    plan, cards = tabletop(sevens=1), pool(7)
    rule = pool_rule(plan, 7)
    assert rule.use is PoolUse.HAND and rule.all_cards
    assert check_pool_deck(plan, cards, uids(cards)).ok
    short = check_pool_deck(plan, cards, uids(cards, 6))
    assert not short.ok and short.problems[0].rule == "D-6"
    assert "all 7 cards of the pool are the hand" in messages(short.problems)[0]


def test_d6_one_booster_squad_when_the_plan_says_so() -> None:
    plan = make_plan(twelves=1, sevens=0, profile=DraftProfile.TABLETOP, single=PoolUse.SQUAD)
    assert pool_rule(plan, 12).use is PoolUse.SQUAD
    assert "are the squad" in messages(check_pool_deck(plan, pool(12), []).problems)[0]


def test_d6_two_twelves_build_a_deck_of_twenty_or_more() -> None:
    plan, cards = tabletop(twelves=2), pool(24)
    rule = pool_rule(plan, 24)
    assert rule.use is PoolUse.DECK and not rule.all_cards and rule.deck_min == 20
    assert check_pool_deck(plan, cards, uids(cards, 20)).ok
    assert check_pool_deck(plan, cards, uids(cards)).ok
    nineteen = check_pool_deck(plan, cards, uids(cards, 19))
    assert messages(nineteen.problems) == [
        "the deck has 19 cards; a draft deck has at least 20 (D-6)"]
    assert nineteen.total == 19


def test_d6_two_twelves_below_the_deck_size_become_the_hand() -> None:
    plan = tabletop(twelves=2, deck_min=25)
    assert pool_rule(plan, 24).use is PoolUse.HAND and pool_rule(plan, 24).all_cards


def test_d6_three_and_four_boosters_always_a_deck() -> None:
    for plan in (tabletop(twelves=3), tabletop(twelves=4), tabletop(twelves=2, sevens=2)):
        rule = pool_rule(plan, plan.cards)
        assert rule.use is PoolUse.DECK and not rule.all_cards


def test_d6_online_one_and_two_boosters_use_all_cards_four_build_twenty_of_28() -> None:
    assert pool_rule(online(1), 7).all_cards
    two = pool_rule(online(2), 14)
    assert two.use is PoolUse.DECK and two.all_cards
    cards14 = pool(14)
    assert check_pool_deck(online(2), cards14, uids(cards14)).ok
    assert "all 14 cards of the pool are the deck" in messages(
        check_pool_deck(online(2), cards14, uids(cards14, 13)).problems)[0]
    four, cards28 = online(4), pool(28)
    assert four.cards == 28 and not pool_rule(four, 28).all_cards
    assert check_pool_deck(four, cards28, uids(cards28, 20)).ok
    assert not check_pool_deck(four, cards28, uids(cards28, 14)).ok


def test_d6_every_card_from_the_pool_and_once() -> None:
    plan, cards = tabletop(twelves=2), pool(24)
    with pytest.raises(UserError, match="not in this player's pool"):
        check_pool_deck(plan, cards, [*uids(cards, 20), "zz99"])
    with pytest.raises(UserError, match="chosen twice"):
        check_pool_deck(plan, cards, [*uids(cards, 20), "c00"])


def test_d1_no_copy_limit_in_a_pool_deck() -> None:
    plan = tabletop(twelves=2)
    same = tuple(DraftCard(uid=f"g{n}", name="Гоблин-сапёр", edition=ED, rarity="частая")
                 for n in range(24))
    check = check_pool_deck(plan, same, uids(same, 22))
    assert check.ok and pool_deck_list(check.cards).lines[0].count == 22


def test_pool_deck_lines_and_back_to_the_pool_uids() -> None:
    cards = pool(24)
    chosen = [c.uid for c in cards if c.uid not in {"c01", "c05", "c06"}]
    deck = pool_deck_list(check_pool_deck(tabletop(twelves=2), cards, chosen).cards)
    assert deck.total == 21 and len(deck.lines) == 3
    assert set(uids_of(deck, cards)) <= {c.uid for c in cards}
    assert len(uids_of(deck, cards)) == 21
    again = DeckList.from_json(deck.to_json())
    assert [c.name for c in cards if c.uid in uids_of(again, cards)].count(
        "Гоблин-сапёр") == deck.lines[0].count


def typed(text: str, plan: DraftPlan) -> list[tuple[str, str]]:
    deck, syntax = parse_deck(text)
    return [(p.rule, str(p.error)) for p in
            check_typed_deck(deck, CATALOGUE, plan, syntax=syntax).problems]


def test_d6_d1_typed_tabletop_deck_size_and_no_copy_limit() -> None:
    plan = tabletop(twelves=2)
    assert typed("12 Гоблин-сапёр\n8 Ледовый охотник", plan) == []  # 12 copies: D-1
    assert typed("10 Гоблин-сапёр\n5 Костедробитель", plan) == [
        ("D-6", "the deck has 15 cards; a draft deck has at least 20 (D-6)")]
    assert typed("20 Гоблин-сапёр\n5 Костедробитель", plan) == [
        ("D-6", "the deck has 25 cards; the pool of this draft has only 24 (D-6)")]


def test_d6_typed_hand_of_one_booster_and_unknown_cards_cite_d6() -> None:
    plan = tabletop(sevens=1)
    assert typed("7 Гоблин-сапёр", plan) == []
    problems = typed("5 Гоблин-сапёр\n1 Нетакой карты\n1 Костедробитель [Другой выпуск]", plan)
    rules = {rule for rule, _ in problems}
    assert rules == {"D-6"}
    assert any("no card 'Нетакой карты'" in text for _, text in problems)
    assert any("is not printed in the edition" in text for _, text in problems)
    assert not any("C-1" in text for _, text in problems)

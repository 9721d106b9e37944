"""Random deck checks by lot (issue 13, judges' tools): the draw is a pure function of the
tournament's seed, the round and the draw's number, like the pairings' lot (P-3 e)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from turnir.domain.deck_lots import (
    MAX_DRAW,
    candidates,
    draw_by_lot,
    draw_decks,
    lot_random,
    lot_text,
)
from turnir.errors import UserError


def test_the_lot_names_the_seed_the_round_and_the_draw() -> None:
    assert lot_text(7, 3, 2) == "7/deck-checks/round/3/draw/2"


def test_the_same_lot_draws_the_same_decks_whatever_order_the_players_come_in() -> None:
    first = draw_by_lot([1, 2, 3, 4, 5, 6, 7, 8], 3, seed=7, round_number=2, draw=1)
    again = draw_by_lot([8, 7, 6, 5, 4, 3, 2, 1], 3, seed=7, round_number=2, draw=1)
    assert first == again and first.lot == "7/deck-checks/round/2/draw/1"
    assert len(set(first.numbers)) == 3 and set(first.numbers) <= set(range(1, 9))


def test_another_seed_round_or_draw_is_another_lot() -> None:
    pool = list(range(1, 41))
    draws = {draw_by_lot(pool, 4, seed=s, round_number=r, draw=d).numbers
             for s, r, d in ((7, 1, 1), (8, 1, 1), (7, 2, 1), (7, 1, 2))}
    assert len(draws) == 4


def test_the_draw_never_uses_the_global_random() -> None:
    random.seed(1)
    first = draw_by_lot(range(1, 21), 5, seed=3, round_number=1, draw=1)
    random.seed(2)
    assert draw_by_lot(range(1, 21), 5, seed=3, round_number=1, draw=1) == first


def test_the_random_source_is_seeded_by_the_lot_text() -> None:
    assert lot_random(3, 1, 1).random() == random.Random("3/deck-checks/round/1/draw/1").random()


def test_candidates_are_the_paired_players_not_checked_yet_sorted() -> None:
    assert candidates([5, 1, 3, 2], [3]) == [1, 2, 5]


def test_fewer_left_than_asked_draws_all_of_them() -> None:
    assert sorted(draw_by_lot([4, 9], 5, seed=1, round_number=1, draw=1).numbers) == [4, 9]


@pytest.mark.parametrize("count", [0, -1, MAX_DRAW + 1])
def test_a_count_out_of_bounds_is_refused(count: int) -> None:
    with pytest.raises(UserError, match="from 1 to"):
        draw_decks([1, 2], count, random.Random(1), round_number=1, lot="x")


def test_nobody_left_to_draw_is_refused_naming_the_round() -> None:
    with pytest.raises(UserError) as refused:
        draw_by_lot([], 1, seed=1, round_number=4, draw=2)
    assert refused.value.code == "no_decks_left" and "round 4" in str(refused.value)


@given(st.sets(st.integers(1, 500), min_size=1, max_size=60), st.integers(1, MAX_DRAW),
       st.integers(0, 2**31), st.integers(1, 20), st.integers(1, 5))
def test_a_draw_picks_distinct_candidates_and_repeats_itself(
        pool: set[int], count: int, seed: int, round_number: int, draw: int) -> None:
    found = draw_by_lot(pool, count, seed=seed, round_number=round_number, draw=draw)
    assert len(found.numbers) == min(count, len(pool)) == len(set(found.numbers))
    assert set(found.numbers) <= pool
    assert draw_by_lot(sorted(pool, reverse=True), count, seed=seed,
                       round_number=round_number, draw=draw) == found

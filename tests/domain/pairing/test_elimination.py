"""Rules P-5 and P-6: the top bracket and final places."""

from __future__ import annotations

import pytest

from turnir.domain.pairing.elimination import (
    bracket_seeds,
    final_places,
    first_top_round,
    next_top_round,
    top_rounds_needed,
    validate_top_size,
)
from turnir.errors import UserError


@pytest.mark.parametrize(
    ("size", "order"),
    [
        (2, [1, 2]),
        (4, [1, 4, 2, 3]),
        (8, [1, 8, 4, 5, 2, 7, 3, 6]),
    ],
)
def test_rule_P5_seeded_one_against_n(size: int, order: list[int]) -> None:
    assert bracket_seeds(size) == order


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_rule_P5_every_first_match_sums_to_n_plus_one(size: int) -> None:
    order = bracket_seeds(size)
    assert sorted(order) == list(range(1, size + 1))
    assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))
    # seeds 1 and 2 are in different halves: they can meet only in the final
    assert (order.index(1) < size // 2) != (order.index(2) < size // 2)


def test_rule_P5_first_round_pairs_players_by_seed() -> None:
    assert first_top_round([10, 20, 30, 40]) == [(10, 40), (20, 30)]
    assert next_top_round([10, 30]) == [(10, 30)]


@pytest.mark.parametrize("size", [3, 6, 1, -2])
def test_rule_P5_top_size_is_a_power_of_two(size: int) -> None:
    with pytest.raises(UserError):
        validate_top_size(size, players=100)


def test_rule_P5_top_not_larger_than_field() -> None:
    with pytest.raises(UserError):
        validate_top_size(16, players=10)
    validate_top_size(0, players=3)
    assert top_rounds_needed(8) == 3


def test_rule_P6_final_places_top_then_swiss_order() -> None:
    swiss = [1, 2, 3, 4, 5, 6]
    # top 4: 1 v 4, 2 v 3; 4 beats 1, 2 beats 3; final 2 beats 4
    top = [[(1, 4, 4), (2, 3, 2)], [(4, 2, 2)]]
    assert final_places(swiss, top) == [2, 4, 1, 3, 5, 6]


def test_rule_P6_without_top_swiss_order() -> None:
    assert final_places([3, 1, 2], []) == [3, 1, 2]

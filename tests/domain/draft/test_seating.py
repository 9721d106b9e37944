"""Seating at draft tables and the draft's Swiss rounds (D-1, D-2, D-3, D-5)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnir.domain.draft.plan import DraftProfile
from turnir.domain.draft.seating import (
    Seating,
    draft_swiss_rounds,
    seat_by_lot,
    seat_by_standings,
    table_counts,
    table_sizes,
)
from turnir.errors import InvariantError, NotFoundError, UserError

TABLE, ONLINE = DraftProfile.TABLETOP, DraftProfile.ONLINE
PROFILES = st.sampled_from([TABLE, ONLINE])


def is_power_of_two(value: int) -> bool:
    return value > 0 and value & (value - 1) == 0


@pytest.mark.parametrize("players", [0, 1, 3])
def test_d1_fewer_than_four_players_cannot_draft(players: int) -> None:
    with pytest.raises(UserError, match="at least 4"):
        table_counts(players, TABLE)
    with pytest.raises(UserError):
        seat_by_lot(list(range(players)), ONLINE, random.Random(1))


@pytest.mark.parametrize(("players", "profile", "counts"), [
    (4, TABLE, (1,)), (7, TABLE, (1,)), (16, TABLE, (1, 2)), (17, TABLE, (2,)),
    (33, TABLE, (4,)), (64, TABLE, (4, 8)), (300, TABLE, (32,)),
    (5, ONLINE, (1,)), (12, ONLINE, (1, 2)), (13, ONLINE, (2,)), (24, ONLINE, (2, 4)),
    (256, TABLE, (16, 32)),
])
def test_d2_table_counts(players: int, profile: DraftProfile, counts: tuple[int, ...]) -> None:
    assert table_counts(players, profile) == counts


@settings(max_examples=300, deadline=None)
@given(players=st.integers(4, 300), profile=PROFILES, seed=st.integers(0, 2**32),
       pick=st.integers(0, 10), standings=st.booleans())
def test_d2_d3_every_count_from_4_to_300_in_both_profiles(
        players: int, profile: DraftProfile, seed: int, pick: int, standings: bool) -> None:
    counts = table_counts(players, profile)
    assert counts
    tables = counts[pick % len(counts)]
    ids = list(range(100, 100 + players))
    seat = seat_by_standings if standings else seat_by_lot
    seating = seat(ids, profile, random.Random(seed), tables=tables)
    sizes = seating.sizes
    assert is_power_of_two(len(sizes))
    assert max(sizes) - min(sizes) <= 1
    low, high = profile.bounds
    if players >= low:
        assert all(low <= size <= high for size in sizes)
    else:
        assert sizes == (players,)
    seated = [player for table in seating.tables for player in table]
    assert sorted(seated) == ids
    assert set(seating.mapping) == set(ids)


def test_d2_default_is_the_smallest_count_and_any_allowed_count_may_be_asked() -> None:
    players = list(range(1, 17))
    assert seat_by_lot(players, TABLE, random.Random(3)).sizes == (16,)
    assert seat_by_lot(players, TABLE, random.Random(3), tables=2).sizes == (8, 8)
    with pytest.raises(UserError, match="allowed: 1, 2"):
        seat_by_lot(players, TABLE, random.Random(3), tables=4)


def test_d2_first_tables_get_the_extra_players() -> None:
    assert table_sizes(33, 4) == (9, 8, 8, 8)
    assert table_sizes(35, 4) == (9, 9, 9, 8)
    assert seat_by_lot(list(range(33)), TABLE, random.Random(1)).sizes == (9, 8, 8, 8)


def test_d2_seats_by_lot_follow_the_seed() -> None:
    players = list(range(1, 34))
    first = seat_by_lot(players, TABLE, random.Random(42))
    assert seat_by_lot(players, TABLE, random.Random(42)) == first
    assert seat_by_lot(players, TABLE, random.Random(43)) != first
    assert first.tables != (tuple(range(1, 10)), tuple(range(10, 18)),
                            tuple(range(18, 26)), tuple(range(26, 34)))


def test_d3_standings_parts_in_order_top_part_at_table_one() -> None:
    order = list(range(1, 36))  # 1 is the leader
    seating = seat_by_standings(order, TABLE, random.Random(5))
    assert seating.sizes == (9, 9, 9, 8)
    assert [sorted(table) for table in seating.tables] == [
        list(range(1, 10)), list(range(10, 19)), list(range(19, 28)), list(range(28, 36))]
    assert seating.table_of(1) == 1
    assert seating.table_of(35) == 4


def test_d3_seats_within_a_table_are_by_lot() -> None:
    order = list(range(1, 17))
    tables = {seat_by_standings(order, TABLE, random.Random(seed), tables=2).tables
              for seed in range(5)}
    assert len(tables) > 1
    assert all(sorted(t[0]) == list(range(1, 9)) for t in tables)


def test_seating_lookups_and_mapping_round_trip() -> None:
    seating = Seating(((7, 3, 9), (4, 5, 6)))
    assert seating.table_of(9) == 1
    assert seating.seat_of(9) == 3
    assert seating.seat_of(4) == 1
    assert seating.mapping[5] == (2, 2)
    assert Seating.from_mapping(seating.mapping) == seating
    with pytest.raises(NotFoundError):
        seating.seat_of(1)
    with pytest.raises(InvariantError):
        Seating(((1, 2), (2, 3)))
    with pytest.raises(InvariantError):
        Seating.from_mapping({1: (1, 1), 2: (1, 3)})


@pytest.mark.parametrize(("sizes", "rounds"), [
    ((7,), 3), ((6, 7, 7, 7), 3), ((8,), 4), ((9, 8, 8, 8), 4), ((16,), 4),
    ((8, 7), 3),  # half is not most
    ((8, 8, 7, 7), 3), ((8, 8, 8, 7), 4), ((12, 12), 4), ((7, 7, 7, 7, 8, 8, 8, 8), 3),
])
def test_d5_three_rounds_unless_most_tables_have_eight(sizes: tuple[int, ...],
                                                      rounds: int) -> None:
    assert draft_swiss_rounds(sizes) == rounds

"""Swiss pairing: rules P-2, P-3 (a)..(e) and S-5, checked against an exhaustive search and
against one global exact matching (issue 16: the objective with the largest difference first)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnir.domain.pairing.swiss import (
    Objective,
    SwissEntrant,
    SwissPairing,
    objective_of,
    pair_swiss,
    pair_swiss_global,
)
from turnir.errors import UserError


def e(player: int, pts: int = 0, met: Sequence[int] = (), bye: bool = True) -> SwissEntrant:
    """An entrant: ``e(1, pts=3, met=[2, 5], bye=False)`` (``bye``: still bye-eligible)."""
    return SwissEntrant(player, pts, frozenset(met), bye)


def pair(entrants: Sequence[SwissEntrant], seed: int = 1) -> SwissPairing:
    return pair_swiss(entrants, random.Random(seed))


def as_sets(result: SwissPairing) -> set[frozenset[int]]:
    return {frozenset(p) for p in result.pairs}


def obj(rematches: int = 0, bye_ineligible: int = 0, bye_points: int = 0,
        differences: Sequence[int] = (), floats: Sequence[int] = ()) -> Objective:
    return Objective(rematches, bye_ineligible, bye_points, tuple(differences), tuple(floats))


def exhaustive_optimum(entrants: Sequence[SwissEntrant]) -> Objective:
    """The best objective over every pairing, by a search over subsets (up to ~16 players).

    Independent of the pairer: each pair's share of P-3 is one digit of a big integer, the
    digits ordered like the objective's terms, so sums compare like objectives; the search
    pairs the lowest remaining player with each other one (or gives him the bye).
    """
    people = sorted(entrants, key=lambda x: x.player)
    n = len(people)
    points = sorted({x.points for x in people})
    diffs = sorted({abs(a - b) for a in points for b in points} - {0})
    base = n + len(points) + 2
    # digit positions from the lowest: floats by points, diffs, bye points, bye eligibility,
    # rematches
    float_at = {p: k for k, p in enumerate(points)}
    diff_at = {d: len(points) + k for k, d in enumerate(diffs)}
    bye_points_at = len(points) + len(diffs)

    def pair_cost(a: SwissEntrant, b: SwissEntrant) -> int:
        cost = 0
        if b.player in a.opponents or a.player in b.opponents:
            cost += base ** (bye_points_at + 2)
        if a.points != b.points:
            cost += base ** diff_at[abs(a.points - b.points)]
            cost += base ** float_at[max(a.points, b.points)]
        return cost

    def bye_cost(a: SwissEntrant) -> int:
        rank = points.index(a.points)
        return (0 if a.bye_eligible else base ** (bye_points_at + 1)) + rank * base**bye_points_at

    @cache
    def best(mask: int, bye_left: bool) -> tuple[int, tuple[tuple[int, int], ...], int | None]:
        if mask == 0:
            return 0, (), None
        first = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << first)
        options = []
        if bye_left:
            cost, pairs, _ = best(rest, False)
            options.append((cost + bye_cost(people[first]), pairs, first))
        k = rest
        while k:
            other = (k & -k).bit_length() - 1
            k &= k - 1
            cost, pairs, bye = best(rest & ~(1 << other), bye_left)
            options.append((cost + pair_cost(people[first], people[other]),
                            ((first, other), *pairs), bye))
        return min(options, key=lambda o: o[0])

    _, pairs, bye = best((1 << n) - 1, n % 2 == 1)
    return objective_of(
        people,
        [(people[a].player, people[b].player) for a, b in pairs],
        None if bye is None else people[bye].player,
    )


def assert_valid(entrants: Sequence[SwissEntrant], result: SwissPairing) -> None:
    """Every entrant exactly once; the reported objective is the pairing's; table order."""
    seated = [p for ab in result.pairs for p in ab] + ([] if result.bye is None else [result.bye])
    assert sorted(seated) == sorted(x.player for x in entrants)
    assert objective_of(entrants, result.pairs, result.bye) == result.objective
    points = {x.player: x.points for x in entrants}
    keys = [(points[a], points[b]) for a, b in result.pairs]
    assert all(pa >= pb for pa, pb in keys)
    assert keys == sorted(keys, key=lambda k: (-k[0], -k[1]))


def play(
    entrants: Sequence[SwissEntrant], result: SwissPairing, rng: random.Random,
    win: int = 3, draw: int = 1,
) -> list[SwissEntrant]:
    """Random results (``win``/``draw``/0, about 15% draws); the bye scores a win and uses the
    S-5 bye."""
    by_id = {x.player: x for x in entrants}
    points = {p: x.points for p, x in by_id.items()}
    met = {p: set(x.opponents) for p, x in by_id.items()}
    eligible = {p: x.bye_eligible for p, x in by_id.items()}
    if result.bye is not None:
        points[result.bye] += win
        eligible[result.bye] = False
    for a, b in result.pairs:
        met[a].add(b)
        met[b].add(a)
        roll = rng.random()
        if roll < 0.15:
            points[a] += draw
            points[b] += draw
        else:
            points[a if roll < 0.6 else b] += win
    return [SwissEntrant(p, points[p], frozenset(met[p]), eligible[p]) for p in by_id]


def simulate(size: int, rounds: int, seed: int, win: int = 3,
             draw: int = 1) -> Iterator[list[SwissEntrant]]:
    """The entrants before each round of a simulated event paired by ``pair_swiss``."""
    rng = random.Random(seed)
    entrants = [e(p) for p in range(1, size + 1)]
    for number in range(rounds):
        yield entrants
        result = pair_swiss(entrants, random.Random(seed * 100 + number))
        entrants = play(entrants, result, rng, win, draw)


# --- P-2 and the API ---------------------------------------------------------------------


def test_rule_P2_equal_points_meet() -> None:
    result = pair([e(1, 3), e(2, 0), e(3, 3), e(4, 0)])
    assert result.pairs == ((1, 3), (2, 4))
    assert result.objective == obj()
    assert result.floats == ()


def test_rule_P2_no_rematch_when_avoidable() -> None:
    result = pair([e(1, met=[2, 3]), e(2, met=[1]), e(3, met=[1]), e(4)])
    assert as_sets(result) == {frozenset({1, 4}), frozenset({2, 3})}


def test_rule_P2_meeting_recorded_on_one_side_counts() -> None:
    result = pair([e(1, met=[2]), e(2), e(3), e(4)], seed=3)
    assert frozenset({1, 2}) not in as_sets(result)


def test_rule_P2_round_one_by_lot() -> None:
    entrants = [e(p) for p in range(1, 17)]
    drawn = {pair(entrants, seed).pairs for seed in range(10)}
    assert len(drawn) > 5
    assert pair(entrants, 4) == pair(entrants, 4)


def test_rule_P2_round_one_bye_by_lot() -> None:
    entrants = [e(p) for p in range(1, 16)]
    byes = {pair(entrants, seed).bye for seed in range(30)}
    assert len(byes) > 5


@pytest.mark.parametrize(
    "entrants",
    [[], [e(1)], [e(1), e(1)], [e(1), e(2), e(3), e(2)]],
)
def test_refuses_too_few_or_duplicate_players(entrants: list[SwissEntrant]) -> None:
    with pytest.raises(UserError):
        pair(entrants)


def test_two_players_who_met_are_paired_anyway() -> None:
    result = pair([e(1, met=[2]), e(2, met=[1])])
    assert result.pairs == ((1, 2),)
    assert result.objective.rematches == 1


def test_global_solver_without_rematch_edges_refuses_impossible() -> None:
    with pytest.raises(UserError):
        pair_swiss_global([e(1, met=[2]), e(2)], random.Random(1), rematch_edges=False)


def test_table_order_strongest_pair_first() -> None:
    result = pair([e(1, 0), e(2, 6), e(3, 3), e(4, 6), e(5, 3), e(6, 0)])
    assert result.pairs == ((2, 4), (3, 5), (1, 6))


def test_objective_of_refuses_a_non_pairing() -> None:
    entrants = [e(1), e(2), e(3)]
    with pytest.raises(UserError):
        objective_of(entrants, [(1, 2)], None)
    with pytest.raises(UserError):
        objective_of(entrants, [(1, 2), (2, 3)], None)
    with pytest.raises(UserError):
        objective_of(entrants, [(1, 4)], 3)


# --- P-3 terms, one hand case each ------------------------------------------------------------


def test_rule_P3a_rematch_outweighs_the_bye() -> None:
    # The lowest player takes the bye only if 2 and 3 (who met) are paired again.
    result = pair([e(1, 0), e(2, 3, met=[3]), e(3, 3, met=[2])])
    assert result.bye in {2, 3}
    assert result.objective == obj(bye_points=3, differences=[3], floats=[3])


def test_rule_P3a_fewest_rematches_when_unavoidable() -> None:
    everyone_met = [e(p, met=[q for q in range(1, 5) if q != p]) for p in range(1, 5)]
    entrants = [*everyone_met, e(5), e(6)]
    result = pair(entrants)
    assert result.objective.rematches == 1
    assert result.objective == exhaustive_optimum(entrants)


def test_rule_P3b_S5_bye_to_fewest_points() -> None:
    result = pair([e(1, 6), e(2, 3), e(3, 3), e(4, 1), e(5, 0)])
    assert result.bye == 5


def test_rule_P3b_bye_outweighs_differences() -> None:
    # Giving the bye to 1 would leave 2-3 equal; the rule sends it to the lowest instead.
    result = pair([e(1, 3), e(2, 0), e(3, 0)])
    assert result.bye in {2, 3}
    assert result.objective == obj(differences=[3], floats=[3])


def test_rule_S5_no_second_unrequested_bye() -> None:
    result = pair([e(1, 0, bye=False), e(2, 3), e(3, 3)])
    assert result.bye in {2, 3}
    assert result.objective.bye_ineligible == 0


def test_rule_S5_next_lowest_eligible() -> None:
    result = pair([e(1, 0, bye=False), e(2, 0, bye=False), e(3, 1), e(4, 3), e(5, 3)])
    assert result.bye == 3


def test_rule_S5_second_bye_when_nobody_is_eligible() -> None:
    result = pair([e(1, 3, bye=False), e(2, 0, bye=False), e(3, 3, bye=False)])
    assert result.bye == 2
    assert result.objective == obj(bye_ineligible=1)


def test_rule_S5_rematch_outweighs_eligibility() -> None:
    # Player 1 met everyone: any other bye would pair 1 again with an old opponent.
    result = pair([e(1, 3, met=[2, 3, 4, 5], bye=False), e(2), e(3), e(4), e(5)])
    assert result.bye == 1
    assert result.objective == obj(bye_ineligible=1, bye_points=3)


def test_rule_P3c_largest_difference_before_the_number_of_floats() -> None:
    # 2-1 and 1-0 float two players one point each; 2-0 and 1-1 would float one pair by two.
    result = pair([e(1, 2), e(2, 1), e(3, 1), e(4, 0)])
    assert as_sets(result) in (
        {frozenset({1, 2}), frozenset({3, 4})},
        {frozenset({1, 3}), frozenset({2, 4})},
    )
    assert result.objective == obj(differences=[1, 1], floats=[2, 1])


def test_issue16_item1_leader_is_not_paired_far_down_to_save_floaters() -> None:
    # The old objective paired the 9-point leader with a 0-pointer (one unequal pair, 9 apart)
    # to keep 6-6 and 3-3 whole; now three steps of 3 are better than one step of 9.
    entrants = [e(1, 9), e(2, 6), e(3, 6), e(4, 3), e(5, 3), e(6, 0)]
    result = pair(entrants)
    assert result.objective.largest_difference == 3
    assert result.objective == obj(differences=[3, 3, 3], floats=[9, 6, 3])
    assert result.objective == exhaustive_optimum(entrants)


def test_rule_P3c_fewest_pairs_at_the_largest_difference() -> None:
    # A 4-point pair is unavoidable (1 met 2); one of them, then the smaller differences.
    entrants = [e(1, 8, met=[2]), e(2, 6, met=[1]), e(3, 4), e(4, 4), e(5, 2), e(6, 0)]
    result = pair(entrants)
    assert result.objective == exhaustive_optimum(entrants)
    assert result.objective.differences.count(4) == 1


def test_rule_P3d_floats_as_low_as_possible() -> None:
    # 3 and 4 (6 points) met: either the 9s float down to them or they float down to the 3s;
    # both give two 3-point differences, and the higher group stays whole.
    entrants = [e(1, 9), e(2, 9), e(3, 6, met=[4]), e(4, 6, met=[3]), e(5, 3), e(6, 3)]
    result = pair(entrants)
    assert frozenset({1, 2}) in as_sets(result)
    assert result.objective == obj(differences=[3, 3], floats=[6, 6])


def test_rule_P3e_ties_by_lot_from_the_seed() -> None:
    entrants = [e(p, 3 if p <= 4 else 0) for p in range(1, 9)]
    drawn = {pair(entrants, seed).pairs for seed in range(20)}
    assert len(drawn) > 3
    assert all(pair(entrants, seed) == pair(entrants, seed) for seed in range(3))


def test_rule_P3e_input_order_does_not_matter() -> None:
    entrants = next(s for k, s in enumerate(simulate(31, 4, seed=5)) if k == 3)
    shuffled = list(entrants)
    random.Random(9).shuffle(shuffled)
    assert pair(shuffled, 11) == pair(entrants, 11)


# --- exhaustive comparison ------------------------------------------------------------------


@pytest.mark.parametrize("size", range(4, 15))
def test_issue16_item4_optimal_against_exhaustive_search_in_simulated_events(size: int) -> None:
    """Every round of random events up to 14 players, 3/1/0 and 7/3/0."""
    rounds = 6 if size <= 8 else 5
    for event, (win, draw) in enumerate([(3, 1), (7, 3)]):
        for entrants in simulate(size, rounds, seed=size * 10 + event, win=win, draw=draw):
            result = pair(entrants, seed=event)
            assert_valid(entrants, result)
            assert result.objective == exhaustive_optimum(entrants)


@st.composite
def small_events(draw: st.DrawFn, max_size: int = 11) -> list[SwissEntrant]:
    size = draw(st.integers(2, max_size))
    scale = draw(st.sampled_from([1, 7, 10_000_000]))
    points = draw(st.lists(st.sampled_from([0, 1, 3, 4, 6, 9]), min_size=size, max_size=size))
    eligible = draw(st.lists(st.booleans(), min_size=size, max_size=size))
    every_pair = [(a, b) for a in range(1, size + 1) for b in range(a + 1, size + 1)]
    met = draw(st.sets(st.sampled_from(every_pair), max_size=2 * size))
    opponents: dict[int, set[int]] = {p: set() for p in range(1, size + 1)}
    for a, b in met:
        opponents[a].add(b)
        opponents[b].add(a)
    return [
        SwissEntrant(p, scale * points[p - 1], frozenset(opponents[p]), eligible[p - 1])
        for p in range(1, size + 1)
    ]


@settings(max_examples=150, deadline=None)
@given(small_events(), st.integers(0, 2**32))
def test_issue16_item4_properties_against_exhaustive_search(
    entrants: list[SwissEntrant], seed: int
) -> None:
    result = pair(entrants, seed)
    assert_valid(entrants, result)
    best = exhaustive_optimum(entrants)
    # P-2: no rematch when one can be avoided; S-5: no second bye when avoidable.
    assert result.objective.rematches == best.rematches
    assert result.objective.bye_ineligible == best.bye_ineligible
    # S-5: the bye to the lowest eligible player whenever the rematches allow it.
    assert result.objective.bye_points == best.bye_points
    # P-3 (c): no pair farther apart than needed.
    assert result.objective.largest_difference == best.largest_difference
    assert result.objective == best
    # P-3 (e): the same pairing whatever the input order.
    shuffled = list(entrants)
    random.Random(seed).shuffle(shuffled)
    assert pair(shuffled, seed) == result


# --- exactness of the reduction against one global matching ----------------------------------


def check_against_global(entrants: Sequence[SwissEntrant], seed: int) -> SwissPairing:
    result = pair(entrants, seed)
    reference = pair_swiss_global(entrants, random.Random(seed))
    assert_valid(entrants, result)
    assert result.objective == reference.objective
    return result


@pytest.mark.parametrize(
    ("seed", "size", "rounds", "win", "draw"),
    [
        (1, 60, 8, 3, 1),
        (2, 120, 9, 3, 1),
        (3, 200, 7, 7, 3),
        (4, 90, 22, 7, 3),
        (5, 70, 30, 3, 1),
        (6, 150, 20, 3, 1),
        (7, 64, 25, 10_000_000, 1),
    ],
)
def test_issue16_item4_reduction_exact_in_simulated_events(
    seed: int, size: int, rounds: int, win: int, draw: int
) -> None:
    """Every round, including long events (20-30 rounds) and wide point tables (7/3/0, a win
    worth 10,000,000), against one global exact matching."""
    for number, entrants in enumerate(simulate(size, rounds, seed, win, draw)):
        if number % 2 == 0 or number >= rounds - 3:
            check_against_global(entrants, number)


def test_issue16_item4_reduction_exact_at_500_players() -> None:
    rounds = list(simulate(500, 9, seed=8))
    for number in (5, 8):
        check_against_global(rounds[number], number)


def adversarial_event(seed: int) -> list[SwissEntrant]:
    """Few score groups of skewed sizes; opponents drawn mostly across groups."""
    rng = random.Random(seed)
    size = rng.randrange(30, 150)
    levels = rng.randrange(2, 7)
    step = rng.choice([1, 2, 3, 7])
    weights = [rng.random() ** 3 + 0.01 for _ in range(levels)]
    points = {p: step * rng.choices(range(levels), weights)[0] for p in range(1, size + 1)}
    limit = rng.randrange(1, 7)
    opponents: dict[int, set[int]] = {p: set() for p in points}
    ids = list(points)
    for _ in range(size * limit * 2):
        a, b = rng.sample(ids, 2)
        if points[a] == points[b] and rng.random() < 0.7:
            continue
        if len(opponents[a]) < limit and len(opponents[b]) < limit:
            opponents[a].add(b)
            opponents[b].add(a)
    return [SwissEntrant(p, points[p], frozenset(opponents[p]), rng.random() < 0.7) for p in ids]


def many_groups_event(seed: int) -> list[SwissEntrant]:
    """Many small score groups (most players alone on their points), a random history."""
    rng = random.Random(seed)
    size = rng.randrange(60, 160)
    points = rng.sample(range(4 * size), size) if seed % 2 else [
        rng.randrange(size // 3) for _ in range(size)]
    limit = rng.randrange(2, 9)
    opponents: dict[int, set[int]] = {p: set() for p in range(1, size + 1)}
    order = sorted(opponents, key=lambda p: points[p - 1])
    for _ in range(size * limit):
        k = rng.randrange(size)
        a, b = order[k], order[min(size - 1, k + rng.randrange(1, 6))]
        if a != b and len(opponents[a]) < limit and len(opponents[b]) < limit:
            opponents[a].add(b)
            opponents[b].add(a)
    return [SwissEntrant(p, points[p - 1], frozenset(opponents[p]), rng.random() < 0.8)
            for p in opponents]


def leaders_event(seed: int) -> list[SwissEntrant]:
    """A clique of leaders who all met each other must pair down into one big score group."""
    rng = random.Random(seed)
    limit = rng.randrange(4, 9)
    clique = rng.randrange(2, 4)
    size = rng.randrange(4 * limit + 4, 6 * limit + 40)
    leaders = list(range(1, clique + 1))
    group = list(range(clique + 1, clique + 1 + size))
    opponents: dict[int, set[int]] = {p: set() for p in leaders + group}
    for a in leaders:
        opponents[a] |= {b for b in leaders if b != a}
        for b in rng.sample(group, limit - clique + 1):
            if len(opponents[b]) < limit:
                opponents[a].add(b)
                opponents[b].add(a)
    for _ in range(size * limit):
        a, b = rng.sample(group, 2)
        if len(opponents[a]) < limit and len(opponents[b]) < limit:
            opponents[a].add(b)
            opponents[b].add(a)
    entrants = [
        SwissEntrant(p, 6 if p in leaders else 3, frozenset(m), rng.random() < 0.6)
        for p, m in opponents.items()
    ]
    return entrants + [e(1000 + k, rng.choice([0, 1, 2])) for k in range(rng.randrange(6))]


@pytest.mark.parametrize("seed", range(40))
def test_issue16_item4_reduction_exact_on_adversarial_histories(seed: int) -> None:
    for make in (adversarial_event, many_groups_event, leaders_event):
        check_against_global(make(seed), seed)


def test_rule_S5_bye_player_between_the_two_of_a_pair() -> None:
    # The lowest eligible (3 points) takes the bye; 6 must pair across him with a 0-pointer.
    entrants = [e(1, 6), e(2, 3), e(3, 0, bye=False), e(4, 0, bye=False), e(5, 0, bye=False)]
    result = pair(entrants)
    assert result.bye == 2
    assert result.objective == obj(bye_points=3, differences=[6], floats=[6])


# --- no pair farther apart than needed, on bigger events --------------------------------------


def smallest_largest_difference(entrants: Sequence[SwissEntrant]) -> int:
    """The smallest possible largest difference of a pairing without rematches and with the bye
    on the lowest eligible score: a bottleneck search with plain cardinality matchings. The
    players are taken in order of points, so the pairs within ``limit`` of a player are the
    window after it (no test of every pair: 2,000 players are 2 million pairs a step)."""
    import bisect

    import rustworkx as rx

    people = sorted(entrants, key=lambda x: (x.points, x.player))
    points = [x.points for x in people]
    n = len(people)
    eligible = [x.points for x in people if x.bye_eligible] or points
    bye_points = min(eligible)
    pool = [k for k, x in enumerate(people)
            if x.points == bye_points and (x.bye_eligible or not any(y.bye_eligible
                                                                       for y in people))]

    def feasible(limit: int) -> bool:
        graph: rx.PyGraph[None, int] = rx.PyGraph()
        graph.add_nodes_from([None] * (n + n % 2))
        for a, x in enumerate(people):
            for b in range(a + 1, bisect.bisect_right(points, x.points + limit)):
                y = people[b]
                if y.player not in x.opponents and x.player not in y.opponents:
                    graph.add_edge(a, b, 1)
        if n % 2:
            for a in pool:
                graph.add_edge(a, n, 1)
        matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
        return 2 * len(matched) == n + n % 2

    values = sorted(set(points))
    candidates = sorted({b - a for k, a in enumerate(values) for b in values[k:]})
    # the answer is small: gallop up from the smallest limits (dense graphs are slow to match),
    # then bisect between the last limit too small and the first one enough
    low, high = 0, min(1, len(candidates) - 1)
    while high < len(candidates) - 1 and not feasible(candidates[high]):
        low, high = high + 1, min(2 * high + 1, len(candidates) - 1)
    while low < high:
        mid = (low + high) // 2
        if feasible(candidates[mid]):
            high = mid
        else:
            low = mid + 1
    return candidates[low]


def assert_no_swap_helps(entrants: Sequence[SwissEntrant], result: SwissPairing) -> None:
    """No two pairs can swap partners (without a rematch) to get smaller differences (c), or
    equal differences with lower floats (d)."""
    by_id = {x.player: x for x in entrants}

    def cost(pairs: Sequence[tuple[int, int]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        diffs = sorted((abs(by_id[a].points - by_id[b].points) for a, b in pairs), reverse=True)
        tops = sorted((max(by_id[a].points, by_id[b].points) for a, b in pairs
                       if by_id[a].points != by_id[b].points), reverse=True)
        return tuple(d for d in diffs if d), tuple(tops)

    def met(a: int, b: int) -> bool:
        return b in by_id[a].opponents or a in by_id[b].opponents

    pairs = list(result.pairs)
    for i, (a, b) in enumerate(pairs):
        for c, d in pairs[i + 1:]:
            now = cost([(a, b), (c, d)])
            for other in ([(a, c), (b, d)], [(a, d), (b, c)]):
                if not any(met(x, y) for x, y in other):
                    assert cost(other) >= now, (a, b, c, d)


@settings(max_examples=12, deadline=None)
@given(
    st.integers(40, 160), st.integers(3, 24), st.sampled_from([(3, 1), (7, 3), (2, 1)]),
    st.integers(0, 10_000),
)
def test_issue16_item4_no_pair_farther_apart_than_needed(
    size: int, rounds: int, table: tuple[int, int], seed: int
) -> None:
    entrants = list(simulate(size, rounds, seed, *table))[-1]
    result = pair(entrants, seed)
    assert_valid(entrants, result)
    if result.objective.rematches == 0 and result.objective.bye_ineligible == 0:
        assert result.objective.largest_difference == smallest_largest_difference(entrants)
    assert_no_swap_helps(entrants, result)


# --- the reduction: walls, blocks and the bounds of the proof --------------------------------


def reduction_of(entrants: Sequence[SwissEntrant], seed: int = 0) -> tuple[object, list]:
    """The walls and blocks ``pair_swiss`` builds (each segment with its first bound that
    works)."""
    from turnir.domain.pairing import blocks, swiss

    event = swiss._event(entrants)
    bye_group = event.bye_group()
    candidates = blocks.wall_candidates(event, bye_group)
    bye_player = None
    rng = random.Random(seed)
    if bye_group is not None and bye_group in candidates:
        bye_player = rng.choice(sorted(event.bye_pool(bye_group)))
    walls = blocks.make_walls(event, sorted(candidates), bye_player)
    found = []
    for segment in blocks.segments(event, walls):
        for bound in blocks.segment_bounds(event, segment, bye_group):
            parts = list(blocks.segment_blocks(event, walls, segment, bye_group, bound, rng))
            if swiss._solve_blocks(parts) is not None:
                found += parts
                break
    for g in blocks.failing_walls(walls):
        del walls[g]
    return (event, walls), found


def test_issue16_item1_walls_satisfy_the_proof_bounds() -> None:
    """W1, W2, disjoint reps, K = the parity beyond the wall, K >= mu + 2 (omega >= 1)."""
    from turnir.domain.pairing.blocks import MARGIN

    checked = 0
    events = [adversarial_event(s) for s in range(20)] + [leaders_event(s) for s in range(20)]
    events += list(simulate(400, 6, seed=4))
    for number, entrants in enumerate(events):
        (event, walls), _ = reduction_of(entrants, number)
        assert isinstance(walls, dict)
        r = max(len(m) for m in event.met)
        bye_group = event.bye_group()
        for g, wall in walls.items():
            size, inside = len(wall.members), event.inside[g]
            reach = max((len(event.met[v] & set(wall.members)) for v in range(len(event.points))
                         if event.group_of[v] != g), default=0)
            assert size >= 4 * r + max(2 * inside, reach) + 3 + MARGIN  # W1
            assert size - len(wall.up) - len(wall.down) >= 2 * inside + 2 + MARGIN  # W2
            assert not set(wall.up) & set(wall.down)
            above = event.start[g] - (bye_group is not None and bye_group < g)
            below = len(event.points) - event.start[g + 1] - (
                bye_group is not None and bye_group > g)
            for reps, beyond in ((wall.up, above), (wall.down, below)):
                assert len(reps) % 2 == beyond % 2
                if len(reps) > 1:
                    mu = max(len(event.met[v] & set(reps)) for v in range(len(event.points))
                             if event.group_of[v] != g)
                    assert len(reps) >= mu + 2
            checked += 1
    assert checked > 50


def test_issue16_item2_graph_stays_small_whatever_the_spread() -> None:
    """Every player on a different score (2,000 players after 8 rounds): small blocks only."""
    entrants = list(simulate(2000, 8, seed=3))[-1]
    rng = random.Random(5)
    ranked = sorted(entrants, key=lambda x: (x.points, rng.random()))
    distinct = [SwissEntrant(x.player, k, x.opponents, x.bye_eligible)
                for k, x in enumerate(ranked)]
    _, parts = reduction_of(distinct)
    assert len(parts) > 300
    assert max(len(b.nodes) for b in parts) < 60
    result = pair(distinct)
    assert_valid(distinct, result)
    assert result.objective.rematches == 0
    assert result.objective.largest_difference == smallest_largest_difference(distinct)


def test_issue16_item2_big_groups_become_walls() -> None:
    entrants = list(simulate(1500, 6, seed=3))[-1]
    (_, walls), parts = reduction_of(entrants)
    assert isinstance(walls, dict) and len(walls) >= 5
    assert sum(len(b.nodes) for b in parts) < len(entrants) // 4
    result = pair(entrants)
    assert_valid(entrants, result)
    assert result.objective.rematches == 0


def test_issue16_item2_a_win_worth_ten_million_pairs_exactly() -> None:
    """Large point values used to overflow the weights (InvariantError); now exact."""
    for number, entrants in enumerate(simulate(300, 9, seed=12, win=10_000_000, draw=1)):
        if number >= 6:
            check_against_global(entrants, number)

"""Swiss pairing: rules P-2, P-3 (a)..(e) and S-5, checked against brute force and the
full-graph reference solver."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnir.domain.pairing.matching import clique_number, pair_without_rematches
from turnir.domain.pairing.objective import CostScale
from turnir.domain.pairing.swiss import (
    Objective,
    SwissEntrant,
    SwissPairing,
    _event,
    _reduce,
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


def perfect_matchings(players: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for k, partner in enumerate(rest):
        for tail in perfect_matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, partner), *tail]


def all_pairings(
    entrants: Sequence[SwissEntrant],
) -> Iterator[tuple[list[tuple[int, int]], int | None]]:
    players = sorted(x.player for x in entrants)
    for bye in players if len(players) % 2 else [None]:
        for pairs in perfect_matchings([p for p in players if p != bye]):
            yield pairs, bye


def brute_force_min_objective(entrants: Sequence[SwissEntrant]) -> Objective:
    return min(objective_of(entrants, pairs, bye) for pairs, bye in all_pairings(entrants))


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
    entrants: Sequence[SwissEntrant], result: SwissPairing, rng: random.Random
) -> list[SwissEntrant]:
    """Random results 3/1/0 with about 15% draws; the bye scores 3 and uses the S-5 bye."""
    by_id = {x.player: x for x in entrants}
    points = {p: x.points for p, x in by_id.items()}
    met = {p: set(x.opponents) for p, x in by_id.items()}
    eligible = {p: x.bye_eligible for p, x in by_id.items()}
    if result.bye is not None:
        points[result.bye] += 3
        eligible[result.bye] = False
    for a, b in result.pairs:
        met[a].add(b)
        met[b].add(a)
        roll = rng.random()
        if roll < 0.15:
            points[a] += 1
            points[b] += 1
        else:
            points[a if roll < 0.6 else b] += 3
    return [SwissEntrant(p, points[p], frozenset(met[p]), eligible[p]) for p in by_id]


def simulate(size: int, rounds: int, seed: int) -> Iterator[list[SwissEntrant]]:
    """The entrants before each round of a simulated event paired by ``pair_swiss``."""
    rng = random.Random(seed)
    entrants = [e(p) for p in range(1, size + 1)]
    for number in range(rounds):
        yield entrants
        entrants = play(entrants, pair_swiss(entrants, random.Random(seed * 100 + number)), rng)


# --- P-2 and the API ---------------------------------------------------------------------


def test_rule_P2_equal_points_meet() -> None:
    result = pair([e(1, 3), e(2, 0), e(3, 3), e(4, 0)])
    assert result.pairs == ((1, 3), (2, 4))
    assert result.objective == Objective(0, 0, 0, 0, 0)


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


def test_rule_P3e_input_order_does_not_matter() -> None:
    entrants = next(s for k, s in enumerate(simulate(31, 4, seed=5)) if k == 3)
    shuffled = list(entrants)
    random.Random(9).shuffle(shuffled)
    assert pair(shuffled, 11) == pair(entrants, 11)


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
    assert result.objective == Objective(0, 0, 3, 1, 9)


def test_rule_P3a_fewest_rematches_when_unavoidable() -> None:
    everyone_met = [e(p, met=[q for q in range(1, 5) if q != p]) for p in range(1, 5)]
    entrants = [*everyone_met, e(5), e(6)]
    result = pair(entrants)
    assert result.objective.rematches == 1
    assert result.objective == brute_force_min_objective(entrants)


def test_rule_P3b_S5_bye_to_fewest_points() -> None:
    result = pair([e(1, 6), e(2, 3), e(3, 3), e(4, 1), e(5, 0)])
    assert result.bye == 5


def test_rule_P3b_bye_outweighs_unequal_pairs() -> None:
    # Giving the bye to 1 would leave 2-3 equal; the rule sends it to the lowest instead.
    result = pair([e(1, 3), e(2, 0), e(3, 0)])
    assert result.bye in {2, 3}
    assert result.objective == Objective(0, 0, 0, 1, 9)


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
    assert result.objective == Objective(0, 1, 0, 0, 0)


def test_rule_S5_rematch_outweighs_eligibility() -> None:
    # Player 1 met everyone: any other bye would pair 1 again with an old opponent.
    result = pair([e(1, 3, met=[2, 3, 4, 5], bye=False), e(2), e(3), e(4), e(5)])
    assert result.bye == 1
    assert result.objective == Objective(0, 1, 3, 0, 0)


def test_rule_P3c_fewest_unequal_pairs_before_squares() -> None:
    # 2-1 and 1-0 would give squares 1+1; 2-0 and 1-1 has one unequal pair, squares 4.
    result = pair([e(1, 2), e(2, 1), e(3, 1), e(4, 0)])
    assert as_sets(result) == {frozenset({1, 4}), frozenset({2, 3})}
    assert result.objective == Objective(0, 0, 0, 1, 4)


def test_rule_P3d_smallest_squared_differences() -> None:
    result = pair([e(1, 4), e(2, 3), e(3, 1), e(4, 0)])
    assert as_sets(result) == {frozenset({1, 2}), frozenset({3, 4})}
    assert result.objective == Objective(0, 0, 0, 2, 2)


def test_rule_P3e_ties_by_lot_from_the_seed() -> None:
    entrants = [e(p, 3 if p <= 4 else 0) for p in range(1, 9)]
    drawn = {pair(entrants, seed).pairs for seed in range(20)}
    assert len(drawn) > 3
    assert all(pair(entrants, seed) == pair(entrants, seed) for seed in range(3))


# --- exhaustive comparison with brute force -----------------------------------------------


@pytest.mark.parametrize("size", range(4, 13))
def test_rule_P3_optimal_against_brute_force_in_simulated_events(size: int) -> None:
    rounds = 5 if size <= 6 else 4
    for event in range(2):
        for entrants in simulate(size, rounds, seed=size * 10 + event):
            result = pair(entrants, seed=event)
            assert_valid(entrants, result)
            assert result.objective == brute_force_min_objective(entrants)


@st.composite
def small_events(draw: st.DrawFn, max_size: int = 9) -> list[SwissEntrant]:
    size = draw(st.integers(2, max_size))
    points = draw(st.lists(st.sampled_from([0, 1, 3, 4, 6]), min_size=size, max_size=size))
    eligible = draw(st.lists(st.booleans(), min_size=size, max_size=size))
    every_pair = [(a, b) for a in range(1, size + 1) for b in range(a + 1, size + 1)]
    met = draw(st.sets(st.sampled_from(every_pair), max_size=2 * size))
    opponents: dict[int, set[int]] = {p: set() for p in range(1, size + 1)}
    for a, b in met:
        opponents[a].add(b)
        opponents[b].add(a)
    return [
        SwissEntrant(p, points[p - 1], frozenset(opponents[p]), eligible[p - 1])
        for p in range(1, size + 1)
    ]


@settings(max_examples=150, deadline=None)
@given(small_events(), st.integers(0, 2**32))
def test_rule_P3_properties_against_brute_force(entrants: list[SwissEntrant], seed: int) -> None:
    result = pair(entrants, seed)
    assert_valid(entrants, result)
    candidates = [objective_of(entrants, p, b) for p, b in all_pairings(entrants)]
    fewest = min(c.rematches for c in candidates)
    # P-2: no rematch when one can be avoided.
    assert result.objective.rematches == fewest
    best = [c for c in candidates if c.rematches == fewest]
    # S-5: no second unrequested bye when avoidable.
    if any(c.bye_ineligible == 0 for c in best):
        assert result.objective.bye_ineligible == 0
    # S-5: the bye to the lowest eligible player whenever a rematch-free pairing allows it.
    lowest = min((x.points for x in entrants if x.bye_eligible and len(entrants) % 2), default=None)
    free = [c for c in candidates if c.rematches == 0 and c.bye_ineligible == 0]
    if lowest is not None and any(c.bye_points == lowest for c in free):
        by_id = {x.player: x for x in entrants}
        assert result.bye is not None
        assert by_id[result.bye].bye_eligible
        assert by_id[result.bye].points == lowest
    assert result.objective == min(candidates)


# --- exactness of the score-group reduction ------------------------------------------------


def reduced(entrants: Sequence[SwissEntrant]) -> bool:
    return _reduce(_event(entrants), random.Random(0)) is not None


def test_rule_P3_reduction_exact_in_simulated_events() -> None:
    checked = used = 0
    for event in range(8):
        rng = random.Random(event)
        size, rounds = rng.randrange(60, 201), rng.randrange(2, 7)
        for number, entrants in enumerate(simulate(size, rounds, seed=1000 + event)):
            result = pair(entrants, seed=number)
            reference = pair_swiss_global(entrants, random.Random(number))
            assert_valid(entrants, result)
            assert result.objective == reference.objective
            checked += 1
            used += reduced(entrants)
    assert used >= checked // 2


def adversarial_event(seed: int) -> list[SwissEntrant]:
    """Few score groups of skewed sizes; opponents drawn mostly across groups."""
    rng = random.Random(seed)
    size = rng.randrange(30, 150)
    levels = rng.randrange(2, 7)
    weights = [rng.random() ** 3 + 0.01 for _ in range(levels)]
    points = {p: 3 * rng.choices(range(levels), weights)[0] for p in range(1, size + 1)}
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


@pytest.mark.parametrize("seed", range(80))
def test_rule_P3_reduction_exact_on_adversarial_histories(seed: int) -> None:
    entrants = adversarial_event(seed)
    result = pair(entrants, seed)
    assert_valid(entrants, result)
    assert result.objective == pair_swiss_global(entrants, random.Random(seed)).objective


def leaders_event(seed: int) -> list[SwissEntrant]:
    """A clique of leaders who all met each other must pair down into one big score group."""
    rng = random.Random(seed)
    limit = rng.randrange(4, 9)
    clique = rng.randrange(2, 4)
    size = rng.randrange(4 * limit + 4, 4 * limit + 12)
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
    return entrants + [e(1000 + k) for k in range(rng.randrange(3))]


@pytest.mark.parametrize("seed", range(60))
def test_rule_P3_reduction_exact_when_leaders_pair_down(seed: int) -> None:
    entrants = leaders_event(seed)
    assert reduced(entrants)
    result = pair(entrants, seed)
    assert_valid(entrants, result)
    assert result.objective == pair_swiss_global(entrants, random.Random(seed)).objective


def proof_bounds_hold(entrants: Sequence[SwissEntrant], seed: int) -> int:
    """Check every big group against the bounds of the exactness proof; count big groups."""
    event = _event(entrants)
    groups = _reduce(event, random.Random(seed))
    if groups is None:
        return 0
    met, points = event.met, event.points
    max_met = max(len(m) for m in met)
    omega = clique_number(met)
    for g in groups:
        if not g.big:
            continue
        members = set(g.members) | set(g.rest)
        assert members == {i for i, p in enumerate(points) if p == g.points}
        assert not set(g.members) & set(g.rest)
        size, reps = len(members), len(g.members)
        within = max(len(met[u] & members) for u in members)
        outside_met_reps = max(
            (len(met[v] & set(g.members)) for v in range(len(points)) if v not in members),
            default=0,
        )
        assert reps % 2 == size % 2
        assert reps >= omega + outside_met_reps + 1
        assert size >= 2 * max_met + 2 * within + 4
        assert size - reps >= 2 * within + 4
        if any(event.eligible[u] for u in members):
            assert any(event.eligible[u] for u in g.members)
    return sum(g.big for g in groups)


def test_reduction_reps_satisfy_the_proof_bounds() -> None:
    big = 0
    for seed in range(30):
        big += proof_bounds_hold(adversarial_event(seed), seed)
        big += proof_bounds_hold(leaders_event(seed), seed)
    for number, entrants in enumerate(simulate(400, 6, seed=4)):
        big += proof_bounds_hold(entrants, number)
    assert big > 50


def test_reduction_keeps_the_graph_small() -> None:
    entrants = next(s for k, s in enumerate(simulate(1500, 6, seed=3)) if k == 5)
    groups = _reduce(_event(entrants), random.Random(0))
    assert groups is not None
    vertices = sum(len(g.members) for g in groups)
    assert vertices < len(entrants) // 4
    assert_valid(entrants, pair(entrants))
    assert pair(entrants).objective.rematches == 0


# --- helpers ---------------------------------------------------------------------------------


def test_clique_number() -> None:
    assert clique_number([set(), set()]) == 1
    assert clique_number([{1}, {0}, set()]) == 2
    triangle_and_path = [{1, 2}, {0, 2}, {0, 1, 3}, {2, 4}, {3}]
    assert clique_number(triangle_and_path) == 3
    k4 = [{j for j in range(4) if j != i} for i in range(4)]
    assert clique_number([*k4, set()]) == 4


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 9).flatmap(
        lambda n: st.tuples(
            st.just(n), st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)))
        )
    )
)
def test_clique_number_against_brute_force(graph: tuple[int, set[tuple[int, int]]]) -> None:
    size, edges = graph
    met: list[set[int]] = [set() for _ in range(size)]
    for a, b in edges:
        if a != b:
            met[a].add(b)
            met[b].add(a)
    largest = max(
        bin(mask).count("1")
        for mask in range(1, 1 << size)
        if all(
            b in met[a]
            for a in range(size)
            for b in range(a + 1, size)
            if mask >> a & 1 and mask >> b & 1
        )
    )
    assert clique_number(met) == largest


def test_pairing_inside_a_group_avoids_rematches() -> None:
    # 0..9 in a ring where each met both neighbours: greedy must sometimes repair.
    met = [{(i - 1) % 10, (i + 1) % 10} for i in range(10)]
    for seed in range(30):
        pairs = pair_without_rematches(range(10), met, random.Random(seed))
        assert sorted(u for p in pairs for u in p) == list(range(10))
        assert all(b not in met[a] for a, b in pairs)


def test_cost_scale_fits_128_bit_weights_at_ten_thousand_players() -> None:
    scale = CostScale.for_event(pairs=5001, min_points=0, max_points=60)
    assert scale.big * 5003 < 2**120

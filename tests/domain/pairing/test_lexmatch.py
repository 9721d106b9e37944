"""The staged exact lexicographic matching (rule P-3): against brute force, with the stages
forced by a tiny weight limit, and the refusal when levels cannot be told apart."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from turnir.domain.pairing import lexmatch
from turnir.domain.pairing.lexmatch import LexEdge, PairingTooWide, lex_min_perfect


def key(matching: list[LexEdge], levels: int) -> tuple[int, ...]:
    totals = [0] * levels
    for e in matching:
        for level, amount in e.terms:
            totals[level] += amount
    return (*totals, sum(e.lot for e in matching))


def brute(n: int, edges: list[LexEdge], levels: int) -> tuple[int, ...] | None:
    by_pair = {frozenset((e.u, e.v)): e for e in edges}
    best: tuple[int, ...] | None = None

    def extend(rest: list[int], chosen: list[LexEdge]) -> None:
        nonlocal best
        if not rest:
            k = key(chosen, levels)
            best = k if best is None or k < best else best
            return
        first = rest[0]
        for other in rest[1:]:
            e = by_pair.get(frozenset((first, other)))
            if e is not None:
                extend([v for v in rest if v not in (first, other)], [*chosen, e])

    extend(list(range(n)), [])
    return best


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, list[LexEdge], list[int]]:
    n = draw(st.sampled_from([2, 4, 6, 8]))
    levels = draw(st.integers(0, 6))
    edges = []
    for u in range(n):
        for v in range(u + 1, n):
            if draw(st.booleans()) or v == u + 1:
                terms = tuple(
                    (level, amount)
                    for level in range(levels)
                    if (amount := draw(st.integers(0, 3))) > 0
                )
                edges.append(LexEdge(u, v, terms, draw(st.integers(0, 255))))
    caps = [3 * (n // 2)] * levels
    return n, edges, caps


@settings(max_examples=120, deadline=None)
@given(graphs())
def test_rule_P3_lexicographic_matching_against_brute_force(
    graph: tuple[int, list[LexEdge], list[int]],
) -> None:
    n, edges, caps = graph
    found = lex_min_perfect(n, edges, caps, lot_bits=8)
    expected = brute(n, edges, len(caps))
    if expected is None:
        assert found is None
        return
    assert found is not None
    assert sorted(u for e in found for u in (e.u, e.v)) == list(range(n))
    assert key(found, len(caps)) == expected


@settings(max_examples=60, deadline=None)
@given(graphs())
def test_rule_P3_stages_are_exact_when_few_bits_fit(
    graph: tuple[int, list[LexEdge], list[int]],
) -> None:
    """With 2**20 as the weight limit a stage holds one to three levels and the lot is cut
    down: the levels must still come out optimal (the lot only when it fits whole)."""
    n, edges, caps = graph
    saved = lexmatch.WEIGHT_LIMIT
    lexmatch.WEIGHT_LIMIT = 1 << 20
    try:
        found = lex_min_perfect(n, edges, caps, lot_bits=8)
    except PairingTooWide:
        assume(False)
    finally:
        lexmatch.WEIGHT_LIMIT = saved
    expected = brute(n, edges, len(caps))
    if expected is None:
        assert found is None
        return
    assert found is not None
    assert key(found, len(caps))[:-1] == expected[:-1]


def test_rule_P3_settled_levels_delete_unused_edges() -> None:
    # Level 0 is avoidable: the edges carrying it cannot come back in a later stage.
    edges = [LexEdge(0, 1, ((0, 1),)), LexEdge(2, 3, ((0, 1),)),
             LexEdge(0, 2, ((1, 1),)), LexEdge(1, 3, ((1, 1),))]
    found = lex_min_perfect(4, edges, [2, 2], lot_bits=0)
    assert found is not None
    assert {(e.u, e.v) for e in found} == {(0, 2), (1, 3)}


def test_issue16_item2_refuses_levels_that_cannot_be_told_apart() -> None:
    edges = [LexEdge(0, 1, ((0, 1),)), LexEdge(2, 3, ((0, 1),)), LexEdge(0, 2), LexEdge(1, 3)]
    with pytest.raises(PairingTooWide):
        lex_min_perfect(4, edges, [1 << 130], lot_bits=0)


def test_odd_or_empty_graphs() -> None:
    assert lex_min_perfect(0, [], [], lot_bits=4) == []
    assert lex_min_perfect(3, [LexEdge(0, 1)], [], lot_bits=4) is None
    assert lex_min_perfect(2, [], [], lot_bits=4) is None
    assert lex_min_perfect(4, [LexEdge(0, 1)], [], lot_bits=4) is None


def scanned_window(pending: list[int], settled: dict[int, int], caps: list[int], pairs: int,
                   lot_bits: int) -> tuple[list[int], int] | None:
    """The window as a plain scan finds it: the least lot shift that lets every pending level
    in, else the longest prefix that fits without the lot (``None``: not even one level)."""
    for shift in range(lot_bits + 1):
        if lexmatch._fits(settled, pending, caps, pairs, lot_bits - shift):
            return list(pending), shift
    for size in range(len(pending) - 1, 0, -1):
        if lexmatch._fits(settled, pending[:size], caps, pairs, 0):
            return list(pending[:size]), 0
    return None


@st.composite
def stages(draw: st.DrawFn) -> tuple[list[int], dict[int, int], list[int], int, int]:
    count = draw(st.integers(1, 150))
    caps = draw(st.lists(st.sampled_from([1, 2, 3, 10, 1000, 10**6, 10**9, 10**15, 2**40]),
                         min_size=count, max_size=count))
    cut = draw(st.integers(0, count))
    settled = {level: draw(st.integers(0, caps[level]))
               for level in draw(st.sets(st.integers(0, cut - 1), max_size=12))} if cut else {}
    pending = sorted(draw(st.sets(st.integers(cut, count - 1)))) if cut < count else []
    return pending, settled, caps, draw(st.integers(1, 5000)), draw(st.integers(0, 90))


@settings(max_examples=150, deadline=None)
@given(stages())
def test_rule_P3_the_window_is_the_one_a_scan_finds(
        stage: tuple[list[int], dict[int, int], list[int], int, int]) -> None:
    """The window is bisected, not scanned: the same levels and lot shift, or the same
    refusal, as a scan of every shift and every prefix."""
    expected = scanned_window(*stage)
    if expected is None:
        with pytest.raises(PairingTooWide):
            lexmatch._window(*stage)
    else:
        assert lexmatch._window(*stage) == expected

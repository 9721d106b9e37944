"""Graph helpers of the Swiss pairing (rules P-2, P-3): matchings, cliques, pairing a score group.

Vertices are integer indices; ``met[i]`` is the set of indices player ``i`` has met. These
helpers know nothing about points: ``turnir.domain.pairing.swiss`` gives them the costs.

- ``max_weight_perfect``: an optimal matching by Edmonds' blossom algorithm (rustworkx), with
  integer weights (rustworkx computes with 128-bit integers).
- ``clique_number``: the size of the largest set of players who all met each other.
- ``pair_without_rematches``: a pairing by lot of a set of players with no rematch (P-2),
  which exists by Dirac's theorem when each misses at most ``R`` others of the set and the set
  has an even size of at least ``2R + 2`` (the graph of who has *not* met then has minimum
  degree at least half the size, so a Hamiltonian cycle, so a perfect matching).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import rustworkx as rx

from turnir.errors import InvariantError

Edge = tuple[int, int, int]
"""``(u, v, weight)`` with ``u``, ``v`` vertex indices and an integer weight."""


def max_weight_perfect(
    vertex_count: int, edge_chunks: Iterable[list[Edge]]
) -> list[tuple[int, int]]:
    """A maximum-weight matching among the maximum-cardinality ones (Edmonds, rustworkx).

    ``edge_chunks`` may be a generator: the graph is built chunk by chunk, so a big graph never
    exists twice in memory. The result may leave vertices unmatched when no perfect matching
    exists; callers check.
    """
    graph: rx.PyGraph[None, int] = rx.PyGraph(multigraph=True)
    graph.add_nodes_from([None] * vertex_count)
    for chunk in edge_chunks:
        graph.add_edges_from(chunk)
    matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return [(u, v) for u, v in matched]


def clique_number(met: Sequence[set[int]]) -> int:
    """The size of the largest set of players who all met each other (1 if nobody met).

    Exact: every clique of three or more is grown from its two lowest players inside their
    common opponents, a set of fewer than ``R`` players (the rounds played).
    """
    best = 1 if met else 0

    def grow(size: int, candidates: set[int]) -> None:
        nonlocal best
        if not candidates:
            best = max(best, size)
            return
        for v in sorted(candidates):
            if size + len(candidates) <= best:
                return
            candidates = candidates - {v}
            grow(size + 1, candidates & met[v])

    for u, opponents in enumerate(met):
        for v in opponents:
            if v > u:
                best = max(best, 2)
                common = {w for w in opponents & met[v] if w > v}
                if common and len(common) + 2 > best:
                    grow(2, common)
    return best


def pair_without_rematches(
    members: Sequence[int], met: Sequence[set[int]], rng: random.Random
) -> list[tuple[int, int]]:
    """Pair ``members`` (an even count) by lot so that nobody meets an old opponent (P-2).

    Shuffles, pairs greedily, repairs the few players left over by swapping partners with an
    existing pair, and falls back to a blossom matching. Raises ``InvariantError`` when no such
    pairing exists (callers guarantee one by Dirac's theorem).
    """
    if len(members) % 2:
        raise InvariantError(f"cannot pair an odd number ({len(members)}) of players")
    rest = list(members)
    rng.shuffle(rest)
    pairs: list[tuple[int, int]] = []
    left: list[int] = []
    while rest:
        u = rest.pop()
        seen = met[u]
        for k in range(len(rest) - 1, -1, -1):
            if rest[k] not in seen:
                pairs.append((u, rest[k]))
                rest[k] = rest[-1]
                rest.pop()
                break
        else:
            left.append(u)
    while left:
        u = left.pop()
        v = left.pop()
        if v not in met[u]:
            pairs.append((u, v))
        elif not _swap_into(pairs, u, v, met, rng):
            return _pair_by_matching(members, met)
    return pairs


def _swap_into(
    pairs: list[tuple[int, int]], u: int, v: int, met: Sequence[set[int]], rng: random.Random
) -> bool:
    """Replace some pair ``(a, b)`` by ``(u, a), (v, b)`` or ``(u, b), (v, a)``, no rematch."""
    order = list(range(len(pairs)))
    rng.shuffle(order)
    met_u, met_v = met[u], met[v]
    for k in order:
        a, b = pairs[k]
        if a not in met_u and b not in met_v:
            pairs[k] = (u, a)
            pairs.append((v, b))
            return True
        if b not in met_u and a not in met_v:
            pairs[k] = (u, b)
            pairs.append((v, a))
            return True
    return False


def _pair_by_matching(members: Sequence[int], met: Sequence[set[int]]) -> list[tuple[int, int]]:
    """Any rematch-free pairing of ``members``, by a maximum-cardinality matching."""
    edges = [
        (i, j, 1)
        for i, u in enumerate(members)
        for j in range(i + 1, len(members))
        if members[j] not in met[u]
    ]
    matched = max_weight_perfect(len(members), [edges])
    if 2 * len(matched) != len(members):
        raise InvariantError("a score group cannot be paired without rematches")
    return [(members[i], members[j]) for i, j in matched]

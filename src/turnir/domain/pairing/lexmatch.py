"""Exact lexicographic minimum-cost perfect matching with 128-bit solves (rules P-3, S-5).

The Swiss objective (P-3) is a list of *levels* compared lexicographically: the rematches, the
bye, one level per point difference (largest first), one level per score of a down-floater
(highest first), and last the lot. A pairing's value at a level is the sum of its edges'
*amounts* at that level (most are 0 or 1: "this pair has a difference of 4"), so the objective
of a pairing is its vector of level totals, compared lexicographically; lower is better.

Encoding the whole vector in one edge weight (``w_level = (pairs + 1) ** depth``) is exact but
needs thousands of bits when there are many levels, and rustworkx matches with 128-bit integers.
``lex_min_perfect`` therefore works in *stages*, each one exact:

A stage knows the optimal totals ``t*`` of the levels already settled and looks at a *window*
of the next levels, each with a *cap* ``U`` (an upper bound on its total in any pairing). It
gives the levels weights from the lowest up: ``w = 1 + Σ_{lower} w' · b'`` where ``b'`` is
``t*`` for a settled level and ``U`` for a window level, and solves one maximum-weight perfect
matching with edge weight ``big - Σ w · amount``.

*Why a stage is exact.* Let ``O`` be lexicographically optimal for the settled and window
levels and ``M`` the stage's matching. If ``M`` were worse at a first level ``ℓ``, then
``cost(M) - cost(O) ≥ w_ℓ - Σ_{i below ℓ} w_i · total_i(O) > 0``, because every settled level
below ``ℓ`` has ``total_i(O) = t*_i`` and every window level ``total_i(O) ≤ U_i``; so ``M``
would not be a cheapest matching. Hence ``M`` is optimal for these levels and its totals are the
optimal ``t*`` of the window. A level settled at ``t* = 0`` is never used by an optimal pairing,
so its edges are deleted (this removes most levels: large differences, unused floats), and it
costs no bits. A settled level whose remaining edges add up to exactly its total is used by all
of them in every optimum: they are *fixed* (their players leave the graph, their amounts are
taken off the totals), so a round with many distinct differences, each used once, keeps few
settled levels. The window is as long as 120 bits allow (the weight of a whole matching stays
below ``2 ** 120``); the last stage adds the lot, coarsened (shifted right) if needed. Each stage
only refines the previous optimum, so the final matching is optimal for every level and the lot.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from turnir.domain.pairing.matching import max_weight_perfect
from turnir.errors import InvariantError, UserError

WEIGHT_LIMIT = 1 << 120
"""Every weight sum of one matching stays below this (rustworkx uses 128-bit integers)."""


class PairingTooWide(UserError):
    """The levels of an objective cannot be told apart within the 128-bit matching weights."""

    code = "pairing_too_wide"


class LexEdge(NamedTuple):
    """An edge of the pairing graph with its amounts per level (a named tuple: blocks have
    tens of thousands of them)."""

    u: int
    v: int
    terms: tuple[tuple[int, int], ...] = ()
    """``(level, amount)`` with ``amount > 0``; levels are numbered from the most important."""
    lot: int = 0
    """The lot (P-3 e), the lowest level of all; below ``2 ** lot_bits``."""


def lex_min_perfect(
    vertex_count: int,
    edges: Sequence[LexEdge],
    caps: Sequence[int],
    *,
    lot_bits: int,
) -> list[LexEdge] | None:
    """A perfect matching with the lexicographically smallest level totals, then lot.

    ``caps[level]`` bounds the level's total in any perfect matching. ``None`` when the graph
    has no perfect matching. Raises ``PairingTooWide`` when even one level cannot be added to
    the levels already settled within the weight limit (not reached by real points tables).
    """
    if vertex_count % 2:
        return None
    if vertex_count == 0:
        return []
    if vertex_count == 2:
        return list(edges[:1]) if len(edges) == 1 else _pick_one(edges)
    index = {(min(e.u, e.v), max(e.u, e.v)): k for k, e in enumerate(edges)}
    if len(index) != len(edges):
        raise InvariantError("the pairing graph has two edges between the same players")
    state = _State(vertex_count, list(range(len(edges))))
    while True:
        pending = sorted({level for k in state.alive for level, _ in edges[k].terms}
                         - state.processed)
        pairs = state.left // 2
        window, shift = _window(pending, state.settled, caps, pairs, lot_bits)
        last = len(window) == len(pending)
        weights = _weights(state.settled, window, caps, pairs, lot_bits - shift if last else 0)
        chosen = _solve(vertex_count, state.left, edges, state.alive, weights,
                        shift if last else None)
        if chosen is None:
            return None
        matching = [edges[index[(min(u, v), max(u, v))]] for u, v in chosen]
        if last:
            return [edges[k] for k in state.fixed] + matching
        totals = dict.fromkeys(window, 0)
        for e in matching:
            for level, amount in e.terms:
                if level in totals:
                    totals[level] += amount
        state.processed.update(window)
        state.settled.update(totals)
        state.prune(edges)
        if state.left == 0:
            return [edges[k] for k in state.fixed]


@dataclass(slots=True)
class _State:
    """What the stages know: the optimal totals so far, the edges still usable, the forced."""

    left: int
    """Vertices not yet matched by forced edges."""
    alive: list[int]
    settled: dict[int, int] = field(default_factory=dict)
    """Optimal totals of settled levels, less what the forced edges already use."""
    processed: set[int] = field(default_factory=set)
    fixed: list[int] = field(default_factory=list)

    def prune(self, edges: Sequence[LexEdge]) -> None:
        """Delete edges of levels with nothing left to use; fix forced edges, repeatedly.

        A settled level whose usable edges add up exactly to its total is used by all of
        them in every optimum: they are fixed, their vertices leave the graph, and their
        amounts are taken off the totals. This keeps the settled levels (and their bits) few.
        """
        while True:
            empty = {level for level, t in self.settled.items() if t == 0}
            alive = [k for k in self.alive
                     if not any(level in empty for level, _ in edges[k].terms)]
            for level in empty:
                del self.settled[level]
            available = dict.fromkeys(self.settled, 0)
            for k in alive:
                for level, amount in edges[k].terms:
                    if level in available:
                        available[level] += amount
            forced_levels = {level for level, t in self.settled.items()
                             if available[level] == t}
            self.alive = alive
            if not forced_levels:
                return
            forced = [k for k in alive
                      if any(level in forced_levels for level, _ in edges[k].terms)]
            ends = [u for k in forced for u in (edges[k].u, edges[k].v)]
            if len(set(ends)) != len(ends):
                raise InvariantError("forced edges of the pairing graph share a player")
            taken = set(ends)
            for k in forced:
                for level, amount in edges[k].terms:
                    if level in self.settled:
                        self.settled[level] -= amount
            self.fixed += forced
            self.left -= len(ends)
            self.alive = [k for k in alive if edges[k].u not in taken
                          and edges[k].v not in taken]


def _pick_one(edges: Sequence[LexEdge]) -> list[LexEdge] | None:
    """Two vertices: no edge, or the one edge (two edges between them are refused)."""
    if not edges:
        return None
    raise InvariantError("the pairing graph has two edges between the same players")


def _window(
    pending: Sequence[int],
    settled: dict[int, int],
    caps: Sequence[int],
    pairs: int,
    lot_bits: int,
) -> tuple[list[int], int]:
    """The longest prefix of ``pending`` that fits, and the lot shift when it is all of it.

    The last stage (all pending levels) carries the lot, shifted right as far as needed.
    Both are found by bisection: the weight bound only grows with the lot's bits and with the
    prefix (a level added at the end of the window is the least important: it only raises the
    weights of the levels above it), so the least shift and the longest prefix that fit are
    the ones a scan would find, in logarithmically many checks (a scan made thousands of
    checks a round with many levels, each adding up 120-bit weights).
    """
    if _fits(settled, pending, caps, pairs, 0):
        shift = bisect_left(range(lot_bits + 1), True, key=lambda shift: _fits(
            settled, pending, caps, pairs, lot_bits - shift))
        return list(pending), shift
    cut = 1 + bisect_left(range(1, len(pending)), True, key=lambda cut: _fits(
        settled, pending[:len(pending) - cut], caps, pairs, 0))
    if cut < len(pending):
        return list(pending[:len(pending) - cut]), 0
    raise PairingTooWide(
        "the point differences of this round are too many to compare exactly; "
        "use a points table with fewer distinct values",
    )


def _weights(
    settled: dict[int, int],
    window: Sequence[int],
    caps: Sequence[int],
    pairs: int,
    lot_bits: int,
) -> dict[int, int]:
    """Level weights, lowest level first: each larger than all lower levels can add up to."""
    bounds = {**settled, **{level: caps[level] for level in window}}
    total = pairs * ((1 << lot_bits) - 1)
    weights: dict[int, int] = {}
    for level in sorted(bounds, reverse=True):
        weights[level] = total + 1
        total += weights[level] * bounds[level]
    return weights


def _fits(
    settled: dict[int, int],
    window: Sequence[int],
    caps: Sequence[int],
    pairs: int,
    lot_bits: int,
) -> bool:
    weights = _weights(settled, window, caps, pairs, lot_bits)
    edge_bound = sum(weights[level] * caps[level] for level in weights) + (1 << lot_bits)
    return (edge_bound + 1) * (pairs + 2) < WEIGHT_LIMIT


def _solve(
    vertex_count: int,
    left: int,
    edges: Sequence[LexEdge],
    alive: Sequence[int],
    weights: dict[int, int],
    lot_shift: int | None,
) -> list[tuple[int, int]] | None:
    """The cheapest perfect matching of the ``left`` vertices still in the graph for these
    weights (``lot_shift``: with the lot)."""
    kind_cost: dict[int, int] = {}
    costs = []
    for k in alive:
        e = edges[k]
        cost = kind_cost.get(id(e.terms))
        if cost is None:
            cost = sum(weights[level] * amount for level, amount in e.terms if level in weights)
            kind_cost[id(e.terms)] = cost
        costs.append(cost if lot_shift is None else cost + (e.lot >> lot_shift))
    big = max(costs, default=0) + 1
    chunk = [(edges[k].u, edges[k].v, big - c) for k, c in zip(alive, costs, strict=True)]
    matched = max_weight_perfect(vertex_count, [chunk])
    if 2 * len(matched) != left:
        return None
    return matched

"""Swiss pairing by points, optimal for the P-3 objective (rules P-2, P-3, S-5).

Terms (Russian in brackets): *score group* (очковая группа) — the entrants with equal points;
*rematch* (повторная встреча), *bye* (автопобеда), *unequal pair* and the objective (a)..(e)
as defined in ``turnir.domain.pairing.objective``. Round 1 (everyone on 0 points) is thereby
drawn by lot (P-2). Entrants are sorted by player number first and only the given ``rng`` is
used, so a seed and the same set of entrants always give the same pairing.

**Method.** A pairing is a perfect matching of the entrants (plus a *bye vertex* when their
number is odd); each edge costs its share of the objective, scaled so that sums order pairings
exactly like the objective (``CostScale``), and Edmonds' blossom algorithm (rustworkx) finds the
optimum. It is cubic in the vertices, so big events are first reduced, exactly:

Let ``met`` be the graph of who met whom among the entrants, ``R`` its largest degree, ``ω`` its
clique number (largest set who all met each other). For a score group ``g`` of ``n_g`` players
let ``R_g`` be the most opponents a member of ``g`` met inside ``g``. Dirac: an even set of
``m ≥ 2R' + 2`` players each of whom met at most ``R'`` of the others can be paired without a
rematch. A score group is *big* when ``n_g ≥ 2R + 2R_g + 4`` and ``n_g ≥ K_g + 2R_g + 4``, where
its ``K_g`` *representatives* (reps) are drawn by lot, include a bye-eligible member when ``g``
has one, ``K_g ≡ n_g (mod 2)`` and ``K_g ≥ ω + μ_g + 1``, ``μ_g`` being the most reps any
entrant outside ``g`` has met (reps are added until this holds; ``K_g ≤ 2R + 3``). If no group
is big, the full graph is solved (rematch edges included, at their penalty). Otherwise the
*reduced graph* has the members of the other groups, the reps and the bye vertex; edges join
players of different groups or of one non-big group who have not met (rematch edges are
dropped), and every two reps of one group by a *virtual* edge of cost 0 ("both stay inside the
group"). Its optimum fixes the bye and all pairs but the virtual ones; then each big group's
players not yet paired are paired among themselves by lot without rematches
(``pair_without_rematches``).

**Why it is exact** (for (a)..(d); the lot (e) is the random term on the reduced graph's edges,
the random reps and the shuffle inside groups). With a big group, ``N ≥ 2R + 4``, so by Dirac
every player can take the bye with the rest paired rematch-free: the optimum has (a) = 0 and
the bye on the lowest eligible player. Take an optimal pairing, a big group ``g``, its *cross
pairs* ``u_i v_i`` (``u_i ∈ g``, ``v_i ∉ g``, ``i = 1..k``, each an unequal pair) and ``S`` the
members of ``g`` paired inside ``g`` (``|S| ≥ n_g - k - 1``, even).
(i) ``k ≤ 2R + 1``: else pair an even ``k' ≥ 2R + 2`` of the ``v_i`` among themselves, and their
``u_i`` with ``S`` inside ``g`` (``≥ k' ≥ 2R_g + 2`` players), both rematch-free by Dirac; (c)
drops from ``≥ k'`` to ``≤ k'/2``.
(ii) the ``v_i`` all met each other, so ``k ≤ ω``: else pair ``v_i v_j`` and re-pair
``S + {u_i, u_j}`` (``≥ n_g - 2R ≥ 2R_g + 4`` players by (i)) inside ``g``; (c) drops by 1 or more.
*Reduced ≤ global*: map the optimum onto the reps, using no rematch edge — a bye in ``g`` to the
eligible rep (an ineligible bye means nobody is eligible), then each cross pair's end in a big
group to an unused rep not met by the other end (as mapped): at most ``ω`` used and ``μ_g`` met
reps are excluded, so ``K_g ≥ ω + μ_g + 1`` leaves one. Costs depend on points only, so the
cost is unchanged; the ``K_g - (n_g - |S|) ≥ 0`` unused reps, an even number as
``K_g ≡ n_g``, pair on virtual edges of cost 0, like the pairs inside ``g`` (equal points, no
rematch).
*Reduced ≥ global*: in any perfect matching of the reduced graph, the rest of ``g`` (``g`` minus
the reps matched across or to the bye) is even and has ``≥ n_g - K_g ≥ 2R_g + 4`` players, so
it pairs rematch-free inside ``g`` at cost 0 (Dirac). Hence the reduced optimum, extended, is a
global optimum, and the reduced graph always has a perfect matching.

This tightens the plain choice ``K_g = 2R + 4`` or ``2R + 5``: in real events ``ω`` is 2 to 4
and ``μ_g`` 0 or 1, so ``K_g`` is about 5 and 10,000 players after 8 rounds leave a graph of
about 200 vertices.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise

from turnir.domain.model import PlayerId
from turnir.domain.pairing.matching import (
    Edge,
    clique_number,
    max_weight_perfect,
    pair_without_rematches,
)
from turnir.domain.pairing.objective import (
    LOT_BITS,
    CostScale,
    Objective,
    SwissEntrant,
    met_sets,
    objective_of,
)
from turnir.errors import InvariantError, UserError

__all__ = [
    "Objective",
    "SwissEntrant",
    "SwissPairing",
    "objective_of",
    "pair_swiss",
    "pair_swiss_global",
]

_MARGIN = 2
"""Extra players a big score group must have beyond what the proof needs."""


@dataclass(frozen=True, slots=True)
class SwissPairing:
    """The pairing of one Swiss round (P-2, P-3, S-5)."""

    pairs: tuple[tuple[PlayerId, PlayerId], ...]
    """In table order: the pair with more points first (table 1 is the strongest pair); within
    a pair the player with more points first (the lower number when equal)."""
    bye: PlayerId | None
    """The player who gets the bye (S-5), ``None`` when the number of players is even."""
    objective: Objective
    """How good the pairing is (P-3); optimal among all pairings of these entrants."""


@dataclass(frozen=True, slots=True)
class _Group:
    """Vertices of the pairing graph from one score group."""

    points: int
    members: tuple[int, ...]
    """Entrant indices, every member or only the reps of a big group."""
    big: bool
    rest: tuple[int, ...] = ()
    """A big group's members that are not reps."""


@dataclass(frozen=True, slots=True)
class _Event:
    """The entrants as indices, sorted by player number."""

    entrants: tuple[SwissEntrant, ...]
    points: tuple[int, ...]
    eligible: tuple[bool, ...]
    met: tuple[set[int], ...]


def pair_swiss(entrants: Sequence[SwissEntrant], rng: random.Random) -> SwissPairing:
    """Pair a Swiss round optimally for P-3; the bye (odd number) to the lowest eligible (S-5).

    Raises ``UserError`` for fewer than two entrants or a player listed twice.
    """
    event = _event(entrants)
    groups = _reduce(event, rng)
    solved = _solve(event, groups or _whole_groups(event), rng, rematch_edges=groups is None)
    if solved is None:
        raise InvariantError("the reduced pairing graph has no perfect matching")
    pairs, bye = solved
    if groups is not None:
        used = {u for pair in pairs for u in pair}
        if bye is not None:
            used.add(bye)
        for group in groups:
            if group.big:
                inside = [u for u in group.members if u not in used]
                pairs.extend(pair_without_rematches(inside + list(group.rest), event.met, rng))
    return _result(event, pairs, bye)


def pair_swiss_global(
    entrants: Sequence[SwissEntrant], rng: random.Random, *, rematch_edges: bool = True
) -> SwissPairing:
    """The reference solver: one blossom matching over all entrants (P-3), no reduction.

    With ``rematch_edges=False`` pairs of players who met are left out of the graph; raises
    ``UserError`` when no pairing without a rematch exists then. Cubic time: for tests and
    benchmarks, ``pair_swiss`` gives the same objective.
    """
    event = _event(entrants)
    solved = _solve(event, _whole_groups(event), rng, rematch_edges=rematch_edges)
    if solved is None:
        raise UserError("no pairing without a rematch exists", code="no_pairing")
    return _result(event, *solved)


def _event(entrants: Sequence[SwissEntrant]) -> _Event:
    if len(entrants) < 2:
        raise UserError("a Swiss round needs at least two players", code="too_few_players")
    ordered = tuple(sorted(entrants, key=lambda e: e.player))
    for a, b in pairwise(ordered):
        if a.player == b.player:
            raise UserError(f"player {a.player} is listed twice", code="duplicate_player")
    return _Event(
        ordered,
        tuple(e.points for e in ordered),
        tuple(e.bye_eligible for e in ordered),
        tuple(met_sets(ordered)),
    )


def _score_groups(event: _Event) -> dict[int, list[int]]:
    """Entrant indices by points, highest points first."""
    groups: dict[int, list[int]] = {}
    for i, points in enumerate(event.points):
        groups.setdefault(points, []).append(i)
    return dict(sorted(groups.items(), reverse=True))


def _whole_groups(event: _Event) -> list[_Group]:
    return [_Group(p, tuple(m), big=False) for p, m in _score_groups(event).items()]


def _reduce(event: _Event, rng: random.Random) -> list[_Group] | None:
    """The groups of the reduced graph, with reps for big groups; ``None`` if none is big."""
    met, points = event.met, event.points
    max_met = max(len(m) for m in met)
    score_groups = _score_groups(event)
    met_inside = [len([v for v in met[u] if points[v] == points[u]]) for u in range(len(met))]
    inside = {  # R_g: the most opponents a member met inside the group
        p: max(met_inside[u] for u in members) for p, members in score_groups.items()
    }
    if all(len(m) < 2 * max_met + 2 * inside[p] + 2 + _MARGIN for p, m in score_groups.items()):
        return None
    omega = clique_number(met)
    groups: list[_Group] = []
    for p, members in score_groups.items():
        size = len(members)
        if size < 2 * max_met + 2 * inside[p] + 2 + _MARGIN:
            groups.append(_Group(p, tuple(members), big=False))
            continue
        order = list(members)
        rng.shuffle(order)
        first_eligible = next((k for k, u in enumerate(order) if event.eligible[u]), 0)
        order[0], order[first_eligible] = order[first_eligible], order[0]
        count = omega + 1
        while True:  # K_g >= omega + mu_g + 1 with K_g = n_g (mod 2); mu_g grows with K_g
            count += (count - size) % 2
            seen = Counter(v for u in order[:count] for v in met[u] if points[v] != p)
            needed = omega + max(seen.values(), default=0) + 1
            if count >= needed:
                break
            count = needed
        if size < count + 2 * inside[p] + 2 + _MARGIN:
            groups.append(_Group(p, tuple(members), big=False))
        else:
            groups.append(_Group(p, tuple(order[:count]), big=True, rest=tuple(order[count:])))
    return groups if any(group.big for group in groups) else None


def _solve(
    event: _Event, groups: Sequence[_Group], rng: random.Random, *, rematch_edges: bool
) -> tuple[list[tuple[int, int]], int | None] | None:
    """The optimal matching of the graph of ``groups``: real pairs (entrant indices) and bye.

    ``None`` when the graph has no perfect matching (only possible without rematch edges).
    """
    vertices = [u for group in groups for u in group.members]
    odd = len(vertices) % 2 == 1
    bye_vertex = len(vertices)
    scale = CostScale.for_event(
        pairs=(len(vertices) + 1) // 2,
        min_points=min(event.points),
        max_points=max(event.points),
    )
    matched = max_weight_perfect(
        len(vertices) + odd,
        _edges(event, groups, scale, rng, rematch_edges=rematch_edges, bye=odd),
    )
    if 2 * len(matched) != len(vertices) + odd:
        return None
    group_of = [k for k, group in enumerate(groups) for _ in group.members]
    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    for x, y in matched:
        if odd and bye_vertex in (x, y):
            bye = vertices[x + y - bye_vertex]
        elif group_of[x] != group_of[y] or not groups[group_of[x]].big:
            pairs.append((vertices[x], vertices[y]))
    return pairs, bye


def _edges(
    event: _Event,
    groups: Sequence[_Group],
    scale: CostScale,
    rng: random.Random,
    *,
    rematch_edges: bool,
    bye: bool,
) -> Iterator[list[Edge]]:
    """The edges of the pairing graph, one chunk per vertex; vertices numbered group by group.

    Weight is ``big - cost - lot``; virtual edges inside a big group weigh ``big``.
    """
    met, big, lot = event.met, scale.big, rng.getrandbits
    vertices = [u for group in groups for u in group.members]
    vertex_points = [group.points for group in groups for _ in group.members]
    rematch = scale.rematch
    start = 0
    for group in groups:
        end = start + len(group.members)
        later = range(end, len(vertices))
        base = [big - scale.pair_cost(group.points, q, rematch=False) for q in vertex_points]
        for a in range(start, end):
            seen = met[vertices[a]]
            if group.big:
                yield [(a, b, big) for b in range(a + 1, end)]
                targets = later
            else:
                targets = range(a + 1, len(vertices))
            if rematch_edges:
                yield [
                    (a, b, base[b] - (rematch if vertices[b] in seen else 0) - lot(LOT_BITS))
                    for b in targets
                ]
            else:
                yield [(a, b, base[b] - lot(LOT_BITS)) for b in targets if vertices[b] not in seen]
        start = end
    if bye:
        yield [
            (
                a,
                len(vertices),
                big - scale.bye_cost(event.points[u], eligible=event.eligible[u]) - lot(LOT_BITS),
            )
            for a, u in enumerate(vertices)
        ]


def _result(event: _Event, pairs: Sequence[tuple[int, int]], bye: int | None) -> SwissPairing:
    """Player numbers in table order, with the objective computed afresh from the pairing."""
    points, entrants = event.points, event.entrants

    def seat(pair: tuple[int, int]) -> tuple[int, int]:
        a, b = pair
        return (a, b) if (points[a], -a) >= (points[b], -b) else (b, a)

    seated = sorted((seat(p) for p in pairs), key=lambda ab: (-points[ab[0]], -points[ab[1]], ab))
    players = tuple((entrants[a].player, entrants[b].player) for a, b in seated)
    bye_player = None if bye is None else entrants[bye].player
    try:
        objective = objective_of(entrants, players, bye_player)
    except UserError as error:
        raise InvariantError(f"the pairing is not a pairing: {error.message}") from error
    return SwissPairing(players, bye_player, objective)

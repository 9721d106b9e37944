"""Swiss pairing by points, optimal for the P-3 objective (rules P-2, P-3, S-5).

Terms (Russian in brackets) and the objective (a)..(e) are in
``turnir.domain.pairing.objective``: *score group* (очковая группа), *rematch* (повторная
встреча), *bye* (автопобеда), *unequal pair*, *difference*, *down-floater* (спуск). Entrants are
sorted by player number first and only the given ``rng`` is used, so a seed and the same set of
entrants always give the same pairing; round 1 (everyone on 0 points) is drawn by lot (P-2).

**Method.** A pairing is a perfect matching of the entrants (plus a *bye vertex* when their
number is odd). ``turnir.domain.pairing.lexmatch`` finds one that is exactly optimal for a list
of lexicographic levels with 128-bit solves (its docstring proves it). Let ``R`` be the most
opponents anyone met among the entrants and ``N`` the number of entrants.

- ``N < 2R + 3`` (a small or very long event): one matching over all pairs, rematches
  included, with the levels (a) rematch, (b) an ineligible bye and the bye's score, (c) one
  level per difference, largest first, (d) one level per down-floater's score, highest first,
  and the lot (e). ``pair_swiss_global`` is the same solve for any ``N`` (the reference).
- Otherwise the round is cut into small *blocks* solved one by one with (c), (d) and the lot:
  the *bye group* ``B`` is the lowest score with an eligible player (the lowest score if nobody
  is eligible); *walls* are big score groups (W1 below), each represented by a few *up-reps*
  towards the players above it and *down-reps* towards those below (W2); a *segment* is the run
  of other groups between two walls; a block is a segment, with the reps of its two walls and
  the bye vertex when ``B`` is in it, cut further at *safe cuts* (F4). Its edges are the pairs
  that F1 and F2 allow and that are no rematch, plus *virtual* edges of cost 0 between the reps
  of one wall side ("both stay in the wall"). Each segment is solved on its own: a bound ``D``
  on its differences (F2) is tried from a lower bound upwards (by half each time, at least the
  smallest gap between scores), the last time none; the first bound for which all its blocks
  have a perfect matching gives its pairs. Then each wall's members not paired across are
  paired among themselves by lot without a rematch (``pair_without_rematches``); when ``B`` is
  a wall its bye player is drawn by lot first.

**Proof** (for ``N ≥ 2R + 3``). Notation: ``p(x)`` points, ``I(u, v)`` the entrants with points
strictly between ``p(u)`` and ``p(v)``, ``n_g`` and ``R_g`` the size of a group and the most
opponents a member met inside it. Two tools:

- (D) Dirac: an even set of ``m ≥ 2r + 2`` players each of whom met at most ``r`` of the others
  can be paired without a rematch (the graph of who has *not* met has minimum degree ``≥ m/2``).
- (X) Domination: if an exchange replaces some pairs by as many pairs on the same players and
  the new differences can be matched one to one with old ones, each at most as large and one
  smaller, the pairing is strictly better in (c) (and no worse in (a), (b) when no new pair is
  a rematch and the bye stays). So no optimum admits such an exchange. A special case: two
  pairs ``x1 y1``, ``x2 y2`` with ``x1, x2`` above a cut and ``y1, y2`` below it, replaced by
  ``x1 x2``, ``y1 y2``: both new differences are smaller than the larger old one.

(a), (b): removing any bye player leaves an even ``N - 1 ≥ 2R + 2``, pairable without rematches
by (D); so every optimum has no rematch and its bye in ``B``.

*F1, pairs are short.* In an optimum with all differences at most ``D``, a pair ``u v``,
``p(u) > p(v)``, has ``|I(u, v)| ≤ n(u) + n(v) + 1``, where ``n(x)`` counts the opponents of
``x`` less than ``2D`` points from him (all of them without a bound). For ``x ∈ I`` with partner
``y``: if ``y ∈ I``, ``u x + y v`` or ``u y + x v``; if ``p(y) ≥ p(u)``, ``u y + x v``; if
``p(y) ≤ p(v)``, ``u x + y v`` -- every time (X) applies unless a new pair is a rematch. A
crossing ``x`` is blocked by one meeting of ``u`` or ``v`` with ``x`` or ``y``, a pair inside
``I`` needs two; ``x`` and ``y`` lie less than ``2D`` from both ``u`` and ``v``, and each such
meeting blocks one pair only. The bye player in ``I`` (then ``v`` is ineligible) adds one. So
a longer pair is not optimal; in particular no pair jumps over a group of ``2R + 2`` or more.

*F2, the bound.* A pairing without rematches with its bye in ``B`` and largest difference
``D'`` shows that every optimum has all differences ``≤ D'`` ((a), (b) equal, (c) no worse).
This holds segment by segment: if the blocks of a segment for a bound ``D`` have perfect
matchings, they (with the walls' other members paired inside, below; a wall member that the
optimum uses on the other side is swapped by (F)) replace the optimum's pairs of that segment
and give a pairing again, so the optimum's pairs there are no worse and have differences
``≤ D``; else a larger bound is tried, at last none.

*W1, walls.* A group is a wall if ``n ≥ 4R + max(2 R_g, M_g) + 3`` (plus a margin), ``n``
without the bye player and ``M_g ≤ R`` the most of its members one other player met. In an
optimum let ``u_i v_i`` be the wall's *up* cross pairs (``p(v_i)`` higher), ``S`` its members
paired inside it.
(i) At most ``2R + 1`` up (and down) cross pairs: else pair ``2R + 2`` of the ``v_i`` among
themselves and their ``u_i`` with ``S`` inside the wall, both by (D); (X) applies, as
``|p(v_i) - p(v_j)| < max(p(v_i), p(v_j)) - p(wall)``. So ``|S| ≥ 2 R_g + 2`` and
``|S| > M_g``.
(F) Members are *flexible*: for any other player a member ``z ∈ S`` he has not met exists, and
can take the place of any member in a pair while that member joins the wall's inside pairs.
(ii) Two up-partners who have not met give ``v_i v_j`` plus ``S + u_i + u_j`` re-paired in the
wall, strictly better by (X); if one is in another wall and met the other, (F) swaps him. So
the up-partners outside walls all met each other, and a partner in a wall is the only one: at
most ``ω_up = max(1, ω)`` up cross pairs, ``ω`` the clique number of the players outside walls
who may pair with the wall from above (by F1, F2). The same below.

*W2, reps.* ``K_up ≥ ω_up + μ_up + 1`` up-reps drawn by lot, ``μ_up`` the most of them any
player outside the wall met, and ``K_up`` of the parity of the entrants above the wall (not
counting the bye player), which is the parity of the pairs across the cut above it (nobody
jumps over a wall, F1). The same below, disjoint; the rest ``n - K_up - K_down ≥ 2 R_g + 2``
(plus a margin), else the group is treated as an ordinary one.

*F4, safe cuts.* Take a cut between two groups of a segment with an even number of entrants
above it (the bye player not counted). If among the players outside walls who can pair across
it (F1, F2) no two met each other above it, nor below it, no optimum has a pair across: two
pairs across allow the exchange of (X), made possible for wall members by (F). So at most one
pair crosses, and by parity none; the blocks on the two sides are independent.

*Reduced = global.* (≤) Take an optimum. By F1, F2, F4 its pairs are edges of the blocks or
inside walls. Map each wall's cross pairs (at most ``ω`` per side) onto its reps: each end in
a wall to an unused rep of that side not met by the other end as mapped -- at most ``ω`` used
and ``μ`` met reps are excluded, so ``K ≥ ω + μ + 1`` leaves one. Points are kept, so (c) and
(d) are; the unused reps, an even number by the parity of ``K``, take virtual edges. So the
blocks' optima cost at most the optimum. (≥) Any perfect matchings of the blocks, with each
wall's other members (an even number, ``≥ 2 R_g + 2``) paired inside it by (D), are a pairing
without rematches, with the bye in ``B`` and the same (c) and (d). The objective is a sum over
pairs in an ordered group, so the union of the block optima is optimal. When ``B`` is a wall,
all its eligible members give the same optimum by (F), so its bye player is drawn by lot.

The lot (e) is the random reps, the random order of the vertices (ties of the matching), the
random lot on every edge (as many bits as fit) and the random pairing inside walls.

*Small.* Walls take the big groups out (a 10,000-player round after 8 rounds keeps a few
hundred vertices); F2 and F4 cut long runs of small groups into blocks of a few players (all
10,000 players on different scores give blocks of 2 to 10); only the sparse ends of long
events stay blocks of a few hundred players.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from turnir.domain.model import PlayerId
from turnir.domain.pairing.blocks import (
    LOT_BITS,
    Block,
    Event,
    failing_walls,
    make_event,
    make_walls,
    segment_blocks,
    segment_bounds,
    segments,
    wall_candidates,
)
from turnir.domain.pairing.floats import Float, FloatReason, explain_floats
from turnir.domain.pairing.lexmatch import LexEdge, PairingTooWide, lex_min_perfect
from turnir.domain.pairing.matching import pair_without_rematches
from turnir.domain.pairing.objective import Objective, SwissEntrant, objective_of
from turnir.errors import InvariantError, UserError

__all__ = [
    "Float",
    "FloatReason",
    "Objective",
    "PairingTooWide",
    "SwissEntrant",
    "SwissPairing",
    "explain_floats",
    "objective_of",
    "pair_swiss",
    "pair_swiss_global",
]


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
    floats: tuple[Float, ...] = ()
    """Every player paired outside his points group, with the reason (``explain_floats``)."""


def pair_swiss(entrants: Sequence[SwissEntrant], rng: random.Random) -> SwissPairing:
    """Pair a Swiss round optimally for P-3; the bye (odd number) to the lowest eligible (S-5).

    Raises ``UserError`` for fewer than two entrants or a player listed twice, and
    ``PairingTooWide`` (a ``UserError``) if the points are too spread to compare exactly.
    """
    event = _event(entrants)
    if len(event.points) < 2 * event.max_degree + 3:
        solved = _solve_global(event, rng, rematch_edges=True)
        if solved is None:
            raise InvariantError("a complete pairing graph has no perfect matching")
        return _result(event, *solved)
    return _result(event, *_solve_reduced(event, rng))


def pair_swiss_global(
    entrants: Sequence[SwissEntrant], rng: random.Random, *, rematch_edges: bool = True
) -> SwissPairing:
    """The reference solver: one exact matching over all pairs of entrants (P-3), no reduction.

    With ``rematch_edges=False`` pairs of players who met are left out of the graph; raises
    ``UserError`` when no pairing without a rematch exists then. Cubic time: for tests and
    benchmarks, ``pair_swiss`` gives the same objective.
    """
    event = _event(entrants)
    solved = _solve_global(event, rng, rematch_edges=rematch_edges)
    if solved is None:
        raise UserError("no pairing without a rematch exists", code="no_pairing")
    return _result(event, *solved)


def _event(entrants: Sequence[SwissEntrant]) -> Event:
    if len(entrants) < 2:
        raise UserError("a Swiss round needs at least two players", code="too_few_players")
    ordered = tuple(sorted(entrants, key=lambda e: e.player))
    for a, b in pairwise(ordered):
        if a.player == b.player:
            raise UserError("player {player} is listed twice", code="duplicate_player",
                            player=a.player)
    return make_event(ordered)


_Solved = tuple[list[tuple[int, int]], int | None]
"""Pairs of entrant indices and the bye (an index or ``None``)."""


def _solve_reduced(event: Event, rng: random.Random) -> _Solved:
    """The fast path (at least ``2R + 3`` entrants): walls, then each segment with growing
    bounds, as proved above (F2 holds segment by segment: a segment's pairing together with the
    optimum elsewhere is a pairing, and the objective adds up)."""
    bye_group = event.bye_group()
    candidates = wall_candidates(event, bye_group)
    bye_player = None
    if bye_group is not None and bye_group in candidates:
        bye_player = rng.choice(sorted(event.bye_pool(bye_group)))
    walls = make_walls(event, sorted(candidates), bye_player)
    while True:
        pairs: list[tuple[int, int]] = []
        bye: int | None = None
        for segment in segments(event, walls):
            for bound in segment_bounds(event, segment, bye_group):
                solved = _solve_blocks(segment_blocks(event, walls, segment, bye_group, bound,
                                                      rng))
                if solved is not None:
                    break
            else:
                raise InvariantError("the reduced pairing graph has no perfect matching")
            pairs += solved[0]
            bye = solved[1] if solved[1] is not None else bye
        failing = failing_walls(walls)
        if not failing:
            break
        for g in failing:
            del walls[g]
            if g == bye_group:
                bye_player = None
    used = {u for pair in pairs for u in pair}
    for wall in walls.values():
        rest = [u for u in wall.members if u not in used]
        pairs.extend(pair_without_rematches(rest, event.met, rng))
    return pairs, bye_player if bye_player is not None else bye


def _solve_blocks(blocks: Iterable[Block]) -> _Solved | None:
    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    for block in blocks:
        chosen = lex_min_perfect(len(block.nodes), block.edges, block.caps, lot_bits=LOT_BITS)
        if chosen is None:
            return None
        for edge in chosen:
            x, y = block.nodes[edge.u], block.nodes[edge.v]
            if x.wall_side and x.wall_side == y.wall_side and x.group == y.group:
                continue
            if x.player < 0 or y.player < 0:
                bye = x.player + y.player + 1
            else:
                pairs.append((x.player, y.player))
    return pairs, bye


def _solve_global(event: Event, rng: random.Random, *, rematch_edges: bool) -> _Solved | None:
    """One exact matching over all pairs: levels (a) rematch, (b) bye eligibility and bye
    points, (c) one per difference, (d) one per down-floater's score, then the lot."""
    points, n = event.points, len(event.points)
    sizes = dict(zip(event.group_points, map(len, event.groups), strict=True))
    joined: dict[int, set[int]] = {}  # the scores a difference can join
    for a in event.group_points:
        for b in event.group_points:
            if a > b:
                joined.setdefault(a - b, set()).update((a, b))
    differences = sorted(joined, reverse=True)
    diff_level = {d: 3 + k for k, d in enumerate(differences)}
    float_level = {p: 3 + len(differences) + k for k, p in enumerate(event.group_points)}
    rank = {p: k for k, p in enumerate(reversed(event.group_points))}
    pairs = (n + 1) // 2
    caps = [pairs, 1, len(rank)]
    caps += [min(pairs, sum(sizes[p] for p in joined[d]) // 2) for d in differences]
    caps += [min(pairs, len(members)) for members in event.groups]
    edges: list[LexEdge] = []
    cache: dict[tuple[bool, int, int], tuple[tuple[int, int], ...]] = {}
    for u in range(n):
        met_u = event.met[u]
        for v in range(u + 1, n):
            rematch = v in met_u
            if rematch and not rematch_edges:
                continue
            key = (rematch, points[u], points[v])
            terms = cache.get(key)
            if terms is None:
                terms = ((0, 1),) if rematch else ()
                if points[u] != points[v]:
                    terms += ((diff_level[abs(points[u] - points[v])], 1),
                              (float_level[max(points[u], points[v])], 1))
                cache[key] = terms
            edges.append(LexEdge(u, v, terms, rng.getrandbits(LOT_BITS)))
    if n % 2:
        for u in range(n):
            terms = ((1, 1),) if not event.eligible[u] else ()
            if rank[points[u]]:
                terms += ((2, rank[points[u]]),)
            edges.append(LexEdge(u, n, terms, rng.getrandbits(LOT_BITS)))
    chosen = lex_min_perfect(n + n % 2, edges, caps, lot_bits=LOT_BITS)
    if chosen is None:
        return None
    pairs_found = [(e.u, e.v) for e in chosen if e.v != n]
    bye = next((e.u for e in chosen if e.v == n), None)
    return pairs_found, bye


def _result(event: Event, pairs: Sequence[tuple[int, int]], bye: int | None) -> SwissPairing:
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
    return SwissPairing(players, bye_player, objective,
                        explain_floats(entrants, players, bye_player))

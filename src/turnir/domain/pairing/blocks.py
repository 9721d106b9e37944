"""The exact reduction of a Swiss round to small independent blocks (rules P-2, P-3, S-5).

The method and its proof are in ``turnir.domain.pairing.swiss``; this module follows it step by
step. Terms: *walls* are big score groups (their members are interchangeable, "flexible"), each
represented by a few *reps* towards the players above it (*up-reps*) and below it
(*down-reps*); a *segment* is the run of other score groups between two walls; a *safe cut*
splits a segment where no optimal pairing has a pair across; the *bound* ``D`` is the largest
point difference a pair may have (rule F2 of the proof). Vertices are entrant indices.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from turnir.domain.pairing.lexmatch import LexEdge
from turnir.domain.pairing.matching import clique_number
from turnir.domain.pairing.objective import SwissEntrant, met_sets

MARGIN = 2
"""Extra members a wall must have beyond what the proof needs."""
LOT_BITS = 16
"""Bits of the random lot (P-3 e) on each edge."""


@dataclass(frozen=True, slots=True)
class Event:
    """The entrants as indices (sorted by player number) and their score groups."""

    entrants: tuple[SwissEntrant, ...]
    points: tuple[int, ...]
    eligible: tuple[bool, ...]
    met: tuple[set[int], ...]
    degree: tuple[int, ...]
    """Opponents met among the entrants."""
    groups: tuple[tuple[int, ...], ...]
    """Members of each score group, the highest points first."""
    group_points: tuple[int, ...]
    group_of: tuple[int, ...]
    start: tuple[int, ...]
    """Entrants in the groups above each group; ``start[len(groups)]`` is everyone."""
    inside: tuple[int, ...]
    """The most opponents a member of each group met inside the group (``R_g``)."""

    @property
    def max_degree(self) -> int:
        return max(self.degree, default=0)

    def between(self, g: int, h: int) -> int:
        """Entrants with points strictly between groups ``g`` and ``h``."""
        g, h = min(g, h), max(g, h)
        return max(0, self.start[h] - self.start[g + 1])

    def bye_group(self) -> int | None:
        """The group the bye goes to (S-5, P-3 b) in a rematch-free optimum; ``None``: even."""
        if len(self.points) % 2 == 0:
            return None
        eligible = [g for g, members in enumerate(self.groups)
                    if any(self.eligible[u] for u in members)]
        return eligible[-1] if eligible else len(self.groups) - 1

    def bye_pool(self, group: int) -> list[int]:
        """Who in ``group`` may take the bye: the eligible members (everyone if none is)."""
        members = self.groups[group]
        return [u for u in members if self.eligible[u]] or list(members)


def make_event(entrants: Sequence[SwissEntrant]) -> Event:
    """The ``Event`` of entrants already sorted by player number."""
    ordered = tuple(entrants)
    points = tuple(e.points for e in ordered)
    met = tuple(met_sets(ordered))
    by_points: dict[int, list[int]] = {}
    for i, p in enumerate(points):
        by_points.setdefault(p, []).append(i)
    group_points = tuple(sorted(by_points, reverse=True))
    groups = tuple(tuple(by_points[p]) for p in group_points)
    group_of = [0] * len(points)
    start = [0]
    inside = []
    for g, members in enumerate(groups):
        for u in members:
            group_of[u] = g
        start.append(start[-1] + len(members))
        member_set = set(members)
        inside.append(max(len(met[u] & member_set) for u in members))
    return Event(ordered, points, tuple(e.bye_eligible for e in ordered), met,
                 tuple(len(m) for m in met), groups, group_points, tuple(group_of), tuple(start),
                 tuple(inside))


@dataclass(slots=True)
class Wall:
    """A big score group: its members in lot order, split into up-reps, down-reps, the rest."""

    group: int
    members: list[int]
    inside: int
    """The most opponents a member met inside the group (``R_W``)."""
    degree: int
    """The most opponents a member met (bounds F1 for a rep)."""
    up: list[int] = field(default_factory=list)
    down: list[int] = field(default_factory=list)
    drawn: int = 0
    """How many members at the front are already drawn by lot (the up-reps come from there)."""
    drawn_back: int = 0
    """How many at the back (the down-reps): the two ends never meet while W2 holds."""

    def draw(self, count: int, side: int, rng: random.Random) -> list[int]:
        """``count`` members drawn by lot from the front (``side`` +1) or the back (-1)."""
        members = self.members
        free = len(members) - self.drawn - self.drawn_back
        count = min(count, (self.drawn if side > 0 else self.drawn_back) + free)
        while side > 0 and self.drawn < count:
            k = rng.randrange(self.drawn, len(members) - self.drawn_back)
            members[self.drawn], members[k] = members[k], members[self.drawn]
            self.drawn += 1
        while side < 0 and self.drawn_back < count:
            end = len(members) - 1 - self.drawn_back
            k = rng.randrange(self.drawn, end + 1)
            members[end], members[k] = members[k], members[end]
            self.drawn_back += 1
        return members[:count] if side > 0 else members[len(members) - count:]


@dataclass(frozen=True, slots=True)
class Node:
    """A vertex of a block: a player of a segment, a rep of a wall, or the bye vertex."""

    player: int
    """Entrant index; -1 for the bye vertex."""
    group: int
    wall_side: int = 0
    """+1 an up-rep, -1 a down-rep (of the wall ``group``), 0 otherwise."""


@dataclass(frozen=True, slots=True)
class Block:
    """An independent part of the round: solve it, its optimum is part of the optimum."""

    nodes: tuple[Node, ...]
    edges: tuple[LexEdge, ...]
    caps: tuple[int, ...]


def wall_candidates(event: Event, bye_group: int | None) -> dict[int, int]:
    """Groups big enough to be walls (W1 of the proof), with their size (the bye removed)."""
    r = event.max_degree
    sizes = {g: len(members) - (g == bye_group) for g, members in enumerate(event.groups)}
    found: dict[int, int] = {}
    for g, size in sizes.items():
        if size < 4 * r + 2 * event.inside[g] + 3 + MARGIN:
            continue
        if size >= 4 * r + max(2 * event.inside[g], r) + 3 + MARGIN:  # M_g <= R
            found[g] = size
            continue
        met_members: dict[int, int] = {}  # M_g: the most members of g one other player met
        for u in event.groups[g]:
            for v in event.met[u]:
                met_members[v] = met_members.get(v, 0) + 1
        reach = max((c for v, c in met_members.items() if event.group_of[v] != g), default=0)
        if size >= 4 * r + max(2 * event.inside[g], reach) + 3 + MARGIN:
            found[g] = size
    return found


def make_walls(event: Event, chosen: Sequence[int], bye_player: int | None) -> dict[int, Wall]:
    """Walls of the chosen groups (the bye player left out); reps are drawn later by lot."""
    walls: dict[int, Wall] = {}
    for g in chosen:
        members = [u for u in event.groups[g] if u != bye_player]
        walls[g] = Wall(g, members, event.inside[g], max(event.degree[u] for u in members))
    return walls


@dataclass(frozen=True, slots=True)
class Segment:
    """The non-wall groups between two walls (``None``: the top or the bottom)."""

    upper: int | None
    lower: int | None
    groups: tuple[int, ...]

    def players(self, event: Event) -> list[int]:
        return [u for g in self.groups for u in event.groups[g]]


def segments(event: Event, walls: dict[int, Wall]) -> list[Segment]:
    """The segments from the top, each between two walls (or an end)."""
    found: list[Segment] = []
    upper: int | None = None
    run: list[int] = []
    for g in range(len(event.groups)):
        if g in walls:
            found.append(Segment(upper, g, tuple(run)))
            upper, run = g, []
        else:
            run.append(g)
    found.append(Segment(upper, None, tuple(run)))
    return found


def failing_walls(walls: dict[int, Wall]) -> list[int]:
    """The walls whose members left after the reps are too few for W2 (to be demoted)."""
    return [g for g, wall in walls.items()
            if len(wall.members) - len(wall.up) - len(wall.down) < 2 * wall.inside + 2 + MARGIN]


def _near_degrees(event: Event, players: Sequence[int], bound: int | None) -> dict[int, int]:
    """For F1: the opponents each player met less than ``2D`` points away (all of them without
    a bound); only these can stop its exchanges."""
    if bound is None:
        return {u: event.degree[u] for u in players}
    points = event.points
    near: dict[int, int] = {}
    for u in players:
        low, high = points[u] - 2 * bound, points[u] + 2 * bound
        near[u] = sum(1 for v in event.met[u] if low < points[v] < high)
    return near


def _allowed(event: Event, g: int, h: int, degree_sum: int, bound: int | None) -> bool:
    """F1 and F2: a pair between groups ``g`` and ``h`` can be in an optimal pairing."""
    if bound is not None and abs(event.group_points[g] - event.group_points[h]) > bound:
        return False
    return event.between(g, h) <= degree_sum + 1


def _choose(event: Event, walls: dict[int, Wall], g: int, players: Sequence[int],
            near: dict[int, int], other: int | None, side: int, bye_group: int | None,
            bound: int | None, rng: random.Random) -> None:
    """The reps of wall ``g`` towards the segment ``players`` (``side`` +1: the segment is
    above the wall, the up-reps; -1: below, the down-reps), by W2."""
    wall = walls[g]
    beyond = event.start[g] if side > 0 else event.start[-1] - event.start[g + 1]
    if bye_group is not None and (bye_group < g if side > 0 else bye_group > g):
        beyond -= 1
    parity = beyond % 2
    partners = [v for v in players
                if _allowed(event, g, event.group_of[v], wall.degree + near[v], bound)]
    reaches_wall = other is not None and _allowed(event, g, other,
                                                  wall.degree + walls[other].degree, bound)
    if not partners and not reaches_wall:
        reps = wall.draw(parity, side, rng)
    else:
        omega = max(1, _clique(event, partners))
        count = omega + 1
        while True:  # K >= omega + mu + 1, K = parity (mod 2); mu grows with K
            count += (count - parity) % 2
            reps = wall.draw(count, side, rng)
            seen = Counter(v for u in reps for v in event.met[u] if event.group_of[v] != g)
            needed = omega + max(seen.values(), default=0) + 1
            if count >= needed or len(reps) < count:
                break
            count = needed
    if side > 0:
        wall.up = list(reps)
    else:
        wall.down = list(reps)


def _clique(event: Event, players: Sequence[int]) -> int:
    if not players:
        return 0
    index = {u: k for k, u in enumerate(players)}
    sub = [{index[v] for v in event.met[u] if v in index} for u in players]
    return clique_number(sub)


def segment_blocks(event: Event, walls: dict[int, Wall], segment: Segment,
                   bye_group: int | None, bound: int | None,
                   rng: random.Random) -> Iterator[Block]:
    """The blocks of one segment for a bound: its walls' reps towards it, cut at safe cuts;
    each block is built when asked for (a solver stops at the first one without a pairing)."""
    players = segment.players(event)
    near = _near_degrees(event, players, bound)
    if segment.lower is not None:
        _choose(event, walls, segment.lower, players, near, segment.upper, +1, bye_group,
                bound, rng)
    if segment.upper is not None:
        _choose(event, walls, segment.upper, players, near, segment.lower, -1, bye_group,
                bound, rng)
    nodes = _segment_nodes(event, walls, segment, bye_group, rng)
    if not nodes:
        return
    raw = _segment_edges(event, walls, nodes, bye_group, bound, near)
    for part_nodes, part_edges in _split(event, nodes, raw, bye_group):
        yield _block(event, part_nodes, part_edges, rng)


def segment_bounds(event: Event, segment: Segment, bye_group: int | None) -> list[int | None]:
    """Bounds ``D`` to try for a segment (F2), growing, then none. The first is a lower bound:
    every player needs a partner he has not met, and a cut with an odd number above needs a
    pair across."""
    points = event.group_points
    ends = [g for g in (segment.upper, *segment.groups, segment.lower) if g is not None]
    first, last = ends[0], ends[-1]
    bound = 0
    for g in range(first, last):
        above = event.start[g + 1] - (bye_group is not None and bye_group <= g)
        if above % 2:
            bound = max(bound, points[g] - points[g + 1])
    pool = set(event.bye_pool(bye_group)) if bye_group is not None else set()
    for u in segment.players(event):
        if u not in pool:
            bound = max(bound, _nearest_partner(event, u))
    spread = points[0] - points[-1]
    step = min((a - b for a, b in pairwise(points)), default=1)
    bounds: list[int | None] = []
    while bound < spread:
        bounds.append(bound)
        bound = max(bound + bound // 2, bound + step)
    bounds.append(None)
    return bounds


def _nearest_partner(event: Event, u: int) -> int:
    """The smallest point difference to a player ``u`` has not met."""
    g, met = event.group_of[u], event.met[u]
    if any(v != u and v not in met for v in event.groups[g]):
        return 0
    best: int | None = None
    for h in range(g - 1, -1, -1):
        if any(v not in met for v in event.groups[h]):
            best = event.group_points[h] - event.group_points[g]
            break
    for h in range(g + 1, len(event.groups)):
        difference = event.group_points[g] - event.group_points[h]
        if best is not None and difference >= best:
            break
        if any(v not in met for v in event.groups[h]):
            best = difference
            break
    return best or 0


def _segment_nodes(event: Event, walls: dict[int, Wall], segment: Segment,
                   bye_group: int | None, rng: random.Random) -> list[Node]:
    """The segment's vertices by group, each group in lot order (ties of the matching and the
    lot's coarsening then fall by lot too)."""
    nodes: list[Node] = []
    if segment.upper is not None:
        nodes += [Node(u, segment.upper, -1) for u in walls[segment.upper].down]
    for g in segment.groups:
        members = list(event.groups[g])
        rng.shuffle(members)
        nodes += [Node(u, g) for u in members]
        if g == bye_group:
            nodes.append(Node(-1, g))
    if segment.lower is not None:
        nodes += [Node(u, segment.lower, +1) for u in walls[segment.lower].up]
    return nodes


_Raw = tuple[int, int]
"""An edge of a segment as two node positions."""


def _segment_edges(event: Event, walls: dict[int, Wall], nodes: Sequence[Node],
                   bye_group: int | None, bound: int | None,
                   near: dict[int, int]) -> list[_Raw]:
    """Virtual edges between the reps of one wall side; every other pair allowed by F1 and F2
    that is no rematch; the bye vertex to the bye pool. ``nodes`` are sorted by group."""
    pool = set(event.bye_pool(bye_group)) if bye_group is not None else set()
    start, gp, met = event.start, event.group_points, event.met
    degree = [walls[x.group].degree if x.wall_side else (near[x.player] if x.player >= 0 else 0)
              for x in nodes]
    most = max(degree, default=0)
    runs: list[tuple[int, int, int]] = []  # (group, first node, end node)
    for k, x in enumerate(nodes):
        if runs and runs[-1][0] == x.group:
            runs[-1] = (x.group, runs[-1][1], k + 1)
        else:
            runs.append((x.group, k, k + 1))
    edges: list[_Raw] = []
    for run, (g, first, end) in enumerate(runs):
        for a in range(first, end):
            x = nodes[a]
            if x.player < 0:
                edges += [(a, b) for b in range(first, end)
                          if nodes[b].player in pool and not nodes[b].wall_side]
                continue
            met_x, degree_x = met[x.player], degree[a]
            for h, low, high in runs[run:]:
                if h == g:
                    between = 0
                    low = a + 1
                else:
                    if bound is not None and gp[g] - gp[h] > bound:
                        break
                    between = start[h] - start[g + 1]
                    if between > degree_x + most + 1:
                        break
                need = between - degree_x - 1
                for b in range(low, high):
                    y = nodes[b]
                    if y.player < 0:
                        continue
                    virtual = bool(x.wall_side) and x.wall_side == y.wall_side and h == g
                    if virtual or (degree[b] >= need and y.player not in met_x):
                        edges.append((a, b))
    return edges


def _split(event: Event, nodes: Sequence[Node], edges: Sequence[_Raw],
           bye_group: int | None) -> list[tuple[list[Node], list[_Raw]]]:
    """The segment cut at every safe cut (F4): an even number above, and no two players who
    met among the non-wall players able to cross it, on either side."""
    levels = sorted({x.group for x in nodes})
    level_of = {g: k for k, g in enumerate(levels)}
    level = [level_of[x.group] for x in nodes]
    lowest = list(level)  # the lowest level each node can pair with, and the highest
    highest = list(level)
    for a, b in edges:
        if level[b] > lowest[a]:
            lowest[a] = level[b]
        if level[a] < highest[b]:
            highest[b] = level[a]
    # a non-wall node crosses the cuts from its level down to its lowest partner (upper side)
    # and from its highest partner down to its level (lower side)
    upper_blocked = _blocked(event, [(level[a], lowest[a], nodes[a].player)
                                     for a in range(len(nodes))
                                     if not nodes[a].wall_side and nodes[a].player >= 0],
                             len(levels))
    lower_blocked = _blocked(event, [(highest[b], level[b], nodes[b].player)
                                     for b in range(len(nodes))
                                     if not nodes[b].wall_side and nodes[b].player >= 0],
                             len(levels))
    safe: set[int] = set()
    for k in range(len(levels) - 1):
        above = event.start[levels[k] + 1] - (bye_group is not None and bye_group <= levels[k])
        if above % 2 == 0 and not upper_blocked[k] and not lower_blocked[k]:
            safe.add(k)
    part_of_level = [0] * len(levels)
    for k in range(1, len(levels)):
        part_of_level[k] = part_of_level[k - 1] + (k - 1 in safe)
    parts: list[tuple[list[Node], list[_Raw]]] = [([], []) for _ in range(len(safe) + 1)]
    place: list[tuple[int, int]] = []
    for a, x in enumerate(nodes):
        part = parts[part_of_level[level[a]]]
        place.append((part_of_level[level[a]], len(part[0])))
        part[0].append(x)
    for a, b in edges:
        (pa, ka), (pb, kb) = place[a], place[b]
        if pa == pb:
            parts[pa][1].append((ka, kb))
    return parts


def _blocked(event: Event, spans: Sequence[tuple[int, int, int]], count: int) -> list[bool]:
    """For each cut ``k`` (below level ``k``): do two players who met both cross it? A player
    ``(first, last, u)`` crosses the cuts ``first .. last - 1``; a sweep keeps the players
    crossing the current cut and how many met pairs are among them."""
    starting: list[list[int]] = [[] for _ in range(count)]
    ending: list[list[int]] = [[] for _ in range(count + 1)]
    for first, last, u in spans:
        if last > first:
            starting[first].append(u)
            ending[last].append(u)
    active: set[int] = set()
    met_pairs = 0
    blocked = [False] * count
    for k in range(count):
        for u in ending[k]:
            active.discard(u)
            met_pairs -= len(event.met[u] & active)
        for u in starting[k]:
            met_pairs += len(event.met[u] & active)
            active.add(u)
        blocked[k] = met_pairs > 0
    return blocked


def _block(event: Event, nodes: Sequence[Node], raw: Sequence[_Raw],
           rng: random.Random) -> Block:
    """The block's edges with their P-3 levels: (c) one per difference, largest first, then
    (d) one per down-floater's score, highest first; the lot on every real edge.

    Caps: a difference level holds at most half the vertices of the groups it joins, a float
    level at most the vertices on its points (each of its pairs has one of them on top)."""
    points = [event.group_points[x.group] for x in nodes]
    at_points = Counter(points)
    unequal = {(points[a], points[b]) for a, b in raw if points[a] != points[b]}
    joined: dict[int, set[int]] = {}
    for pa, pb in unequal:
        joined.setdefault(abs(pa - pb), set()).update((pa, pb))
    differences = sorted(joined, reverse=True)
    floats = sorted({max(pair) for pair in unequal}, reverse=True)
    diff_level = {d: k for k, d in enumerate(differences)}
    float_level = {p: len(differences) + k for k, p in enumerate(floats)}
    pairs = len(nodes) // 2
    edges: list[LexEdge] = []
    terms_cache: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
    lot = rng.getrandbits
    for a, b in raw:
        x, y = nodes[a], nodes[b]
        pa, pb = points[a], points[b]
        if pa == pb:
            virtual = x.wall_side and y.wall_side == x.wall_side and x.group == y.group
            edges.append(LexEdge(a, b, (), 0 if virtual else lot(LOT_BITS)))
            continue
        key = (diff_level[abs(pa - pb)], float_level[pa if pa > pb else pb])
        terms = terms_cache.get(key)
        if terms is None:
            terms = terms_cache[key] = ((key[0], 1), (key[1], 1))
        edges.append(LexEdge(a, b, terms, lot(LOT_BITS)))
    caps = [min(pairs, sum(at_points[p] for p in joined[d]) // 2) for d in differences]
    caps += [min(pairs, at_points[p]) for p in floats]
    return Block(tuple(nodes), tuple(edges), tuple(caps))

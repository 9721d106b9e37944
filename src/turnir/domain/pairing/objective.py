"""The Swiss pairing objective and its integer edge costs (rules P-2, P-3, S-5).

Terms (Russian in brackets):

- *entrant*: a player still in the Swiss part (швейцарская часть) who is paired this round.
- *rematch* (повторная встреча): a pair of two players who have already met in the Swiss part.
- *bye* (автопобеда): the player left without an opponent when the number is odd (S-5); a
  player who already had an unrequested bye is *not eligible* for another one.
- *unequal pair*: a pair of players with different match points.

The objective (P-3) is compared lexicographically, lower is better: (a) rematches, (b) the bye
to an ineligible player, then the bye player's points, (c) unequal pairs, (d) the sum over pairs
of the squared point difference, (e) the lot. A bye is not a pair for (c) and (d).

``CostScale`` turns the objective into one integer cost per edge of the pairing graph: each term
gets a multiplier larger than the largest total all lower terms can reach in one pairing, so
the sum of edge costs of a pairing orders pairings exactly like the objective (lexicographic
order on bounded non-negative integers). The lot (e) is a random integer below ``LOT_RANGE`` on
every edge, the lowest term.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from turnir.domain.model import PlayerId
from turnir.errors import InvariantError, UserError

LOT_BITS = 16
"""Bits of the random lot term on each edge (P-3 e)."""
LOT_RANGE = 1 << LOT_BITS
MAX_WEIGHT = 1 << 120
"""rustworkx matches with 128-bit integers; every weight and total stays below this."""


@dataclass(frozen=True, slots=True)
class SwissEntrant:
    """One player to be paired in a Swiss round (P-2, S-5)."""

    player: PlayerId
    """The player's number in the tournament."""
    points: int
    """Current match points (integers, S-7)."""
    opponents: frozenset[PlayerId]
    """Everyone met so far in the Swiss part; pairing two who met is a rematch."""
    bye_eligible: bool = True
    """``False`` once the player had an unrequested bye (S-5)."""


@dataclass(frozen=True, slots=True, order=True)
class Objective:
    """The quality of a pairing (P-3), compared lexicographically, lower is better."""

    rematches: int
    """(a) pairs of players who met before."""
    bye_ineligible: int
    """(b) 1 if the bye went to a player who already had an unrequested bye (S-5)."""
    bye_points: int
    """(b) points of the bye player (0 when there is no bye)."""
    unequal_pairs: int
    """(c) pairs of players with different points."""
    squared_differences: int
    """(d) sum over pairs of the squared point difference."""


def met_sets(entrants: Sequence[SwissEntrant]) -> list[set[int]]:
    """Who met whom, as index sets into ``entrants``, symmetric and limited to the entrants.

    A meeting recorded on one side only still counts for both (a rematch either way).
    """
    index = {e.player: i for i, e in enumerate(entrants)}
    met = [{index[o] for o in e.opponents if o in index} for e in entrants]
    for i, opponents in enumerate(met):
        opponents.discard(i)
        for j in opponents:
            met[j].add(i)
    return met


def objective_of(
    entrants: Sequence[SwissEntrant],
    pairs: Iterable[tuple[PlayerId, PlayerId]],
    bye: PlayerId | None,
) -> Objective:
    """The P-3 objective of a pairing of ``entrants``: ``pairs`` plus the ``bye`` player.

    Raises ``UserError`` unless every entrant appears exactly once (in a pair or as the bye).
    """
    by_id = {e.player: e for e in entrants}
    if len(by_id) != len(entrants):
        raise UserError("a player is listed twice among the entrants", code="duplicate_player")
    seen: set[PlayerId] = set()
    pair_list = list(pairs)
    for player in [p for pair in pair_list for p in pair] + ([] if bye is None else [bye]):
        if player not in by_id:
            raise UserError(f"player {player} is not an entrant", code="unknown_player")
        if player in seen:
            raise UserError(f"player {player} is paired twice", code="duplicate_player")
        seen.add(player)
    if len(seen) != len(by_id):
        missing = sorted(set(by_id) - seen)
        raise UserError(f"players {missing} are not paired", code="unpaired_player")
    rematches = unequal = squares = 0
    for a, b in pair_list:
        ea, eb = by_id[a], by_id[b]
        if b in ea.opponents or a in eb.opponents:
            rematches += 1
        diff = ea.points - eb.points
        unequal += diff != 0
        squares += diff * diff
    if bye is None:
        return Objective(rematches, 0, 0, unequal, squares)
    bye_entrant = by_id[bye]
    return Objective(
        rematches, int(not bye_entrant.bye_eligible), bye_entrant.points, unequal, squares
    )


@dataclass(frozen=True, slots=True)
class CostScale:
    """Integer multipliers that make a sum of edge costs order pairings like ``Objective``.

    ``pairs`` bounds the number of pairs in one pairing, ``max_points`` the points above the
    lowest score (bye points are counted from ``base_points``, the lowest score), and
    ``max_square`` the squared point difference of any pair.
    """

    rematch: int
    bye_ineligible: int
    bye_point: int
    unequal: int
    square: int
    base_points: int
    big: int
    """Larger than any single edge cost: a graph weight is ``big - cost`` (always positive)."""

    @staticmethod
    def for_event(*, pairs: int, min_points: int, max_points: int) -> CostScale:
        spread = max_points - min_points
        max_square = spread * spread
        lower = pairs * (LOT_RANGE - 1)  # the most the lot (e) adds up to
        square = lower + 1
        lower += square * pairs * max_square
        unequal = lower + 1
        lower += unequal * pairs
        bye_point = lower + 1
        lower += bye_point * spread
        bye_ineligible = lower + 1
        lower += bye_ineligible
        rematch = lower + 1
        lower += rematch * pairs
        big = rematch + bye_ineligible + bye_point * spread + unequal + square * max_square
        big += LOT_RANGE
        if big * (pairs + 2) >= MAX_WEIGHT:
            raise InvariantError(f"pairing weights overflow for {pairs} pairs, spread {spread}")
        return CostScale(rematch, bye_ineligible, bye_point, unequal, square, min_points, big)

    def pair_cost(self, points_a: int, points_b: int, *, rematch: bool) -> int:
        """Cost of a pair without the lot: P-3 (a), (c), (d)."""
        diff = points_a - points_b
        cost = self.square * diff * diff + (self.unequal if diff else 0)
        return cost + self.rematch if rematch else cost

    def bye_cost(self, points: int, *, eligible: bool) -> int:
        """Cost of a bye without the lot: P-3 (b)."""
        cost = self.bye_point * (points - self.base_points)
        return cost if eligible else cost + self.bye_ineligible

"""The Swiss pairing objective (rules P-2, P-3, S-5).

Terms (Russian in brackets):

- *entrant*: a player still in the Swiss part (швейцарская часть) who is paired this round.
- *score group* (очковая группа): the entrants with equal match points.
- *rematch* (повторная встреча): a pair of two players who have already met in the Swiss part.
- *bye* (автопобеда): the player left without an opponent when the number is odd (S-5); a
  player who already had an unrequested bye is *not eligible* for another one.
- *unequal pair*: a pair of players with different match points; its *difference* is the
  higher player's points minus the lower player's. The higher player *floats down* (спуск), the
  lower one *floats up* (подъём).

The objective (P-3) is compared lexicographically, lower is better: (a) rematches; (b) the bye
to an ineligible player, then the bye player's points; (c) the point differences largest first:
the largest difference as small as possible, then as few pairs as possible with it, then the
same for the next smaller difference, and so on; (d) the down-floaters as low in the standings
as possible: the highest score a player floats down from as low as possible, then as few
down-floaters from it, then the next score, and so on (so the higher score groups stay whole);
(e) the lot. A bye is not a pair for (c) and (d).

(c) and (d) are tuples sorted from the largest value: comparing two such tuples as Python
tuples is exactly the rule (a longer tuple with the same start has one more unequal pair, which
is worse; a tuple is only compared with one of the same length in (d), since (c) fixes the
number of unequal pairs).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from turnir.domain.model import PlayerId
from turnir.errors import UserError


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
    differences: tuple[int, ...]
    """(c) the point difference of every unequal pair, largest first."""
    float_points: tuple[int, ...]
    """(d) the points every down-floater floats down from, highest first."""

    @property
    def largest_difference(self) -> int:
        """The largest point difference of any pair (0 when every pair is equal)."""
        return self.differences[0] if self.differences else 0


def met_sets(entrants: Sequence[SwissEntrant]) -> list[set[int]]:
    """Who met whom, as index sets into ``entrants``, symmetric and limited to the entrants.

    A meeting recorded on one side only still counts for both (a rematch either way).
    """
    index = {e.player: i for i, e in enumerate(entrants)}
    find = index.get
    met = [set(map(find, e.opponents, [-1] * len(e.opponents))) for e in entrants]
    for i, opponents in enumerate(met):
        opponents.discard(-1)
        opponents.discard(i)
    for i, opponents in enumerate(met):
        for j in opponents:
            if i not in met[j]:
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
            raise UserError("player {player} is not an entrant", code="unknown_player",
                            player=player)
        if player in seen:
            raise UserError("player {player} is paired twice", code="duplicate_player",
                            player=player)
        seen.add(player)
    if len(seen) != len(by_id):
        missing = sorted(set(by_id) - seen)
        raise UserError("players {missing} are not paired", code="unpaired_player",
                        missing=missing)
    rematches = 0
    differences: list[int] = []
    floats: list[int] = []
    for a, b in pair_list:
        ea, eb = by_id[a], by_id[b]
        if b in ea.opponents or a in eb.opponents:
            rematches += 1
        if ea.points != eb.points:
            differences.append(abs(ea.points - eb.points))
            floats.append(max(ea.points, eb.points))
    diff_key = tuple(sorted(differences, reverse=True))
    float_key = tuple(sorted(floats, reverse=True))
    if bye is None:
        return Objective(rematches, 0, 0, diff_key, float_key)
    bye_entrant = by_id[bye]
    return Objective(
        rematches, int(not bye_entrant.bye_eligible), bye_entrant.points, diff_key, float_key
    )

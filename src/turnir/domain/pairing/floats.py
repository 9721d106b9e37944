"""Why a player floats: the facts behind each unequal pair of a Swiss round (rule P-3).

A player *floats* (плавает) when paired with a player on other points: the higher one floats
down (спуск), the lower one up (подъём). For judges the pairings page says why, from facts of
the round alone, so the reasons can be recomputed exactly from the stored history (the entrants
before the round and its pairs) and need no storage:

- ``ALONE``: nobody else on his points is paired this round;
- ``ALL_MET``: he has already met every other player on his points paired this round;
- ``ODD_GROUP``: his points group (the players on his points paired this round) is odd, so
  someone of it has to float;
- ``PARTNER_FLOATED``: none of these, and he floats up: he is the partner of a player who
  floats down to his points;
- ``NEEDED``: none of these, and he floats down: the best pairing (P-3) needs it, because the
  players on his points he has not met are paired with each other or with other floaters.

"The players on his points paired this round" leaves out the bye player (S-5).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from turnir.domain.model import PlayerId
from turnir.domain.pairing.objective import SwissEntrant


class FloatReason(Enum):
    """Why a player is paired outside his points group."""

    ALONE = "alone"
    ALL_MET = "all_met"
    ODD_GROUP = "odd_group"
    PARTNER_FLOATED = "partner_floated"
    NEEDED = "needed"


@dataclass(frozen=True, slots=True)
class Float:
    """One floated player of a round."""

    player: PlayerId
    opponent: PlayerId
    points: int
    """The player's points before the round (the group he floats from)."""
    opponent_points: int
    """The points he floats to."""
    reason: FloatReason
    group_size: int
    """Players on his points paired this round, him included."""

    @property
    def down(self) -> bool:
        """``True`` when he floats down (to fewer points)."""
        return self.opponent_points < self.points


def explain_floats(
    entrants: Sequence[SwissEntrant],
    pairs: Iterable[tuple[PlayerId, PlayerId]],
    bye: PlayerId | None,
) -> tuple[Float, ...]:
    """Every floated player of the pairing with his reason, in table order, higher first.

    Pairs with a player who is not an entrant are skipped (a manual edit may add one).
    """
    by_id = {e.player: e for e in entrants}
    unequal: list[tuple[SwissEntrant, SwissEntrant]] = []
    for a, b in pairs:
        ea, eb = by_id.get(a), by_id.get(b)
        if ea is not None and eb is not None and ea.points != eb.points:
            unequal.append((ea, eb) if ea.points > eb.points else (eb, ea))
    needed = {x.points for pair in unequal for x in pair}
    group: dict[int, set[PlayerId]] = {}
    for e in entrants:
        if e.points in needed and e.player != bye:
            group.setdefault(e.points, set()).add(e.player)
    floats: list[Float] = []
    for high, low in unequal:
        for player, other in ((high, low), (low, high)):
            members = group[player.points]
            floats.append(Float(player.player, other.player, player.points, other.points,
                                _reason(player, members, by_id, down=player is high),
                                len(members)))
    return tuple(floats)


def _reason(player: SwissEntrant, members: set[PlayerId],
            by_id: dict[PlayerId, SwissEntrant], *, down: bool) -> FloatReason:
    others = members - {player.player}
    if not others:
        return FloatReason.ALONE
    if all(o in player.opponents or player.player in by_id[o].opponents for o in others):
        return FloatReason.ALL_MET
    if len(members) % 2:
        return FloatReason.ODD_GROUP
    return FloatReason.NEEDED if down else FloatReason.PARTNER_FLOATED

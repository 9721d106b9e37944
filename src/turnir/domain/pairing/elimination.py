"""The top: single elimination seeded from the Swiss standings, and final places (P-5, P-6, S-3).

Terms: the *top* (ТОП, олимпийская система) is a single-elimination bracket whose size is a
power of two; the loser of a match leaves (выбывает). Seeds come from the Swiss standings:
seed 1 meets seed N, 2 meets N-1, … (P-5), placed in the bracket so that the two best seeds can
only meet in the final. Elimination matches cannot be drawn (S-3; enforced by
``MatchResult.validate``).

Final places (P-6, **Decided**): the winner of the final is 1st, its loser 2nd; the losers of
each earlier top round share the next places, ranked among themselves by Swiss standings; then
everyone outside the top in Swiss standings order.
"""

from __future__ import annotations

from collections.abc import Sequence

from turnir.domain.model import PlayerId
from turnir.errors import InvariantError, UserError


def is_power_of_two(n: int) -> bool:
    return n >= 1 and n & (n - 1) == 0


def validate_top_size(size: int, *, players: int) -> None:
    """A top is 0 (none) or a power of two of at least 2, not larger than the field (P-5)."""
    if size == 0:
        return
    if size < 2 or not is_power_of_two(size):
        raise UserError(
            "the top must have a power-of-two number of players (2, 4, 8, …), not {size}",
            code="bad_top_size", size=size,
        )
    if size > players:
        raise UserError(
            "a top of {size} needs at least {size} players; players: {players}",
            code="bad_top_size", size=size, players=players,
        )


def bracket_seeds(size: int) -> list[int]:
    """Seed numbers in bracket order: for 8, ``[1, 8, 4, 5, 2, 7, 3, 6]``.

    Consecutive pairs are the first-round matches (1 v N, …); winners of neighbouring matches
    meet next, so seeds 1 and 2 can meet only in the final.
    """
    if not is_power_of_two(size) or size < 2:
        raise InvariantError(f"bracket size {size} is not a power of two >= 2")
    order = [1, 2]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def first_top_round(seeded: Sequence[PlayerId]) -> list[tuple[PlayerId, PlayerId]]:
    """First top round from players in seed order (best first), in bracket order."""
    order = bracket_seeds(len(seeded))
    return [
        (seeded[order[i] - 1], seeded[order[i + 1] - 1]) for i in range(0, len(order), 2)
    ]


def next_top_round(winners: Sequence[PlayerId]) -> list[tuple[PlayerId, PlayerId]]:
    """Next top round: the winners of bracket-neighbouring matches meet, in bracket order."""
    if len(winners) < 2 or len(winners) % 2:
        raise InvariantError(f"cannot pair {len(winners)} winners in the top")
    return [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]


def top_rounds_needed(size: int) -> int:
    """Rounds of a top of ``size`` players: log2(size)."""
    return size.bit_length() - 1 if size else 0


def final_places(
    swiss_order: Sequence[PlayerId],
    top_rounds: Sequence[Sequence[tuple[PlayerId, PlayerId, PlayerId]]],
) -> list[PlayerId]:
    """Final order of all players (P-6).

    ``swiss_order`` is the Swiss standings order; ``top_rounds`` lists, per played top round,
    the matches as ``(a, b, winner)``. Players knocked out in the same round are ranked by Swiss
    standings; players outside the top follow in Swiss order.
    """
    rank = {player: i for i, player in enumerate(swiss_order)}
    placed: list[PlayerId] = []
    seen: set[PlayerId] = set()
    if top_rounds:
        last = top_rounds[-1]
        if len(last) != 1:
            raise InvariantError("the last top round must be the final")
        a, b, winner = last[0]
        placed = [winner, b if winner == a else a]
        for matches in reversed(top_rounds[:-1]):
            losers = [b if w == a else a for a, b, w in matches]
            placed.extend(sorted(losers, key=rank.__getitem__))
        seen = set(placed)
    placed.extend(p for p in swiss_order if p not in seen)
    return placed

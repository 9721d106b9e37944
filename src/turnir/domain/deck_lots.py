"""Random deck checks drawn by lot (проверка колод по жребию; issue 13, judges' tools).

Terms (Russian in brackets):

- *deck check* (проверка колоды): during a round a judge takes a player's deck and counts it
  against the registered list (the list sorted for counting: ``decks.counting_order``);
- *lot* (жребий): which players' decks are checked is drawn at random, but reproducibly, like
  the pairings (P-3 e): the random source is ``random.Random(lot)`` where the lot is the text
  ``"{seed}/deck-checks/round/{round}/draw/{draw}"`` of the tournament's recorded seed, the
  round and the draw's number in that round (1, 2, …). The lot is stored with each check, so
  anyone can draw it again and get the same decks (never the global random);
- *candidates* (кого можно проверить): the players paired at a table in that round (a bye has
  no opponent and no game to check), less those already checked in that round.

The draw sorts the candidates first, so the same lot over the same candidates always gives the
same players, whatever order they were read in.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from turnir.errors import UserError

MAX_DRAW = 50
"""The most decks one draw may take."""


def lot_text(seed: int, round_number: int, draw: int) -> str:
    """The recorded lot of draw number ``draw`` (1-based) in a round."""
    return f"{seed}/deck-checks/round/{round_number}/draw/{draw}"


def lot_random(seed: int, round_number: int, draw: int) -> random.Random:
    """The random source of that draw: seeded by its lot text, nothing else."""
    return random.Random(lot_text(seed, round_number, draw))


@dataclass(frozen=True, slots=True)
class DeckDraw:
    """Whose decks a draw picked."""

    lot: str
    """The lot it was drawn with (``lot_text``)."""
    numbers: tuple[int, ...]
    """The players' numbers, in the order drawn."""


def candidates(paired: Iterable[int], checked: Iterable[int]) -> list[int]:
    """The players who may be drawn: paired in the round and not checked in it yet, sorted."""
    done = set(checked)
    return sorted({number for number in paired if number not in done})


def draw_decks(pool: Iterable[int], count: int, rng: random.Random, *, round_number: int,
               lot: str) -> DeckDraw:
    """``count`` players drawn from ``pool`` with ``rng`` (all of them when fewer are left).

    ``rng`` must be ``lot_random`` of ``lot``; ``pool`` is ``candidates`` of the round."""
    if not 1 <= count <= MAX_DRAW:
        raise UserError("a draw takes from 1 to {limit} decks", code="bad_deck_draw",
                        limit=MAX_DRAW)
    ordered = sorted(set(pool))
    if not ordered:
        raise UserError("no deck is left to draw in round {round}: every player at a table has "
                        "been checked", code="no_decks_left", round=round_number)
    return DeckDraw(lot, tuple(rng.sample(ordered, min(count, len(ordered)))))


def draw_by_lot(pool: Iterable[int], count: int, *, seed: int, round_number: int,
                draw: int) -> DeckDraw:
    """The draw number ``draw`` of a round: ``draw_decks`` with its own lot."""
    lot = lot_text(seed, round_number, draw)
    return draw_decks(pool, count, lot_random(seed, round_number, draw),
                      round_number=round_number, lot=lot)

"""Step 1 of giving a penalty (J-1, issue 12): the judge finds the player fast among a hundred:
by name (every word in any order, ё read as е: ``turnir.domain.text.name_matches``) or by
number, or by the table they sit at in the current round."""

from __future__ import annotations

from dataclasses import dataclass

from turnir.domain.text import name_matches
from turnir.services.common import Database, reading
from turnir.storage.mappers import load_tournament, tournament_row


@dataclass(frozen=True, slots=True)
class PickedPlayer:
    number: int
    name: str
    table: int | None
    """The player's table in the current round (``None``: not paired in it, or a bye)."""


@dataclass(frozen=True, slots=True)
class PlayerPick:
    players: list[PickedPlayer]
    """The players still in the tournament that the search wants, by number."""
    round: int | None
    """The current round (its tables are the ones searched), ``None`` before round 1."""
    total: int
    """The players still in the tournament, searched or not."""


def pick_players(db: Database, tournament_id: int, *, query: str = "",
                 table: int | None = None) -> PlayerPick:
    """The players who have not left, with their current table; ``query`` a name (any word
    order, ё = е) or a number, ``table`` a table of the current round (both: both apply)."""
    with reading(db) as tx:
        tournament_row(tx, tournament_id)
        t = load_tournament(tx, tournament_id)
    rnd = t.current_round
    tables: dict[int, int] = {}
    if rnd is not None:
        for p in rnd.pairings:
            if p.b is not None:
                tables[p.a] = tables[p.b] = p.table
    active = [PickedPlayer(p.id, p.name, tables.get(p.id)) for p in t.players
              if p.dropped_after is None]
    wanted = query.strip()
    found = [p for p in active
             if (not wanted or (str(p.number) == wanted if wanted.isdigit()
                                else name_matches(wanted, p.name)))
             and (table is None or p.table == table)]
    return PlayerPick(sorted(found, key=lambda p: p.number),
                      None if rnd is None else rnd.number, len(active))

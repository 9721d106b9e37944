"""The statements about the players' decks of a constructed tournament (the ``decks`` rows,
``turnir.storage.tables_decks``). They never commit: the service that calls them
(``turnir.services.decks``) owns the transaction.

A deck is one row per entry (tournament and entry number), its lines as JSON
(``turnir.domain.decks.DeckList.to_json``), the text as the player gave it, its card count,
whether its last check found no problem, who changed it last and when, and a version that goes
up by one with every change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, insert, select, update

from turnir.errors import ConflictError
from turnir.storage.tables_decks import decks


@dataclass(frozen=True, slots=True)
class StoredDeck:
    """A ``decks`` row."""

    tournament_id: int
    number: int
    lines: list[dict[str, Any]]
    source: str
    total: int
    valid: bool
    updated_at: datetime
    updated_by: str
    version: int


@dataclass(frozen=True, slots=True)
class DeckValues:
    """What a change stores in a deck's row."""

    lines: list[dict[str, Any]]
    source: str
    total: int
    valid: bool
    at: datetime
    by: str


def _stored(row: Mapping[Any, Any]) -> StoredDeck:
    return StoredDeck(tournament_id=int(row["tournament_id"]), number=int(row["number"]),
                      lines=list(row["lines"] or []), source=row["source"] or "",
                      total=int(row["total"]), valid=bool(row["valid"]),
                      updated_at=row["updated_at"], updated_by=row["updated_by"] or "",
                      version=int(row["version"]))


def deck_row(conn: Connection, tournament_id: int, number: int) -> StoredDeck | None:
    """The entry's deck, if one is registered."""
    row = conn.execute(select(decks).where(decks.c.tournament_id == tournament_id,
                                           decks.c.number == number)).mappings().first()
    return None if row is None else _stored(row)


def deck_rows(conn: Connection, tournament_id: int) -> dict[int, StoredDeck]:
    """Every deck of the tournament, by entry number."""
    rows = conn.execute(select(decks).where(decks.c.tournament_id == tournament_id)
                        .order_by(decks.c.number)).mappings()
    return {int(row["number"]): _stored(row) for row in rows}


def _columns(values: DeckValues) -> dict[str, Any]:
    return {"lines": values.lines, "source": values.source, "total": values.total,
            "valid": values.valid, "updated_at": values.at, "updated_by": values.by}


def save_deck(conn: Connection, tournament_id: int, number: int, values: DeckValues, *,
              before: StoredDeck | None) -> int:
    """Store the entry's deck (a new row, or the row ``before`` read in this transaction, at
    its version); its new version."""
    if before is None:
        conn.execute(insert(decks).values(tournament_id=tournament_id, number=number,
                                          version=1, **_columns(values)))
        return 1
    done = conn.execute(
        update(decks).where(decks.c.tournament_id == tournament_id, decks.c.number == number,
                            decks.c.version == before.version)
        .values(version=before.version + 1, **_columns(values)))
    if done.rowcount != 1:
        raise ConflictError("the deck of player #{number} changed meanwhile; try again",
                            code="stale_version", number=number)
    return before.version + 1

"""The card catalogue's rows (``tables_decks.cards``): read them all as ``Card`` values, add or
update cards by name and edition, replace the whole catalogue, and the catalogue's *stamp*.

The stamp is what a cached catalogue is compared with (``turnir.services.cards``): the number
of rows, the highest row id and the newest catalogue import's audit entry (every import logs
one, entity ``cards``, so an update in place that leaves the count and the ids as they were
still moves it; other server-wide changes do not). It is one statement on indexes, cheap
enough for every request.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, RowMapping, bindparam, delete, func, insert, select, update

from turnir.domain.cards import Card, Crystal, card_key
from turnir.storage.audit import SERVER_CHAIN, lock_chain
from turnir.storage.tables import audit_log
from turnir.storage.tables_decks import cards

Stamp = tuple[int, int, int]
"""(rows, highest id, the newest catalogue import's audit entry id)."""
ENTITY = "cards"
"""The audit log's entity of a catalogue import (``cards.import``)."""

_COLUMNS = ("name", "key", "edition", "edition_key", "number", "rarity", "element", "cost",
            "crystal", "type", "features", "unique", "aliases")


def catalogue_stamp(conn: Connection) -> Stamp:
    """What changes whenever the catalogue does (see the module docstring)."""
    rows = select(func.count()).select_from(cards).scalar_subquery()
    highest = select(func.coalesce(func.max(cards.c.id), 0)).scalar_subquery()
    logged = (select(func.coalesce(func.max(audit_log.c.id), 0))
              .where(audit_log.c.tournament_id.is_(None), audit_log.c.entity == ENTITY)
              .scalar_subquery())
    found = conn.execute(select(rows, highest, logged)).one()
    return int(found[0]), int(found[1]), int(found[2])


def lock_catalogue(conn: Connection) -> None:
    """Hold the catalogue's write lock until the transaction ends: two imports do not
    interleave (the server-wide audit chain's lock, which the import's entry takes anyway)."""
    lock_chain(conn, SERVER_CHAIN)


def _card(row: RowMapping) -> Card:
    return Card(name=row["name"], edition=row["edition"], number=row["number"],
                rarity=row["rarity"], element=row["element"], cost=int(row["cost"]),
                crystal=Crystal(row["crystal"]), type=row["type"],
                features=tuple(row["features"] or ()), unique=bool(row["unique"]),
                aliases=tuple(row["aliases"] or ()))


def all_cards(conn: Connection) -> list[Card]:
    """Every card, in the order they were added."""
    return [_card(row) for row in conn.execute(select(cards).order_by(cards.c.id)).mappings()]


def card_count(conn: Connection) -> int:
    return int(conn.execute(select(func.count()).select_from(cards)).scalar_one())


def _values(card: Card) -> dict[str, Any]:
    return {"name": card.name, "key": card.key, "edition": card.edition,
            "edition_key": card_key(card.edition), "number": card.number,
            "rarity": card.rarity, "element": card.element, "cost": card.cost,
            "crystal": card.crystal.value, "type": card.type,
            "features": list(card.features), "unique": card.unique,
            "aliases": list(card.aliases)}


def upsert_cards(conn: Connection, new: Sequence[Card]) -> tuple[int, int]:
    """Add the cards not in the catalogue yet and update those already there (the same name
    and edition, as card keys); returns (added, updated)."""
    known = {(row.key, row.edition_key): row.id for row in
             conn.execute(select(cards.c.id, cards.c.key, cards.c.edition_key))}
    added: list[dict[str, Any]] = []
    changed: list[dict[str, Any]] = []
    for card in new:
        values = _values(card)
        row_id = known.get((values["key"], values["edition_key"]))
        if row_id is None:
            added.append(values)
        else:
            changed.append({"row_id": row_id, **{f"v_{k}": v for k, v in values.items()}})
    if added:
        conn.execute(insert(cards), added)
    if changed:
        conn.execute(update(cards).where(cards.c.id == bindparam("row_id"))
                     .values({column: bindparam(f"v_{column}") for column in _COLUMNS}), changed)
    return len(added), len(changed)


def delete_all_cards(conn: Connection) -> int:
    """Empty the catalogue; returns how many rows there were."""
    return int(conn.execute(delete(cards)).rowcount or 0)

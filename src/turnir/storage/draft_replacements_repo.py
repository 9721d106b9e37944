"""The judges' replacements of wrong-edition and promo cards in draft pools (D-7): the
``draft_replacements`` rows of ``turnir.storage.tables_live_draft``. Nothing here commits: the
service (``turnir.services.draft_decks``) owns the transaction.

A row names the player (entry number), their draft table and booster round, the card as it was
reported (name, edition, rarity; its uid in the pool of a live draft, else empty), the card
given instead (as the catalogue prints it), the judge's reason, the judge and the moment."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, select

from turnir.storage.database import Tx
from turnir.storage.tables_live_draft import draft_replacements


@dataclass(frozen=True, slots=True)
class ReplacementValues:
    """One replacement as the service records it."""

    number: int
    draft_table: int
    booster_round: int
    card_uid: str
    old_name: str
    old_edition: str
    old_rarity: str
    new_name: str
    new_edition: str
    new_rarity: str
    reason: str
    judge_account_id: int | None
    judge_name: str
    at: datetime


@dataclass(frozen=True, slots=True)
class StoredReplacement:
    """A ``draft_replacements`` row."""

    id: int
    values: ReplacementValues


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


def _stored(row: Mapping[Any, Any]) -> StoredReplacement:
    return StoredReplacement(id=int(row["id"]), values=ReplacementValues(
        number=int(row["number"]), draft_table=int(row["draft_table"]),
        booster_round=int(row["booster_round"]), card_uid=row["card_uid"] or "",
        old_name=row["old_name"], old_edition=row["old_edition"] or "",
        old_rarity=row["old_rarity"] or "", new_name=row["new_name"],
        new_edition=row["new_edition"] or "", new_rarity=row["new_rarity"] or "",
        reason=row["reason"] or "", judge_account_id=row["judge_account_id"],
        judge_name=row["judge_name"] or "", at=_utc(row["at"])))


def add_replacement(tx: Tx, tournament_id: int, values: ReplacementValues) -> int:
    """Store a replacement; its id."""
    done = tx.execute(insert(draft_replacements).values(
        tournament_id=tournament_id, number=values.number, draft_table=values.draft_table,
        booster_round=values.booster_round, card_uid=values.card_uid,
        old_name=values.old_name, old_edition=values.old_edition,
        old_rarity=values.old_rarity, new_name=values.new_name,
        new_edition=values.new_edition, new_rarity=values.new_rarity, reason=values.reason,
        judge_account_id=values.judge_account_id, judge_name=values.judge_name,
        at=values.at))
    return int(done.inserted_primary_key[0])  # type: ignore[index]


def replacements_of(tx: Tx, tournament_id: int,
                    number: int | None = None) -> list[StoredReplacement]:
    """The tournament's replacements (of one player when ``number`` is given), oldest first."""
    query = select(draft_replacements).where(draft_replacements.c.tournament_id == tournament_id)
    if number is not None:
        query = query.where(draft_replacements.c.number == number)
    rows = tx.execute(query.order_by(draft_replacements.c.id)).mappings()
    return [_stored(row) for row in rows]

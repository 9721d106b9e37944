"""The deck checks' statements (``turnir.services.deck_checks``; table ``deck_checks``,
migration 0014): a check drawn by lot or chosen by a judge for a round, and its outcome.
Nothing here commits."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, insert, select, update

from turnir.storage.database import Tx
from turnir.storage.tables_decks import deck_checks


@dataclass(frozen=True, slots=True)
class StoredCheck:
    """One row of ``deck_checks``."""

    id: int
    round: int
    number: int
    """The player's number in the tournament."""
    by_lot: bool
    lot: str
    """The lot it was drawn with ("" when a judge chose the player)."""
    drawn_at: datetime
    """In UTC."""
    drawn_by: str
    done: bool
    note: str
    version: int

    def to_json(self) -> dict[str, Any]:
        """What the audit log keeps of it."""
        return {"round": self.round, "number": self.number, "by_lot": self.by_lot,
                "lot": self.lot, "done": self.done, "note": self.note}


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _stored(row: Mapping[Any, Any]) -> StoredCheck:
    return StoredCheck(id=int(row["id"]), round=int(row["round"]), number=int(row["number"]),
                       by_lot=bool(row["by_lot"]), lot=str(row["lot"]),
                       drawn_at=_utc(row["drawn_at"]), drawn_by=str(row["drawn_by"]),
                       done=bool(row["done"]), note=str(row["note"]),
                       version=int(row["version"]))


def checks_of(tx: Tx, tournament_id: int, round_number: int | None = None) -> list[StoredCheck]:
    """The tournament's checks (of one round when given), by round, then as drawn."""
    query = select(deck_checks).where(deck_checks.c.tournament_id == tournament_id)
    if round_number is not None:
        query = query.where(deck_checks.c.round == round_number)
    rows = tx.execute(query.order_by(deck_checks.c.round, deck_checks.c.id)).mappings()
    return [_stored(row) for row in rows]


def draws_made(tx: Tx, tournament_id: int, round_number: int) -> int:
    """How many draws by lot the round has had (each draw's checks share its lot)."""
    value = tx.execute(select(func.count(func.distinct(deck_checks.c.lot))).where(
        deck_checks.c.tournament_id == tournament_id, deck_checks.c.round == round_number,
        deck_checks.c.by_lot.is_(True))).scalar()
    return int(value or 0)


def check_by_id(tx: Tx, tournament_id: int, check_id: int) -> StoredCheck | None:
    row = tx.execute(select(deck_checks).where(
        deck_checks.c.tournament_id == tournament_id,
        deck_checks.c.id == check_id)).mappings().first()
    return None if row is None else _stored(row)


def add_check(tx: Tx, tournament_id: int, *, round_number: int, number: int, by_lot: bool,
              lot: str, at: datetime, by: str) -> StoredCheck:
    """A new check of player ``number`` in the round (not done yet)."""
    new_id = tx.execute(insert(deck_checks).values(
        tournament_id=tournament_id, round=round_number, number=number, by_lot=by_lot,
        lot=lot, drawn_at=at, drawn_by=by, done=False, note="", version=1)
        .returning(deck_checks.c.id)).scalar_one()
    return StoredCheck(id=int(new_id), round=round_number, number=number, by_lot=by_lot,
                       lot=lot, drawn_at=at, drawn_by=by, done=False, note="", version=1)


def finish_check(tx: Tx, check: StoredCheck, *, note: str) -> StoredCheck:
    """The check marked done with the judge's note (its version goes up by one)."""
    tx.execute(update(deck_checks).where(deck_checks.c.id == check.id,
                                         deck_checks.c.version == check.version)
               .values(done=True, note=note, version=check.version + 1))
    return StoredCheck(id=check.id, round=check.round, number=check.number,
                       by_lot=check.by_lot, lot=check.lot, drawn_at=check.drawn_at,
                       drawn_by=check.drawn_by, done=True, note=note,
                       version=check.version + 1)

"""The statements about a tournament's draft setup: its plan and the players' draft tables and
seats (``draft_plans`` and ``draft_seats`` rows, ``turnir.storage.tables_draft``). They never
commit: the service that calls them (``turnir.services.draft_setup``) owns the transaction.

The plan is stored as ``DraftPlan.to_json``; the row also records the last seating: its method,
the seed string it was drawn from and how many seatings were drawn. The seats are one row per
entry: ``(draft table, seat)``; a new seating replaces them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from turnir.errors import ConflictError
from turnir.storage.tables_draft import draft_plans, draft_seats


@dataclass(frozen=True, slots=True)
class StoredPlan:
    """A ``draft_plans`` row."""

    tournament_id: int
    plan: dict[str, Any]
    seating_method: str | None
    seating_seed: str
    seatings: int
    updated_at: datetime
    updated_by: str
    version: int


def plan_row(conn: Connection, tournament_id: int) -> StoredPlan | None:
    """The tournament's draft plan row, if the organizer set one."""
    row = conn.execute(select(draft_plans).where(draft_plans.c.tournament_id == tournament_id)
                       ).mappings().first()
    if row is None:
        return None
    return StoredPlan(tournament_id=int(row["tournament_id"]), plan=dict(row["plan"] or {}),
                      seating_method=row["seating_method"],
                      seating_seed=row["seating_seed"] or "", seatings=int(row["seatings"]),
                      updated_at=row["updated_at"], updated_by=row["updated_by"] or "",
                      version=int(row["version"]))


def save_plan(conn: Connection, tournament_id: int, plan: Mapping[str, Any], *, at: datetime,
              by: str, before: StoredPlan | None) -> None:
    """Store the plan: a new row, or the row ``before`` read in this transaction (refused with
    ``ConflictError`` when someone changed it since)."""
    values = {"plan": dict(plan), "updated_at": at, "updated_by": by}
    if before is None:
        conn.execute(insert(draft_plans).values(tournament_id=tournament_id, seatings=0,
                                                seating_seed="", version=1, **values))
        return
    _bump(conn, before, values)


def record_seating(conn: Connection, before: StoredPlan, *, method: str, seed: str,
                   at: datetime, by: str) -> None:
    """Record a new seating drawn by ``method`` from ``seed`` (one more seating)."""
    _bump(conn, before, {"seating_method": method, "seating_seed": seed,
                         "seatings": before.seatings + 1, "updated_at": at, "updated_by": by})


def _bump(conn: Connection, before: StoredPlan, values: dict[str, Any]) -> None:
    t = draft_plans.c
    changed = conn.execute(
        update(draft_plans)
        .where(t.tournament_id == before.tournament_id, t.version == before.version)
        .values(version=before.version + 1, **values)
    ).rowcount
    if changed != 1:
        raise ConflictError("the draft plan was changed meanwhile; reload the page",
                            code="stale_draft_plan")


def seat_rows(conn: Connection, tournament_id: int) -> dict[int, tuple[int, int]]:
    """Every seated entry: number → (draft table, seat)."""
    t = draft_seats.c
    rows = conn.execute(select(t.number, t.draft_table, t.seat)
                        .where(t.tournament_id == tournament_id)
                        .order_by(t.draft_table, t.seat))
    return {int(number): (int(table), int(seat)) for number, table, seat in rows}


def draft_tables(conn: Connection, tournament_id: int) -> dict[int, int]:
    """Every seated entry's draft table (``Tournament.tables``)."""
    return {number: table for number, (table, _) in seat_rows(conn, tournament_id).items()}


def replace_seats(conn: Connection, tournament_id: int,
                  places: Mapping[int, tuple[int, int]]) -> None:
    """Replace the tournament's seats with ``places`` (number → (draft table, seat))."""
    conn.execute(delete(draft_seats).where(draft_seats.c.tournament_id == tournament_id))
    rows = [{"tournament_id": tournament_id, "number": number, "draft_table": table,
             "seat": seat} for number, (table, seat) in sorted(places.items())]
    if rows:
        conn.execute(insert(draft_seats), rows)

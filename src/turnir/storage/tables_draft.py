"""Tables of a tournament's draft setup (issue 14) on the shared metadata of
``turnir.storage.tables``.

- ``draft_plans``: a draft tournament's plan (``turnir.domain.draft.plan.DraftPlan.to_json``:
  boosters, profile, timers, review, deck minimum), and how its players were last seated: the
  method (``lot`` or ``standings``, D-2/D-3), the seed string the seating was drawn from
  (``random.Random(seed)``, so a seating can be replayed and audited) and how many seatings
  were drawn (each new seating is a new draw).
- ``draft_seats``: each seated player's draft table and seat (1..n around the table), one row
  per entry; a re-seating replaces them all.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, CheckConstraint, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from turnir.storage.tables import Base, _choice, _entry_key, _tables, _version_check

SEATING_METHODS = ("lot", "standings")


class DraftPlanRow(Base):
    """A tournament's draft plan and the record of its last seating."""

    __tablename__ = "draft_plans"
    __table_args__ = (_choice("seating_method", SEATING_METHODS, nullable=True),
                      CheckConstraint("seatings >= 0", name="seatings"), _version_check())

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    plan: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seating_method: Mapped[str | None] = mapped_column(String(20))
    """``lot`` or ``standings``; ``None`` before the first seating."""
    seating_seed: Mapped[str] = mapped_column(String(200), default="")
    seatings: Mapped[int] = mapped_column(default=0)
    updated_at: Mapped[datetime]
    updated_by: Mapped[str] = mapped_column(String(200), default="")
    version: Mapped[int] = mapped_column(default=1)


class DraftSeatRow(Base):
    """One player's draft table and seat."""

    __tablename__ = "draft_seats"
    __table_args__ = (_entry_key("number", "fk_draft_seats_entry"),
                      UniqueConstraint("tournament_id", "draft_table", "seat",
                                       name="uq_draft_seats_seat"),
                      CheckConstraint("draft_table >= 1 AND seat >= 1", name="place"))

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    draft_table: Mapped[int]
    seat: Mapped[int]


draft_plans, draft_seats = _tables(DraftPlanRow, DraftSeatRow)

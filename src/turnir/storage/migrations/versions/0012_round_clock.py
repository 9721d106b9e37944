"""The round clock of issue 12: ``tournaments.clock_minutes`` (the organizer's setting "start
the clock with the round, minutes": pairing a round starts its clock for that long; empty: the
clock is started by hand) and ``round_timers.paused_at`` (the clock is paused since then;
resuming moves its start by the time it stood still). See ``turnir.services.round_clock``.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTER TABLE … ADD COLUMN: a batch copy of ``tournaments`` fails on SQLite once
    # other tables' rows reference it (as in 0008).
    op.add_column("tournaments", sa.Column("clock_minutes", sa.Integer(), nullable=True))
    op.add_column("round_timers", sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("round_timers", "paused_at")
    op.drop_column("tournaments", "clock_minutes")

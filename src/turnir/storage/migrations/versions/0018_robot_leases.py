"""Robot workers (issue 15, ``turnir robot work``): ``robot_games.next_check_ms`` (when the
game's next check stage is due; empty once the game ended or has no stage left; indexed, the
workers look for due games by it), ``lease_owner`` and ``lease_until_ms`` (the worker that
claimed the game's due check and until when; an expired lease is taken over). See
``turnir.services.robot_work``.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTER TABLE … ADD COLUMN (as in 0012): no batch copy of a referenced table.
    op.add_column("robot_games", sa.Column("next_check_ms", sa.BigInteger(), nullable=True))
    op.add_column("robot_games", sa.Column("lease_owner", sa.String(length=100), nullable=True))
    op.add_column("robot_games", sa.Column("lease_until_ms", sa.BigInteger(), nullable=True))
    op.create_index("ix_robot_games_next_check_ms", "robot_games", ["next_check_ms"],
                    unique=False)


def downgrade() -> None:
    op.drop_index("ix_robot_games_next_check_ms", table_name="robot_games")
    op.drop_column("robot_games", "lease_until_ms")
    op.drop_column("robot_games", "lease_owner")
    op.drop_column("robot_games", "next_check_ms")

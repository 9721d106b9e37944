# ruff: noqa: E501
"""The robot's authentication (issue 10 item 4): ``robot_tokens`` (the game server's bearer
tokens, kept hashed, for the deployment or one tournament) and ``tournaments.robot_allowed``
(the organizer lets the robot record the tournament's results; off for every tournament that
exists already). See ``turnir.storage.tables_robot``.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ALTER TABLE … ADD COLUMN: a batch copy of ``tournaments`` fails on SQLite once
    # other tables' rows reference it.
    op.add_column("tournaments", sa.Column("robot_allowed", sa.Boolean(), server_default=sa.text("false"), nullable=False))

    op.create_table(
        "robot_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("label", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.String(length=200), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_by", sa.String(length=200), nullable=True),
        sa.CheckConstraint("length(token_hash) = 64", name=op.f("ck_robot_tokens_token_hash")),
        sa.CheckConstraint("revoked_at IS NULL OR revoked_by IS NOT NULL", name=op.f("ck_robot_tokens_revoked")),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], name=op.f("fk_robot_tokens_tournament_id_tournaments")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_robot_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_robot_tokens_token_hash")),
    )
    with op.batch_alter_table("robot_tokens", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_robot_tokens_tournament_id"), ["tournament_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("robot_tokens", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_robot_tokens_tournament_id"))
    op.drop_table("robot_tokens")
    # A plain ALTER TABLE … DROP COLUMN (SQLite 3.35+): a batch copy of ``tournaments`` would
    # drop the table that every other table references, which SQLite refuses once it has rows.
    op.drop_column("tournaments", "robot_allowed")

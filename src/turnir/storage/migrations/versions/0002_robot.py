# ruff: noqa: E501
"""Tables of the robot capability (see ``turnir.storage.tables_robot``): the games registered
with the online judge robot and their tournament link, their events, the robot's decisions.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "robot_decisions",
        sa.Column("seq", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("id", sa.String(length=120), nullable=False),
        sa.Column("game_id", sa.String(length=100), nullable=False),
        sa.Column("stage", sa.String(length=20), nullable=True),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.Column("verdict", sa.String(length=40), nullable=False),
        sa.Column("rule", sa.String(length=10), nullable=False),
        sa.Column("result", sa.String(length=10), nullable=True),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("seq", name=op.f("pk_robot_decisions")),
        sa.UniqueConstraint("id", name=op.f("uq_robot_decisions_id")),
    )
    with op.batch_alter_table("robot_decisions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_robot_decisions_game_id"), ["game_id"], unique=False)

    op.create_table(
        "robot_games",
        sa.Column("game_id", sa.String(length=100), nullable=False),
        sa.Column("white", sa.String(length=200), nullable=False),
        sa.Column("black", sa.String(length=200), nullable=False),
        sa.Column("time_control", sa.String(length=20), nullable=False),
        sa.Column("round_start_ms", sa.BigInteger(), nullable=False),
        sa.Column("started_at_ms", sa.BigInteger(), nullable=True),
        sa.Column("initial_fen", sa.String(length=100), nullable=True),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("table_no", sa.Integer(), nullable=True),
        sa.Column("game_number", sa.Integer(), nullable=True),
        sa.Column("white_side", sa.String(length=1), nullable=True),
        sa.Column("player_a", sa.Integer(), nullable=True),
        sa.Column("player_b", sa.Integer(), nullable=True),
        sa.Column("last_stage", sa.String(length=20), nullable=True),
        sa.Column("result", sa.String(length=10), nullable=True),
        sa.Column("end_reason", sa.String(length=30), nullable=True),
        sa.Column("end_rule", sa.String(length=10), nullable=True),
        sa.Column("end_id", sa.String(length=120), nullable=True),
        sa.Column("end_state", sa.String(length=20), nullable=True),
        sa.Column("problem_code", sa.String(length=50), nullable=True),
        sa.Column("problem", sa.String(length=500), nullable=True),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("handled_by", sa.String(length=200), nullable=True),
        sa.CheckConstraint(
            "end_state IS NULL OR end_state IN ('no_tournament', 'waiting', 'applied', 'unapplied', 'dismissed')",
            name=op.f("ck_robot_games_end_state"),
        ),
        sa.CheckConstraint(
            "result IS NULL OR result IN ('1-0', '0-1', '1/2-1/2')", name=op.f("ck_robot_games_result")
        ),
        sa.CheckConstraint(
            "white_side IS NULL OR white_side IN ('a', 'b')", name=op.f("ck_robot_games_white_side")
        ),
        sa.CheckConstraint(
            "result IS NULL AND end_reason IS NULL AND end_id IS NULL AND end_state IS NULL AND ended_at IS NULL OR (result IS NOT NULL AND end_reason IS NOT NULL AND end_id IS NOT NULL AND end_state IS NOT NULL AND ended_at IS NOT NULL)",
            name=op.f("ck_robot_games_end"),
        ),
        sa.CheckConstraint(
            "tournament_id IS NULL AND round IS NULL AND table_no IS NULL AND game_number IS NULL AND white_side IS NULL AND player_a IS NULL AND player_b IS NULL OR (tournament_id IS NOT NULL AND round IS NOT NULL AND table_no IS NOT NULL AND game_number IS NOT NULL AND white_side IS NOT NULL AND player_a IS NOT NULL AND player_b IS NOT NULL AND round >= 1 AND table_no >= 1 AND game_number >= 1)",
            name=op.f("ck_robot_games_link"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name=op.f("fk_robot_games_tournament_id_tournaments")
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_robot_games")),
        sa.UniqueConstraint("tournament_id", "round", "table_no", "game_number", name="uq_robot_games_slot"),
    )
    with op.batch_alter_table("robot_games", schema=None) as batch_op:
        batch_op.create_index("ix_robot_games_end_state", ["end_state"], unique=False)
        batch_op.create_index("ix_robot_games_match", ["tournament_id", "round", "table_no"], unique=False)

    op.create_table(
        "robot_events",
        sa.Column("game_id", sa.String(length=100), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["robot_games.game_id"], name=op.f("fk_robot_events_game_id_robot_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_robot_events")),
    )


def downgrade() -> None:
    op.drop_table("robot_events")
    with op.batch_alter_table("robot_games", schema=None) as batch_op:
        batch_op.drop_index("ix_robot_games_match")
        batch_op.drop_index("ix_robot_games_end_state")
    op.drop_table("robot_games")
    with op.batch_alter_table("robot_decisions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_robot_decisions_game_id"))
    op.drop_table("robot_decisions")

# ruff: noqa: E501
"""Tables of the accounts capability (see ``turnir.storage.tables_accounts``): web accounts,
sessions, players' result reports and round timers.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("login", sa.String(length=100), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=True),
        sa.Column("password_hash", sa.String(length=300), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint("role IN ('organizer', 'head_judge', 'floor_judge', 'player')", name=op.f("ck_accounts_role")),
        sa.CheckConstraint("version >= 1", name=op.f("ck_accounts_version")),
        sa.ForeignKeyConstraint(["person_id"], ["people.id"], name=op.f("fk_accounts_person_id_people")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_accounts")),
        sa.UniqueConstraint("login", name=op.f("uq_accounts_login")),
    )
    op.create_index(op.f("ix_accounts_person_id"), "accounts", ["person_id"], unique=False)
    op.create_table(
        "round_timers",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("duration_s", sa.Integer(), nullable=False),
        sa.CheckConstraint("duration_s > 0", name=op.f("ck_round_timers_duration")),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], name=op.f("fk_round_timers_tournament_id_tournaments")),
        sa.PrimaryKeyConstraint("tournament_id", "round", name=op.f("pk_round_timers")),
    )
    op.create_table(
        "result_reports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(length=1), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("wins_a", sa.Integer(), nullable=False),
        sa.Column("wins_b", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(length=20), nullable=False),
        sa.Column("ending", sa.String(length=20), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("side IN ('a', 'b')", name=op.f("ck_result_reports_side")),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name=op.f("fk_result_reports_account_id_accounts")),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], name=op.f("fk_result_reports_tournament_id_tournaments")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_result_reports")),
        sa.UniqueConstraint("tournament_id", "round", "table_no", "side", name="uq_result_reports"),
    )
    op.create_table(
        "web_sessions",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name=op.f("fk_web_sessions_account_id_accounts"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_web_sessions")),
    )
    op.create_index(op.f("ix_web_sessions_account_id"), "web_sessions", ["account_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_web_sessions_account_id"), table_name="web_sessions")
    op.drop_table("web_sessions")
    op.drop_table("result_reports")
    op.drop_table("round_timers")
    op.drop_index(op.f("ix_accounts_person_id"), table_name="accounts")
    op.drop_table("accounts")

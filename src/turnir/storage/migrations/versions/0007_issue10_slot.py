# ruff: noqa: E501
"""Failed logins in the database, shared by every worker (issue 10 item 12).

``login_failures``: one row per failed login in the rate limit's window (the SHA-256 of the
login, the client's address, when); ``turnir.services.login_limits`` counts and prunes them.
Accounts are deactivated with the existing ``accounts.active`` (item 13): no change there.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "login_failures",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("login_key", sa.String(length=64), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_failures")),
    )
    op.create_index("ix_login_failures_login_key_at", "login_failures", ["login_key", "at"], unique=False)
    op.create_index("ix_login_failures_address_at", "login_failures", ["address", "at"], unique=False)
    op.create_index(op.f("ix_login_failures_at"), "login_failures", ["at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_login_failures_at"), table_name="login_failures")
    op.drop_index("ix_login_failures_address_at", table_name="login_failures")
    op.drop_index("ix_login_failures_login_key_at", table_name="login_failures")
    op.drop_table("login_failures")

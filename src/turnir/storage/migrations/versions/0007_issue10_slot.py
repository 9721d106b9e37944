"""accounts: login attempts shared by workers, deactivation (issue 10 items 12-13).

Reserved slot: filled in by the work on that item (empty until then).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass

"""results reports belong to a pairing (issue 10 items 2-3).

Reserved slot: filled in by the work on that item (empty until then).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass

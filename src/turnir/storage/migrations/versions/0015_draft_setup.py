# ruff: noqa: E501
"""Tables of a draft's setup (issue 14, ``turnir.storage.tables_draft``): the draft plan with
the record of the last seating, and each player's draft table and seat.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('draft_plans',
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('plan', sa.JSON(), nullable=False),
    sa.Column('seating_method', sa.String(length=20), nullable=True),
    sa.Column('seating_seed', sa.String(length=200), nullable=False),
    sa.Column('seatings', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_by', sa.String(length=200), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.CheckConstraint("seating_method IS NULL OR seating_method IN ('lot', 'standings')", name=op.f('ck_draft_plans_seating_method')),
    sa.CheckConstraint('seatings >= 0', name=op.f('ck_draft_plans_seatings')),
    sa.CheckConstraint('version >= 1', name=op.f('ck_draft_plans_version')),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_draft_plans_tournament_id_tournaments')),
    sa.PrimaryKeyConstraint('tournament_id', name=op.f('pk_draft_plans'))
    )
    op.create_table('draft_seats',
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('draft_table', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.CheckConstraint('draft_table >= 1 AND seat >= 1', name=op.f('ck_draft_seats_place')),
    sa.ForeignKeyConstraint(['tournament_id', 'number'], ['entries.tournament_id', 'entries.number'], name='fk_draft_seats_entry'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_draft_seats_tournament_id_tournaments')),
    sa.PrimaryKeyConstraint('tournament_id', 'number', name=op.f('pk_draft_seats')),
    sa.UniqueConstraint('tournament_id', 'draft_table', 'seat', name='uq_draft_seats_seat')
    )


def downgrade() -> None:
    op.drop_table('draft_seats')
    op.drop_table('draft_plans')

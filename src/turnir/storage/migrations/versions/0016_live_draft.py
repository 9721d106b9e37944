# ruff: noqa: E501
"""Tables of the live booster draft (issue 14, ``turnir.storage.tables_live_draft``): booster
templates, each draft table's engine state, the pick log and the judges' card replacements
(D-7).

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('booster_templates',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('name_key', sa.String(length=100), nullable=False),
    sa.Column('template', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('created_by', sa.String(length=200), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.CheckConstraint('version >= 1', name=op.f('ck_booster_templates_version')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_booster_templates')),
    sa.UniqueConstraint('name_key', name=op.f('uq_booster_templates_name_key'))
    )
    op.create_table('live_drafts',
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('draft_table', sa.Integer(), nullable=False),
    sa.Column('state', sa.JSON(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('next_deadline', sa.DateTime(timezone=True), nullable=True),
    sa.Column('players', sa.JSON(), nullable=False),
    sa.Column('seed', sa.String(length=200), nullable=False),
    sa.Column('templates', sa.JSON(), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("status IN ('live', 'done')", name=op.f('ck_live_drafts_status')),
    sa.CheckConstraint('draft_table >= 1', name=op.f('ck_live_drafts_draft_table')),
    sa.CheckConstraint('version >= 1', name=op.f('ck_live_drafts_version')),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_live_drafts_tournament_id_tournaments')),
    sa.PrimaryKeyConstraint('tournament_id', 'draft_table', name=op.f('pk_live_drafts'))
    )
    op.create_index('ix_live_drafts_due', 'live_drafts', ['status', 'next_deadline'], unique=False)
    op.create_table('draft_picks',
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('draft_table', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('player', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('booster_round', sa.Integer(), nullable=False),
    sa.Column('booster', sa.Integer(), nullable=False),
    sa.Column('pick', sa.Integer(), nullable=False),
    sa.Column('card_uid', sa.String(length=20), nullable=False),
    sa.Column('card_name', sa.String(length=200), nullable=False),
    sa.Column('edition', sa.String(length=200), nullable=False),
    sa.Column('rarity', sa.String(length=200), nullable=False),
    sa.Column('auto', sa.Boolean(), nullable=False),
    sa.Column('reason', sa.String(length=10), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("reason IN ('pick', 'timeout', 'away', 'dropped', 'last')", name=op.f('ck_draft_picks_reason')),
    sa.CheckConstraint('number >= 1 AND pick >= 1 AND booster_round >= 1', name=op.f('ck_draft_picks_numbers')),
    sa.ForeignKeyConstraint(['tournament_id', 'player'], ['entries.tournament_id', 'entries.number'], name='fk_draft_picks_entry'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_draft_picks_tournament_id_tournaments')),
    sa.PrimaryKeyConstraint('tournament_id', 'draft_table', 'number', name=op.f('pk_draft_picks'))
    )
    op.create_table('draft_replacements',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('draft_table', sa.Integer(), nullable=False),
    sa.Column('booster_round', sa.Integer(), nullable=False),
    sa.Column('card_uid', sa.String(length=20), nullable=False),
    sa.Column('old_name', sa.String(length=200), nullable=False),
    sa.Column('old_edition', sa.String(length=200), nullable=False),
    sa.Column('old_rarity', sa.String(length=200), nullable=False),
    sa.Column('new_name', sa.String(length=200), nullable=False),
    sa.Column('new_edition', sa.String(length=200), nullable=False),
    sa.Column('new_rarity', sa.String(length=200), nullable=False),
    sa.Column('reason', sa.String(length=500), nullable=False),
    sa.Column('judge_account_id', sa.Integer(), nullable=True),
    sa.Column('judge_name', sa.String(length=200), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['judge_account_id'], ['accounts.id'], name=op.f('fk_draft_replacements_judge_account_id_accounts')),
    sa.ForeignKeyConstraint(['tournament_id', 'number'], ['entries.tournament_id', 'entries.number'], name='fk_draft_replacements_entry'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_draft_replacements_tournament_id_tournaments')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_draft_replacements'))
    )
    op.create_index(op.f('ix_draft_replacements_tournament_id'), 'draft_replacements', ['tournament_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_draft_replacements_tournament_id'), table_name='draft_replacements')
    op.drop_table('draft_replacements')
    op.drop_table('draft_picks')
    op.drop_index('ix_live_drafts_due', table_name='live_drafts')
    op.drop_table('live_drafts')
    op.drop_table('booster_templates')

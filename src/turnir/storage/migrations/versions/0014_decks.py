# ruff: noqa: E501
"""Tables of constructed play (issue 13, ``turnir.storage.tables_decks``): the card catalogue,
formats and their ban lists, starter decks, a tournament's constructed settings, players'
decks, deck checks, the schedules of recurring tournaments and the events they created; and
``accounts.game_age`` (age in game years, C-2).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('cards',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('key', sa.String(length=200), nullable=False),
    sa.Column('edition', sa.String(length=200), nullable=False),
    sa.Column('edition_key', sa.String(length=200), nullable=False),
    sa.Column('number', sa.String(length=200), nullable=False),
    sa.Column('rarity', sa.String(length=200), nullable=False),
    sa.Column('element', sa.String(length=200), nullable=False),
    sa.Column('cost', sa.Integer(), nullable=False),
    sa.Column('crystal', sa.String(length=10), nullable=False),
    sa.Column('type', sa.String(length=200), nullable=False),
    sa.Column('features', sa.JSON(), nullable=False),
    sa.Column('unique', sa.Boolean(), nullable=False),
    sa.Column('aliases', sa.JSON(), nullable=False),
    sa.CheckConstraint("crystal IN ('gold', 'silver')", name=op.f('ck_cards_crystal')),
    sa.CheckConstraint('cost >= 0 AND cost <= 99', name=op.f('ck_cards_cost')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_cards')),
    sa.UniqueConstraint('key', 'edition_key', name='uq_cards_key_edition')
    )
    op.create_index(op.f('ix_cards_key'), 'cards', ['key'], unique=False)
    op.create_table('deck_formats',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('name_key', sa.String(length=100), nullable=False),
    sa.Column('editions', sa.JSON(), nullable=False),
    sa.Column('min_cards', sa.Integer(), nullable=False),
    sa.Column('max_cards', sa.Integer(), nullable=False),
    sa.Column('max_copies', sa.Integer(), nullable=False),
    sa.Column('max_horde_copies', sa.Integer(), nullable=False),
    sa.Column('starter', sa.Boolean(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('created_by', sa.String(length=200), nullable=False),
    sa.CheckConstraint('max_copies >= 1 AND max_horde_copies >= max_copies', name=op.f('ck_deck_formats_copies')),
    sa.CheckConstraint('min_cards >= 1 AND max_cards >= min_cards AND max_cards <= 200', name=op.f('ck_deck_formats_deck_size')),
    sa.CheckConstraint('version >= 1', name=op.f('ck_deck_formats_version')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_deck_formats')),
    sa.UniqueConstraint('name_key', name=op.f('uq_deck_formats_name_key'))
    )
    op.create_table('ban_lists',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('format_id', sa.Integer(), nullable=False),
    sa.Column('effective', sa.Date(), nullable=False),
    sa.Column('cards', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('created_by', sa.String(length=200), nullable=False),
    sa.ForeignKeyConstraint(['format_id'], ['deck_formats.id'], name=op.f('fk_ban_lists_format_id_deck_formats'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ban_lists')),
    sa.UniqueConstraint('format_id', 'effective', name='uq_ban_lists_day')
    )
    op.create_table('schedules',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('times', sa.JSON(), nullable=False),
    sa.Column('time_zone', sa.String(length=64), nullable=False),
    sa.Column('format_id', sa.Integer(), nullable=True),
    sa.Column('settings', sa.JSON(), nullable=False),
    sa.Column('min_players', sa.Integer(), nullable=False),
    sa.Column('active', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('created_by', sa.String(length=200), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.CheckConstraint('min_players >= 4', name=op.f('ck_schedules_min_players')),
    sa.CheckConstraint('version >= 1', name=op.f('ck_schedules_version')),
    sa.ForeignKeyConstraint(['format_id'], ['deck_formats.id'], name=op.f('fk_schedules_format_id_deck_formats')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_schedules'))
    )
    op.create_table('starter_decks',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('format_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('name_key', sa.String(length=100), nullable=False),
    sa.Column('lines', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['format_id'], ['deck_formats.id'], name=op.f('fk_starter_decks_format_id_deck_formats'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_starter_decks')),
    sa.UniqueConstraint('format_id', 'name_key', name='uq_starter_decks_name')
    )
    op.create_table('tournament_decks',
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('format_id', sa.Integer(), nullable=True),
    sa.Column('starts_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('published_decks', sa.Integer(), nullable=False),
    sa.Column('online', sa.Boolean(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.CheckConstraint('published_decks >= 0', name=op.f('ck_tournament_decks_published')),
    sa.CheckConstraint('version >= 1', name=op.f('ck_tournament_decks_version')),
    sa.ForeignKeyConstraint(['format_id'], ['deck_formats.id'], name=op.f('fk_tournament_decks_format_id_deck_formats')),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_tournament_decks_tournament_id_tournaments')),
    sa.PrimaryKeyConstraint('tournament_id', name=op.f('pk_tournament_decks'))
    )
    op.create_table('deck_checks',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('by_lot', sa.Boolean(), nullable=False),
    sa.Column('lot', sa.String(length=200), nullable=False),
    sa.Column('drawn_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('drawn_by', sa.String(length=200), nullable=False),
    sa.Column('done', sa.Boolean(), nullable=False),
    sa.Column('note', sa.String(length=500), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.CheckConstraint('version >= 1', name=op.f('ck_deck_checks_version')),
    sa.ForeignKeyConstraint(['tournament_id', 'number'], ['entries.tournament_id', 'entries.number'], name='fk_deck_checks_entry'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_deck_checks_tournament_id_tournaments')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_deck_checks')),
    sa.UniqueConstraint('tournament_id', 'round', 'number', name='uq_deck_checks_round')
    )
    op.create_table('decks',
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('lines', sa.JSON(), nullable=False),
    sa.Column('source', sa.Text(), nullable=False),
    sa.Column('total', sa.Integer(), nullable=False),
    sa.Column('valid', sa.Boolean(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_by', sa.String(length=200), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.CheckConstraint('total >= 0', name=op.f('ck_decks_total')),
    sa.CheckConstraint('version >= 1', name=op.f('ck_decks_version')),
    sa.ForeignKeyConstraint(['tournament_id', 'number'], ['entries.tournament_id', 'entries.number'], name='fk_decks_entry'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_decks_tournament_id_tournaments')),
    sa.PrimaryKeyConstraint('tournament_id', 'number', name=op.f('pk_decks'))
    )
    op.create_table('scheduled_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('schedule_id', sa.Integer(), nullable=False),
    sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=True),
    sa.Column('state', sa.String(length=20), nullable=False),
    sa.Column('message', sa.String(length=500), nullable=False),
    sa.CheckConstraint("state IN ('open', 'started', 'cancelled')", name=op.f('ck_scheduled_events_state')),
    sa.ForeignKeyConstraint(['schedule_id'], ['schedules.id'], name=op.f('fk_scheduled_events_schedule_id_schedules'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_scheduled_events_tournament_id_tournaments')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_scheduled_events')),
    sa.UniqueConstraint('schedule_id', 'starts_at', name='uq_scheduled_events')
    )
    op.add_column('accounts', sa.Column('game_age', sa.Integer(), nullable=True))


def downgrade() -> None:

    op.drop_column('accounts', 'game_age')
    op.drop_table('scheduled_events')
    op.drop_table('decks')
    op.drop_table('deck_checks')
    op.drop_table('tournament_decks')
    op.drop_table('starter_decks')
    op.drop_table('schedules')
    op.drop_table('ban_lists')
    op.drop_table('deck_formats')
    op.drop_index(op.f('ix_cards_key'), table_name='cards')
    op.drop_table('cards')

"""Tables shared by the web workers of one deployment (issue 15,
``turnir.storage.tables_site``): the deployment's kept secrets and the creating forms'
one-time tokens.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('site_secrets',
    sa.Column('name', sa.String(length=50), nullable=False),
    sa.Column('value', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('name', name=op.f('pk_site_secrets'))
    )
    op.create_table('form_tokens',
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('keep_until', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished', sa.Boolean(), nullable=False),
    sa.Column('url', sa.String(length=2000), nullable=True),
    sa.PrimaryKeyConstraint('key', name=op.f('pk_form_tokens'))
    )
    op.create_index('ix_form_tokens_keep_until', 'form_tokens', ['keep_until'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_form_tokens_keep_until', table_name='form_tokens')
    op.drop_table('form_tokens')
    op.drop_table('site_secrets')

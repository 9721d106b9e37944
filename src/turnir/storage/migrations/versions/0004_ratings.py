# ruff: noqa: E501
"""Tables of the ratings capability (see ``turnir.storage.tables_ratings``): the rating
settings, tournaments' rating terms, the imported base list, rated tournaments, the rating
history and the current ratings.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rating_settings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("many_participants", sa.Integer(), nullable=False),
        sa.Column("three_booster_k", sa.String(length=20), nullable=False),
        sa.Column("warlock_first_tournament", sa.String(length=20), nullable=False),
        sa.Column("reset_warlock_on_disqualification", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint("warlock_first_tournament IN ('fixed_100', 'start_at_100')", name=op.f("ck_rating_settings_warlock_first_tournament")),
        sa.CheckConstraint("id = 1", name=op.f("ck_rating_settings_single_row")),
        sa.CheckConstraint("many_participants >= 4", name=op.f("ck_rating_settings_many_participants")),
        sa.CheckConstraint("version >= 1", name=op.f("ck_rating_settings_version")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_settings")),
    )
    op.create_table(
        "rating_tournament_terms",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("boosters", sa.Integer(), nullable=False),
        sa.Column("starter", sa.Boolean(), nullable=False),
        sa.Column("professional_k", sa.String(length=20), nullable=False),
        sa.Column("entry_fee", sa.Integer(), nullable=True),
        sa.Column("prize_fund", sa.Integer(), nullable=True),
        sa.Column("disqualified_without_prizes", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sa.String(length=200), nullable=False),
        sa.CheckConstraint("boosters BETWEEN 1 AND 4", name=op.f("ck_rating_tournament_terms_boosters")),
        sa.CheckConstraint("entry_fee IS NULL OR entry_fee >= 0", name=op.f("ck_rating_tournament_terms_entry_fee")),
        sa.CheckConstraint("prize_fund IS NULL OR prize_fund >= 0", name=op.f("ck_rating_tournament_terms_prize_fund")),
        sa.CheckConstraint("version >= 1", name=op.f("ck_rating_tournament_terms_version")),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], name=op.f("fk_rating_tournament_terms_tournament_id_tournaments")),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_rating_tournament_terms")),
    )
    op.create_table(
        "rating_base",
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("professional", sa.Integer(), nullable=False),
        sa.Column("warlock", sa.Integer(), nullable=True),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("imported_by", sa.String(length=200), nullable=False),
        sa.CheckConstraint("professional >= 10000", name=op.f("ck_rating_base_professional")),
        sa.CheckConstraint("warlock IS NULL OR warlock >= 10000", name=op.f("ck_rating_base_warlock")),
        sa.ForeignKeyConstraint(["person_id"], ["people.id"], name=op.f("fk_rating_base_person_id_people")),
        sa.PrimaryKeyConstraint("person_id", name=op.f("pk_rating_base")),
    )
    op.create_table(
        "rating_current",
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("professional", sa.Integer(), nullable=False),
        sa.Column("warlock", sa.Integer(), nullable=True),
        sa.Column("tournaments", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("professional >= 10000", name=op.f("ck_rating_current_professional")),
        sa.CheckConstraint("tournaments >= 0", name=op.f("ck_rating_current_tournaments")),
        sa.CheckConstraint("warlock IS NULL OR warlock >= 10000", name=op.f("ck_rating_current_warlock")),
        sa.ForeignKeyConstraint(["person_id"], ["people.id"], name=op.f("fk_rating_current_person_id_people")),
        sa.PrimaryKeyConstraint("person_id", name=op.f("pk_rating_current")),
    )
    with op.batch_alter_table("rating_current", schema=None) as batch_op:
        batch_op.create_index("ix_rating_current_professional", ["professional"], unique=False)
        batch_op.create_index("ix_rating_current_warlock", ["warlock"], unique=False)

    op.create_table(
        "rating_tournaments",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rated_format", sa.String(length=30), nullable=False),
        sa.Column("participants", sa.Integer(), nullable=False),
        sa.Column("professional_k", sa.String(length=20), nullable=False),
        sa.Column("warlock_k", sa.String(length=20), nullable=False),
        sa.Column("submitted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("submitted_by", sa.String(length=200), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint("rated_format IN ('constructed', 'starter_constructed', 'draft_1_booster', 'draft_2_boosters', 'draft_3_boosters', 'draft_4_boosters')", name=op.f("ck_rating_tournaments_rated_format")),
        sa.CheckConstraint("participants >= 4", name=op.f("ck_rating_tournaments_participants")),
        sa.CheckConstraint("version >= 1", name=op.f("ck_rating_tournaments_version")),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], name=op.f("fk_rating_tournaments_tournament_id_tournaments")),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_rating_tournaments")),
    )
    with op.batch_alter_table("rating_tournaments", schema=None) as batch_op:
        batch_op.create_index("ix_rating_tournaments_order", ["ended_at", "tournament_id"], unique=False)

    op.create_table(
        "rating_history",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("disqualified_without_prizes", sa.Boolean(), nullable=False),
        sa.Column("professional_before", sa.Integer(), nullable=False),
        sa.Column("professional_change", sa.Integer(), nullable=False),
        sa.Column("professional_after", sa.Integer(), nullable=False),
        sa.Column("bound", sa.String(length=30), nullable=False),
        sa.Column("floor_applied", sa.Boolean(), nullable=False),
        sa.Column("reset_applied", sa.Boolean(), nullable=False),
        sa.Column("warlock_before", sa.Integer(), nullable=True),
        sa.Column("warlock_change", sa.Integer(), nullable=False),
        sa.Column("warlock_after", sa.Integer(), nullable=False),
        sa.Column("warlock_reset", sa.Boolean(), nullable=False),
        sa.CheckConstraint("bound IN ('none', 'winner_at_least_3', 'second_at_least_0', 'second_to_last_at_most_0', 'last_at_most_minus_3')", name=op.f("ck_rating_history_bound")),
        sa.CheckConstraint("place >= 1", name=op.f("ck_rating_history_place")),
        sa.CheckConstraint("professional_after = professional_before + professional_change", name=op.f("ck_rating_history_professional_change")),
        sa.CheckConstraint("professional_after >= 10000", name=op.f("ck_rating_history_professional_floor")),
        sa.CheckConstraint("warlock_after = COALESCE(warlock_before, 0) + warlock_change", name=op.f("ck_rating_history_warlock_change")),
        sa.CheckConstraint("warlock_after >= 10000", name=op.f("ck_rating_history_warlock_floor")),
        sa.ForeignKeyConstraint(["person_id"], ["people.id"], name=op.f("fk_rating_history_person_id_people")),
        sa.ForeignKeyConstraint(["tournament_id", "number"], ["entries.tournament_id", "entries.number"], name="fk_rating_history_entry"),
        sa.ForeignKeyConstraint(["tournament_id"], ["rating_tournaments.tournament_id"], name=op.f("fk_rating_history_tournament_id_rating_tournaments")),
        sa.PrimaryKeyConstraint("tournament_id", "person_id", name=op.f("pk_rating_history")),
        sa.UniqueConstraint("tournament_id", "place", name="uq_rating_history_place"),
    )
    with op.batch_alter_table("rating_history", schema=None) as batch_op:
        batch_op.create_index("ix_rating_history_person", ["person_id", "tournament_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("rating_history", schema=None) as batch_op:
        batch_op.drop_index("ix_rating_history_person")
    op.drop_table("rating_history")
    with op.batch_alter_table("rating_tournaments", schema=None) as batch_op:
        batch_op.drop_index("ix_rating_tournaments_order")
    op.drop_table("rating_tournaments")
    with op.batch_alter_table("rating_current", schema=None) as batch_op:
        batch_op.drop_index("ix_rating_current_warlock")
        batch_op.drop_index("ix_rating_current_professional")
    op.drop_table("rating_current")
    op.drop_table("rating_base")
    op.drop_table("rating_tournament_terms")
    op.drop_table("rating_settings")

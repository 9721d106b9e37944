# ruff: noqa: E501
"""Tables of the penalties capability (see ``turnir.storage.tables_penalties``): judging
settings, the infraction catalogue, penalties, appeals, the suspension register, game rulings
and the results as reported before penalty losses.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "infractions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=48), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name_ru", sa.String(length=200), nullable=False),
        sa.Column("name_en", sa.String(length=200), nullable=False),
        sa.Column("amateur", sa.String(length=40), nullable=False),
        sa.Column("professional", sa.String(length=40), nullable=False),
        sa.Column("highest", sa.String(length=40), nullable=False),
        sa.Column("description_ru", sa.String(length=500), nullable=False),
        sa.Column("description_en", sa.String(length=500), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint(
            "amateur IN ('remark', 'warning', 'game_loss', 'match_loss', 'disqualification', 'disqualification_without_prizes')",
            name=op.f("ck_infractions_amateur"),
        ),
        sa.CheckConstraint(
            "highest IN ('remark', 'warning', 'game_loss', 'match_loss', 'disqualification', 'disqualification_without_prizes')",
            name=op.f("ck_infractions_highest"),
        ),
        sa.CheckConstraint(
            "professional IN ('remark', 'warning', 'game_loss', 'match_loss', 'disqualification', 'disqualification_without_prizes')",
            name=op.f("ck_infractions_professional"),
        ),
        sa.CheckConstraint("version >= 1", name=op.f("ck_infractions_version")),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_infractions_tournament_id_tournaments"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_infractions")),
        sa.UniqueConstraint("tournament_id", "code", name="uq_infractions_code"),
    )
    with op.batch_alter_table("infractions", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_infractions_tournament_id"), ["tournament_id"], unique=False
        )

    op.create_table(
        "judging_settings",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("official", sa.Boolean(), nullable=False),
        sa.Column("technical_margin", sa.Integer(), nullable=False),
        sa.Column("penalty_points", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint(
            "technical_margin >= 1", name=op.f("ck_judging_settings_technical_margin")
        ),
        sa.CheckConstraint("version >= 1", name=op.f("ck_judging_settings_version")),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_judging_settings_tournament_id_tournaments"),
        ),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_judging_settings")),
    )
    op.create_table(
        "game_rulings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("game", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("crystals_a", sa.Integer(), nullable=True),
        sa.Column("crystals_b", sa.Integer(), nullable=True),
        sa.Column("margin", sa.Integer(), nullable=True),
        sa.Column("claim", sa.String(length=20), nullable=True),
        sa.Column("claimant", sa.String(length=1), nullable=True),
        sa.Column("granted", sa.Boolean(), nullable=True),
        sa.Column("winner", sa.String(length=1), nullable=True),
        sa.Column("reason", sa.String(length=30), nullable=True),
        sa.Column("judge_id", sa.Integer(), nullable=False),
        sa.Column("judge_name", sa.String(length=200), nullable=False),
        sa.Column("explanation_ru", sa.String(length=500), nullable=False),
        sa.Column("explanation_en", sa.String(length=500), nullable=False),
        sa.Column("note", sa.String(length=1000), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(length=200), nullable=False),
        sa.CheckConstraint(
            "(kind = 'technical' AND crystals_a >= 0 AND crystals_b >= 0 AND margin >= 1) OR (kind = 'claim' AND claim IS NOT NULL AND claimant IS NOT NULL AND granted IS NOT NULL)",
            name=op.f("ck_game_rulings_shape"),
        ),
        sa.CheckConstraint(
            "claim IS NULL OR claim IN ('clean_victory', 'draw')",
            name=op.f("ck_game_rulings_claim"),
        ),
        sa.CheckConstraint(
            "claimant IS NULL OR claimant IN ('a', 'b')", name=op.f("ck_game_rulings_claimant")
        ),
        sa.CheckConstraint("kind IN ('technical', 'claim')", name=op.f("ck_game_rulings_kind")),
        sa.CheckConstraint(
            "winner IS NULL OR winner IN ('a', 'b')", name=op.f("ck_game_rulings_winner")
        ),
        sa.ForeignKeyConstraint(
            ["judge_id"], ["judges.id"], name=op.f("fk_game_rulings_judge_id_judges")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_game_rulings_tournament_id_tournaments"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_rulings")),
    )
    with op.batch_alter_table("game_rulings", schema=None) as batch_op:
        batch_op.create_index(
            "ix_game_rulings_table", ["tournament_id", "round", "table_no"], unique=False
        )

    op.create_table(
        "penalties",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=48), nullable=False),
        sa.Column("reason_ru", sa.String(length=200), nullable=False),
        sa.Column("reason_en", sa.String(length=200), nullable=False),
        sa.Column("penalty", sa.String(length=40), nullable=False),
        sa.Column("guide_penalty", sa.String(length=40), nullable=False),
        sa.Column("given_round", sa.Integer(), nullable=False),
        sa.Column("moment", sa.String(length=20), nullable=False),
        sa.Column("given_game", sa.Integer(), nullable=False),
        sa.Column("explanation_ru", sa.String(length=2000), nullable=False),
        sa.Column("explanation_en", sa.String(length=2000), nullable=False),
        sa.Column("judge_id", sa.Integer(), nullable=True),
        sa.Column("judge_name", sa.String(length=200), nullable=False),
        sa.Column("judge_kind", sa.String(length=10), nullable=True),
        sa.Column("judge_official", sa.Boolean(), nullable=False),
        sa.Column("confirmed_by_head_judge", sa.Boolean(), nullable=False),
        sa.Column("confirmed_by", sa.String(length=200), nullable=False),
        sa.Column("deferred", sa.Boolean(), nullable=False),
        sa.Column("sources", sa.JSON(), nullable=False),
        sa.Column("note", sa.String(length=1000), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("applied_round", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.String(length=200), nullable=False),
        sa.CheckConstraint(
            "guide_penalty IN ('remark', 'warning', 'game_loss', 'match_loss', 'disqualification', 'disqualification_without_prizes', 'suspension')",
            name=op.f("ck_penalties_guide_penalty"),
        ),
        sa.CheckConstraint(
            "judge_kind IS NULL OR judge_kind IN ('head', 'floor')",
            name=op.f("ck_penalties_judge_kind"),
        ),
        sa.CheckConstraint(
            "moment IN ('during_game', 'between_games', 'between_matches')",
            name=op.f("ck_penalties_moment"),
        ),
        sa.CheckConstraint(
            "penalty IN ('remark', 'warning', 'game_loss', 'match_loss', 'disqualification', 'disqualification_without_prizes', 'suspension')",
            name=op.f("ck_penalties_penalty"),
        ),
        sa.CheckConstraint("status IN ('active', 'withdrawn')", name=op.f("ck_penalties_status")),
        sa.CheckConstraint(
            "seq >= 1 AND given_round >= 0 AND given_game >= 0", name=op.f("ck_penalties_numbers")
        ),
        sa.CheckConstraint("version >= 1", name=op.f("ck_penalties_version")),
        sa.ForeignKeyConstraint(
            ["judge_id"], ["judges.id"], name=op.f("fk_penalties_judge_id_judges")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "number"],
            ["entries.tournament_id", "entries.number"],
            name="fk_penalties_entry",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_penalties_tournament_id_tournaments"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_penalties")),
        sa.UniqueConstraint("tournament_id", "seq", name="uq_penalties_seq"),
    )
    with op.batch_alter_table("penalties", schema=None) as batch_op:
        batch_op.create_index("ix_penalties_player", ["tournament_id", "number"], unique=False)

    op.create_table(
        "appeals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("penalty_id", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(length=20), nullable=False),
        sa.Column("judge_id", sa.Integer(), nullable=False),
        sa.Column("decided_by", sa.String(length=200), nullable=False),
        sa.Column("before_penalty", sa.String(length=40), nullable=False),
        sa.Column("changed_to", sa.String(length=40), nullable=True),
        sa.Column("note", sa.String(length=1000), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(length=200), nullable=False),
        sa.CheckConstraint(
            "before_penalty IN ('remark', 'warning', 'game_loss', 'match_loss', 'disqualification', 'disqualification_without_prizes', 'suspension')",
            name=op.f("ck_appeals_before_penalty"),
        ),
        sa.CheckConstraint(
            "changed_to IS NULL OR changed_to IN ('remark', 'warning', 'game_loss', 'match_loss', 'disqualification', 'disqualification_without_prizes', 'suspension')",
            name=op.f("ck_appeals_changed_to"),
        ),
        sa.CheckConstraint(
            "outcome IN ('upheld', 'changed', 'withdrawn')", name=op.f("ck_appeals_outcome")
        ),
        sa.ForeignKeyConstraint(
            ["judge_id"], ["judges.id"], name=op.f("fk_appeals_judge_id_judges")
        ),
        sa.ForeignKeyConstraint(
            ["penalty_id"], ["penalties.id"], name=op.f("fk_appeals_penalty_id_penalties")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name=op.f("fk_appeals_tournament_id_tournaments")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_appeals")),
    )
    with op.batch_alter_table("appeals", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_appeals_tournament_id"), ["tournament_id"], unique=False
        )

    op.create_table(
        "suspensions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("start", sa.Date(), nullable=False),
        sa.Column("until", sa.Date(), nullable=True),
        sa.Column("reason_ru", sa.String(length=2000), nullable=False),
        sa.Column("reason_en", sa.String(length=2000), nullable=False),
        sa.Column("issued_by", sa.String(length=200), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("penalty_id", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.String(length=200), nullable=False),
        sa.CheckConstraint("until IS NULL OR until >= start", name=op.f("ck_suspensions_term")),
        sa.CheckConstraint("version >= 1", name=op.f("ck_suspensions_version")),
        sa.ForeignKeyConstraint(
            ["penalty_id"], ["penalties.id"], name=op.f("fk_suspensions_penalty_id_penalties")
        ),
        sa.ForeignKeyConstraint(
            ["person_id"], ["people.id"], name=op.f("fk_suspensions_person_id_people")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_suspensions_tournament_id_tournaments"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_suspensions")),
    )
    with op.batch_alter_table("suspensions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_suspensions_person_id"), ["person_id"], unique=False)

    op.create_table(
        "reported_results",
        sa.Column("pairing_id", sa.Integer(), nullable=False),
        sa.Column("wins_a", sa.Integer(), nullable=False),
        sa.Column("wins_b", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(length=20), nullable=False),
        sa.Column("ending", sa.String(length=20), nullable=False),
        sa.Column("games", sa.JSON(), nullable=True),
        sa.CheckConstraint(
            "ending IN ('played', 'intentional_draw', 'concession', 'penalty', 'no_show')",
            name=op.f("ck_reported_results_ending"),
        ),
        sa.CheckConstraint(
            "outcome IN ('a_wins', 'b_wins', 'draw', 'double_loss')",
            name=op.f("ck_reported_results_outcome"),
        ),
        sa.ForeignKeyConstraint(
            ["pairing_id"],
            ["pairings.id"],
            name=op.f("fk_reported_results_pairing_id_pairings"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("pairing_id", name=op.f("pk_reported_results")),
    )


def downgrade() -> None:
    op.drop_table("reported_results")
    with op.batch_alter_table("suspensions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_suspensions_person_id"))

    op.drop_table("suspensions")
    with op.batch_alter_table("appeals", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_appeals_tournament_id"))

    op.drop_table("appeals")
    with op.batch_alter_table("penalties", schema=None) as batch_op:
        batch_op.drop_index("ix_penalties_player")

    op.drop_table("penalties")
    with op.batch_alter_table("game_rulings", schema=None) as batch_op:
        batch_op.drop_index("ix_game_rulings_table")

    op.drop_table("game_rulings")
    op.drop_table("judging_settings")
    with op.batch_alter_table("infractions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_infractions_tournament_id"))

    op.drop_table("infractions")

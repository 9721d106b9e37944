# ruff: noqa: E501
"""Initial schema: people, tournaments, entries, byes, drops, penalty counts, stages, rounds,
pairings, games, judges, the append-only audit log and idempotency keys.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "people",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("name_key", sa.String(length=200), nullable=False),
        sa.Column("city", sa.String(length=100), nullable=False),
        sa.Column("club", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_people")),
    )
    with op.batch_alter_table("people", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_people_name_key"), ["name_key"], unique=False)

    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("format", sa.String(length=20), nullable=False),
        sa.Column("rules_level", sa.String(length=20), nullable=False),
        sa.Column("points_win", sa.Integer(), nullable=False),
        sa.Column("points_draw", sa.Integer(), nullable=False),
        sa.Column("points_loss", sa.Integer(), nullable=False),
        sa.Column("points_bye", sa.Integer(), nullable=False),
        sa.Column("best_of", sa.Integer(), nullable=False),
        sa.Column("top_best_of", sa.Integer(), nullable=False),
        sa.Column("swiss_rounds", sa.Integer(), nullable=True),
        sa.Column("top_size", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("undone", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.String(length=200), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "format IN ('swiss', 'draft', 'constructed')", name=op.f("ck_tournaments_format")
        ),
        sa.CheckConstraint(
            "rules_level IN ('amateur', 'professional', 'highest')",
            name=op.f("ck_tournaments_rules_level"),
        ),
        sa.CheckConstraint(
            "status IN ('registration', 'running', 'finished')", name=op.f("ck_tournaments_status")
        ),
        sa.CheckConstraint(
            "best_of IN (1, 3, 5) AND top_best_of IN (1, 3, 5)", name=op.f("ck_tournaments_best_of")
        ),
        sa.CheckConstraint("top_size >= 0", name=op.f("ck_tournaments_top_size")),
        sa.CheckConstraint("version >= 1", name=op.f("ck_tournaments_version")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournaments_name"), ["name"], unique=False)

    op.create_table(
        "audit_log",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(length=200), nullable=False),
        sa.Column("action", sa.String(length=50), nullable=False),
        sa.Column("entity", sa.String(length=30), nullable=False),
        sa.Column("entity_id", sa.String(length=100), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_audit_log_tournament_id_tournaments"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
    )
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.create_index(
            "ix_audit_log_entity", ["tournament_id", "entity", "entity_id"], unique=False
        )
        batch_op.create_index("ix_audit_log_tournament", ["tournament_id", "id"], unique=False)
    _make_audit_log_append_only()

    op.create_table(
        "entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("name_key", sa.String(length=200), nullable=False),
        sa.Column("city", sa.String(length=100), nullable=False),
        sa.Column("club", sa.String(length=100), nullable=False),
        sa.Column("joined_round", sa.Integer(), nullable=False),
        sa.Column("dropped_after", sa.Integer(), nullable=True),
        sa.Column("checked_in", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint("joined_round >= 1", name=op.f("ck_entries_joined_round")),
        sa.CheckConstraint("number >= 1", name=op.f("ck_entries_number")),
        sa.CheckConstraint("version >= 1", name=op.f("ck_entries_version")),
        sa.ForeignKeyConstraint(
            ["person_id"], ["people.id"], name=op.f("fk_entries_person_id_people")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name=op.f("fk_entries_tournament_id_tournaments")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_entries")),
        sa.UniqueConstraint("tournament_id", "name_key", name="uq_entries_name"),
        sa.UniqueConstraint("tournament_id", "number", name="uq_entries_number"),
    )
    with op.batch_alter_table("entries", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_entries_person_id"), ["person_id"], unique=False)

    op.create_table(
        "idempotency_keys",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("action", sa.String(length=50), nullable=False),
        sa.Column("request", sa.JSON(), nullable=False),
        sa.Column("response", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_idempotency_keys_tournament_id_tournaments"),
        ),
        sa.PrimaryKeyConstraint("tournament_id", "key", name=op.f("pk_idempotency_keys")),
    )
    op.create_table(
        "judges",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("name_key", sa.String(length=200), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("official_representative", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint(
            "role IN ('organizer', 'head_judge', 'floor_judge')", name=op.f("ck_judges_role")
        ),
        sa.ForeignKeyConstraint(
            ["person_id"], ["people.id"], name=op.f("fk_judges_person_id_people")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name=op.f("fk_judges_tournament_id_tournaments")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_judges")),
        sa.UniqueConstraint("tournament_id", "name_key", "role", name="uq_judges_role"),
    )
    with op.batch_alter_table("judges", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_judges_tournament_id"), ["tournament_id"], unique=False
        )

    op.create_table(
        "stages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.CheckConstraint("kind IN ('swiss', 'top')", name=op.f("ck_stages_kind")),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name=op.f("fk_stages_tournament_id_tournaments")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_stages")),
        sa.UniqueConstraint("tournament_id", "kind", name="uq_stages_kind"),
    )
    op.create_table(
        "drops",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("after_round", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(length=200), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id", "number"],
            ["entries.tournament_id", "entries.number"],
            name="fk_drops_entry",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_drops")),
    )
    with op.batch_alter_table("drops", schema=None) as batch_op:
        batch_op.create_index("ix_drops_tournament", ["tournament_id", "number"], unique=False)

    op.create_table(
        "granted_byes",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.CheckConstraint("round >= 1", name=op.f("ck_granted_byes_round")),
        sa.ForeignKeyConstraint(
            ["tournament_id", "number"],
            ["entries.tournament_id", "entries.number"],
            name="fk_granted_byes_entry",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "number", "round", name=op.f("pk_granted_byes")),
    )
    op.create_table(
        "penalty_counts",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("match_losses", sa.Integer(), nullable=False),
        sa.Column("game_losses", sa.Integer(), nullable=False),
        sa.Column("penalty_points", sa.Integer(), nullable=False),
        sa.Column("warnings", sa.Integer(), nullable=False),
        sa.CheckConstraint(
            "match_losses >= 0 AND game_losses >= 0 AND penalty_points >= 0 AND warnings >= 0",
            name=op.f("ck_penalty_counts_non_negative"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "number"],
            ["entries.tournament_id", "entries.number"],
            name="fk_penalty_counts_entry",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "number", name=op.f("pk_penalty_counts")),
    )
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("stage_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("lot", sa.String(length=200), nullable=False),
        sa.Column("edits", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.String(length=200), nullable=False),
        sa.CheckConstraint("number >= 1", name=op.f("ck_rounds_number")),
        sa.ForeignKeyConstraint(
            ["stage_id"], ["stages.id"], name=op.f("fk_rounds_stage_id_stages")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name=op.f("fk_rounds_tournament_id_tournaments")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rounds")),
        sa.UniqueConstraint("tournament_id", "number", name="uq_rounds_number"),
    )
    op.create_table(
        "pairings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("a", sa.Integer(), nullable=False),
        sa.Column("b", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("wins_a", sa.Integer(), nullable=True),
        sa.Column("wins_b", sa.Integer(), nullable=True),
        sa.Column("draws", sa.Integer(), nullable=True),
        sa.Column("outcome", sa.String(length=20), nullable=True),
        sa.Column("ending", sa.String(length=20), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("updated_by", sa.String(length=200), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "(kind = 'match' AND b IS NOT NULL AND table_no >= 1 AND a <> b) OR (kind <> 'match' AND b IS NULL AND table_no = 0)",
            name=op.f("ck_pairings_shape"),
        ),
        sa.CheckConstraint(
            "ending IS NULL OR ending IN ('played', 'intentional_draw', 'concession', 'penalty', 'no_show')",
            name=op.f("ck_pairings_ending"),
        ),
        sa.CheckConstraint(
            "kind IN ('match', 'bye', 'privilege_bye')", name=op.f("ck_pairings_kind")
        ),
        sa.CheckConstraint(
            "outcome IS NULL OR outcome IN ('a_wins', 'b_wins', 'draw', 'double_loss')",
            name=op.f("ck_pairings_outcome"),
        ),
        sa.CheckConstraint(
            "wins_a IS NULL AND wins_b IS NULL AND draws IS NULL AND outcome IS NULL AND ending IS NULL OR (wins_a IS NOT NULL AND wins_b IS NOT NULL AND draws IS NOT NULL AND outcome IS NOT NULL AND ending IS NOT NULL AND b IS NOT NULL AND wins_a >= 0 AND wins_b >= 0 AND draws >= 0)",
            name=op.f("ck_pairings_result"),
        ),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["rounds.id"],
            name=op.f("fk_pairings_round_id_rounds"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "a"],
            ["entries.tournament_id", "entries.number"],
            name="fk_pairings_a",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "b"],
            ["entries.tournament_id", "entries.number"],
            name="fk_pairings_b",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_pairings_tournament_id_tournaments"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_pairings")),
        sa.UniqueConstraint("round_id", "position", name="uq_pairings_position"),
    )
    with op.batch_alter_table("pairings", schema=None) as batch_op:
        batch_op.create_index("ix_pairings_table", ["round_id", "table_no"], unique=False)
        batch_op.create_index(
            "uq_pairings_table",
            ["round_id", "table_no"],
            unique=True,
            sqlite_where=sa.text("table_no > 0"),
            postgresql_where=sa.text("table_no > 0"),
        )

    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("pairing_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("winner", sa.String(length=1), nullable=True),
        sa.Column("reason", sa.String(length=30), nullable=False),
        sa.CheckConstraint("winner IS NULL OR winner IN ('a', 'b')", name=op.f("ck_games_winner")),
        sa.ForeignKeyConstraint(
            ["pairing_id"],
            ["pairings.id"],
            name=op.f("fk_games_pairing_id_pairings"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("pairing_id", "number", name="uq_games_number"),
    )


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        op.execute("DROP TRIGGER audit_log_no_change ON audit_log")
        op.execute("DROP TRIGGER audit_log_no_truncate ON audit_log")
        op.execute("DROP FUNCTION audit_log_append_only()")
    op.drop_table("games")
    with op.batch_alter_table("pairings", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_pairings_table",
            sqlite_where=sa.text("table_no > 0"),
            postgresql_where=sa.text("table_no > 0"),
        )
        batch_op.drop_index("ix_pairings_table")

    op.drop_table("pairings")
    op.drop_table("rounds")
    op.drop_table("penalty_counts")
    op.drop_table("granted_byes")
    with op.batch_alter_table("drops", schema=None) as batch_op:
        batch_op.drop_index("ix_drops_tournament")

    op.drop_table("drops")
    op.drop_table("stages")
    with op.batch_alter_table("judges", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_judges_tournament_id"))

    op.drop_table("judges")
    op.drop_table("idempotency_keys")
    with op.batch_alter_table("entries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_entries_person_id"))

    op.drop_table("entries")
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.drop_index("ix_audit_log_tournament")
        batch_op.drop_index("ix_audit_log_entity")

    op.drop_table("audit_log")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournaments_name"))

    op.drop_table("tournaments")
    with op.batch_alter_table("people", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_people_name_key"))

    op.drop_table("people")


def _make_audit_log_append_only() -> None:
    """Triggers that refuse any UPDATE or DELETE (and TRUNCATE) of audit_log rows."""
    if op.get_bind().dialect.name == "sqlite":
        for statement in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER audit_log_no_{statement.lower()} BEFORE {statement} ON audit_log "
                "BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END"
            )
        return
    op.execute(
        "CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
        "BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$"
    )
    op.execute(
        "CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log "
        "FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()"
    )
    op.execute(
        "CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log "
        "FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()"
    )

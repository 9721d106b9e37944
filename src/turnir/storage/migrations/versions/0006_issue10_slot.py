# ruff: noqa: E501
"""Players' result reports belong to a pairing and its two players (issue 10 item 2).

``result_reports`` was keyed by (tournament, round, table, side), so a report outlived an undone
round or a swap and could confirm a different match. It now names the pairing row
(``pairing_id``, ``ON DELETE CASCADE``), the pairing's two players when it was made (``a``,
``b``) and the reporter (``player``). The pending reports are carried over: each is bound to
the pairing now at its table and to that pairing's current players (what the old key meant);
a report whose table no longer exists is dropped.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

def _result_columns() -> list[sa.Column[Any]]:
    return [
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("wins_a", sa.Integer(), nullable=False),
        sa.Column("wins_b", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(length=20), nullable=False),
        sa.Column("ending", sa.String(length=20), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    ]


def _rows(sql: str) -> list[dict[str, Any]]:
    """The rows as the driver gives them (no type processing: they go back in as they are)."""
    return [dict(row) for row in op.get_bind().execute(sa.text(sql)).mappings()]


def _put_back(rows: list[dict[str, Any]]) -> None:
    if rows:
        op.bulk_insert(sa.table("result_reports", *(sa.column(key) for key in rows[0])), rows)


def upgrade() -> None:
    kept = _rows(
        "SELECT p.id AS pairing_id, r.tournament_id, p.a, p.b, "
        "CASE WHEN r.side = 'a' THEN p.a ELSE p.b END AS player, r.account_id, r.wins_a, "
        "r.wins_b, r.draws, r.outcome, r.ending, r.at FROM result_reports r "
        "JOIN rounds ON rounds.tournament_id = r.tournament_id AND rounds.number = r.round "
        "JOIN pairings p ON p.round_id = rounds.id AND p.table_no = r.table_no "
        "AND p.kind = 'match' ORDER BY r.id"
    )
    op.drop_table("result_reports")
    op.create_table(
        "result_reports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("pairing_id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("a", sa.Integer(), nullable=False),
        sa.Column("b", sa.Integer(), nullable=False),
        sa.Column("player", sa.Integer(), nullable=False),
        *_result_columns(),
        sa.CheckConstraint("a <> b AND (player = a OR player = b)", name=op.f("ck_result_reports_player")),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name=op.f("fk_result_reports_account_id_accounts")),
        sa.ForeignKeyConstraint(["pairing_id"], ["pairings.id"], name=op.f("fk_result_reports_pairing_id_pairings"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["tournament_id", "a"], ["entries.tournament_id", "entries.number"], name="fk_result_reports_a"),
        sa.ForeignKeyConstraint(["tournament_id", "b"], ["entries.tournament_id", "entries.number"], name="fk_result_reports_b"),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], name=op.f("fk_result_reports_tournament_id_tournaments")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_result_reports")),
        sa.UniqueConstraint("pairing_id", "player", name="uq_result_reports_player"),
    )
    _put_back(kept)


def downgrade() -> None:
    kept = _rows(
        "SELECT r.tournament_id, rounds.number AS round, p.table_no, "
        "CASE WHEN r.player = r.a THEN 'a' ELSE 'b' END AS side, r.account_id, r.wins_a, "
        "r.wins_b, r.draws, r.outcome, r.ending, r.at FROM result_reports r "
        "JOIN pairings p ON p.id = r.pairing_id AND p.a = r.a AND p.b = r.b "
        "JOIN rounds ON rounds.id = p.round_id ORDER BY r.id"
    )
    op.drop_table("result_reports")
    op.create_table(
        "result_reports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(length=1), nullable=False),
        *_result_columns(),
        sa.CheckConstraint("side IN ('a', 'b')", name=op.f("ck_result_reports_side")),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name=op.f("fk_result_reports_account_id_accounts")),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], name=op.f("fk_result_reports_tournament_id_tournaments")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_result_reports")),
        sa.UniqueConstraint("tournament_id", "round", "table_no", "side", name="uq_result_reports"),
    )
    _put_back(kept)

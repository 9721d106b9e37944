"""Tamper-evident audit chain (issue 10 item 14): ``audit_log.chain``, ``seq`` and ``digest``.

Every entry gets its chain (its tournament's id, 0 for a server-wide entry), its sequence
number in the chain (unique with the chain) and the SHA-256 of its canonical content and of the
previous entry's digest (``turnir.storage.audit.entry_digest``). The entries already stored are
numbered and hashed in the order they were written (``id``), so an upgraded database verifies.

The append-only triggers are dropped while the new columns are filled in and put back after
(on SQLite the table is rebuilt to make the columns NOT NULL, which drops triggers anyway).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

from turnir.storage.audit import entry_digest, stored_json

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_BATCH = 1000

_log = sa.table(
    "audit_log",
    sa.column("id", sa.Integer()), sa.column("tournament_id", sa.Integer()),
    sa.column("at", sa.DateTime(timezone=True)), sa.column("actor", sa.String()),
    sa.column("action", sa.String()), sa.column("entity", sa.String()),
    sa.column("entity_id", sa.String()), sa.column("before", sa.JSON()),
    sa.column("after", sa.JSON()), sa.column("chain", sa.Integer()),
    sa.column("seq", sa.Integer()), sa.column("digest", sa.String()),
)


def _sqlite() -> bool:
    return op.get_bind().dialect.name == "sqlite"


def _drop_append_only() -> None:
    if _sqlite():
        op.execute("DROP TRIGGER IF EXISTS audit_log_no_update")
        op.execute("DROP TRIGGER IF EXISTS audit_log_no_delete")
        return
    op.execute("DROP TRIGGER IF EXISTS audit_log_no_change ON audit_log")
    op.execute("DROP TRIGGER IF EXISTS audit_log_no_truncate ON audit_log")


def _make_append_only() -> None:
    """The triggers of migration 0001: refuse any UPDATE or DELETE (and TRUNCATE)."""
    if _sqlite():
        for statement in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER audit_log_no_{statement.lower()} BEFORE {statement} ON "
                "audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END"
            )
        return
    op.execute(
        "CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log "
        "FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()"
    )
    op.execute(
        "CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log "
        "FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()"
    )


def _chain_existing_entries() -> None:
    """Number and hash every stored entry, chain by chain, in the order written."""
    conn = op.get_bind()
    heads: dict[int, tuple[int, str]] = {}
    pending: list[dict[str, Any]] = []
    update = (sa.update(_log).where(_log.c.id == sa.bindparam("row_id"))
              .values(chain=sa.bindparam("new_chain"), seq=sa.bindparam("new_seq"),
                      digest=sa.bindparam("new_digest")))
    rows = conn.execute(sa.select(_log.c.id, _log.c.tournament_id, _log.c.at, _log.c.actor,
                                  _log.c.action, _log.c.entity, _log.c.entity_id,
                                  _log.c.before, _log.c.after).order_by(_log.c.id)).all()
    for row in rows:
        chain = 0 if row.tournament_id is None else int(row.tournament_id)
        seq, previous = heads.get(chain, (0, ""))
        seq += 1
        digest = entry_digest(tournament_id=row.tournament_id, seq=seq, action=row.action,
                              entity=row.entity, entity_id=row.entity_id, actor=row.actor,
                              at=row.at, before=stored_json(row.before),
                              after=stored_json(row.after), previous=previous)
        heads[chain] = (seq, digest)
        pending.append({"row_id": row.id, "new_chain": chain, "new_seq": seq,
                        "new_digest": digest})
        if len(pending) >= _BATCH:
            conn.execute(update, pending)
            pending = []
    if pending:
        conn.execute(update, pending)


def upgrade() -> None:
    _drop_append_only()
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.add_column(sa.Column("chain", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("seq", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("digest", sa.String(length=64), nullable=True))
    _chain_existing_entries()
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.alter_column("chain", existing_type=sa.Integer(), nullable=False)
        batch_op.alter_column("seq", existing_type=sa.Integer(), nullable=False)
        batch_op.alter_column("digest", existing_type=sa.String(length=64), nullable=False)
        batch_op.create_unique_constraint("uq_audit_log_chain_seq", ["chain", "seq"])
        batch_op.create_check_constraint(op.f("ck_audit_log_chain"),
                                         "chain = coalesce(tournament_id, 0)")
        batch_op.create_check_constraint(op.f("ck_audit_log_seq"), "seq >= 1")
    _make_append_only()


def downgrade() -> None:
    _drop_append_only()
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.drop_constraint("uq_audit_log_chain_seq", type_="unique")
        batch_op.drop_constraint(op.f("ck_audit_log_chain"), type_="check")
        batch_op.drop_constraint(op.f("ck_audit_log_seq"), type_="check")
        batch_op.drop_column("digest")
        batch_op.drop_column("seq")
        batch_op.drop_column("chain")
    _make_append_only()

"""Judges act only in their own tournament (issue 10 item 1): ``judges.account_id`` links a
tournament's staff row (organizer, head judge, floor judge) to the web account that acts in
that role; a web account has rights in a tournament only through such a row.

Existing data is linked once, by name, conservatively (``docs/security.md``):

- a staff row without an account is linked to the active non-player account whose name is the
  same (spaces collapsed, case ignored), when exactly one such account exists;
- a tournament that then has no organizer row linked to an account gets one for its creator:
  the single active organizer account whose name is the tournament's ``created_by``.

Anything left unlinked is linked by the operator: ``turnir judge add T NAME --account LOGIN``.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def _key(name: str) -> str:
    """How names are compared (and ``judges.name_key`` is stored): the domain's one rule."""
    from turnir.domain.text import name_key

    return name_key(name)


def _link_existing(conn: sa.Connection) -> None:
    accounts = sa.table("accounts", sa.column("id"), sa.column("name"), sa.column("role"),
                        sa.column("active"))
    judges = sa.table("judges", sa.column("id"), sa.column("tournament_id"), sa.column("name"),
                      sa.column("name_key"), sa.column("role"), sa.column("account_id"),
                      sa.column("official_representative"), sa.column("version"),
                      sa.column("person_id"))
    tournaments = sa.table("tournaments", sa.column("id"), sa.column("created_by"))
    staff: dict[str, list[int]] = {}
    organizers: dict[str, list[int]] = {}
    names: dict[int, str] = {}
    for row in conn.execute(sa.select(accounts.c.id, accounts.c.name, accounts.c.role,
                                      accounts.c.active)):
        if not row.active or row.role == "player":
            continue
        names[row.id] = row.name
        staff.setdefault(_key(row.name), []).append(row.id)
        if row.role == "organizer":
            organizers.setdefault(_key(row.name), []).append(row.id)
    for judge_id, judge_name in conn.execute(sa.select(judges.c.id, judges.c.name).where(
            judges.c.account_id.is_(None))).all():
        found = staff.get(_key(judge_name), [])
        if len(found) == 1:
            conn.execute(sa.update(judges).where(judges.c.id == judge_id)
                         .values(account_id=found[0]))
    linked = {row.tournament_id for row in conn.execute(
        sa.select(judges.c.tournament_id).where(judges.c.role == "organizer",
                                                judges.c.account_id.is_not(None)))}
    for tid, created_by in conn.execute(
            sa.select(tournaments.c.id, tournaments.c.created_by)).all():
        found = organizers.get(_key(created_by or ""), [])
        if tid in linked or len(found) != 1:
            continue
        taken = conn.execute(sa.select(judges.c.id).where(
            judges.c.tournament_id == tid, judges.c.role == "organizer",
            judges.c.name_key == _key(names[found[0]]))).first()
        if taken is not None:  # a named organizer row of another account's name: leave it
            continue
        conn.execute(sa.insert(judges).values(
            tournament_id=tid, name=names[found[0]],
            name_key=_key(names[found[0]]), role="organizer", account_id=found[0],
            official_representative=False, version=1, person_id=None))


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        # ADD COLUMN with its reference: rebuilding ``judges`` (batch mode) is impossible inside
        # the migration's transaction once penalties refer to its rows (foreign keys are on)
        op.execute("ALTER TABLE judges ADD COLUMN account_id INTEGER "
                   "CONSTRAINT fk_judges_account_id_accounts REFERENCES accounts (id)")
    else:
        op.add_column("judges", sa.Column("account_id", sa.Integer(), nullable=True))
        op.create_foreign_key(op.f("fk_judges_account_id_accounts"), "judges", "accounts",
                              ["account_id"], ["id"])
    op.create_index(op.f("ix_judges_account_id"), "judges", ["account_id"], unique=False)
    op.create_index("uq_judges_account", "judges", ["tournament_id", "account_id", "role"],
                    unique=True)
    _link_existing(op.get_bind())


def downgrade() -> None:
    """Back to 0009 (on SQLite only while no penalty, appeal or ruling refers to a judge: the
    table is rebuilt)."""
    op.drop_index("uq_judges_account", table_name="judges")
    op.drop_index(op.f("ix_judges_account_id"), table_name="judges")
    with op.batch_alter_table("judges", schema=None) as batch_op:
        if op.get_bind().dialect.name != "sqlite":
            batch_op.drop_constraint(op.f("fk_judges_account_id_accounts"), type_="foreignkey")
        batch_op.drop_column("account_id")

"""Migration 0010 (issue 10 item 1) on SQLite and PostgreSQL: an existing database's judges
are linked to the accounts of the same name when exactly one fits, and each tournament's
creator becomes its organizer; ambiguous names stay unlinked (the operator links them with
``turnir judge add T NAME --account LOGIN``)."""

from __future__ import annotations

from alembic import command
from sqlalchemy import select

from tests.services.builders import ORGANIZER, event
from turnir.services.accounts import AccountRole, create_account, make_hasher
from turnir.services.judges import JudgeRole, add_judge
from turnir.storage.database import Database
from turnir.storage.migrate import _config, upgrade
from turnir.storage.tables import judges
from turnir.storage.tables_accounts import accounts


def _account(db: Database, login: str, name: str, role: AccountRole) -> None:
    create_account(db, login=login, name=name, password="x" * 10, role=role, actor="test",
                   hasher=make_hasher(fast=True))


def test_item1_migration_links_existing_staff_by_name_once(db: Database) -> None:
    _account(db, "org", ORGANIZER, AccountRole.ORGANIZER)
    _account(db, "floor", "Судья  Петров", AccountRole.FLOOR_JUDGE)   # spaces differ
    _account(db, "h1", "Главная Судья", AccountRole.HEAD_JUDGE)
    _account(db, "h2", "главная судья", AccountRole.HEAD_JUDGE)        # ambiguous
    tid = event(db, 4, name="Старый кубок")
    add_judge(db, tid, name="Судья Петров", role=JudgeRole.FLOOR_JUDGE, actor=ORGANIZER)
    add_judge(db, tid, name="Главная Судья", role=JudgeRole.HEAD_JUDGE, actor=ORGANIZER)
    with db.write() as conn:
        command.downgrade(_config(conn), "0009")
    assert upgrade(db).before == "0009"
    with db.read() as conn:
        logins = dict(conn.execute(select(accounts.c.id, accounts.c.login)).all())
        rows = {(r.role, r.name): logins.get(r.account_id) for r in conn.execute(
            select(judges.c.role, judges.c.name, judges.c.account_id)
            .where(judges.c.tournament_id == tid))}
    assert rows == {("floor_judge", "Судья Петров"): "floor",
                    ("head_judge", "Главная Судья"): None,
                    ("organizer", ORGANIZER): "org"}

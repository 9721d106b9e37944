"""The statements about a tournament's staff (судейская коллегия: the ``judges`` rows) and the
web accounts linked to them (issue 10 item 1). They never commit: the service owns the
transaction."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, RowMapping, insert, select, update

from turnir.storage.tables import judges
from turnir.storage.tables_accounts import accounts


def staff_rows(conn: Connection, tournament_id: int) -> list[RowMapping]:
    """Every staff row of the tournament, in the order they were added, with the login of the
    linked account (``login``, ``None`` for a judge named only)."""
    return list(conn.execute(
        select(judges, accounts.c.login)
        .outerjoin(accounts, accounts.c.id == judges.c.account_id)
        .where(judges.c.tournament_id == tournament_id)
        .order_by(judges.c.id)
    ).mappings())


def account_roles(conn: Connection, tournament_id: int, account_id: int) -> list[str]:
    """The roles the account has in the tournament (values of ``judges.role``)."""
    return [str(role) for role in conn.execute(
        select(judges.c.role).where(judges.c.tournament_id == tournament_id,
                                    judges.c.account_id == account_id)
    ).scalars()]


def account_rows(conn: Connection, tournament_id: int, account_id: int) -> list[RowMapping]:
    """The account's staff rows in the tournament."""
    return list(conn.execute(
        select(judges).where(judges.c.tournament_id == tournament_id,
                             judges.c.account_id == account_id).order_by(judges.c.id)
    ).mappings())


def account_by_login(conn: Connection, login: str) -> RowMapping | None:
    """The account with this (already normalised) login."""
    return conn.execute(select(accounts).where(accounts.c.login == login)).mappings().first()


def account_by_id(conn: Connection, account_id: int) -> RowMapping | None:
    return conn.execute(select(accounts).where(accounts.c.id == account_id)).mappings().first()


def insert_staff(conn: Connection, **values: Any) -> int:
    return int(conn.execute(insert(judges).values(**values).returning(judges.c.id))
               .scalar_one())


def set_account(conn: Connection, judge_id: int, version: int, account_id: int | None) -> None:
    """Link (or, with ``None``, unlink) the staff row's web account."""
    conn.execute(update(judges).where(judges.c.id == judge_id)
                 .values(account_id=account_id, version=version + 1))


def staff_row(conn: Connection, tournament_id: int, judge_id: int) -> RowMapping | None:
    return conn.execute(select(judges).where(judges.c.tournament_id == tournament_id,
                                             judges.c.id == judge_id)).mappings().first()


def person_of(conn: Connection, judge_id: int) -> int | None:
    """The person a staff row belongs to, if known."""
    found = conn.execute(select(judges.c.person_id).where(judges.c.id == judge_id)).scalar()
    return None if found is None else int(found)

"""The statements about a tournament's staff (судейская коллегия: the ``judges`` rows) and the
web accounts linked to them (issue 10 item 1). They never commit: the service owns the
transaction."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, RowMapping, insert, select, update

from turnir.domain.accounts import AccountRole
from turnir.domain.model import StaffRole
from turnir.storage.mappers import name_key
from turnir.storage.tables import judges
from turnir.storage.tables_accounts import accounts


@dataclass(frozen=True, slots=True)
class StaffMember:
    """One staff row of a tournament (a ``judges`` row) with the login of its account."""

    id: int
    name: str
    name_key: str
    role: StaffRole
    official_representative: bool
    person_id: int | None
    version: int
    account_id: int | None
    """The web account acting in this role (``None``: named only)."""
    login: str | None
    """That account's login."""


@dataclass(frozen=True, slots=True)
class StaffAccount:
    """A web account as adding it to a staff needs it."""

    id: int
    login: str
    name: str
    role: AccountRole
    """Its role on the server (a player's account cannot be staff)."""
    active: bool


def _member(row: Mapping[Any, Any]) -> StaffMember:
    return StaffMember(id=int(row["id"]), name=row["name"], name_key=row["name_key"],
                       role=StaffRole(row["role"]),
                       official_representative=bool(row["official_representative"]),
                       person_id=row["person_id"], version=int(row["version"]),
                       account_id=row["account_id"], login=row["login"])


def _account(row: Mapping[Any, Any] | None) -> StaffAccount | None:
    if row is None:
        return None
    return StaffAccount(id=int(row["id"]), login=row["login"], name=row["name"],
                        role=AccountRole(row["role"]), active=bool(row["active"]))


_MEMBERS = (select(judges, accounts.c.login)
            .outerjoin(accounts, accounts.c.id == judges.c.account_id))


def staff_rows(conn: Connection, tournament_id: int) -> list[StaffMember]:
    """Every staff row of the tournament, in the order they were added, with the login of the
    linked account (``None`` for a judge named only)."""
    return [_member(row) for row in conn.execute(
        _MEMBERS.where(judges.c.tournament_id == tournament_id).order_by(judges.c.id)
    ).mappings()]


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


def account_by_login(conn: Connection, login: str) -> StaffAccount | None:
    """The account with this (already normalised) login."""
    return _account(conn.execute(select(accounts).where(accounts.c.login == login))
                    .mappings().first())


def account_by_id(conn: Connection, account_id: int) -> StaffAccount | None:
    return _account(conn.execute(select(accounts).where(accounts.c.id == account_id))
                    .mappings().first())


def insert_staff(conn: Connection, tournament_id: int, *, name: str, role: StaffRole,
                 person_id: int | None, account_id: int | None,
                 official_representative: bool) -> int:
    """A new staff row (version 1); returns its id."""
    return int(conn.execute(insert(judges).values(
        tournament_id=tournament_id, person_id=person_id, name=name, name_key=name_key(name),
        role=StaffRole(role).value, account_id=account_id,
        official_representative=official_representative, version=1,
    ).returning(judges.c.id)).scalar_one())


def set_account(conn: Connection, judge_id: int, version: int, account_id: int | None) -> None:
    """Link (or, with ``None``, unlink) the staff row's web account."""
    conn.execute(update(judges).where(judges.c.id == judge_id)
                 .values(account_id=account_id, version=version + 1))


def staff_row(conn: Connection, tournament_id: int, judge_id: int) -> StaffMember | None:
    """One staff row of the tournament, with its account's login."""
    row = conn.execute(_MEMBERS.where(judges.c.tournament_id == tournament_id,
                                      judges.c.id == judge_id)).mappings().first()
    return None if row is None else _member(row)


def person_of(conn: Connection, judge_id: int) -> int | None:
    """The person a staff row belongs to, if known."""
    found = conn.execute(select(judges.c.person_id).where(judges.c.id == judge_id)).scalar()
    return None if found is None else int(found)

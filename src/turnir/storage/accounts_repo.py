"""The statements of web accounts and their sessions (``turnir.services.accounts``) on the
``accounts`` and ``web_sessions`` tables. Like every repository they never commit; the service
owns the transaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Connection, RowMapping, delete, insert, select, update

from turnir.storage.tables import people
from turnir.storage.tables_accounts import accounts, web_sessions


@dataclass(frozen=True, slots=True)
class StoredAccount:
    """An account as stored (its role as the stored text)."""

    id: int
    login: str
    name: str
    role: str
    person_id: int | None
    active: bool
    password_hash: str
    version: int


def _account(row: RowMapping) -> StoredAccount:
    return StoredAccount(id=row["id"], login=row["login"], name=row["name"], role=row["role"],
                         person_id=row["person_id"], active=bool(row["active"]),
                         password_hash=row["password_hash"], version=row["version"])


def account_by_login(conn: Connection, login: str, *,
                     for_update: bool = False) -> StoredAccount | None:
    """The account of a stored login (``for_update``: its row locked until the end)."""
    query = select(accounts).where(accounts.c.login == login)
    row = conn.execute(query.with_for_update() if for_update else query).mappings().first()
    return None if row is None else _account(row)


def account_by_id(conn: Connection, account_id: int) -> StoredAccount:
    return _account(conn.execute(select(accounts).where(accounts.c.id == account_id))
                    .mappings().one())


def all_accounts(conn: Connection) -> list[StoredAccount]:
    return [_account(r) for r in conn.execute(select(accounts).order_by(accounts.c.id))
            .mappings()]


def login_taken(conn: Connection, login: str) -> bool:
    return conn.execute(select(accounts.c.id).where(accounts.c.login == login)).first() is not None


def person_exists(conn: Connection, person_id: int) -> bool:
    return conn.execute(select(people.c.id).where(people.c.id == person_id)).first() is not None


def insert_account(conn: Connection, *, login: str, name: str, role: str,
                   person_id: int | None, password_hash: str, at: datetime) -> int:
    return int(conn.execute(insert(accounts).values(
        login=login, name=name, role=role, person_id=person_id, password_hash=password_hash,
        active=True, created_at=at, version=1,
    ).returning(accounts.c.id)).scalar_one())


def update_account(conn: Connection, account: StoredAccount, *, password_hash: str | None = None,
                   active: bool | None = None) -> None:
    """Set the account's password hash or active flag; its version goes up by one."""
    values: dict[str, object] = {"version": account.version + 1}
    if password_hash is not None:
        values["password_hash"] = password_hash
    if active is not None:
        values["active"] = active
    conn.execute(update(accounts).where(accounts.c.id == account.id).values(**values))


def lock_active_organizers(conn: Connection, role: str) -> set[int]:
    """The ids of the active accounts with ``role`` (the organizers), their rows locked in id
    order: two organizers deactivating each other at once wait for each other."""
    return set(conn.execute(
        select(accounts.c.id).where(accounts.c.role == role, accounts.c.active.is_(True))
        .order_by(accounts.c.id).with_for_update()).scalars())


def logins_of_people(conn: Connection, person_ids: list[int]) -> dict[int, str]:
    """person id → login, for the people that have an account."""
    return {pid: login for pid, login in conn.execute(
        select(accounts.c.person_id, accounts.c.login)
        .where(accounts.c.person_id.in_(person_ids)))}


# ----- sessions ----------------------------------------------------------------------------


def end_sessions(conn: Connection, account_id: int) -> int:
    """Delete every session of the account; how many there were."""
    return int(conn.execute(delete(web_sessions).where(
        web_sessions.c.account_id == account_id)).rowcount or 0)


def insert_session(conn: Connection, key: str, account_id: int, at: datetime,
                   expires_at: datetime) -> None:
    """A new session (the expired ones of every account go first)."""
    conn.execute(delete(web_sessions).where(web_sessions.c.expires_at < at))
    conn.execute(insert(web_sessions).values(id=key, account_id=account_id, created_at=at,
                                             expires_at=expires_at))


def session_of(conn: Connection, key: str) -> tuple[StoredAccount, datetime] | None:
    """The account of a session and when the session expires (UTC)."""
    row = conn.execute(
        select(accounts, web_sessions.c.expires_at)
        .join(web_sessions, web_sessions.c.account_id == accounts.c.id)
        .where(web_sessions.c.id == key)
    ).mappings().first()
    if row is None:
        return None
    expires: datetime = row["expires_at"]
    if expires.tzinfo is None:
        expires = expires.replace(tzinfo=UTC)
    return _account(row), expires


def delete_session(conn: Connection, key: str) -> None:
    conn.execute(delete(web_sessions).where(web_sessions.c.id == key))

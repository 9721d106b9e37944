"""Web accounts and their sessions: create an account with a role, check a password, open and
close a session (``docs/web.md``).

Roles (роли) are per server: an *organizer* runs tournaments and accounts, a *head judge*
(главный судья) and a *floor judge* (судья в зале) record, decide and correct results, a
*player* (игрок) reports their own matches; anyone else is the anonymous public. A player's
account names a person (``people``), and so every entry of that person in any tournament.

Passwords are hashed with argon2id (``argon2-cffi``); a session is a random token held by the
client, stored as its SHA-256, valid for ``lifetime``. A new account is a player unless it is
given another role. An organizer may deactivate an account (its sessions end at once and it
cannot log in; the last active organizer cannot be) and reactivate it, and set a new password
(which ends its sessions too). Creating an account, deactivating, reactivating it or changing
its password leaves an audit record (without the hash).

Every login attempt costs one argon2 verification, an unknown one too (``dummy_hash``), so how
long the answer takes does not tell which logins exist. The rate limit around it is
``turnir.services.login_limits``.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import RowMapping, delete, insert, select, update

from turnir.domain.text import LOGIN_LEN, NAME_LEN, BadTextError, clean_login, clean_name
from turnir.errors import ConflictError, NotFoundError, UserError
from turnir.services.common import changing, utc_now
from turnir.storage.database import Database
from turnir.storage.tables import people
from turnir.storage.tables_accounts import accounts, web_sessions

MIN_PASSWORD = 8


class AccountRole(StrEnum):
    ORGANIZER = "organizer"
    HEAD_JUDGE = "head_judge"
    FLOOR_JUDGE = "floor_judge"
    PLAYER = "player"

    @property
    def is_judge(self) -> bool:
        """May record, decide and correct results (organizers may too)."""
        return self is not AccountRole.PLAYER


@dataclass(frozen=True, slots=True)
class AccountInfo:
    id: int
    login: str
    name: str
    role: AccountRole
    person_id: int | None
    active: bool


def _info(row: RowMapping) -> AccountInfo:
    return AccountInfo(id=row["id"], login=row["login"], name=row["name"],
                       role=AccountRole(row["role"]), person_id=row["person_id"],
                       active=bool(row["active"]))


def make_hasher(*, fast: bool = False) -> PasswordHasher:
    """argon2id with the library's defaults; ``fast`` (tests only) with the smallest cost."""
    if fast:
        return PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    return PasswordHasher()


def _login_key(login: str) -> str:
    """The stored form of a login (``turnir.domain.text.clean_login``)."""
    try:
        return clean_login(login, field="login", max_len=LOGIN_LEN)
    except BadTextError as error:
        raise UserError(f"a login is one word of at most {LOGIN_LEN} characters "
                        f"({error.message})", code="bad_login") from None


def _check_password(password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise UserError(f"the password needs at least {MIN_PASSWORD} characters",
                        code="weak_password")
    if len(password) > 1000:
        raise UserError("the password is too long", code="bad_password")


def create_account(
    db: Database, *, login: str, name: str, password: str, actor: str,
    role: AccountRole = AccountRole.PLAYER, person_id: int | None = None,
    hasher: PasswordHasher | None = None,
) -> AccountInfo:
    """A new account, a player unless ``role`` says otherwise; a player's names the person
    they play as (``person_id``)."""
    key = _login_key(login)
    shown = clean_name(name, field="account's name", max_len=NAME_LEN, required=False)
    if not shown:
        raise UserError("the account needs a name", code="bad_name")
    role = AccountRole(role)
    if role is AccountRole.PLAYER and person_id is None:
        raise UserError("a player's account must name the player (new accounts are players "
                        "unless given another role)", code="no_person")
    _check_password(password)
    hashed = (hasher or make_hasher()).hash(password)
    with changing(db, None, actor) as change:
        conn = change.conn
        if conn.execute(select(accounts.c.id).where(accounts.c.login == key)).first():
            raise UserError(f"the login {key!r} is taken", code="duplicate_login")
        if person_id is not None and conn.execute(
            select(people.c.id).where(people.c.id == person_id)
        ).first() is None:
            raise NotFoundError(f"no person #{person_id}", code="unknown_person")
        account_id = int(conn.execute(insert(accounts).values(
            login=key, name=shown[:200], role=role.value, person_id=person_id,
            password_hash=hashed, active=True, created_at=change.at, version=1,
        ).returning(accounts.c.id)).scalar_one())
        change.log(None, "account.create", "account", account_id, None,
                   {"login": key, "name": shown, "role": role.value, "person_id": person_id})
        return _info(conn.execute(select(accounts).where(accounts.c.id == account_id))
                     .mappings().one())


def set_password(db: Database, login: str, password: str, *, actor: str,
                 hasher: PasswordHasher | None = None) -> AccountInfo:
    """A new password; every open session of the account is closed."""
    key = _login_key(login)
    _check_password(password)
    hashed = (hasher or make_hasher()).hash(password)
    with changing(db, None, actor) as change:
        conn = change.conn
        row = conn.execute(select(accounts).where(accounts.c.login == key)).mappings().first()
        if row is None:
            raise NotFoundError(f"no account {key!r}", code="unknown_account")
        conn.execute(update(accounts).where(accounts.c.id == row["id"]).values(
            password_hash=hashed, version=row["version"] + 1))
        conn.execute(delete(web_sessions).where(web_sessions.c.account_id == row["id"]))
        change.log(None, "account.password", "account", row["id"], None, {"login": key})
        return _info(row)


def set_active(db: Database, login: str, active: bool, *, actor: str) -> AccountInfo:
    """Deactivate an account (it cannot log in, and every session it has ends at once) or
    reactivate it (with no session: it logs in again). The last active organizer cannot be
    deactivated: nobody could manage the accounts then. Doing it again changes nothing."""
    key = _login_key(login)
    with changing(db, None, actor) as change:
        conn = change.conn
        # Every active organizer's row first, in one order: two organizers deactivating each
        # other at once wait for each other, and the second sees the first one's change.
        organizers = set(conn.execute(
            select(accounts.c.id).where(accounts.c.role == AccountRole.ORGANIZER.value,
                                        accounts.c.active.is_(True))
            .order_by(accounts.c.id).with_for_update()).scalars())
        row = conn.execute(select(accounts).where(accounts.c.login == key).with_for_update()
                           ).mappings().first()
        if row is None:
            raise NotFoundError(f"no account {key!r}", code="unknown_account")
        if bool(row["active"]) is active:
            return _info(row)
        if not active and organizers == {row["id"]}:
            raise ConflictError(f"{key!r} is the last active organizer; make another organizer "
                                "first", code="last_organizer")
        conn.execute(update(accounts).where(accounts.c.id == row["id"]).values(
            active=active, version=row["version"] + 1))
        ended = 0
        if not active:
            ended = int(conn.execute(delete(web_sessions).where(
                web_sessions.c.account_id == row["id"])).rowcount or 0)
        change.log(None, "account.activate" if active else "account.deactivate", "account",
                   row["id"], {"login": key, "active": not active},
                   {"login": key, "active": active} | ({} if active else {"sessions_ended": ended}))
        return _info(conn.execute(select(accounts).where(accounts.c.id == row["id"]))
                     .mappings().one())


def find_account(db: Database, login: str) -> AccountInfo | None:
    with db.read() as conn:
        row = conn.execute(select(accounts).where(accounts.c.login == _login_key(login))
                           ).mappings().first()
    return None if row is None else _info(row)


def list_accounts(db: Database) -> list[AccountInfo]:
    with db.read() as conn:
        return [_info(r) for r in conn.execute(select(accounts).order_by(accounts.c.id))
                .mappings()]


def player_accounts(db: Database, person_ids: list[int]) -> dict[int, str]:
    """person id → login, for the people that have a player account."""
    if not person_ids:
        return {}
    with db.read() as conn:
        return {pid: login for pid, login in conn.execute(
            select(accounts.c.person_id, accounts.c.login)
            .where(accounts.c.person_id.in_(person_ids)))}


WRONG_LOGIN = "wrong login or password"


@functools.lru_cache(maxsize=8)
def _dummy_hash(time_cost: int, memory_cost: int, parallelism: int, hash_len: int,
                salt_len: int, kind: Type) -> str:
    return PasswordHasher(time_cost=time_cost, memory_cost=memory_cost,
                          parallelism=parallelism, hash_len=hash_len, salt_len=salt_len,
                          type=kind).hash(secrets.token_urlsafe(32))


def dummy_hash(hasher: PasswordHasher) -> str:
    """A hash made with ``hasher``'s parameters of a password nobody knows (drawn once per
    process): what an unknown or inactive login is checked against, so that it costs the same
    argon2 work as a known one and the time of the answer does not tell which logins exist."""
    return _dummy_hash(hasher.time_cost, hasher.memory_cost, hasher.parallelism,
                       hasher.hash_len, hasher.salt_len, hasher.type)


def _verifies(hasher: PasswordHasher, hashed: str, password: str) -> bool:
    try:
        return hasher.verify(hashed, password)
    except (VerificationError, InvalidHashError):
        return False


def authenticate(db: Database, login: str, password: str, *,
                 hasher: PasswordHasher | None = None) -> AccountInfo:
    """The account when the password is right; one message for every failure. Every attempt
    runs one argon2 verification: an unknown, malformed or inactive login against
    ``dummy_hash`` (the same cost as a real one), so timing does not reveal accounts."""
    check = hasher or make_hasher()
    try:
        key: str | None = _login_key(login)
    except UserError:
        key = None
    row = None
    if key is not None:
        with db.read() as conn:
            row = conn.execute(select(accounts).where(accounts.c.login == key)
                               ).mappings().first()
    if row is None or not row["active"]:
        _verifies(check, dummy_hash(check), password)
        raise UserError(WRONG_LOGIN, code="bad_credentials")
    if not _verifies(check, row["password_hash"], password):
        raise UserError(WRONG_LOGIN, code="bad_credentials")
    return _info(row)


def _token_key(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def open_session(db: Database, account: AccountInfo, *, lifetime: timedelta) -> str:
    """A new session token for ``account`` (the client keeps it; we keep its hash)."""
    token = secrets.token_urlsafe(32)
    now = utc_now()
    with db.write() as conn:
        conn.execute(delete(web_sessions).where(web_sessions.c.expires_at < now))
        conn.execute(insert(web_sessions).values(id=_token_key(token), account_id=account.id,
                                                 created_at=now, expires_at=now + lifetime))
    return token


def session_account(db: Database, token: str) -> AccountInfo | None:
    """The account of a valid, unexpired session, else ``None``."""
    if not token or len(token) > 200:
        return None
    with db.read() as conn:
        row = conn.execute(
            select(accounts, web_sessions.c.expires_at)
            .join(web_sessions, web_sessions.c.account_id == accounts.c.id)
            .where(web_sessions.c.id == _token_key(token))
        ).mappings().first()
    if row is None or not row["active"]:
        return None
    expires: datetime = row["expires_at"]
    if expires.tzinfo is None:
        expires = expires.replace(tzinfo=UTC)
    return _info(row) if expires > utc_now() else None


def close_session(db: Database, token: str) -> None:
    with db.write() as conn:
        conn.execute(delete(web_sessions).where(web_sessions.c.id == _token_key(token)))

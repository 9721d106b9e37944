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
from datetime import timedelta

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

from turnir.domain.accounts import AccountRole as AccountRole
from turnir.domain.text import LOGIN_LEN, NAME_LEN, BadTextError, clean_login, clean_name
from turnir.errors import ConflictError, NotFoundError, UserError
from turnir.services.common import Database, changing, reading
from turnir.storage import accounts_repo as repo
from turnir.storage.accounts_repo import StoredAccount
from turnir.storage.repositories import Change

MIN_PASSWORD = 8


@dataclass(frozen=True, slots=True)
class AccountInfo:
    """An account; the API answers with it as it is (``turnir.web.api``)."""

    id: int
    login: str
    name: str
    role: AccountRole
    person_id: int | None
    active: bool
    """A deactivated account cannot log in (``POST /accounts/{login}/activate``)."""


def _info(row: StoredAccount) -> AccountInfo:
    return AccountInfo(id=row.id, login=row.login, name=row.name, role=AccountRole(row.role),
                       person_id=row.person_id, active=row.active)


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
        raise UserError("a login is one word of at most {max} characters ({reason})",
                        code="bad_login", max=LOGIN_LEN, reason=error) from None


def _check_password(password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise UserError("the password needs at least {min} characters",
                        code="weak_password", min=MIN_PASSWORD)
    if len(password) > 1000:
        raise UserError("the password is too long", code="bad_password")


@dataclass(frozen=True, slots=True)
class NewAccount:
    """A new account checked and its password hashed, ready to store (``insert_account_in``):
    the slow hashing happens before the transaction."""

    login: str
    name: str
    role: AccountRole
    person_id: int | None
    password_hash: str


def new_account(*, login: str, name: str, password: str,
                role: AccountRole = AccountRole.PLAYER, person_id: int | None = None,
                hasher: PasswordHasher | None = None) -> NewAccount:
    """The checks ``create_account`` makes before it opens a transaction."""
    key = _login_key(login)
    shown = clean_name(name, field="account's name", max_len=NAME_LEN, required=False)
    if not shown:
        raise UserError("the account needs a name", code="bad_name")
    role = AccountRole(role)
    if role is AccountRole.PLAYER and person_id is None:
        raise UserError("a player's account must name the player (new accounts are players "
                        "unless given another role)", code="no_person")
    _check_password(password)
    return NewAccount(key, shown, role, person_id, (hasher or make_hasher()).hash(password))


def insert_account_in(change: Change, new: NewAccount) -> AccountInfo:
    """Store ``new`` inside the caller's transaction (audit record included)."""
    conn = change.conn
    if repo.login_taken(conn, new.login):
        raise UserError("the login {login!r} is taken", code="duplicate_login", login=new.login)
    if new.person_id is not None and not repo.person_exists(conn, new.person_id):
        raise NotFoundError("no person #{person}", code="unknown_person", person=new.person_id)
    account_id = repo.insert_account(conn, login=new.login, name=new.name[:200],
                                     role=new.role.value, person_id=new.person_id,
                                     password_hash=new.password_hash, at=change.at)
    change.log(None, "account.create", "account", account_id, None,
               {"login": new.login, "name": new.name, "role": new.role.value,
                "person_id": new.person_id})
    return _info(repo.account_by_id(conn, account_id))


def create_account(
    db: Database, *, login: str, name: str, password: str, actor: str,
    role: AccountRole = AccountRole.PLAYER, person_id: int | None = None,
    hasher: PasswordHasher | None = None,
) -> AccountInfo:
    """A new account, a player unless ``role`` says otherwise; a player's names the person
    they play as (``person_id``)."""
    new = new_account(login=login, name=name, password=password, role=role,
                      person_id=person_id, hasher=hasher)
    with changing(db, None, actor) as change:
        return insert_account_in(change, new)


def set_password(db: Database, login: str, password: str, *, actor: str,
                 hasher: PasswordHasher | None = None) -> AccountInfo:
    """A new password; every open session of the account is closed."""
    key = _login_key(login)
    _check_password(password)
    hashed = (hasher or make_hasher()).hash(password)
    with changing(db, None, actor) as change:
        row = _known(repo.account_by_login(change.conn, key), key)
        repo.update_account(change.conn, row, password_hash=hashed)
        repo.end_sessions(change.conn, row.id)
        change.log(None, "account.password", "account", row.id, None, {"login": key})
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
        organizers = repo.lock_active_organizers(conn, AccountRole.ORGANIZER.value)
        row = _known(repo.account_by_login(conn, key, for_update=True), key)
        if row.active is active:
            return _info(row)
        if not active and organizers == {row.id}:
            raise ConflictError("{login!r} is the last active organizer; make another "
                                "organizer first", code="last_organizer", login=key)
        repo.update_account(conn, row, active=active)
        ended = 0 if active else repo.end_sessions(conn, row.id)
        change.log(None, "account.activate" if active else "account.deactivate", "account",
                   row.id, {"login": key, "active": not active},
                   {"login": key, "active": active} | ({} if active else {"sessions_ended": ended}))
        return _info(repo.account_by_id(conn, row.id))


def _known(row: StoredAccount | None, key: str) -> StoredAccount:
    if row is None:
        raise NotFoundError("no account {login!r}", code="unknown_account", login=key)
    return row


def find_account(db: Database, login: str) -> AccountInfo | None:
    key = _login_key(login)
    with reading(db) as tx:
        row = repo.account_by_login(tx, key)
    return None if row is None else _info(row)


def list_accounts(db: Database) -> list[AccountInfo]:
    with reading(db) as tx:
        return [_info(r) for r in repo.all_accounts(tx)]


def player_accounts(db: Database, person_ids: list[int]) -> dict[int, str]:
    """person id → login, for the people that have a player account."""
    if not person_ids:
        return {}
    with reading(db) as tx:
        return repo.logins_of_people(tx, person_ids)


def _wrong_login() -> UserError:
    """The one refusal of every failed login (which part was wrong is not told)."""
    return UserError("wrong login or password", code="bad_credentials")


SESSIONS = "web sessions"
"""Who ends a session on logging out (sessions leave no audit entry)."""


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
        with reading(db) as tx:
            row = repo.account_by_login(tx, key)
    if row is None or not row.active:
        _verifies(check, dummy_hash(check), password)
        raise _wrong_login()
    if not _verifies(check, row.password_hash, password):
        raise _wrong_login()
    return _info(row)


def _token_key(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def open_session(db: Database, account: AccountInfo, *, lifetime: timedelta) -> str:
    """A new session token for ``account`` (the client keeps it; we keep its hash)."""
    token = secrets.token_urlsafe(32)
    now = db.clock.now()
    with changing(db, None, account.name) as change:
        repo.insert_session(change.conn, _token_key(token), account.id, now, now + lifetime)
    return token


def session_account(db: Database, token: str) -> AccountInfo | None:
    """The account of a valid, unexpired session, else ``None``."""
    if not token or len(token) > 200:
        return None
    with reading(db) as tx:
        found = repo.session_of(tx, _token_key(token))
    if found is None or not found[0].active:
        return None
    row, expires = found
    return _info(row) if expires > db.clock.now() else None


def close_session(db: Database, token: str) -> None:
    with changing(db, None, SESSIONS) as change:
        repo.delete_session(change.conn, _token_key(token))

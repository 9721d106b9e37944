"""Logging in under the rate limit (ограничение попыток входа): failed logins are counted in
the database (``login_failures``), so every worker of the server, and every server on the same
database, sees the same counts.

Three counts over the last ``window`` (sliding), each with its own limit (``LoginLimits``):

- one login from one address (``per_pair``, 5 by default): a person mistyping a password;
- one login from any address (``per_login``, 20): one account guessed from many addresses;
- one address for any login (``per_address``, 100): one address trying a few common passwords
  on many logins (password spraying). An IPv6 client counts by its /64 network, which one
  machine usually holds whole.

When a count has reached its limit, the next attempt is refused (``TooManyAttempts``, 429)
before the password is looked at, even when it is right, until the oldest failure that makes
the count leaves the window. A refused attempt is not counted, so a locked key adds no rows
and its lock lifts on time. A successful login forgets the failures of that login from that
address, and only those (an attacker who owns one account cannot reset an address's count).

The table stays small: the failures older than the window are deleted at every failure, and
within the window each address holds at most ``per_address`` rows. Nothing is ever forgotten
before its window has passed, however many other attempts come (the in-memory limit this
replaces dropped the oldest keys after 10,000 and counted per worker).

The price of the per-login limit: anyone can keep an account locked by failing its login 20
times every window (the refused attempts show in the server's access log as 429s); the other
two limits are what stops guessing, this one only caps a distributed attack on one account.

The login is kept only as its SHA-256 (people type passwords into the login field). Unknown and
inactive logins cost the same argon2 verification as known ones
(``turnir.services.accounts.authenticate``), so the answer's timing does not tell them apart.
"""

from __future__ import annotations

import hashlib
import ipaddress
from dataclasses import dataclass
from datetime import datetime, timedelta

from argon2 import PasswordHasher

from turnir.domain.text import BadTextError, clean_login
from turnir.errors import UserError
from turnir.services.accounts import AccountInfo, authenticate
from turnir.services.common import Database, changing, reading
from turnir.storage.login_failures import (
    Attempt,
    forget_pair,
    prune,
    reached_until,
    record_failure,
)

ADDRESS_LEN = 64
LIMITER = "login limit"
"""Who counts the failures (their writes leave no audit entry)."""


class TooManyAttempts(UserError):
    """Too many failed logins (429); ``retry_after`` is in whole seconds."""

    code = "too_many_attempts"

    def __init__(self, *, retry_after: int) -> None:
        super().__init__("too many failed logins; try again in {wait} s",
                         code="too_many_attempts", wait=retry_after)
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True, kw_only=True)
class LoginLimits:
    """How many failed logins each count allows in ``window`` (see the module docstring)."""

    per_pair: int = 5
    """One login from one address."""
    per_login: int = 20
    """One login from any address."""
    per_address: int = 100
    """One address (IPv6: its /64) for any login."""
    window: timedelta = timedelta(minutes=15)

    def __post_init__(self) -> None:
        if min(self.per_pair, self.per_login, self.per_address) < 1:
            raise ValueError("every login limit must allow at least one failure")
        if self.window <= timedelta(0):
            raise ValueError("the login window must be positive")


def login_key(login: str) -> str:
    """The SHA-256 of the login in the form the accounts keep it (as typed when it cannot be
    a login at all: such attempts count too)."""
    try:
        key = clean_login(login)
    except BadTextError:
        key = login.strip().casefold()
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def address_key(address: str) -> str:
    """The client's address as counted: an IPv4 address, an IPv6 client's /64 network (an
    IPv4-mapped IPv6 address as the IPv4 one), anything else as printable text."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return "".join(c for c in address if c.isprintable())[:ADDRESS_LEN] or "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def attempt_of(login: str, address: str) -> Attempt:
    return Attempt(login_key=login_key(login), address=address_key(address))


def locked_until(db: Database, attempt: Attempt, limits: LoginLimits, *,
                 now: datetime | None = None) -> datetime | None:
    """When the attempt may be made again, or ``None`` when it may be made now."""
    now = now or db.clock.now()
    with reading(db) as tx:
        return reached_until(tx, attempt, now - limits.window, limits.window,
                             (limits.per_pair, limits.per_login, limits.per_address))


def log_in(db: Database, login: str, password: str, address: str, *, limits: LoginLimits,
           hasher: PasswordHasher | None = None, now: datetime | None = None) -> AccountInfo:
    """The account when the password is right and no limit is reached; ``TooManyAttempts``
    when one is, the one "wrong login or password" ``UserError`` otherwise (then counted)."""
    now = now or db.clock.now()
    attempt = attempt_of(login, address)
    until = locked_until(db, attempt, limits, now=now)
    if until is not None:
        wait = max(1, int((until - now).total_seconds()) + 1)
        raise TooManyAttempts(retry_after=wait)
    try:
        account = authenticate(db, login, password, hasher=hasher)
    except UserError:
        with changing(db, None, LIMITER) as change:
            record_failure(change.conn, attempt, now)
            prune(change.conn, now - limits.window)
        raise
    with changing(db, None, LIMITER) as change:
        forget_pair(change.conn, attempt)
    return account

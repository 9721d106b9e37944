"""Issue 10 item 12: the login rate limit keeps its counts in the database (per login and
address, per login, per address), never forgets a locked key before its window has passed,
keeps the table small, and an unknown login costs the same argon2 verification as a known one.
Every test runs on SQLite and PostgreSQL; times are given (``now``), never waited for."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from argon2 import PasswordHasher, extract_parameters
from sqlalchemy import insert, select

from turnir.errors import UserError
from turnir.services.accounts import (
    AccountRole,
    authenticate,
    create_account,
    make_hasher,
    set_active,
)
from turnir.services.login_limits import (
    LoginLimits,
    TooManyAttempts,
    address_key,
    attempt_of,
    locked_until,
    log_in,
)
from turnir.storage.database import Database
from turnir.storage.login_failures import failures_kept, record_failure
from turnir.storage.tables_accounts import login_failures

PASSWORD = "correct horse battery"
FAST = make_hasher(fast=True)
LIMITS = LoginLimits()  # the defaults: 5 per login and address, 20 per login, 100 per address

T0 = datetime(2027, 3, 1, 10, 0, tzinfo=UTC)
"""The moment the attempts start (passed in: no test reads the clock)."""


def _account(db: Database, login: str = "anna") -> None:
    create_account(db, login=login, name=login.title(), password=PASSWORD,
                   role=AccountRole.HEAD_JUDGE, actor="test", hasher=FAST)


def _try(db: Database, login: str, address: str, at: datetime,
         password: str = "wrong password", limits: LoginLimits = LIMITS) -> str:
    """One login attempt: ``ok``, ``wrong`` or ``locked``."""
    try:
        log_in(db, login, password, address, limits=limits, hasher=FAST, now=at)
    except TooManyAttempts:
        return "locked"
    except UserError as error:
        assert error.code == "bad_credentials"
        return "wrong"
    return "ok"


def test_item12_locked_key_not_forgotten_after_many_other_attempts(db: Database) -> None:
    _account(db)
    t0 = T0
    assert [_try(db, "anna", "10.0.0.1", t0) for _ in range(5)] == ["wrong"] * 5
    assert _try(db, "anna", "10.0.0.1", t0, PASSWORD) == "locked"
    # 10,001 failures of other logins from other addresses inside the window (the in-memory
    # limiter dropped the oldest 5,000 keys past 10,000), then more real attempts, each of
    # which prunes the table
    others = [attempt_of(f"guess{i}", f"198.51.{i // 250}.{i % 250}") for i in range(10_001)]
    with db.write() as conn:
        conn.execute(insert(login_failures), [
            {"login_key": o.login_key, "address": o.address, "at": t0 + timedelta(seconds=1)}
            for o in others])
        record_failure(conn, attempt_of("one more", "198.51.200.1"), t0 + timedelta(seconds=1))
    for i in range(30):
        assert _try(db, f"other{i}", f"192.0.2.{i}", t0 + timedelta(seconds=2)) == "wrong"
    assert _try(db, "anna", "10.0.0.1", t0 + timedelta(seconds=3), PASSWORD) == "locked"
    assert _try(db, "anna", "10.0.0.1", t0 + LIMITS.window - timedelta(seconds=1),
                PASSWORD) == "locked"
    # the window has passed: the right password works again
    assert _try(db, "anna", "10.0.0.1", t0 + LIMITS.window + timedelta(seconds=1),
                PASSWORD) == "ok"


def test_item12_the_lock_lifts_when_the_oldest_counted_failure_leaves_the_window(
        db: Database) -> None:
    _account(db)
    t0 = T0
    for minute in range(5):
        assert _try(db, "anna", "10.0.0.1", t0 + timedelta(minutes=minute)) == "wrong"
    attempt = attempt_of("anna", "10.0.0.1")
    assert locked_until(db, attempt, LIMITS, now=t0 + timedelta(minutes=5)) == (
        t0 + LIMITS.window)
    with pytest.raises(TooManyAttempts, match="try again in 600 s") as refused:
        log_in(db, "anna", PASSWORD, "10.0.0.1", limits=LIMITS, hasher=FAST,
               now=t0 + timedelta(minutes=5, seconds=1))
    assert refused.value.retry_after == 600
    # a refused attempt is not counted: the first failure leaving the window unlocks
    assert _try(db, "anna", "10.0.0.1", t0 + LIMITS.window + timedelta(seconds=1)) == "wrong"
    assert _try(db, "anna", "10.0.0.1", t0 + LIMITS.window + timedelta(seconds=2)) == "locked"


def test_item12_one_login_from_many_addresses_and_many_logins_from_one_address(
        db: Database) -> None:
    _account(db)
    t0 = T0
    # one account guessed from 20 addresses (4 tries each stays under the pair limit)
    tries = [_try(db, "anna", f"203.0.113.{i % 20}", t0) for i in range(20)]
    assert tries == ["wrong"] * 20
    assert _try(db, "anna", "203.0.113.99", t0, PASSWORD) == "locked"
    assert _try(db, "ANNA ", "192.0.2.1", t0, PASSWORD) == "locked"  # the same login
    # one address spraying one password over 100 logins
    sprayed = [_try(db, f"user{i}", "198.51.100.7", t0) for i in range(100)]
    assert sprayed == ["wrong"] * 100
    assert _try(db, "somebody", "198.51.100.7", t0) == "locked"
    _account(db, "boris")
    assert _try(db, "boris", "198.51.100.7", t0, PASSWORD) == "locked"
    assert _try(db, "boris", "198.51.100.8", t0, PASSWORD) == "ok"


def test_item12_an_ipv6_client_counts_by_its_64_network(db: Database) -> None:
    _account(db)
    t0 = T0
    assert address_key("2001:db8:0:5:1:2:3:4") == "2001:db8:0:5::/64"
    assert address_key("::ffff:192.0.2.4") == "192.0.2.4"
    assert address_key("bad\x00host") == "badhost"
    assert [_try(db, "anna", f"2001:db8::{i}", t0) for i in range(1, 6)] == ["wrong"] * 5
    assert _try(db, "anna", "2001:db8::abcd", t0, PASSWORD) == "locked"
    assert _try(db, "anna", "2001:db8:0:1::1", t0, PASSWORD) == "ok"


def test_item12_a_success_clears_only_its_own_login_and_address(db: Database) -> None:
    _account(db)
    t0 = T0
    for _ in range(4):
        _try(db, "anna", "10.0.0.1", t0)
        _try(db, "anna", "10.0.0.2", t0)
    assert _try(db, "anna", "10.0.0.1", t0, PASSWORD) == "ok"
    with db.read() as conn:
        left = conn.execute(select(login_failures.c.address)).scalars().all()
    assert left == ["10.0.0.2"] * 4
    assert _try(db, "anna", "10.0.0.2", t0) == "wrong"
    assert _try(db, "anna", "10.0.0.2", t0, PASSWORD) == "locked"


def test_item12_old_failures_are_pruned_and_nothing_stores_the_login(db: Database) -> None:
    t0 = T0
    for i in range(50):
        _try(db, f"Пароль-в-поле-логина{i}", f"192.0.2.{i}", t0)
    with db.read() as conn:
        assert failures_kept(conn) == 50
        keys = conn.execute(select(login_failures.c.login_key)).scalars().all()
    assert all(len(k) == 64 and "Пароль" not in k for k in keys)
    _try(db, "late", "192.0.2.200", t0 + LIMITS.window)
    with db.read() as conn:
        assert failures_kept(conn) == 1


def test_item12_limits_are_checked() -> None:
    with pytest.raises(ValueError, match="at least one"):
        LoginLimits(per_login=0)
    with pytest.raises(ValueError, match="positive"):
        LoginLimits(window=timedelta(0))


class SpyHasher(PasswordHasher):
    """The fast test hasher, recording the hash every verification is made against."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.verified: list[str] = []

    def verify(self, hash: str | bytes, password: str | bytes) -> Any:
        self.verified.append(hash if isinstance(hash, str) else hash.decode())
        return super().verify(hash, password)


def test_item12_dummy_hash_for_unknown_login(db: Database) -> None:
    _account(db)
    create_account(db, login="org", name="Org", password=PASSWORD,
                   role=AccountRole.ORGANIZER, actor="test", hasher=FAST)
    spy = SpyHasher()
    assert authenticate(db, "anna", PASSWORD, hasher=spy).login == "anna"
    with pytest.raises(UserError, match="wrong login or password"):
        authenticate(db, "anna", "wrong password", hasher=spy)
    set_active(db, "anna", False, actor="test")
    for login in ("nobody", "two words", "anna"):  # unknown, malformed, inactive
        with pytest.raises(UserError, match="wrong login or password"):
            authenticate(db, login, PASSWORD, hasher=spy)
    assert len(spy.verified) == 5  # one argon2 verification per attempt, whatever the login
    real, dummy = spy.verified[0], spy.verified[2]
    assert spy.verified[1] == real and spy.verified[2:] == [dummy] * 3 and dummy != real
    assert extract_parameters(dummy) == extract_parameters(real)  # the same cost

"""Step 2: accounts and roles, argon2 hashes, sessions in HttpOnly SameSite cookies, CSRF on
every form, login attempts rate-limited, ``turnir user add``."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from typer.testing import CliRunner

from tests.web.conftest import PASSWORD, Clients, add_account, csrf_of
from turnir.cli.main import app as cli
from turnir.errors import UserError
from turnir.services.accounts import (
    AccountRole,
    authenticate,
    create_account,
    make_hasher,
    open_session,
    session_account,
    set_password,
)
from turnir.storage.database import Database
from turnir.storage.tables import audit_log
from turnir.storage.tables_accounts import accounts

FAST = make_hasher(fast=True)


def test_accounts_hash_passwords_and_sessions_expire(db: Database) -> None:
    made = create_account(db, login="Anna", name="Анна  Котова", password=PASSWORD,
                          role=AccountRole.HEAD_JUDGE, actor="test", hasher=FAST)
    assert (made.login, made.name) == ("anna", "Анна Котова")
    with db.read() as conn:
        stored = conn.execute(select(accounts.c.password_hash)).scalar_one()
        logged = conn.execute(select(audit_log.c.action, audit_log.c.after)).all()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert logged[-1][0] == "account.create" and "password_hash" not in logged[-1][1]
    assert authenticate(db, "ANNA", PASSWORD, hasher=FAST).id == made.id
    for login, password in (("anna", "wrong password"), ("nobody", PASSWORD), ("", "")):
        with pytest.raises(UserError, match="wrong login or password"):
            authenticate(db, login, password, hasher=FAST)
    token = open_session(db, made, lifetime=timedelta(hours=1))
    assert session_account(db, token) == made
    assert session_account(db, token + "x") is None
    expired = open_session(db, made, lifetime=timedelta(seconds=-1))
    assert session_account(db, expired) is None
    set_password(db, "anna", "another password", actor="test", hasher=FAST)
    assert session_account(db, token) is None  # a new password closes the sessions


def test_bad_accounts_are_refused(db: Database) -> None:
    create_account(db, login="org", name="Org", password=PASSWORD, role=AccountRole.ORGANIZER,
                   actor="test", hasher=FAST)
    for kwargs, message in (
        ({"login": "org"}, "taken"), ({"login": "two words"}, "one word"),
        ({"password": "short"}, "at least 8"), ({"name": "  "}, "needs a name"),
        ({"role": AccountRole.PLAYER}, "must name the player"),
        ({"role": AccountRole.PLAYER, "person_id": 999}, "no person"),
    ):
        args = {"login": "new", "name": "New", "password": PASSWORD,
                "role": AccountRole.FLOOR_JUDGE, **kwargs}
        with pytest.raises(UserError, match=message):
            create_account(db, actor="test", hasher=FAST, **args)  # type: ignore[arg-type]


def test_login_sets_a_safe_cookie_and_logout_ends_the_session(web_db: Database,
                                                              client: TestClient) -> None:
    add_account(web_db, "org", AccountRole.ORGANIZER)
    token = csrf_of(client)
    answer = client.post("/login", data={"login": "org", "password": PASSWORD,
                                         "csrf_token": token, "next": "/"},
                         follow_redirects=False)
    assert answer.status_code == 303
    cookie = answer.headers["set-cookie"].lower()
    assert "turnir_session=" in cookie and "httponly" in cookie and "samesite=lax" in cookie
    assert "Org" in client.get("/").text and "/logout" in client.get("/").text
    token = csrf_of(client, "/")
    assert client.post("/logout", data={"csrf_token": token},
                       follow_redirects=False).status_code == 303
    assert "/logout" not in client.get("/").text


def test_a_wrong_password_is_a_message_and_the_form_stays(web_db: Database,
                                                          client: TestClient) -> None:
    add_account(web_db, "org", AccountRole.ORGANIZER)
    token = csrf_of(client)
    answer = client.post("/login", data={"login": "org", "password": "nope nope",
                                         "csrf_token": token},
                         headers={"hx-request": "true", "accept-language": "en"})
    assert answer.status_code == 422
    assert answer.headers["hx-retarget"] == "#messages"
    assert "wrong login or password" in answer.text and "<form" not in answer.text


def test_every_form_needs_its_csrf_token(web_db: Database, clients: Clients) -> None:
    add_account(web_db, "org", AccountRole.ORGANIZER)
    anonymous = clients.new()
    csrf_of(anonymous)
    for data in ({"login": "org", "password": PASSWORD},
                 {"login": "org", "password": PASSWORD, "csrf_token": "forged"}):
        answer = anonymous.post("/login", data=data)
        assert answer.status_code == 403 and "expired" in answer.text
    other = clients.new()
    stolen = csrf_of(other)  # a token is bound to its own browser's cookie
    answer = anonymous.post("/login", data={"login": "org", "password": PASSWORD,
                                            "csrf_token": stolen})
    assert answer.status_code == 403
    organizer = clients.as_("org")
    assert organizer.post("/logout", data={}).status_code == 403
    assert organizer.post("/logout", headers={"x-csrf-token": "forged"}).status_code == 403


def test_login_attempts_are_rate_limited(web_db: Database, client: TestClient) -> None:
    add_account(web_db, "org", AccountRole.ORGANIZER)
    token = csrf_of(client)

    def attempt(password: str) -> int:
        return client.post("/login", data={"login": "org", "password": password,
                                           "csrf_token": token}).status_code

    assert [attempt("bad password") for _ in range(5)] == [422] * 5
    assert attempt(PASSWORD) == 429  # even the right password waits for the window
    assert attempt("bad password") == 429


def test_user_add_creates_the_first_organizer(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TURNIR_DATABASE_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    runner = CliRunner()
    done = runner.invoke(cli, ["user", "add", "boss", "--name", "Главный Организатор",
                               "--password", PASSWORD])
    assert done.exit_code == 0, done.output
    assert "boss (organizer) created" in done.output
    again = runner.invoke(cli, ["user", "add", "boss", "--password", PASSWORD])
    assert again.exit_code == 2 and "taken" in again.output
    prompted = runner.invoke(cli, ["user", "add", "judge", "--role", "head_judge"],
                             input="secret password\nsecret password\n")
    assert prompted.exit_code == 0, prompted.output
    listed = runner.invoke(cli, ["user", "list"])
    assert "boss" in listed.output and "head_judge" in listed.output
    db = Database.open(f"sqlite:///{tmp_path / 'cli.db'}")
    try:
        assert authenticate(db, "judge", "secret password").role is AccountRole.HEAD_JUDGE
    finally:
        db.close()

"""Step 2: accounts and roles, argon2 hashes, sessions in HttpOnly SameSite cookies, CSRF on
every form, login attempts rate-limited, ``turnir user add``. Issue 10: an organizer
deactivates and reactivates accounts and resets passwords (item 13), new accounts are players
unless given a role, the CSRF token is rotated at login and bound to the session (item 11)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from httpx import Response
from sqlalchemy import select
from typer.testing import CliRunner

from tests.services.builders import event
from tests.web.conftest import (
    PASSWORD,
    Clients,
    LiveServer,
    add_account,
    csrf_of,
    settings_for,
)
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
from turnir.services.players import list_players
from turnir.storage.database import Database
from turnir.storage.tables import audit_log
from turnir.storage.tables_accounts import accounts
from turnir.web.app import create_app

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
        answer = anonymous.post("/login", data=data, headers={"accept-language": "en"})
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
    monkeypatch.setenv("LANG", "en_US.UTF-8")  # the CLI's messages asserted are English
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    runner = CliRunner()
    done = runner.invoke(cli, ["user", "add", "boss", "--name", "Главный Организатор",
                               "--role", "organizer", "--password", PASSWORD])
    assert done.exit_code == 0, done.output
    assert "boss (organizer) created" in done.output
    again = runner.invoke(cli, ["user", "add", "boss", "--role", "organizer",
                                "--password", PASSWORD])
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


# ----- issue 10 item 13: deactivation, password resets, players by default ---------------
# ----- issue 10 item 11 (CSRF part): the token is rotated at login and bound to the session


@pytest.fixture
def any_clients(db: Database) -> Iterator[Clients]:
    """Test clients of an app on each database (SQLite and PostgreSQL)."""
    made = Clients(create_app(settings_for(db), db=db), [])
    yield made
    for c in made.made:
        c.__exit__(None, None, None)


def _bearer(client: TestClient, login: str, password: str = PASSWORD) -> dict[str, str]:
    answer = client.post("/api/v1/session", json={"login": login, "password": password})
    assert answer.status_code == 201, answer.text
    return {"authorization": f"Bearer {answer.json()['token']}"}


def _form(client: TestClient, path: str, data: dict[str, str] | None = None,
          page: str = "/accounts", **headers: str) -> Response:
    """A form of ``page`` sent as the browser sends it (with that page's CSRF token)."""
    fields = {"csrf_token": csrf_of(client, page), **(data or {})}
    return client.post(path, data=fields, headers=headers, follow_redirects=False)


def _signed_in(client: TestClient) -> bool:
    return client.get("/api/v1/me").status_code == 200


def _actions(db: Database) -> list[str]:
    with db.read() as conn:
        return list(conn.execute(select(audit_log.c.action).order_by(audit_log.c.id))
                    .scalars())


def test_item13_deactivation_ends_sessions_and_blocks_login(db: Database,
                                                            any_clients: Clients) -> None:
    add_account(db, "org", AccountRole.ORGANIZER)
    add_account(db, "anna", AccountRole.FLOOR_JUDGE)
    organizer, browser = any_clients.as_("org"), any_clients.as_("anna")
    api = any_clients.new()
    token = _bearer(api, "anna")
    assert _signed_in(browser) and api.get("/api/v1/me", headers=token).status_code == 200
    page = organizer.get("/accounts", headers={"accept-language": "ru"}).text
    assert 'action="/accounts/anna/deactivate"' in page and "отключить" in page
    moved = _form(organizer, "/accounts/anna/deactivate")
    assert moved.status_code == 303 and moved.headers["location"] == "/accounts"
    # at once: the browser's cookie and the API token are dead, and the password is refused
    assert not _signed_in(browser) and "/logout" not in browser.get("/").text
    assert api.get("/api/v1/me", headers=token).status_code == 401
    refused = any_clients.new().post("/api/v1/session",
                                     json={"login": "anna", "password": PASSWORD})
    assert refused.status_code == 422 and refused.json()["code"] == "bad_credentials"
    page = organizer.get("/accounts", headers={"accept-language": "ru"}).text
    assert "отключена" in page and 'action="/accounts/anna/activate"' in page
    # reactivated: the old sessions stay ended, a new login works
    assert _form(organizer, "/accounts/anna/activate",
                 **{"hx-request": "true", "hx-current-url": "http://testserver/accounts"}
                 ).headers["hx-refresh"] == "true"
    assert not _signed_in(browser)
    assert api.get("/api/v1/me", headers=token).status_code == 401
    assert any_clients.new().post("/api/v1/session", json={
        "login": "anna", "password": PASSWORD}).status_code == 201
    assert _actions(db)[-2:] == ["account.deactivate", "account.activate"]
    # through the API too
    done = organizer.post("/api/v1/accounts/anna/deactivate", headers={
        "x-csrf-token": csrf_of(organizer, "/accounts")})
    assert done.status_code == 200 and done.json()["active"] is False
    assert organizer.post("/api/v1/accounts/nobody/deactivate", headers=_bearer(
        any_clients.new(), "org")).json()["code"] == "unknown_account"


def test_item13_the_last_active_organizer_cannot_be_deactivated(db: Database,
                                                                any_clients: Clients) -> None:
    add_account(db, "org", AccountRole.ORGANIZER)
    organizer = any_clients.as_("org")
    token = _bearer(any_clients.new(), "org")
    refused = organizer.post("/api/v1/accounts/org/deactivate", headers=token)
    assert refused.status_code == 409 and refused.json()["code"] == "last_organizer"
    shown = _form(organizer, "/accounts/org/deactivate", **{"hx-request": "true",
                                                           "accept-language": "ru"})
    assert shown.status_code == 409 and "последний действующий организатор" in shown.text
    add_account(db, "boss", AccountRole.ORGANIZER)
    assert organizer.post("/api/v1/accounts/boss/deactivate", headers=token).json()[
        "active"] is False
    assert organizer.post("/api/v1/accounts/org/deactivate", headers=token
                          ).status_code == 409  # boss is deactivated: org is the last one
    assert organizer.post("/api/v1/accounts/boss/activate", headers=token).status_code == 200
    # an organizer may deactivate themselves while another is active; their session ends
    assert _form(organizer, "/accounts/org/deactivate").status_code == 303
    assert not _signed_in(organizer)
    assert "account.deactivate" in _actions(db)


def test_item13_organizer_resets_a_password(db: Database, any_clients: Clients) -> None:
    add_account(db, "org", AccountRole.ORGANIZER)
    add_account(db, "anna", AccountRole.HEAD_JUDGE)
    organizer, anna = any_clients.as_("org"), any_clients.as_("anna")
    typed = _form(organizer, "/accounts/anna/password", {"password": "new secret word"},
                  **{"hx-request": "true", "accept-language": "en"})
    assert typed.status_code == 200 and "The password of anna is changed" in typed.text
    assert not _signed_in(anna)
    assert authenticate(db, "anna", "new secret word", hasher=FAST).login == "anna"
    with pytest.raises(UserError):
        authenticate(db, "anna", PASSWORD, hasher=FAST)
    drawn = _form(organizer, "/accounts/anna/password", {"password": ""},
                  **{"hx-request": "true", "accept-language": "ru"})
    found = re.search(r"Новый пароль для anna: (\S+) \(показан один раз", drawn.text)
    assert found, drawn.text
    assert authenticate(db, "anna", found.group(1), hasher=FAST).login == "anna"
    short = _form(organizer, "/accounts/anna/password", {"password": "short"},
                  **{"hx-request": "true", "accept-language": "en"})
    assert short.status_code == 422 and "at least 8 characters" in short.text
    api = organizer.put("/api/v1/accounts/anna/password", json={"password": "api password!"},
                        headers=_bearer(any_clients.new(), "org"))
    assert api.status_code == 200 and api.json()["login"] == "anna"
    assert authenticate(db, "anna", "api password!", hasher=FAST).login == "anna"
    assert _actions(db).count("account.password") == 3
    for path in ("/accounts/anna/password", "/accounts/anna/deactivate"):
        assert _form(anna, path, page="/login").status_code == 401  # her session has ended


def test_item13_new_accounts_are_players_unless_given_a_role(db: Database,
                                                             any_clients: Clients) -> None:
    tid = event(db, 4)
    person = list_players(db, tid)[0].person_id
    add_account(db, "org", AccountRole.ORGANIZER)
    client = any_clients.new()
    token = _bearer(client, "org")
    made = client.post("/api/v1/accounts", headers=token, json={
        "login": "igrok", "name": "Игрок", "password": PASSWORD, "person_id": person})
    assert made.status_code == 201 and made.json()["role"] == "player"
    refused = client.post("/api/v1/accounts", headers=token, json={
        "login": "boss2", "name": "Boss", "password": PASSWORD})
    assert refused.status_code == 422 and refused.json()["code"] == "no_person"
    assert client.post("/api/v1/accounts", headers=token, json={
        "login": "boss2", "name": "Boss", "password": PASSWORD, "role": "organizer"}
    ).json()["role"] == "organizer"
    # the page: no role is chosen for the organizer, it must be picked
    organizer = any_clients.as_("org")
    page = organizer.get("/accounts").text
    assert '<option value="" selected disabled>' in page
    assert _form(organizer, "/accounts", {"login": "x", "name": "X",
                                          "password": PASSWORD}).status_code == 422
    assert create_account(db, login="p2", name="P2", password=PASSWORD, actor="test",
                          person_id=person, hasher=FAST).role is AccountRole.PLAYER


def test_item13_user_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TURNIR_DATABASE_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    monkeypatch.setenv("LANG", "en_US.UTF-8")  # the CLI's messages asserted are English
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    runner = CliRunner()
    plain = runner.invoke(cli, ["user", "add", "boss", "--password", PASSWORD])
    assert plain.exit_code == 2 and "must name the player" in plain.output
    assert runner.invoke(cli, ["user", "add", "boss", "--role", "organizer", "--password",
                               PASSWORD]).exit_code == 0
    assert runner.invoke(cli, ["user", "add", "anna", "--role", "floor_judge", "--password",
                               PASSWORD]).exit_code == 0
    last = runner.invoke(cli, ["user", "deactivate", "boss"])
    assert last.exit_code == 2 and "last active organizer" in last.output
    done = runner.invoke(cli, ["user", "deactivate", "anna", "--actor", "Главный"])
    assert done.exit_code == 0 and "anna deactivated" in done.output
    assert "(deactivated)" in runner.invoke(cli, ["user", "list"]).output
    db = Database.open(f"sqlite:///{tmp_path / 'cli.db'}")
    try:
        with pytest.raises(UserError):
            authenticate(db, "anna", PASSWORD, hasher=FAST)
        assert runner.invoke(cli, ["user", "activate", "anna"]).exit_code == 0
        assert runner.invoke(cli, ["user", "password", "anna", "--password",
                                   "another one!"]).exit_code == 0
        assert authenticate(db, "anna", "another one!").login == "anna"
        with db.read() as conn:
            logged = conn.execute(select(audit_log.c.actor, audit_log.c.action)
                                  .order_by(audit_log.c.id)).all()
        assert ("Главный", "account.deactivate") in logged
        assert [a for _, a in logged][-2:] == ["account.activate", "account.password"]
    finally:
        db.close()


def _plant(client: TestClient, nonce: str) -> None:
    """Put a ``turnir_csrf`` cookie in the browser, as a cookie-tossing attacker would."""
    client.cookies.set("turnir_csrf", nonce, domain="testserver.local", path="/")


def test_item11_csrf_rotated_at_login(db: Database, any_clients: Clients) -> None:
    add_account(db, "org", AccountRole.ORGANIZER)
    browser = any_clients.new()
    before = csrf_of(browser)
    nonce = browser.cookies["turnir_csrf"]
    answer = browser.post("/login", data={"login": "org", "password": PASSWORD,
                                          "csrf_token": before}, follow_redirects=False)
    assert answer.status_code == 303
    assert browser.cookies["turnir_csrf"] != nonce  # a new nonce at login
    after = csrf_of(browser, "/accounts")
    assert after != before
    # a token from before the login does not work, even with its old nonce put back
    for planted in (False, True):
        if planted:
            _plant(browser, nonce)
        refused = browser.post("/accounts/org/password", data={"csrf_token": before,
                                                               "password": "x" * 10})
        assert refused.status_code == 403
    _plant(browser, nonce)
    # another session of the same account, given this browser's nonce, has other tokens
    other = any_clients.as_("org")
    _plant(other, nonce)
    mine = csrf_of(browser, "/accounts")
    assert csrf_of(other, "/accounts") != mine
    assert other.post("/logout", data={"csrf_token": mine}).status_code == 403
    assert _signed_in(other)
    # the token of this session works, and logging out draws a new nonce again
    assert browser.post("/logout", data={"csrf_token": mine},
                        follow_redirects=False).status_code == 303
    assert browser.cookies["turnir_csrf"] != nonce
    assert browser.post("/login", data={"login": "org", "password": PASSWORD,
                                        "csrf_token": mine}).status_code == 403


def test_item13_the_accounts_page_in_a_browser(live_server: LiveServer, browser: Any) -> None:
    """Chromium, as the organizer uses the page: deactivate (the confirmation), reactivate,
    and a drawn password, shown once, that the person then logs in with."""
    from playwright.sync_api import expect

    from tests.web.conftest import sign_in
    from tests.web.test_browser import login, new_page

    add_account(live_server.db, "org", AccountRole.ORGANIZER)
    add_account(live_server.db, "anna", AccountRole.FLOOR_JUDGE)
    organizer, anna = new_page(browser), new_page(browser)
    sign_in(organizer, live_server, "org")
    sign_in(anna, live_server, "anna")
    organizer.on("dialog", lambda dialog: dialog.accept())
    organizer.goto(f"{live_server.url}/accounts")
    row = organizer.locator("#account-anna")
    row.get_by_role("button", name="отключить").click()
    expect(row.locator("td.state")).to_have_text("отключена")
    anna.reload()
    expect(anna.locator("form[action='/logout']")).to_have_count(0)
    row.get_by_role("button", name="включить снова").click()
    expect(row.locator("td.state")).to_have_text("действует")
    row.get_by_role("button", name="Задать").click()
    shown = organizer.locator("#messages")
    expect(shown).to_contain_text("Новый пароль для anna:")
    found = re.search(r"anna: (\S+) \(", shown.inner_text())
    assert found, shown.inner_text()
    login(anna, live_server, "anna", found.group(1))  # through the form, with the new password

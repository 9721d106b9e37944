"""Issue 10 item 12 through the web app: two workers on one database share the failed-login
counts, and a forged ``X-Forwarded-For`` from a loopback client is not believed by the server
``turnir serve`` starts (uvicorn trusted it from 127.0.0.1 by default). Both databases."""

from __future__ import annotations

import socket
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from typer.testing import CliRunner

from tests.web.conftest import PASSWORD, add_account, running, settings_for
from turnir.cli.main import app as cli
from turnir.services.accounts import AccountRole
from turnir.storage.database import Database
from turnir.storage.tables_accounts import login_failures
from turnir.web.app import create_app


def _attempt(client: TestClient, password: str) -> int:
    return client.post("/api/v1/session",
                       json={"login": "org", "password": password}).status_code


def test_item12_two_workers_on_one_database_share_the_count(database_url: str) -> None:
    first, second = Database.open(database_url), Database.open(database_url)
    try:
        add_account(first, "org", AccountRole.ORGANIZER)
        apps = [create_app(settings_for(d), db=d) for d in (first, second)]
        with TestClient(apps[0], headers={"accept-language": "en"}) as one, \
                TestClient(apps[1], headers={"accept-language": "en"}) as two:
            failures = [_attempt(one if i % 2 else two, "wrong password") for i in range(5)]
            assert failures == [422] * 5  # three on one worker, two on the other
            assert _attempt(one, PASSWORD) == 429 and _attempt(two, PASSWORD) == 429
            refused = two.post("/api/v1/session", json={"login": "org", "password": PASSWORD})
            assert refused.json()["code"] == "too_many_attempts"
            assert "try again in" in refused.json()["message"]
    finally:
        first.close()
        second.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_item12_forged_forwarded_for_from_loopback_is_not_trusted_by_default(
        database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    port = _free_port()
    codes: list[int] = []

    def run(app: Any, **options: Any) -> None:
        """uvicorn exactly as ``turnir serve`` asks for it, serving for the attempts."""
        server = uvicorn.Server(uvicorn.Config(app, **options))
        with running(server), httpx.Client(base_url=f"http://127.0.0.1:{port}") as http:
            for i in range(7):  # every attempt claims another client address
                codes.append(http.post(
                    "/api/v1/session", json={"login": "org", "password": "wrong password"},
                    headers={"x-forwarded-for": f"203.0.113.{i}",
                             "x-real-ip": f"203.0.113.{i}"}).status_code)

    monkeypatch.setattr(uvicorn, "run", run)
    monkeypatch.setenv("TURNIR_DATABASE_URL", database_url)
    monkeypatch.delenv("TURNIR_TRUSTED_PROXIES", raising=False)
    done = CliRunner().invoke(cli, ["serve", "--port", str(port), "--quiet"])
    assert done.exit_code == 0, done.output
    assert codes == [422] * 5 + [429] * 2  # all from 127.0.0.1: one login, one address
    db = Database.open(database_url)
    try:
        with db.read() as conn:
            addresses = set(conn.execute(select(login_failures.c.address)).scalars())
    finally:
        db.close()
    assert addresses == {"127.0.0.1"}

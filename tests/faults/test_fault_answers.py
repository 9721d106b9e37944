"""What a person sees of a temporary fault (issue 15), in-process and fast: a database server
that cannot be reached is 503 with ``Retry-After: 5`` and the code ``database_unavailable``
(a JSON body in the API, the Russian message in the page's message box for HTMX, an error
page otherwise; the CLI prints it and exits 2); a full disk is 507 ``disk_full``; the
drivers' errors are told apart (``turnir.storage.database.fault_of``)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from tests.faults.servers import free_port
from tests.web.conftest import settings_for
from turnir.errors import DatabaseUnavailable, DiskFull
from turnir.storage.database import Database, fault_of, make_engine
from turnir.web.app import create_app

UNAVAILABLE_RU = "сервер базы данных недоступен; повторите через несколько секунд"


@pytest.fixture
def dead_client(web_db: Database) -> Iterator[TestClient]:
    """The app built on a working database whose engine then points at a PostgreSQL port
    where nothing listens (the server went away)."""
    app = create_app(settings_for(web_db), db=web_db)
    with TestClient(app, raise_server_exceptions=False) as client:
        working = web_db.engine
        web_db.engine = make_engine(f"postgresql://postgres@127.0.0.1:{free_port()}/gone")
        try:
            yield client
        finally:
            web_db.engine.dispose()
            web_db.engine = working


def test_the_api_answers_503_with_retry_after_while_the_database_is_away(
        dead_client: TestClient) -> None:
    answer = dead_client.get("/api/v1/tournaments", headers={"accept-language": "ru"})
    assert answer.status_code == 503
    assert answer.headers["retry-after"] == "5"
    body = answer.json()
    assert body["code"] == "database_unavailable"
    assert body["message"].startswith(UNAVAILABLE_RU)
    assert "127.0.0.1" not in body["message"] and "Traceback" not in answer.text


def test_an_htmx_request_gets_the_message_in_the_page_message_box(
        dead_client: TestClient) -> None:
    answer = dead_client.get("/", headers={"hx-request": "true", "accept-language": "ru"})
    assert answer.status_code == 503 and answer.headers["retry-after"] == "5"
    assert answer.headers["hx-retarget"] == "#messages"
    assert UNAVAILABLE_RU in answer.text and 'role="alert"' in answer.text


def test_a_page_shows_the_russian_message(dead_client: TestClient) -> None:
    answer = dead_client.get("/", headers={"accept-language": "ru"})
    assert answer.status_code == 503 and answer.headers["retry-after"] == "5"
    assert UNAVAILABLE_RU in answer.text and "<html" in answer.text


def test_the_drivers_errors_are_told_apart() -> None:
    full = OperationalError("INSERT", {}, psycopg.errors.DiskFull(
        'could not extend file "base/5/16400": No space left on device'))
    assert isinstance(fault_of(full), DiskFull)
    sqlite_full = OperationalError("INSERT", {}, Exception("database or disk is full"))
    assert isinstance(fault_of(sqlite_full), DiskFull)
    gone = OperationalError("SELECT", {}, psycopg.OperationalError(
        "connection failed: connection to server at 127.0.0.1 failed: Connection refused"))
    assert isinstance(fault_of(gone), DatabaseUnavailable)
    shutdown = OperationalError("SELECT", {}, psycopg.errors.AdminShutdown(
        "terminating connection due to administrator command"))
    assert isinstance(fault_of(shutdown), DatabaseUnavailable)
    starting = OperationalError("SELECT", {}, psycopg.errors.CannotConnectNow(
        "the database system is starting up"))
    assert isinstance(fault_of(starting), DatabaseUnavailable)
    assert fault_of(OperationalError("SELECT", {}, Exception("no such table: x"))) is None


def test_the_cli_says_the_database_is_away_and_exits_2(tmp_path: Path) -> None:
    env = {**os.environ, "LANG": "ru_RU.UTF-8",
           "TURNIR_DATABASE_URL": f"postgresql://postgres@127.0.0.1:{free_port()}/gone"}
    done = subprocess.run([str(Path(sys.executable).parent / "turnir"), "tournament", "list"],
                          env=env, capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert UNAVAILABLE_RU in done.stderr and "Traceback" not in done.stderr

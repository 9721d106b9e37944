"""Issue 15: several web workers behave as one server. ``turnir serve --workers 2`` without
``TURNIR_SECRET_KEY`` accepts every form login whichever worker rendered the form (the CSRF key
kept in ``site_secrets``; before, each worker drew its own and 28 of 30 logins failed), and a
restart keeps the forms rendered before it valid. A creating form's token sent to two app
instances on one database creates once (``form_tokens``). On SQLite and PostgreSQL."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from fastapi.testclient import TestClient

from tests.faults.servers import free_port, wait_healthy
from tests.web.conftest import PASSWORD, add_account, log_in, settings_for
from turnir.services.accounts import AccountRole
from turnir.services.tournaments import list_tournaments
from turnir.storage.database import Database
from turnir.web.app import create_app

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
TOKEN = re.compile(r'name="form_token" value="([^"]+)"')
TURNIR = Path(sys.executable).with_name("turnir")
LOGINS = 30


@contextmanager
def serving(database_url: str, port: int, tmp: Path, workers: int = 2) -> Iterator[str]:
    """``turnir serve --workers N`` on ``database_url`` as a subprocess without a secret key,
    ready (``/healthz``) when the block starts, its whole process group stopped after."""
    env = {k: v for k, v in os.environ.items() if k != "TURNIR_SECRET_KEY"}
    env.update(TURNIR_DATABASE_URL=database_url, TURNIR_SCHEDULES="0",
               XDG_DATA_HOME=str(tmp / "xdg"))
    log = (tmp / f"serve-{port}-{time.monotonic_ns()}.log").open("w")
    server = subprocess.Popen(
        [str(TURNIR), "serve", "--port", str(port), "--quiet", "--workers", str(workers)],
        env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, server, Path(log.name))
        yield url
    finally:
        stop(server)
        log.close()


def stop(server: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the whole group (the parent and its workers), SIGKILL when it lingers."""
    try:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    except ProcessLookupError:
        pass


def login_form(client: httpx.Client, url: str) -> str:
    found = CSRF.search(client.get(f"{url}/login").text)
    assert found, "no CSRF field on the login page"
    return found.group(1)


def post_login(client: httpx.Client, url: str, csrf: str) -> int:
    answer = client.post(f"{url}/login", data={"login": "org", "password": PASSWORD,
                                               "csrf_token": csrf, "next": "/"})
    return answer.status_code


def test_two_workers_without_a_secret_key_accept_every_form_login_and_keep_forms_over_a_restart(
        database_url: str, tmp_path: Path) -> None:
    db = Database.open(database_url)
    try:
        add_account(db, "org", AccountRole.ORGANIZER)
    finally:
        db.close()
    port = free_port()
    with serving(database_url, port, tmp_path) as url:
        answers = []
        # a new connection for each request (any worker may answer it) and no cookie kept from
        # the last login: a new browser each time, without a new client's SSL context
        with httpx.Client(headers={"Connection": "close"}) as client:
            for _ in range(LOGINS):
                client.cookies.clear()
                answers.append(post_login(client, url, login_form(client, url)))
        assert answers == [303] * LOGINS
        before = httpx.Client()
        kept_csrf = login_form(before, url)  # a form rendered before the restart
    try:  # the key lives in the database, not in a process: one worker after it is enough
        with serving(database_url, port, tmp_path, workers=1) as url:
            assert post_login(before, url, kept_csrf) == 303
    finally:
        before.close()


def form_of(client: TestClient, path: str) -> dict[str, str]:
    html = client.get(path).text
    csrf, token = CSRF.search(html), TOKEN.search(html)
    assert csrf and token, f"no form token on {path}"
    return {"csrf_token": csrf.group(1), "form_token": token.group(1)}


def test_one_form_token_sent_to_two_app_instances_on_one_database_creates_once(
        database_url: str) -> None:
    first_db, second_db = Database.open(database_url), Database.open(database_url)
    try:
        add_account(first_db, "org", AccountRole.ORGANIZER)
        first = TestClient(create_app(settings_for(first_db), db=first_db))
        second = TestClient(create_app(settings_for(second_db), db=second_db))
        log_in(first, "org")
        second.cookies.update(first.cookies)  # the same browser, another worker
        fields = {**form_of(first, "/new"), "name": "Кубок двух воркеров"}
        made = first.post("/new", data=fields, follow_redirects=False)
        again = second.post("/new", data=fields, follow_redirects=False)
        assert made.status_code == again.status_code == 303, again.text[-3000:]
        assert again.headers["location"] == made.headers["location"]
        assert [t.name for t in list_tournaments(first_db)] == ["Кубок двух воркеров"]
    finally:
        first_db.close()
        second_db.close()

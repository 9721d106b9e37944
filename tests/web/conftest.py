"""Web fixtures: an app on a fresh SQLite database (PostgreSQL is covered by the service tests
and one web smoke test), test clients logged in as each role, the demo tournaments."""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from turnir.services.accounts import (
    AccountRole,
    authenticate,
    create_account,
    make_hasher,
    open_session,
)
from turnir.storage.database import Database
from turnir.web.app import create_app
from turnir.web.auth import landing
from turnir.web.security import SESSION_COOKIE
from turnir.web.settings import WebSettings

PASSWORD = "correct horse battery"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


@pytest.fixture
def web_db(sqlite_template: Path, tmp_path: Path) -> Iterator[Database]:
    path = tmp_path / "web.db"
    shutil.copyfile(sqlite_template, path)
    db = Database.open(f"sqlite:///{path}")
    yield db
    db.close()


def settings_for(db: Database, **overrides: object) -> WebSettings:
    return WebSettings(database_url=db.engine.url.render_as_string(hide_password=False),
                       fast_hashing=True, secret_key="test-secret", **overrides)  # type: ignore[arg-type]


@pytest.fixture
def app(web_db: Database) -> FastAPI:
    return create_app(settings_for(web_db), db=web_db)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def csrf_of(client: TestClient, path: str = "/login") -> str:
    found = CSRF.search(client.get(path).text)
    assert found, f"no CSRF token on {path}"
    return found.group(1)


SCREENSHOTS = os.environ.get("TURNIR_SCREENSHOTS") == "1"
"""``TURNIR_SCREENSHOTS=1``: the browser tests save their screenshots in ``docs/screenshots``."""


def shoot(target: Any, path: str | Path, **options: Any) -> None:
    """A screenshot of ``target`` (a page or a locator) at ``path``, for people to look at:
    taken with ``TURNIR_SCREENSHOTS=1`` only. Nothing in the suite reads one, and a full-page
    screenshot costs Chromium about 0.2 s of CPU (60 of them a run)."""
    if SCREENSHOTS:
        target.screenshot(path=str(path), **options)


def sign_in(page: Any, server: LiveServer, login: str, password: str = PASSWORD) -> None:
    """Signs ``login`` in on ``page``'s browser as the login form would, and lands where the
    form lands (``turnir.web.auth.landing``): the password checked, a session opened, its
    cookie given to the browser. Without the form's two page loads (about 0.5 s of Chromium
    a sign-in); the form itself is walked in the browser by ``test_csp_browser``,
    ``test_browser``'s walks, the players of each role's day, the accounts page and the fault
    page."""
    from playwright.sync_api import expect

    account = authenticate(server.db, login, password, hasher=make_hasher(fast=True))
    token = open_session(server.db, account, lifetime=timedelta(days=1))
    page.context.add_cookies([{"name": SESSION_COOKIE, "value": token, "url": server.url}])
    page.goto(server.url + landing(server.db, account))
    expect(page.locator("form[action='/logout']")).to_be_visible()


def log_in(client: TestClient, login: str, password: str = PASSWORD) -> TestClient:
    token = csrf_of(client)
    answer = client.post("/login", data={"login": login, "password": password,
                                         "csrf_token": token, "next": "/"},
                         follow_redirects=False)
    assert answer.status_code == 303, answer.text
    return client


def add_account(db: Database, login: str, role: AccountRole,
                person_id: int | None = None) -> None:
    create_account(db, login=login, name=login.title(), password=PASSWORD, role=role,
                   person_id=person_id, actor="test", hasher=make_hasher(fast=True))


@dataclass
class Clients:
    app: FastAPI
    made: list[TestClient]

    def new(self) -> TestClient:
        c = TestClient(self.app, raise_server_exceptions=False)
        c.__enter__()
        self.made.append(c)
        return c

    def as_(self, login: str | None) -> TestClient:
        c = self.new()
        return c if login is None else log_in(c, login)


@pytest.fixture
def clients(app: FastAPI) -> Iterator[Clients]:
    made = Clients(app, [])
    yield made
    for c in made.made:
        c.__exit__(None, None, None)


Factory = Callable[[str | None], TestClient]


# ----- a live server and Debian's Chromium for the browser tests ----------------------------

CHROMIUM = "/usr/bin/chromium-headless-shell"
"""Debian's build of Chromium's headless shell (package ``chromium-headless-shell``, the same
version and Blink as ``/usr/bin/chromium``): what Playwright itself runs for headless tests. The
full browser in headless mode spent 30-40% more CPU on the same tests (main pages and the
16-player walk: 54 -> 32 s of CPU; the day by each role and the CSP walk: 43 -> 29 s)."""
PLAYWRIGHT_DISABLES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
    "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled",
    "PreconnectToSearch")
"""The features Playwright turns off itself (its ``chromiumSwitches``): a second
``--disable-features`` replaces its own, so ours repeats them."""
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run",
                 "--disable-features=" + ",".join(
                     (*PLAYWRIGHT_DISABLES, "RenderDocument", "ProactivelySwapBrowsingInstance"))]
"""Without ``RenderDocument`` and ``ProactivelySwapBrowsingInstance`` a navigation in the same
site keeps its renderer process instead of starting a new one: 12 to 20% less of Chromium's CPU
a navigation (40 navigations of the standings and the pairings: 8.6 s -> 7.2 s, three runs)."""


EXPECT_TIMEOUT_MS = 30_000
"""How long a browser test's ``expect`` waits for its condition (Playwright's own default, 5 s,
is short on a busy 2-core machine: a sign-in then took longer and the test failed). Only an
upper bound: every ``expect`` returns as soon as its condition holds."""


@dataclass
class LiveServer:
    url: str
    db: Database


@contextmanager
def running(server: Any, sockets: list[socket.socket] | None = None) -> Iterator[None]:
    """A ``uvicorn.Server`` running in a thread for the block (on ``sockets`` when given):
    started (20 s at most), then stopped and joined."""
    thread = threading.Thread(target=server.run, kwargs={"sockets": sockets}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture
def live_server(web_db: Database) -> Iterator[LiveServer]:
    """The app served by uvicorn on a free loopback port, in a thread (the socket stays bound
    from choosing the port to serving, so parallel test workers never race for one)."""
    import uvicorn

    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        app = create_app(settings_for(web_db, poll_seconds=2), db=web_db)
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                               log_level="warning", lifespan="on",
                                               proxy_headers=False))  # as `turnir serve`
        with running(server, [s]):
            yield LiveServer(f"http://127.0.0.1:{port}", web_db)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (never a downloaded browser)."""
    from playwright.sync_api import expect, sync_playwright

    assert Path(CHROMIUM).exists(), "install Debian's chromium-headless-shell: make system-deps"
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def screens(tmp_path: Path) -> Path:
    """Where a browser test saves its screenshots: ``docs/screenshots/`` with
    ``TURNIR_SCREENSHOTS=1`` (as ``test_browser``), else a temporary folder."""
    if not SCREENSHOTS:
        return tmp_path
    folder = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder

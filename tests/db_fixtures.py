"""Database fixtures: every test that takes ``db`` (or ``database_url``) runs twice, on SQLite
(a file in a temporary folder) and on a real PostgreSQL server.

PostgreSQL comes from ``TURNIR_TEST_PG_URL`` (a server URL; a fresh database is created on it
for each test) or, when that is not set, from ``scripts/pg-test-server.sh``, which installs the
Debian package when it is missing and starts a throwaway cluster on 127.0.0.1. A cluster this
session started is stopped at the end. Nothing is skipped: without PostgreSQL the tests fail.
Under pytest-xdist the controller starts it for all workers (:func:`share_pg_server`); every
name a worker creates (databases, files under ``tmp_path``) is its own.

Each test gets a fresh database copied from a template migrated once per session (a file copy
on SQLite, ``CREATE DATABASE … TEMPLATE`` on PostgreSQL).
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from turnir.storage.database import Database
from turnir.storage.migrate import upgrade

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "pg-test-server.sh"
BACKENDS = ("sqlite", "postgresql")
_counter = itertools.count(1)


def _psycopg_url(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def with_database(server_url: str, name: str) -> str:
    base, _, _ = _psycopg_url(server_url).rpartition("/")
    return f"{base}/{name}"


def start_pg_server() -> tuple[str, bool]:
    """Start the throwaway server (``scripts/pg-test-server.sh``): its URL, and whether it was
    running already (then it is left running at the end)."""
    was_running = subprocess.run(["bash", str(SCRIPT), "status"], check=False,
                                 capture_output=True).returncode == 0
    done = subprocess.run(["bash", str(SCRIPT), "start"], check=False, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        pytest.fail(f"cannot start the PostgreSQL test server:\n{done.stderr}", pytrace=False)
    return done.stdout.strip().splitlines()[-1], was_running


def stop_pg_server() -> None:
    subprocess.run(["bash", str(SCRIPT), "stop"], check=False, capture_output=True)


def share_pg_server(config: pytest.Config) -> None:
    """With pytest-xdist workers (``make test`` runs ``-n 2``) the controller starts the server
    once and hands its URL to the workers in ``TURNIR_TEST_PG_URL`` (a worker that stopped a
    server it had started would pull it away from the others); it stops the server at the end
    when it started it. Without workers, ``pg_server_url`` starts it when a test first needs it.
    """
    distributed = getattr(config.option, "dist", "no") != "no" \
        and bool(getattr(config.option, "tx", None))
    if not distributed or hasattr(config, "workerinput") \
            or os.environ.get("TURNIR_TEST_PG_URL", "").strip():
        return
    try:
        url, was_running = start_pg_server()
    except pytest.fail.Exception as failed:
        pytest.exit(str(failed), returncode=pytest.ExitCode.INTERNAL_ERROR)
    os.environ["TURNIR_TEST_PG_URL"] = url  # the workers start after this and inherit it
    if not was_running:
        config.add_cleanup(stop_pg_server)


@pytest.fixture(scope="session")
def pg_server_url() -> Iterator[str]:
    """A PostgreSQL server URL (its maintenance database)."""
    given = os.environ.get("TURNIR_TEST_PG_URL", "").strip()
    if given:
        yield _psycopg_url(given)
        return
    url, was_running = start_pg_server()
    yield url
    if not was_running:
        stop_pg_server()


def create_pg_database(server_url: str, name: str, template: str | None = None) -> str:
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        suffix = f' TEMPLATE "{template}"' if template else ""
        conn.execute(f'CREATE DATABASE "{name}"{suffix}')
    return with_database(server_url, name)


def drop_pg_database(server_url: str, name: str) -> None:
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def pg_template(pg_server_url: str) -> Iterator[str]:
    """A migrated PostgreSQL database to copy for each test."""
    name = f"turnir_template_{os.getpid()}"
    url = create_pg_database(pg_server_url, name)
    db = Database.open(url, migrate=False)
    upgrade(db)
    db.close()
    yield name
    drop_pg_database(pg_server_url, name)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file to copy for each test."""
    path = tmp_path_factory.mktemp("template") / "template.db"
    db = Database.open(f"sqlite:///{path}", migrate=False)
    upgrade(db)
    db.close()  # the last connection closed checkpoints the WAL into the file
    assert not Path(f"{path}-wal").exists()
    return path


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, migrated database of each kind."""
    if request.param == "sqlite":
        template: Path = request.getfixturevalue("sqlite_template")
        path = tmp_path / "turnir.db"
        shutil.copyfile(template, path)
        yield f"sqlite:///{path}"
        return
    server: str = request.getfixturevalue("pg_server_url")
    name = f"turnir_test_{os.getpid()}_{next(_counter)}"
    yield create_pg_database(server, name, template=request.getfixturevalue("pg_template"))
    drop_pg_database(server, name)


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database.open(database_url)
    yield database
    database.close()

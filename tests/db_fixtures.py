"""Database fixtures: every test that takes ``db`` (or ``database_url``) runs twice, on SQLite
(a file in a temporary folder) and on a real PostgreSQL server.

PostgreSQL comes from ``TURNIR_TEST_PG_URL`` (a server URL; a fresh database is created on it
for each test) or, when that is not set, from ``scripts/pg-test-server.sh``, which installs the
Debian package when it is missing and starts a throwaway cluster on 127.0.0.1. A cluster this
session started is stopped at the end. Nothing is skipped: without PostgreSQL the tests fail.

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


@pytest.fixture(scope="session")
def pg_server_url() -> Iterator[str]:
    """A PostgreSQL server URL (its maintenance database)."""
    given = os.environ.get("TURNIR_TEST_PG_URL", "").strip()
    if given:
        yield _psycopg_url(given)
        return
    was_running = subprocess.run(["bash", str(SCRIPT), "status"], check=False,
                                 capture_output=True).returncode == 0
    done = subprocess.run(["bash", str(SCRIPT), "start"], check=False, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        pytest.fail(f"cannot start the PostgreSQL test server:\n{done.stderr}", pytrace=False)
    yield done.stdout.strip().splitlines()[-1]
    if not was_running:
        subprocess.run(["bash", str(SCRIPT), "stop"], check=False, capture_output=True)


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

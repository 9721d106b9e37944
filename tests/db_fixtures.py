"""Database fixtures: every test that takes ``db`` (or ``database_url``) runs twice, on SQLite
(a file in a temporary folder) and on a real PostgreSQL server.

PostgreSQL comes from ``TURNIR_TEST_PG_URL`` (a server URL; a fresh database is created on it
for each test) or, when that is not set, from ``scripts/pg-test-server.sh``, which installs the
Debian package when it is missing and starts a throwaway cluster on 127.0.0.1. A cluster this
session started is stopped at the end. Nothing is skipped: without PostgreSQL the tests fail.
Under pytest-xdist the controller starts it for all workers (:func:`share_pg_server`); every
name a worker creates (databases, files under ``tmp_path``) is its own.

Each test gets a fresh database copied from a template migrated once per session (a file copy
on SQLite, ``CREATE DATABASE … TEMPLATE`` on PostgreSQL). On PostgreSQL a copy costs a third of
a second, so a worker copies once and afterwards empties the database its last test used
(:class:`PgRecycler`: every row deleted, every sequence back at 1, its schema checked against the
template's) and renames it, so nothing the last test left running can reach the next test's.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


_SCHEMA = """
SELECT md5(string_agg(item, ',' ORDER BY item)) FROM (
  SELECT 'c:' || c.relname || '.' || a.attname || ':' || format_type(a.atttypid, a.atttypmod)
         || ':' || coalesce(pg_get_expr(d.adbin, d.adrelid), '') || ':' || a.attnotnull::text
         AS item
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'p') AND a.attnum > 0
      AND NOT a.attisdropped
  UNION ALL SELECT 'i:' || i.relname || ':' || pg_get_indexdef(i.oid) FROM pg_class i
    JOIN pg_namespace n ON n.oid = i.relnamespace WHERE n.nspname = 'public' AND i.relkind = 'i'
  UNION ALL SELECT 't:' || tgrelid::regclass::text || '.' || tgname || ':' || tgenabled::text
    FROM pg_trigger WHERE NOT tgisinternal
  UNION ALL SELECT 'f:' || p.proname || ':' || md5(p.prosrc) FROM pg_proc p
    JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
  UNION ALL SELECT 'v:' || version_num FROM alembic_version
) AS schema
"""
"""One fingerprint of a database's schema: columns, indexes, triggers, functions, migration
(read from pg_catalog: half the time of the same through information_schema's views)."""


class PgRecycler:
    """A worker's PostgreSQL test database, emptied after each test instead of copied anew.

    ``take`` gives a database as fresh as a template copy: the one the worker's last test used,
    renamed, when it could be emptied and its schema is the template's; else a new copy.
    ``give_back`` empties a used one (its connections cut first) or drops it when it cannot.
    """

    def __init__(self, server: str, template: str) -> None:
        self.server, self.template = server, template
        self.ready: str | None = None
        with psycopg.connect(with_database(server, template), autocommit=True) as conn:
            self.schema = conn.execute(_SCHEMA).fetchone()
            self.tables = [row[0] for row in conn.execute(
                "SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = 'public' "
                "AND tablename <> 'alembic_version'")]
            self.sequences = [row[0] for row in conn.execute(
                "SELECT quote_ident(sequencename) FROM pg_sequences "
                "WHERE schemaname = 'public'")]
            assert not any(conn.execute(f"SELECT EXISTS (SELECT FROM {t})").fetchone()[0]
                           for t in self.tables), "the template holds rows: copy, not recycle"
        # no trigger fires (the audit log's append-only one, the foreign keys' checks); one
        # round trip for every table and sequence
        self.wipe = "SET LOCAL session_replication_role = replica;\n" + "".join(
            f"DELETE FROM {table};\n" for table in self.tables) + "SELECT " + ", ".join(
            f"setval('{sequence}', 1, false)" for sequence in self.sequences)
        self._admin: psycopg.Connection[Any] | None = None

    def admin(self) -> psycopg.Connection[Any]:
        """The worker's one connection to the server's maintenance database (renames, the
        connections' count), opened again when it broke."""
        if self._admin is None or self._admin.closed or self._admin.broken:
            self._admin = psycopg.connect(self.server, autocommit=True)
        return self._admin

    def close(self) -> None:
        if self._admin is not None:
            self._admin.close()

    def take(self, name: str) -> str:
        if self.ready is None:
            return create_pg_database(self.server, name, template=self.template)
        old, self.ready = self.ready, None
        try:
            self.admin().execute(f'ALTER DATABASE "{old}" RENAME TO "{name}"')
        except psycopg.Error:  # something connected to it meanwhile: drop it, copy anew
            drop_pg_database(self.server, old)
            return create_pg_database(self.server, name, template=self.template)
        return with_database(self.server, name)

    def give_back(self, name: str) -> None:
        try:
            self._empty(name)
        except psycopg.Error:
            drop_pg_database(self.server, name)
            return
        self.ready = name

    def _empty(self, name: str) -> None:
        self.admin().execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                             "WHERE datname = %s AND pid <> pg_backend_pid()", (name,))
        with psycopg.connect(with_database(self.server, name)) as conn:
            if conn.execute(_SCHEMA).fetchone() != self.schema:
                raise psycopg.Error("the test changed the schema")
            conn.execute(self.wipe)
        busy = self.admin().execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s",
                                    (name,)).fetchone()
        if busy and busy[0]:  # something reconnected meanwhile: a copy is safer
            raise psycopg.Error("the database is in use")


@pytest.fixture(scope="session")
def pg_recycler(pg_server_url: str, pg_template: str) -> Iterator[PgRecycler]:
    recycler = PgRecycler(pg_server_url, pg_template)
    yield recycler
    recycler.close()
    if recycler.ready is not None:
        drop_pg_database(pg_server_url, recycler.ready)


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
    recycler: PgRecycler = request.getfixturevalue("pg_recycler")
    name = f"turnir_test_{os.getpid()}_{next(_counter)}"
    yield recycler.take(name)
    recycler.give_back(name)


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database.open(database_url)
    yield database
    database.close()

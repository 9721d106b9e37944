"""Opening the database and running transactions on it.

Where the data lives (``docs/storage.md``): ``TURNIR_DATABASE_URL`` when it is set (SQLite or
PostgreSQL: ``postgresql://user@host/db`` is driven by psycopg 3), otherwise an SQLite file at
``$XDG_DATA_HOME/turnir/turnir.db`` (``~/.local/share/turnir/turnir.db`` without
``XDG_DATA_HOME``). A new database is created and migrated on first use.

Transactions: ``Database.write(lock=tournament_id)`` serialises writes to one tournament across
processes. On PostgreSQL it takes ``SELECT … FOR UPDATE`` on the tournament's row; on SQLite
every write transaction starts with ``BEGIN IMMEDIATE`` (one writer at a time, waiting up to the
busy timeout). ``Database.read()`` gives one consistent snapshot (a deferred ``BEGIN`` on SQLite
in WAL mode, ``REPEATABLE READ`` on PostgreSQL) and never blocks writers.

SQLite runs in WAL mode with foreign keys on and ``synchronous=NORMAL``: a committed change
survives the process being killed at any point, and the database is never corrupted; only a
power cut or an operating-system crash may roll back the last commits. ``FULL`` (also durable
against power loss, at an fsync per commit) is set with ``TURNIR_SQLITE_SYNCHRONOUS=FULL``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, create_engine, event, select, util
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.pool import ConnectionPoolEntry

from turnir.clock import Clock, SystemClock
from turnir.errors import (
    ConflictError,
    DatabaseUnavailable,
    DiskFull,
    InvariantError,
    NotFoundError,
    UserError,
)
from turnir.storage.direct import DirectStatement

Tx = Connection
"""An open transaction, as services hold it: they pass it to the repositories
(``turnir.storage.*``), which alone run statements on it (issue 11)."""

ENV_URL = "TURNIR_DATABASE_URL"
BUSY_TIMEOUT_S = 30.0
"""How long a writer waits for another one on SQLite before giving up."""
CONNECT_TIMEOUT_S = 10
"""How long opening a connection to PostgreSQL may take before the server counts as down."""
POOL_SETTINGS = {"pool_size": ("TURNIR_DB_POOL_SIZE", 10, 1, 200),
                 "max_overflow": ("TURNIR_DB_POOL_OVERFLOW", 5, 0, 200),
                 "pool_timeout": ("TURNIR_DB_POOL_TIMEOUT_S", 10, 1, 300)}
"""A PostgreSQL engine's connection pool, per process (issue 15, load): option → (variable,
default, least, most). Each web worker holds at most ``pool_size + max_overflow``
connections, so ``workers × (pool_size + max_overflow) ≤ max_connections − reserve`` (the
reserve: robot workers, the CLI, backups, PostgreSQL's superuser slots); the defaults, 4
workers × 15 = 60, fit PostgreSQL's default 100. A request that waits ``pool_timeout``
seconds for a connection gets the temporary 503 (``database_unavailable``), not a 500."""


def default_database_path(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME/turnir/turnir.db``, default ``~/.local/share/turnir/turnir.db``."""
    environ = os.environ if env is None else env
    base = environ.get("XDG_DATA_HOME", "").strip()
    root = Path(base) if base else Path.home() / ".local" / "share"
    return root / "turnir" / "turnir.db"


def pool_options(env: Mapping[str, str] | None = None) -> dict[str, int]:
    """The ``POOL_SETTINGS`` from the environment (a missing or empty variable: the default;
    a value that is not a whole number in bounds is refused)."""
    environ = os.environ if env is None else env
    found = {}
    for option, (name, default, least, most) in POOL_SETTINGS.items():
        text = environ.get(name, "").strip()
        value = int(text) if text.isdigit() else default if not text else -1
        if not least <= value <= most:
            raise UserError("{field} must be a whole number from {low} to {high}",
                            code="bad_setting", field=name, low=least, high=most)
        found[option] = value
    return found


def normalise_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` use psycopg 3; other URLs are kept."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def database_url(env: Mapping[str, str] | None = None) -> str:
    """The URL in effect: ``TURNIR_DATABASE_URL`` or the per-user SQLite file."""
    environ = os.environ if env is None else env
    url = environ.get(ENV_URL, "").strip()
    if url:
        return normalise_url(url)
    return f"sqlite:///{default_database_path(environ)}"


ENV_SQLITE_SYNCHRONOUS = "TURNIR_SQLITE_SYNCHRONOUS"
_SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")


def sqlite_synchronous(env: Mapping[str, str] | None = None) -> str:
    """SQLite's ``synchronous`` setting: ``NORMAL`` by default, ``FULL`` or ``EXTRA`` from
    ``TURNIR_SQLITE_SYNCHRONOUS``."""
    environ = os.environ if env is None else env
    value = environ.get(ENV_SQLITE_SYNCHRONOUS, "").strip().upper() or "NORMAL"
    if value not in _SYNCHRONOUS:
        raise UserError("{setting} must be one of {choices}, not {value!r}", code="bad_setting",
                        setting=ENV_SQLITE_SYNCHRONOUS, choices=", ".join(_SYNCHRONOUS),
                        value=value)
    return value


def _sqlite_connect(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
    # SQLAlchemy's pysqlite recipe: the driver emits no BEGIN; ``_sqlite_begin`` does.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute(f"PRAGMA synchronous = {sqlite_synchronous()}")
        cursor.execute("PRAGMA foreign_keys = ON")
    finally:
        cursor.close()


def _sqlite_begin(conn: Connection) -> None:
    read_only = conn.get_execution_options().get("turnir_read_only", False)
    # Straight to the driver: this runs for every transaction, and SQLAlchemy's statement
    # machinery would add a fifth of a millisecond to each result recorded.
    driver = conn.connection.driver_connection
    if driver is None:  # pragma: no cover - a checked-out connection always has one
        conn.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")
        return
    driver.execute("BEGIN" if read_only else "BEGIN IMMEDIATE")


class _SharedStatements:
    """The SQL statements compiled in this process, shared by every engine of one kind.

    SQLAlchemy keeps compiled statements per engine, keyed by the engine's own dialect object,
    so each ``Database.open`` compiled every statement it ran again (the test suite opens
    thousands of databases; a tenth of its time went there). Engines here differ only in their
    database: their dialects are made with the same settings (``make_engine``), so a statement
    compiled for one is the same for another of its kind and server version.
    """

    def __init__(self) -> None:
        self.compiled: util.LRUCache[Any, Any] = util.LRUCache(4000)

    @staticmethod
    def _key(key: tuple[Any, ...]) -> tuple[Any, ...]:
        dialect = key[0]
        kind = (type(dialect), dialect.server_version_info, dialect.paramstyle,
                dialect.max_identifier_length, dialect.label_length)
        return (kind, *key[1:])

    def get(self, key: tuple[Any, ...]) -> Any:
        return self.compiled.get(self._key(key))

    def __setitem__(self, key: tuple[Any, ...], value: Any) -> None:
        self.compiled[self._key(key)] = value


SHARED_STATEMENTS = _SharedStatements()


def make_engine(url: str) -> Engine:
    """An engine for ``url`` with the SQLite settings above when it is SQLite (compiled
    statements shared with the process's other engines: ``_SharedStatements``)."""
    engine = _make_engine(url)
    engine.update_execution_options(compiled_cache=SHARED_STATEMENTS)
    return engine


def _make_engine(url: str) -> Engine:
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise UserError("{setting}: cannot read the database URL {url!r}",
                        code="bad_database_url", setting=ENV_URL, url=url) from None
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(parsed, connect_args={"timeout": BUSY_TIMEOUT_S})
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    if parsed.get_backend_name() == "postgresql":
        # pool_pre_ping: a pooled connection is tested before each use, so after PostgreSQL
        # restarted the workers reconnect by themselves (a broken one is replaced, the pool is
        # emptied on the first disconnect); connect_timeout: a server that does not answer is
        # reported as unavailable instead of holding the request (issue 15).
        return create_engine(parsed, pool_recycle=3600, pool_pre_ping=True,
                             connect_args={"connect_timeout": CONNECT_TIMEOUT_S},
                             **pool_options())
    raise UserError("{setting}: only sqlite:// and postgresql:// databases are supported",
                    code="bad_database_url", setting=ENV_URL)


@dataclass(eq=False)
class Database:
    """One database: its engine, the two kinds of transaction services use, and the clock
    every use case on it reads "now" from (``turnir.clock``: tests pass a ``ManualClock``)."""

    engine: Engine
    clock: Clock = field(default_factory=SystemClock)

    @classmethod
    def open(cls, url: str | None = None, *, migrate: bool = True,
             clock: Clock | None = None) -> Database:
        """Open ``url`` (default: ``database_url()``); create and migrate a new database.

        An existing database at an older schema is refused with a hint to run
        ``turnir db upgrade``; ``migrate=False`` skips the check (``db upgrade`` itself).
        """
        db = cls(make_engine(url or database_url()), clock or SystemClock())
        if migrate:
            from turnir.storage.migrate import ensure_schema

            ensure_schema(db)
        return db

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @property
    def is_sqlite(self) -> bool:
        return self.dialect == "sqlite"

    def describe(self) -> str:
        """The URL with any password hidden."""
        return self.engine.url.render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read-only transaction: one consistent snapshot, rolled back at the end."""
        with _translate_errors(self), self.engine.connect() as conn:
            conn = conn.execution_options(turnir_clock=self.clock)
            if self.is_sqlite:
                conn = conn.execution_options(turnir_read_only=True)
            else:
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin() as transaction:
                yield conn
                transaction.rollback()

    @contextmanager
    def write(self, *, lock: int | None = None) -> Iterator[Connection]:
        """A write transaction, committed when the block ends without an exception.

        With ``lock``, the tournament's row is locked first (``NotFoundError`` when there is no
        such tournament), so writes to one tournament never interleave.
        """
        with _translate_errors(self), self.engine.connect() as conn, conn.begin():
            conn.execution_options(turnir_clock=self.clock)
            if lock is not None:
                lock_tournament(conn, lock)
            yield conn


def clock_of(tx: Connection) -> Clock:
    """The clock of the database ``tx`` is a transaction of (``Database.clock``): a use case
    that holds only its transaction reads "now" from it."""
    found = tx.get_execution_options().get("turnir_clock")
    if found is None:
        raise InvariantError("a transaction that Database.read() or write() did not open")
    clock: Clock = found
    return clock


_LOCKS: dict[bool, DirectStatement] = {}
"""The prepared lock statements by "is SQLite", built on first use (the tables load lazily)."""


def _lock_statement(sqlite: bool) -> DirectStatement:
    found = _LOCKS.get(sqlite)
    if found is None:
        from turnir.storage.tables import tournaments

        query = select(tournaments.c.id).where(tournaments.c.id == bindparam("tournament_id"))
        found = _LOCKS[sqlite] = DirectStatement(query if sqlite else query.with_for_update())
    return found


def lock_tournament(conn: Connection, tournament_id: int, *, check: bool = True) -> None:
    """Take the tournament's write lock for the rest of the transaction: the one way to take
    it (``Database.write(lock=…)``, ``services.common.changing``, the result path).

    PostgreSQL: ``SELECT … FOR UPDATE`` on the tournament's row, a prepared statement of its
    own (a ``FOR UPDATE`` that waited returns the locked row fresh but rows joined to it from
    the statement's older snapshot, so read the rest once the lock is held). SQLite: the
    transaction's ``BEGIN IMMEDIATE`` already holds the write lock; the statement only finds
    the row. ``NotFoundError`` when there is no such tournament; ``check=False``: the caller
    reads the tournament's row next and refuses a missing one itself, so nothing runs on
    SQLite (the result path: a statement less on every result).
    """
    sqlite = conn.dialect.name == "sqlite"
    if sqlite and not check:
        return
    statement = _lock_statement(sqlite)
    if statement.execute(conn, {"tournament_id": tournament_id}).fetchone() is None:
        raise NotFoundError("no tournament #{id}", code="unknown_tournament", id=tournament_id)


DISK_FULL_TEXTS = ("database or disk is full", "could not extend file",
                   "no space left on device", "disk full")
"""How a full disk shows in the drivers' messages (SQLite's ``SQLITE_FULL``, PostgreSQL's
``could not extend file …: No space left on device``, ``could not write to file …``)."""
PG_DISK_FULL = "53100"
PG_UNAVAILABLE = ("08", "57P01", "57P02", "57P03")
"""SQLSTATEs of a server that cannot be used now: connection exceptions (class 08), an
administrator's or a crash's shutdown, a server still starting or shutting down."""


def fault_of(error: DBAPIError) -> UserError | None:
    """The temporary fault ``error`` is, as the error a person sees: the disk is full
    (``DiskFull``) or the database server cannot be reached (``DatabaseUnavailable``); None
    for anything else. Either way the transaction was rolled back: nothing changed."""
    text = str(error.orig).lower()
    state = str(getattr(error.orig, "sqlstate", "") or "")
    if state == PG_DISK_FULL or any(part in text for part in DISK_FULL_TEXTS):
        return DiskFull("the server's disk is full: this change was not saved; reading "
                        "works, try again once the administrator has freed space")
    postgresql = type(error.orig).__module__.startswith("psycopg")
    if error.connection_invalidated or state.startswith(PG_UNAVAILABLE) or (
            postgresql and isinstance(error, OperationalError)
            and ("connect" in text or "server closed" in text)):
        return DatabaseUnavailable("the database server cannot be reached; try again in a few "
                                   "seconds (nothing saved was lost)")
    return None


@contextmanager
def _translate_errors(db: Database) -> Iterator[None]:
    """Database trouble a person can act on becomes a ``UserError``; the rest stays a bug."""
    try:
        yield
    except PoolTimeout as error:  # every connection of the process busy for pool_timeout s
        raise DatabaseUnavailable("the server is busy; try again in a few seconds (nothing "
                                  "was changed)") from error
    except DBAPIError as error:
        fault = fault_of(error)
        if fault is not None:
            raise fault from error
        _translate_other(db, error)
        raise


def _translate_other(db: Database, error: DBAPIError) -> None:
    """The other database errors a person can act on (a lock, a file that cannot be opened)
    raised as ``UserError``s; it returns for a bug (the caller re-raises it)."""
    text = str(error.orig)
    if isinstance(error, OperationalError):
        if "locked" in text or "busy" in text:
            raise ConflictError(
                "the database is busy with another change; try again", code="busy"
            ) from error
        if "connect" in text.lower():
            raise UserError("cannot open the database {database}: {reason}", code="database",
                            database=db.describe(), reason=text.strip()) from error
    if "unable to open database" in text:
        raise UserError("cannot open the database {database}", code="database",
                        database=db.describe()) from error

"""Issue 15 (load): a process's PostgreSQL connection pool is sized from the environment
(``TURNIR_DB_POOL_SIZE``, ``TURNIR_DB_POOL_OVERFLOW``, ``TURNIR_DB_POOL_TIMEOUT_S``), and a
request that cannot get a connection in time gets the temporary ``database_unavailable``
(503 on the web), not an internal error."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine

from turnir.errors import DatabaseUnavailable, UserError
from turnir.storage.database import Database, make_engine, pool_options
from turnir.web.errors import status_of


def test_the_pool_options_default_and_come_from_the_environment() -> None:
    assert pool_options({}) == {"pool_size": 10, "max_overflow": 5, "pool_timeout": 10}
    assert pool_options({"TURNIR_DB_POOL_SIZE": "4", "TURNIR_DB_POOL_OVERFLOW": "0",
                         "TURNIR_DB_POOL_TIMEOUT_S": "3"}) == {
        "pool_size": 4, "max_overflow": 0, "pool_timeout": 3}


@pytest.mark.parametrize("value", ["0", "-1", "ten", "1000"])
def test_a_pool_size_out_of_bounds_is_refused(value: str) -> None:
    with pytest.raises(UserError) as found:
        pool_options({"TURNIR_DB_POOL_SIZE": value})
    assert found.value.code == "bad_setting"


def test_a_postgresql_engine_takes_the_pool_from_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TURNIR_DB_POOL_SIZE", "3")
    monkeypatch.setenv("TURNIR_DB_POOL_OVERFLOW", "2")
    engine = make_engine("postgresql+psycopg://u:p@127.0.0.1:1/none")  # never connects
    try:
        assert (engine.pool.size(), engine.pool._max_overflow) == (3, 2)  # type: ignore[attr-defined]
    finally:
        engine.dispose()


def test_waiting_too_long_for_a_connection_is_a_temporary_503(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'pool.db'}", pool_size=1, max_overflow=0,
                           pool_timeout=0.2)
    db = Database(engine)
    try:
        with db.read(), pytest.raises(DatabaseUnavailable) as found, db.read():
            pass  # the only connection is held by the outer read
        assert found.value.code == "database_unavailable"
        assert status_of(found.value) == 503
    finally:
        db.close()

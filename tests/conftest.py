"""Shared fixtures: the databases every storage and service test runs on (tests/db_fixtures.py)."""

from tests.db_fixtures import (  # noqa: F401 - fixtures are found by name
    database_url,
    db,
    pg_server_url,
    pg_template,
    sqlite_template,
)

"""Shared fixtures: the databases every storage and service test runs on (tests/db_fixtures.py)."""

import os

import pytest

from tests.db_fixtures import (  # noqa: F401 - fixtures are found by name
    database_url,
    db,
    pg_server_url,
    pg_template,
    share_pg_server,
    sqlite_template,
)

# A pytest-xdist worker starts with COLUMNS=80 and LINES=24 in its environment, and the CLI's
# Rich consoles, made when turnir.cli is imported, would keep that width for every test (a CLI
# test's own COLUMNS then no longer widens a table): the tests never take the caller's terminal.
for _name in ("COLUMNS", "LINES"):
    os.environ.pop(_name, None)


def pytest_configure(config: pytest.Config) -> None:
    share_pg_server(config)

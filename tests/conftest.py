"""Shared fixtures: the databases every storage and service test runs on (tests/db_fixtures.py)."""

import json
import os
from pathlib import Path

import pytest

from tests.db_fixtures import (  # noqa: F401 - fixtures are found by name
    database_url,
    db,
    pg_recycler,
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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests most exposed to timing, which ``scripts/test-repeat.sh`` runs again and
    again: ``browser`` (it takes the ``browser`` fixture: Chromium), ``faults`` (tests/faults:
    killed processes, a restarted server, a full disk) and ``concurrency`` (writers racing,
    processes killed at random points)."""
    _longest_files_first(items)
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
        parts = item.path.parts
        if "faults" in parts:
            item.add_marker(pytest.mark.faults)
        if item.path.name in CONCURRENCY_FILES:
            item.add_marker(pytest.mark.concurrency)


CONCURRENCY_FILES = frozenset({"test_concurrency.py", "test_crash.py"})


LONGEST_FILES: dict[str, int] = json.loads(
    (Path(__file__).with_name("longest_files.json")).read_text(encoding="utf-8"))
"""The files that take longest (seconds of one run; only their order matters), written by
``scripts/longest-files.py`` from a run's ``--junitxml``. ``make test`` hands whole files to its
workers in the order collected: the longest first, so that no long file starts last and keeps
one worker busy while the others wait (the longest-first rule of scheduling)."""


def _longest_files_first(items: list[pytest.Item]) -> None:
    root = Path(__file__).resolve().parent.parent

    def weight(item: pytest.Item) -> int:
        try:
            return LONGEST_FILES.get(item.path.relative_to(root).as_posix(), 0)
        except ValueError:
            return 0

    order = {item.nodeid: n for n, item in enumerate(items)}
    items.sort(key=lambda item: (-weight(item), order[item.nodeid] if weight(item) else 0))

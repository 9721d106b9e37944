"""The CLI tests read English output: the language comes from LANG (Russian by default), so
they run with an English locale; tests of the Russian default clear it themselves."""

from __future__ import annotations

import pytest

WHOLE_ON_POSTGRESQL = "test_db_cli.py"
"""The CLI is a thin layer over the services, whose tests run on both databases; on PostgreSQL
only the whole-event CLI tests run (suite time: the suite is to stay under 10 minutes on 2
cores, issue 24)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    cli = [item for item in items if "tests/cli/" in item.nodeid
           and item.nodeid.endswith("[postgresql]")
           and WHOLE_ON_POSTGRESQL not in item.nodeid]
    if cli:
        config.hook.pytest_deselected(items=cli)
        items[:] = [item for item in items if item not in set(cli)]


@pytest.fixture(autouse=True)
def english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")

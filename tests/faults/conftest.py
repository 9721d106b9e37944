"""The fault tests use the web tests' fresh SQLite database fixture."""

from tests.web.conftest import web_db  # noqa: F401 - a fixture, found by name

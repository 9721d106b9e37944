"""The fault tests use the web tests' fixtures: a fresh SQLite database, the live server and
Debian's Chromium."""

from tests.web.conftest import browser, live_server, web_db  # noqa: F401 - fixtures, by name

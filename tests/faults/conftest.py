"""The fault tests use the web tests' fixtures: a fresh SQLite database and the live server.
(The browser tests of faults live in ``tests/web``: importing the session-scoped ``browser``
fixture here too would start a second Playwright in a pytest worker that already runs one —
"using Playwright Sync API inside the asyncio loop".)"""

from tests.web.conftest import live_server, web_db  # noqa: F401 - fixtures, by name

"""The composition root: the one module that opens the database and hands it to the web app,
the CLI and the robot, which import no storage themselves (issue 11; ``pyproject.toml``'s
import-linter contracts).

Everything here is imported lazily by its callers, so ``turnir --help`` pays for none of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from turnir.storage.database import Database


def open_database(url: str | None = None, *, migrate: bool = True) -> Database:
    """The database at ``url`` (default: ``TURNIR_DATABASE_URL`` or the per-user SQLite file),
    created and migrated on first use (``storage.database.Database.open``)."""
    from turnir.storage.database import Database

    return Database.open(url, migrate=migrate)

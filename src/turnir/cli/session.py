"""The database as the commands see it: opened through the composition root
(``turnir.compose.open_database``; the CLI imports no storage), closed after, and the
tournament named on the command line found through ``services.tournaments``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypeVar

from turnir.cli.output import write_json

if TYPE_CHECKING:
    from turnir.services.common import Database


@contextmanager
def database() -> Iterator[Database]:
    """The database in effect (``TURNIR_DATABASE_URL`` or the per-user SQLite file),
    created and migrated on first use, closed after."""
    from turnir.compose import open_database

    db = open_database()
    try:
        yield db
    finally:
        db.close()


@contextmanager
def opened(ref: str) -> Iterator[tuple[Database, int]]:
    """The database and the number of the tournament ``ref`` (its number or its name)."""
    from turnir.services.tournaments import find_tournament_id

    with database() as db:
        yield db, find_tournament_id(db, ref)


V = TypeVar("V")


def show_view(ref: str, read: Callable[[Database, int], V], *, as_json: bool,
         to_json: Callable[[V], object], render: Callable[[V], None]) -> None:
    """A command that shows one view of the tournament ``ref``: ``read`` it, then write it
    as JSON (``--json``) or ``render`` it."""
    with opened(ref) as (db, tid):
        found = read(db, tid)
    if as_json:
        write_json(to_json(found))
    else:
        render(found)


def tournament_id(db: Database, ref: str | None) -> int | None:
    """The number of the tournament ``ref``; ``None`` when none is given."""
    from turnir.services.tournaments import find_tournament_id

    return None if ref is None else find_tournament_id(db, ref)

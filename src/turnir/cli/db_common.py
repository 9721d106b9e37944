"""What the database commands share: opening the database, naming the tournament, who acts,
turning a ``UserError`` into a message and exit code 2, and progress bars for long work.

The database is ``TURNIR_DATABASE_URL`` or the per-user SQLite file (``docs/storage.md``);
who acts is ``--actor``, else ``TURNIR_ACTOR``, else the login name.
"""

from __future__ import annotations

import getpass
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, TypeVar

import typer
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from turnir.cli.output import SafeConsole, error_line
from turnir.errors import UserError
from turnir.storage.database import Database
from turnir.storage.repositories import find_tournament_id

console = SafeConsole(soft_wrap=True)
err_console = SafeConsole(stderr=True)
T = TypeVar("T")

TournamentArg = Annotated[str, typer.Argument(help="The tournament: its number or its name.")]
ActorOption = Annotated[
    str | None,
    typer.Option("--actor", help="Who makes the change (default: $TURNIR_ACTOR or your login)."),
]


def fail(message: str) -> typer.Exit:
    err_console.print(error_line(message), highlight=False, soft_wrap=True)
    return typer.Exit(code=2)


def actor_name(given: str | None) -> str:
    if given and given.strip():
        return given
    from_env = os.environ.get("TURNIR_ACTOR", "").strip()
    if from_env:
        return from_env
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # pragma: no cover - a user without a login name
        return "cli"


def guarded(action: Callable[[], T]) -> T:
    """Run ``action``; a ``UserError`` becomes the message on stderr and exit code 2."""
    try:
        return action()
    except UserError as error:
        raise fail(error.message) from None


@contextmanager
def database() -> Iterator[Database]:
    """The database in effect, created and migrated on first use."""
    db = guarded(Database.open)
    try:
        yield db
    finally:
        db.close()


def tournament_id(db: Database, ref: str) -> int:
    def find() -> int:
        with db.read() as conn:
            return find_tournament_id(conn, ref)

    return guarded(find)


class LazyProgress:
    """A progress callback that shows a Rich bar only once the work has taken a second."""

    def __init__(self, description: str, *, after_s: float = 1.0) -> None:
        self.description = description
        self.after_s = after_s
        self.started = time.monotonic()
        self.progress: Progress | None = None
        self.task: TaskID | None = None

    def __call__(self, done: int, total: int) -> None:
        if self.progress is None:
            if time.monotonic() - self.started < self.after_s:
                return
            self.progress = Progress(TextColumn("{task.description}"), BarColumn(),
                                     TextColumn("{task.completed}/{task.total}"),
                                     TimeElapsedColumn(), console=err_console, transient=True)
            self.progress.start()
            self.task = self.progress.add_task(self.description, total=total)
        if self.task is not None:
            self.progress.update(self.task, completed=done, total=total)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()


@contextmanager
def progress_bar(description: str) -> Iterator[LazyProgress]:
    bar = LazyProgress(description)
    try:
        yield bar
    finally:
        bar.close()

"""What every command shares: the one decorator that registers a command and turns a
``UserError`` into a message in the reader's language and exit code 2 (``command``), who acts,
the language (``--lang``, else ``LANG``: ``turnir.i18n.environment_locale``) and progress bars.

A command's body is: parse its options, call one service inside ``with opened(ref) as
(db, tid):`` or ``with database() as db:`` (``turnir.cli.session``), render. Services are
imported inside the command, so ``turnir --help`` and the file commands import no database
code (issue 11). Who acts is ``--actor``, else ``TURNIR_ACTOR``, else the login name.
"""

from __future__ import annotations

import getpass
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import typer

from turnir.cli.output import SafeConsole, error_line
from turnir.errors import UserError
from turnir.i18n import environment_locale, error_text, known_locale

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID


console = SafeConsole(soft_wrap=True)
err_console = SafeConsole(stderr=True)
T = TypeVar("T")
P = ParamSpec("P")



ERROR_WORD = {"ru": "ошибка:", "en": "error:"}


class _Language:
    """The ``--lang`` given to ``turnir`` (the main callback sets it at every start)."""

    chosen: str | None = None


def choose_language(value: str | None) -> None:
    if value is not None and known_locale(value) is None:
        raise typer.BadParameter("use ru or en", param_hint="--lang")
    _Language.chosen = known_locale(value)


def language() -> str:
    """``ru`` or ``en``: ``--lang``, else the environment (Russian unless LANG is English)."""
    return _Language.chosen or environment_locale()


def content_language(given: str | None) -> str:
    """The language of texts a command shows (penalty names, a report): its own ``--lang``,
    else the global ``--lang``, else Russian (as before the global option)."""
    if given is not None:
        if known_locale(given) is None:
            raise typer.BadParameter("use ru or en", param_hint="--lang")
        return known_locale(given) or "ru"
    return _Language.chosen or "ru"


def fail(error: UserError | str) -> typer.Exit:
    """Print ``error`` (in the reader's language) on stderr; the exit to raise (code 2)."""
    lang = language()
    text = error if isinstance(error, str) else error_text(error, lang)
    err_console.print(error_line(text, ERROR_WORD.get(lang, "error:")), highlight=False,
                      soft_wrap=True)
    return typer.Exit(code=2)


def guarded(action: Callable[[], T]) -> T:
    """Run ``action``; a ``UserError`` becomes the message on stderr and exit code 2."""
    try:
        return action()
    except UserError as error:
        raise fail(error) from None


def guard(function: Callable[P, T]) -> Callable[P, T]:
    """``function`` with a ``UserError`` anywhere in it turned into the message on stderr and
    exit code 2 (for a command registered by another module)."""

    @wraps(function)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return function(*args, **kwargs)
        except UserError as error:
            raise fail(error) from None

    return run


def command(app: typer.Typer, name: str | None = None,
            **options: Any) -> Callable[[Callable[P, T]], Callable[P, T]]:
    """Register the function as ``app``'s command ``name``, guarded (``guard``)."""

    def register(function: Callable[P, T]) -> Callable[P, T]:
        guarded_function = guard(function)
        app.command(name, **options)(guarded_function)
        return guarded_function

    return register


def refuse_existing(path: Path, *, force: bool) -> None:
    """Refuse to overwrite ``path`` unless ``--force`` was given."""
    if path.exists() and not force:
        raise UserError("{file} already exists (use --force to overwrite)",
                        code="file_exists", file=str(path))


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
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

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
def progress_bar(description: str, *, after_s: float = 1.0) -> Iterator[LazyProgress]:
    bar = LazyProgress(description, after_s=after_s)
    try:
        yield bar
    finally:
        bar.close()

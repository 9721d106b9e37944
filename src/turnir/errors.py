"""The two error families (STYLE habit 6).

``UserError`` is a mistake a person made (bad input, an action not allowed now): the CLI prints
its message and exits 2, the web shows it, the API answers 4xx. ``InvariantError`` is a bug: an
internal rule was broken and nothing should be stored.

Messages are translated (``turnir.i18n``): the first argument is an English template, a
literal string with ``{name}`` fields, and the values come as keyword arguments::

    raise NotFoundError("round {round} has no table {table}", code="unknown_table",
                        round=number, table=table)

A value that is itself a word to translate (a field's name, a role) is a ``Term``:
``field=Term("actor's name")``; an error inside another one's message is passed as itself:
``UserError("{name}: {reason}", code=error.code, name=name, reason=error)``. The template is
the message id of the ``errors`` catalogue (Russian and English); ``message`` (and ``str()``)
is the English text, ``translated(gettext)`` the text in the reader's language.
``tests/test_error_catalogue.py`` fails when a template is not a literal or has no entry in
either catalogue.
"""

from __future__ import annotations

from collections.abc import Callable


class UserError(ValueError):
    """A mistake by a person; ``message`` is shown to them, ``code`` is machine-readable."""

    code: str = "user_error"

    def __init__(self, message: str, *, code: str | None = None, **params: object) -> None:
        self.template = message
        self.params = params
        self.message = _fill(message, params) if params else message
        super().__init__(self.message)
        if code is not None:
            self.code = code

    def translated(self, gettext: Callable[[str], str]) -> str:
        """The message in the language of ``gettext`` (the English text when the translation
        does not fit the template's fields)."""
        text = gettext(self.template)
        if not self.params:
            return text
        params = {key: _translated(value, gettext) for key, value in self.params.items()}
        try:
            return _fill(text, params)
        except (KeyError, IndexError, ValueError):
            return self.message


def _translated(value: object, gettext: Callable[[str], str]) -> object:
    if isinstance(value, Term):
        return gettext(value)
    if isinstance(value, UserError):
        return value.translated(gettext)
    return value


class Term(str):
    """A word inside a message that is translated with it (a message id of its own)."""

    __slots__ = ()


def _fill(template: str, params: dict[str, object]) -> str:
    return template.format(**params)


class NotFoundError(UserError):
    """Something named by the user does not exist (an unknown player, round or table)."""

    code = "not_found"


class ConflictError(UserError):
    """The action conflicts with the current state (a result already there, a stale version)."""

    code = "conflict"


class ForbiddenError(UserError):
    """The person is known but may not do this here (the web answers 403): e.g. a judge of
    another tournament (``turnir.services.judges.NotStaffError``)."""

    code = "forbidden"


class DatabaseUnavailable(UserError):
    """The database server cannot be reached for now (down, restarting, the connection broken):
    nothing was changed, the request may be repeated in a few seconds (the web answers 503
    with ``Retry-After``, the CLI exits 2; issue 15)."""

    code = "database_unavailable"


class DiskFull(UserError):
    """The database's disk is full: the change was not saved, reading still works (the web
    answers 507, the CLI exits 2; issue 15)."""

    code = "disk_full"


class InvariantError(AssertionError):
    """A bug: an internal invariant does not hold."""

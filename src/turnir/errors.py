"""The two error families (STYLE habit 6).

``UserError`` is a mistake a person made (bad input, an action not allowed now): the CLI prints
its message and exits 2, the web shows it, the API answers 4xx. ``InvariantError`` is a bug: an
internal rule was broken and nothing should be stored.
"""

from __future__ import annotations


class UserError(ValueError):
    """A mistake by a person; ``message`` is shown to them, ``code`` is machine-readable."""

    code: str = "user_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


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


class InvariantError(AssertionError):
    """A bug: an internal invariant does not hold."""

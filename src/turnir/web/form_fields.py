"""Reading the fields of the pages' forms (shared by the organizer's and the judges' routes):
a whole number typed in a field, bounded, with a message naming the field."""

from __future__ import annotations

from turnir.errors import Term, UserError


def number_field(text: str, what: Term, *, low: int, high: int,
                 default: int | None = None) -> int | None:
    """The whole number typed in a field, from ``low`` to ``high`` (``default`` when it is
    empty)."""
    cleaned = text.strip()
    if not cleaned:
        return default
    digits = cleaned.removeprefix("-")
    if (not (digits.isascii() and digits.isdigit()) or len(digits) > 20
            or not low <= int(cleaned) <= high):
        raise UserError("{what}: a whole number from {low} to {high}", code="bad_number",
                        what=what, low=low, high=high)
    return int(cleaned)


def count_field(text: str, what: Term, *, high: int) -> int:
    """A count typed in a field: 0 to ``high``, 0 when it is empty."""
    found = number_field(text, what, low=0, high=high, default=0)
    return 0 if found is None else found


form_int = number_field
"""The same, by the name the round pages use (``rounds_pages``)."""

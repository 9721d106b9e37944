"""Exact numbers as text (R-5, R-6): a tournament's K and Rt are exact fractions, written as a
decimal when they have one (``7/5`` as ``1.4``) and as ``p/q`` otherwise; a person gives K the
same way (``1.4``, ``7/5``, ``2``).

The rating pages, the command line, the JSON answers and the stored rows all use this one form.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from turnir.errors import UserError

MAX_COEFFICIENT = 100
"""The largest K a person may give (issue 10 item 5)."""
MAX_TEXT = 20
"""The longest an exact number's text may be (it is stored in a column of this width)."""


def exact_text(value: Fraction) -> str:
    """``7/5`` as ``1.4``; a value without a finite decimal form as ``p/q``."""
    q = value.denominator
    for prime in (2, 5):
        while q % prime == 0:
            q //= prime
    if q != 1:
        return f"{value.numerator}/{value.denominator}"
    digits = 0
    while (value * 10**digits).denominator != 1:
        digits += 1
    return f"{Decimal(value.numerator) / Decimal(value.denominator):.{digits}f}"


def parse_exact(value: str | int | Fraction | Decimal, what: str) -> Fraction:
    """An exact positive number: ``1.4``, ``7/5``, ``2``; refused when not positive, above
    ``MAX_COEFFICIENT``, or longer than its stored text may be (20 characters). ``what`` names
    the number in the message (a ``turnir.errors.Term`` so that it is translated)."""
    text = str(value).strip().replace(",", ".")
    if len(text) > MAX_TEXT or "e" in text.casefold():  # "1e999999999" would be a huge integer
        raise UserError("{what} must be a number such as 1.4 or 7/5, not {text!r}",
                        code="bad_coefficient", what=what, text=text[:30])
    try:
        number = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise UserError("{what} must be a number such as 1.4 or 7/5, not {text!r}",
                        code="bad_coefficient", what=what, text=value) from None
    if number <= 0:
        raise UserError("{what} must be positive, not {value}", code="bad_coefficient",
                        what=what, value=value)
    if number > MAX_COEFFICIENT or len(exact_text(number)) > MAX_TEXT:
        raise UserError("{what} must be at most {most}, written in at most 20 characters, "
                        "not {text}", code="bad_coefficient", what=what, most=MAX_COEFFICIENT,
                        text=text)
    return number

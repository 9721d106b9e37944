"""Bounds on every number that a person, a form or a file gives (issue 10 item 5).

A number from outside is checked against these before anything is built from it, so that a
players file with ``byes`` = 99999999999999999999 is refused with a message instead of making a
set of that many rounds. The REST API's models (``turnir.web.api_models``), the web forms, the
CLI and the file formats use the same values.
"""

from __future__ import annotations

from turnir.errors import Term, UserError

MAX_SWISS_ROUNDS = 50
"""Swiss rounds of one tournament (P-4)."""
MAX_TOP_SIZE = 1024
"""Players in the top (P-5): 1024 is ten elimination rounds."""
MAX_ROUNDS = MAX_SWISS_ROUNDS + 10
"""Rounds of one tournament, the Swiss part and the largest top together."""
MAX_BYES = MAX_SWISS_ROUNDS
"""Privilege byes of one player (S-5) while the number of Swiss rounds is not yet known;
once it is, a player has at most that many."""
MAX_POINTS = 100
"""Match points for a win, a draw, a loss or a bye (S-7)."""
MAX_PLAYER_NUMBER = 2**31 - 1
"""A player's number in a tournament (stored as a 32-bit integer)."""
MAX_TABLE = 100_000
"""A table number."""
MAX_PENALTY_COUNT = 1000
"""Each penalty count of one player in a tournament file (T-6)."""
SEED_LIMIT = 2**63
"""Seeds are stored as 64-bit integers: ``-SEED_LIMIT <= seed < SEED_LIMIT``."""


def shown(value: int) -> str:
    """A number for a message; a huge one is not spelled out (nor converted: Python refuses
    to turn an integer of over 4300 digits into text)."""
    return str(value) if -(10**30) < value < 10**30 else Term("a number of over 30 digits")


def check_number(value: int, *, what: str, low: int, high: int) -> int:
    """``value`` when ``low <= value <= high``, else a ``UserError`` naming ``what``."""
    if not low <= value <= high:
        raise UserError("{what}: a whole number from {low} to {high}, not {value}",
                        code="bad_number", what=what, low=low, high=high, value=shown(value))
    return value


def byes_limit(swiss_rounds: int | None) -> int:
    """The most privilege byes a player may have: the Swiss rounds, or ``MAX_BYES`` while
    they are not known."""
    return MAX_BYES if swiss_rounds is None else min(swiss_rounds, MAX_BYES)


def privilege_byes(count: int, *, swiss_rounds: int | None) -> frozenset[int]:
    """Privilege byes for the first ``count`` rounds (S-5), bounded by ``byes_limit``."""
    limit = byes_limit(swiss_rounds)
    if count < 0:
        raise UserError("the number of byes cannot be negative", code="bad_player")
    if count > limit:
        rounds = (Term("the Swiss rounds") if swiss_rounds is not None
                  else Term("the most Swiss rounds a tournament can have"))
        raise UserError("{count} byes: at most {limit} ({rounds})", code="bad_player",
                        count=shown(count), limit=limit, rounds=rounds)
    return frozenset(range(1, count + 1))

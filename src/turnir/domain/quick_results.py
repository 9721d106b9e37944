"""The results a judge enters with one tap or a few keys (issue 12, fast results).

- :func:`one_tap_results`: the results of a finished best-of-``n`` match, for the one-tap buttons
  of the judges' grid: each player's wins (``2-0``, ``2-1`` … ``0-2``), the match draw of as
  many games as the match has room for (``1-1`` in best-of-3, ``2-2`` in best-of-5, one drawn
  game ``0-0-1`` in best-of-1), and the intentional draw (``ID``, S-4). Each candidate passes
  ``MatchResult.validate`` (S-2, S-3), so an elimination match of the top gets no drawn result
  at all. Rarer results (``1-0`` after time, ``1-1-1``) are typed.
- :func:`read_typed_result`: a result as typed on the keyboard: ``parse_result``'s forms and the
  short ones without a dash, ``21`` for ``2-1`` and ``111`` for ``1-1-1``.
"""

from __future__ import annotations

from turnir.domain.results import MatchResult, parse_result
from turnir.errors import UserError


def _possible(result: MatchResult, *, best_of: int, elimination: bool) -> bool:
    try:
        result.validate(best_of=best_of, elimination=elimination)
    except UserError:
        return False
    return True


def one_tap_results(best_of: int, *, elimination: bool) -> tuple[MatchResult, ...]:
    """The one-tap results of a best-of-``best_of`` match, from player A's best to player B's
    best, then the intentional draw; only those the rules allow (``MatchResult.validate``)."""
    needed = best_of // 2 + 1
    a_wins = [MatchResult.played(needed, lost) for lost in range(needed)]
    half = best_of // 2
    drawn = MatchResult.played(half, half, 0 if half else 1)
    candidates = [*a_wins, drawn, *(r.swapped() for r in reversed(a_wins)),
                  MatchResult.intentional_draw()]
    found: list[MatchResult] = []
    for result in candidates:
        if result not in found and _possible(result, best_of=best_of, elimination=elimination):
            found.append(result)
    return tuple(found)


def read_typed_result(text: str) -> MatchResult:
    """A result as typed: ``2-1``, ``2:1``, ``1-1-1``, ``ID`` (``parse_result``), or the same
    digits without a separator, ``21`` and ``111`` (a single game count each)."""
    cleaned = text.strip()
    if cleaned.isascii() and cleaned.isdigit() and len(cleaned) in (2, 3):
        return parse_result("-".join(cleaned))
    return parse_result(cleaned)

"""A result as a judge types it on the keyboard (issue 12, fast results): ``parse_result``'s
forms and the short ones without a separator, ``21`` for ``2-1`` and ``111`` for ``1-1-1``. (The
one-tap results are ``turnir.domain.result_choices``.)"""

from __future__ import annotations

from turnir.domain.results import MatchResult, parse_result


def read_typed_result(text: str) -> MatchResult:
    """A result as typed: ``2-1``, ``2:1``, ``1-1-1``, ``ID`` (``parse_result``), or the same
    digits without a separator, ``21`` and ``111`` (a single game count each)."""
    cleaned = text.strip()
    if cleaned.isascii() and cleaned.isdigit() and len(cleaned) in (2, 3):
        return parse_result("-".join(cleaned))
    return parse_result(cleaned)

"""Issue 12, fast results: the keyboard entry reads ``21`` as ``2-1`` and ``111`` as ``1-1-1``
besides ``parse_result``'s forms; anything else is refused as before."""

from __future__ import annotations

import pytest

from turnir.domain.quick_results import read_typed_result
from turnir.domain.results import MatchResult
from turnir.errors import UserError


@pytest.mark.parametrize(("typed", "score"), [
    ("21", "2-1"), (" 02 ", "0-2"), ("111", "1-1-1"), ("001", "0-0-1"), ("2-1", "2-1"),
    ("2:0", "2-0"), ("id", "ID"), ("ID", "ID"), ("1-1-1", "1-1-1")])
def test_short_and_full_forms_are_read(typed: str, score: str) -> None:
    assert read_typed_result(typed).score == score


def test_short_forms_are_the_same_results_as_the_full_ones() -> None:
    assert read_typed_result("21") == MatchResult.played(2, 1)
    assert read_typed_result("111") == MatchResult.played(1, 1, 1)


@pytest.mark.parametrize("typed", ["2", "2111", "00", "000", "abc", "٢١", ""])
def test_anything_else_is_refused(typed: str) -> None:
    with pytest.raises(UserError):
        read_typed_result(typed)

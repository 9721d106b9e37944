"""When an online match played game by game is decided (S-2, S-3, S-7; domain/online.py)."""

from __future__ import annotations

import pytest

from turnir.domain.online import decided_match
from turnir.domain.penalties.games import Side
from turnir.domain.results import MatchResult
from turnir.errors import UserError

A, B, D = Side.A, Side.B, None


@pytest.mark.parametrize(("games", "best_of", "top", "expected"), [
    ([], 1, False, None),
    ([A], 1, False, MatchResult.played(1, 0)),
    ([D], 1, False, MatchResult.played(0, 0, 1)),
    ([D], 1, True, None),                              # S-3: a drawn top game is replayed
    ([D, B], 1, True, MatchResult.played(0, 1, 1)),
    ([A], 3, False, None),
    ([A, A], 3, False, MatchResult.played(2, 0)),
    ([A, B], 3, False, None),
    ([A, B, B], 3, False, MatchResult.played(1, 2)),
    ([A, D, D], 3, False, MatchResult.played(1, 0, 2)),
    ([A, B, D], 3, False, MatchResult.played(1, 1, 1)),  # S-2: equal wins, a match draw
    ([A, B, D], 3, True, None),
    ([A, B, D, A], 3, True, MatchResult.played(2, 1, 1)),
    ([B, B, A, B], 5, False, MatchResult.played(1, 3)),
])
def test_rule_S2_S3_an_online_match_is_decided(games: list[Side | None], best_of: int,
                                               top: bool, expected: MatchResult | None) -> None:
    assert decided_match(games, best_of=best_of, elimination=top) == expected


def test_a_game_after_the_match_was_decided_is_refused() -> None:
    with pytest.raises(UserError, match="already decided"):
        decided_match([A, A, B], best_of=3, elimination=False)

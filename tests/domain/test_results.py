"""Rules S-1..S-7: game and match results and points."""

from __future__ import annotations

import pytest

from turnir.domain.results import (
    MatchEnding,
    MatchOutcome,
    MatchResult,
    PointsTable,
    parse_result,
)
from turnir.errors import UserError


@pytest.mark.parametrize(
    ("text", "outcome", "points"),
    [
        ("2-1", MatchOutcome.A_WINS, (3, 0)),
        ("2-0", MatchOutcome.A_WINS, (3, 0)),
        ("0-2", MatchOutcome.B_WINS, (0, 3)),
        ("1-2", MatchOutcome.B_WINS, (0, 3)),
        ("1-1", MatchOutcome.DRAW, (1, 1)),
        ("1-1-1", MatchOutcome.DRAW, (1, 1)),
        ("1-0-1", MatchOutcome.A_WINS, (3, 0)),
        ("0-0-1", MatchOutcome.DRAW, (1, 1)),
    ],
)
def test_rule_S2_match_result_from_game_wins(text: str, outcome: MatchOutcome,
                                             points: tuple[int, int]) -> None:
    result = parse_result(text)
    result.validate(best_of=3, elimination=False)
    assert result.outcome is outcome
    assert result.points(PointsTable()) == points


def test_rule_S3_elimination_match_cannot_be_drawn() -> None:
    with pytest.raises(UserError, match="S-3"):
        parse_result("1-1").validate(best_of=3, elimination=True)
    with pytest.raises(UserError, match="S-3"):
        parse_result("ID").validate(best_of=3, elimination=True)
    parse_result("2-1").validate(best_of=3, elimination=True)


def test_rule_S4_intentional_draw_is_recorded_as_such() -> None:
    result = parse_result("ID")
    assert result.ending is MatchEnding.INTENTIONAL_DRAW
    assert result.outcome is MatchOutcome.DRAW
    assert result.points(PointsTable()) == (1, 1)
    assert result.score == "ID"


@pytest.mark.parametrize(
    ("best_of", "good", "bad"),
    [
        (1, ["1-0", "0-1", "0-0-1"], ["2-0", "1-1"]),
        (3, ["2-0", "2-1", "1-1", "1-0"], ["3-0", "2-2", "3-1"]),
        (5, ["3-0", "3-2", "2-2", "1-2"], ["4-0", "3-3"]),
    ],
)
def test_rule_S7_best_of_limits(best_of: int, good: list[str], bad: list[str]) -> None:
    for text in good:
        parse_result(text).validate(best_of=best_of, elimination=False)
    for text in bad:
        with pytest.raises(UserError):
            parse_result(text).validate(best_of=best_of, elimination=False)


def test_rule_S7_points_are_configurable() -> None:
    table = PointsTable(win=2, draw=1, loss=0, bye=2)
    assert parse_result("2-0").points(table) == (2, 0)
    assert parse_result("1-1").points(table) == (1, 1)
    with pytest.raises(UserError):
        PointsTable(win=1, draw=1, loss=0)


def test_double_loss_gives_no_points() -> None:
    result = MatchResult(0, 0, 0, MatchOutcome.DOUBLE_LOSS, MatchEnding.NO_SHOW)
    assert result.points(PointsTable()) == (0, 0)


@pytest.mark.parametrize("text", ["", "two-one", "2-", "0-0", "a-b", "2--1"])
def test_unreadable_results_are_refused_with_the_text(text: str) -> None:
    with pytest.raises(UserError) as info:
        parse_result(text)
    assert repr(text) in info.value.message or "no game" in info.value.message


def test_swapped_sees_the_result_from_the_other_side() -> None:
    result = parse_result("2-1")
    assert result.swapped() == parse_result("1-2")
    assert result.swapped().swapped() == result


def test_rule_S2_outcome_must_follow_games() -> None:
    forged = MatchResult(2, 0, 0, MatchOutcome.B_WINS, MatchEnding.PLAYED)
    with pytest.raises(UserError, match="outcome"):
        forged.validate(best_of=3, elimination=False)
    conceded = MatchResult(1, 1, 0, MatchOutcome.B_WINS, MatchEnding.CONCESSION)
    conceded.validate(best_of=3, elimination=True)

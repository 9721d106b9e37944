"""Rules S-8 and S-9: technical results by crystal count and claims after time-out; every game
result carries its reason (S-1; 002 §602-604)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnir.domain.penalties import (
    DEFAULT_TECHNICAL_MARGIN,
    Claim,
    ClaimKind,
    CrystalCount,
    GameRecord,
    Judge,
    JudgeRole,
    Side,
    decide_claim,
    match_from_games,
    technical_result,
)
from turnir.domain.results import GameReason, MatchResult
from turnir.errors import UserError

HEAD = Judge("Главный судья", JudgeRole.HEAD)
FLOOR = Judge("Судья", JudgeRole.FLOOR)


@pytest.mark.parametrize(
    ("a", "b", "margin", "winner"),
    [
        (CrystalCount(silver=10), CrystalCount(silver=9), 1, Side.A),
        (CrystalCount(silver=9), CrystalCount(silver=10), 1, Side.B),
        (CrystalCount(silver=10), CrystalCount(silver=10), 1, None),
        (CrystalCount(silver=4, gold=6), CrystalCount(silver=9), 1, Side.A),  # gold = silver
        (CrystalCount(gold=7), CrystalCount(silver=7), 1, None),
        (CrystalCount(silver=12), CrystalCount(silver=10), 3, None),
        (CrystalCount(silver=13), CrystalCount(silver=10), 3, Side.A),
    ],
)
def test_rule_S8_technical_result_by_crystal_count(
    a: CrystalCount, b: CrystalCount, margin: int, winner: Side | None
) -> None:
    result = technical_result(a, b, judge=HEAD, margin=margin)
    assert result.game == GameRecord(winner, GameReason.TECHNICAL)
    assert result.totals == (a.total, b.total)
    assert str(a.total) in result.explanation.en and str(a.total) in result.explanation.ru


def test_rule_S8_defaults_and_refusals() -> None:
    assert DEFAULT_TECHNICAL_MARGIN == 1
    assert technical_result(CrystalCount(1), CrystalCount(0), judge=HEAD).game.winner is Side.A
    with pytest.raises(UserError) as info:
        technical_result(CrystalCount(5), CrystalCount(3), judge=FLOOR)
    assert info.value.code == "not_head_judge"
    with pytest.raises(UserError):
        technical_result(CrystalCount(5), CrystalCount(5), judge=FLOOR)  # a draw too
    with pytest.raises(UserError):
        technical_result(CrystalCount(5), CrystalCount(3), judge=HEAD, margin=0)
    with pytest.raises(UserError):
        CrystalCount(silver=-1)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60), st.integers(0, 60),
       st.integers(1, 10))
def test_rule_S8_symmetric_and_by_totals(sa: int, ga: int, sb: int, gb: int, margin: int) -> None:
    a, b = CrystalCount(sa, ga), CrystalCount(sb, gb)
    ab = technical_result(a, b, judge=HEAD, margin=margin).game.winner
    ba = technical_result(b, a, judge=HEAD, margin=margin).game.winner
    assert ba == (None if ab is None else ab.other)
    assert (ab is None) == (abs(a.total - b.total) < margin)


def test_rule_S9_claims_after_time_out_are_decided_by_a_judge() -> None:
    victory = decide_claim(Claim(Side.B, ClaimKind.CLEAN_VICTORY), granted=True, judge=FLOOR)
    assert victory.game == GameRecord(Side.B, GameReason.DECISIVE_ADVANTAGE)
    draw = decide_claim(Claim(Side.A, ClaimKind.DRAW), granted=True, judge=HEAD)
    assert draw.game == GameRecord(None, GameReason.NO_WIN_POSSIBLE)
    refused = decide_claim(Claim(Side.A, ClaimKind.CLEAN_VICTORY), granted=False, judge=FLOOR,
                           note=" у соперника есть защита ")
    assert refused.game is None and not refused.granted
    assert refused.note == "у соперника есть защита"


def test_rule_S1_every_game_result_carries_a_fitting_reason() -> None:
    GameRecord.win(Side.A, GameReason.LETHAL_DAMAGE)
    GameRecord.draw(GameReason.SIMULTANEOUS_DEATH)
    for winner, reason in ((None, GameReason.LETHAL_DAMAGE), (Side.A, GameReason.TIME_DRAW)):
        with pytest.raises(UserError) as info:
            GameRecord(winner, reason)
        assert info.value.code == "bad_game"


def test_rule_S2_match_from_games() -> None:
    games = [GameRecord.win(Side.A, GameReason.NO_CREATURES),
             GameRecord.draw(GameReason.TIME_DRAW),
             GameRecord.win(Side.A, GameReason.TECHNICAL)]
    assert match_from_games(games, best_of=3, elimination=False) == MatchResult.played(2, 0, 1)
    with pytest.raises(UserError, match="already decided"):
        match_from_games([*games, GameRecord.win(Side.B)], best_of=3, elimination=False)
    with pytest.raises(UserError):
        match_from_games([GameRecord.draw()], best_of=3, elimination=True)

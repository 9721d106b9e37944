"""Why a player floats (issue 16 item 3): reasons from the round's facts (rule P-3)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from turnir.domain.pairing.floats import Float, FloatReason, explain_floats
from turnir.domain.pairing.swiss import SwissEntrant, pair_swiss


def e(player: int, pts: int = 0, met: Sequence[int] = (), bye: bool = True) -> SwissEntrant:
    return SwissEntrant(player, pts, frozenset(met), bye)


def test_issue16_item3_floated_because_all_players_on_his_points_met_him() -> None:
    # 1 has met the other 9-pointers: he floats from 9 to 7.
    entrants = [e(1, 9, met=[2, 3]), e(2, 9, met=[1]), e(3, 9, met=[1]), e(4, 7), e(5, 7),
                e(6, 7)]
    result = pair_swiss(entrants, random.Random(1))
    down = [f for f in result.floats if f.down]
    assert down == [Float(1, down[0].opponent, 9, 7, FloatReason.ALL_MET, 3)]
    up = [f for f in result.floats if not f.down]
    assert [(f.player, f.points, f.opponent_points) for f in up] == [(down[0].opponent, 7, 9)]
    assert up[0].reason is FloatReason.ODD_GROUP


def test_issue16_item3_alone_odd_and_needed() -> None:
    entrants = [e(1, 6), e(2, 3), e(3, 3), e(4, 3), e(5, 0, met=[6]), e(6, 0, met=[5]),
                e(7, 0), e(8, 0)]
    floats = explain_floats(entrants, [(1, 2), (3, 5), (4, 6), (7, 8)], None)
    reasons = {f.player: f.reason for f in floats}
    assert reasons[1] is FloatReason.ALONE
    assert reasons[2] is FloatReason.ODD_GROUP
    assert reasons[3] is FloatReason.ODD_GROUP
    assert reasons[5] is FloatReason.PARTNER_FLOATED


def test_issue16_item3_down_floater_of_an_even_group_is_needed() -> None:
    # 4 (3 points) met 3; 1 and 2 met: 1 floats down though the 3-point group is even.
    entrants = [e(1, 3, met=[2]), e(2, 3, met=[1]), e(3, 3, met=[4]), e(4, 3, met=[3]),
                e(5, 0), e(6, 0)]
    floats = explain_floats(entrants, [(1, 3), (2, 5), (4, 6)], None)
    reasons = {f.player: f.reason for f in floats}
    assert reasons == {2: FloatReason.NEEDED, 5: FloatReason.PARTNER_FLOATED,
                       4: FloatReason.NEEDED, 6: FloatReason.PARTNER_FLOATED}


def test_issue16_item3_bye_player_is_not_in_the_group() -> None:
    # 2 takes the bye: 1 is then alone on 3 points among the players paired this round.
    entrants = [e(1, 3, met=[3]), e(2, 3), e(3, 0, met=[1]), e(4, 0)]
    floats = explain_floats(entrants, [(1, 4), (3, 2)], 2)
    assert floats[0] == Float(1, 4, 3, 0, FloatReason.ALONE, 1)


def test_issue16_item3_equal_pairs_and_unknown_players_have_no_float() -> None:
    entrants = [e(1, 3), e(2, 3), e(3, 0), e(4, 0)]
    assert explain_floats(entrants, [(1, 2), (3, 4)], None) == ()
    assert explain_floats(entrants, [(1, 99)], None) == ()

"""Tiebreak criteria T-1..T-7 and the decisions of T-9, one criterion at a time.

Every expected value is computed by hand in the comment above it. Players are letters; ``a`` is
player 1, ``b`` player 2, … The builders are shared with ``test_ranking.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple

import pytest

from turnir.domain.model import Pairing, PairingKind, PlayerId, Round, Stage
from turnir.domain.results import MatchEnding, MatchOutcome, MatchResult, PointsTable, parse_result
from turnir.domain.standings import (
    METRICS,
    RANKING_ORDER,
    GroupMetric,
    KeyedMetric,
    PenaltyCounts,
    ScoreMetric,
    Sheet,
    TieBreak,
)
from turnir.errors import InvariantError

# --- one-line builders ------------------------------------------------------------------------


def pid(name: str) -> PlayerId:
    """``a`` → 1, ``b`` → 2, …"""
    return ord(name) - ord("a") + 1


def name(player: PlayerId) -> str:
    return chr(ord("a") + player - 1)


DOUBLE_LOSS = MatchResult(0, 0, 0, MatchOutcome.DOUBLE_LOSS, MatchEnding.NO_SHOW)


class Line(NamedTuple):
    """One line of a round, before tables are numbered."""

    round: int
    a: PlayerId
    b: PlayerId | None
    kind: PairingKind
    result: MatchResult | None


def m(rnd: int, a: str, b: str, score: str | None) -> Line:
    """A match: ``score`` as on a result slip (``2-1``, ``1-1``, ``ID``), ``DL`` for a double
    loss, ``None`` for a match not finished yet."""
    if score is None:
        result = None
    elif score == "DL":
        result = DOUBLE_LOSS
    else:
        result = parse_result(score)
    return Line(rnd, pid(a), pid(b), PairingKind.MATCH, result)


def bye(rnd: int, a: str) -> Line:
    """An unrequested bye (S-5)."""
    return Line(rnd, pid(a), None, PairingKind.BYE, None)


def pbye(rnd: int, a: str) -> Line:
    """A privilege bye granted by the organizer (S-5)."""
    return Line(rnd, pid(a), None, PairingKind.PRIVILEGE_BYE, None)


def event(*lines: Line) -> list[Round]:
    """Swiss rounds from lines; tables are numbered in the order given, byes at table 0."""
    rounds: list[Round] = []
    for number in sorted({line.round for line in lines}):
        pairings = []
        table = 0
        for line in lines:
            if line.round != number:
                continue
            if line.b is not None:
                table += 1
            pairings.append(
                Pairing(table if line.b is not None else 0, line.a, line.b, line.kind, line.result)
            )
        rounds.append(Round(number, Stage.SWISS, tuple(pairings), lot="test"))
    return rounds


def players_of(names: str) -> list[PlayerId]:
    return [pid(n) for n in names]


NO_PENALTIES: Mapping[PlayerId, PenaltyCounts] = MappingProxyType({})


def sheet(
    names: str,
    *lines: Line,
    points: PointsTable | None = None,
    penalties: Mapping[str, PenaltyCounts] | None = None,
) -> Sheet:
    """The sheet of ``names`` over ``lines``; lot numbers are the player numbers."""
    players = players_of(names)
    return Sheet.build(
        players,
        event(*lines),
        points or PointsTable(),
        lot={p: p for p in players},
        penalties={pid(k): v for k, v in (penalties or {}).items()},
    )


def column(s: Sheet, key: TieBreak) -> dict[str, int]:
    values = s.column(key)
    return {name(p): values[i] for i, p in enumerate(s.players)}


def h2h(s: Sheet, group: str) -> list[str]:
    """Head-to-head split of one group, as strings of names: ``["a", "bc"]``."""
    metric = METRICS[TieBreak.HEAD_TO_HEAD]
    assert isinstance(metric, GroupMetric)
    [parts] = metric.split(s, [[s.index[pid(n)] for n in group]])
    return ["".join(sorted(name(s.players[i]) for i in part)) for part in parts]


# --- the registry -----------------------------------------------------------------------------


def test_rule_T_criteria_are_registered_in_rule_order() -> None:
    assert tuple(TieBreak) == RANKING_ORDER
    assert [key.rule for key in RANKING_ORDER] == [
        "S-7", "T-1", "T-2", "T-3", "T-4", "T-5", "T-6", "T-7",
    ]  # fmt: skip
    assert set(METRICS) == set(TieBreak)
    for key, metric in METRICS.items():
        assert metric.key is key


@pytest.mark.parametrize("key", list(TieBreak))
def test_rule_T_every_criterion_has_names_and_explanations(key: TieBreak) -> None:
    for text in (key.name_en, key.name_ru, key.abbr_en, key.abbr_ru):
        assert text.strip()
    assert len(key.abbr_en) <= 4 and len(key.abbr_ru) <= 4
    assert key.explanation_en.endswith(".") and key.explanation_ru.endswith(".")
    assert key.metric is METRICS[key]
    assert (key.label_en, key.label_ru) == (key.name_en, key.name_ru)


def test_rule_T_scoring_keyed_and_group_criteria() -> None:
    kinds = {key: type(METRICS[key]).__mro__[1] for key in TieBreak}
    assert all(kinds[key] is ScoreMetric for key in RANKING_ORDER[:5])
    assert kinds[TieBreak.HEAD_TO_HEAD] is GroupMetric
    assert kinds[TieBreak.PENALTIES] is KeyedMetric and kinds[TieBreak.LOT] is KeyedMetric
    assert TieBreak.QUALITY_OF_WINS.name_ru == "Качество побед"
    assert TieBreak.SECOND_ORDER_QUALITY.name_ru == "Качество игр второго порядка"


# --- T-1..T-4 ---------------------------------------------------------------------------------

# Four players, three rounds, one drawn match:
#   R1 a-b 2-0, c-d 1-1   R2 a-c 2-1, b-d 0-2   R3 a-d 0-2, b-c 2-0
# points: a 3+3+0 = 6, b 0+0+3 = 3, c 1+0+0 = 1, d 1+3+3 = 7
FOUR = (
    m(1, "a", "b", "2-0"), m(1, "c", "d", "1-1"),
    m(2, "a", "c", "2-1"), m(2, "b", "d", "0-2"),
    m(3, "a", "d", "0-2"), m(3, "b", "c", "2-0"),
)  # fmt: skip

FOUR_COLUMNS = [
    (TieBreak.POINTS, {"a": 6, "b": 3, "c": 1, "d": 7}),
    # T-1, beaten: a beat b(3), c(1); b beat c(1); c nobody; d beat b(3), a(6)
    (TieBreak.QUALITY_OF_WINS, {"a": 4, "b": 1, "c": 0, "d": 9}),
    # T-2, lost to: a to d(7); b to a(6), d(7); c to a(6), b(3); d nobody (the draw is neither)
    (TieBreak.QUALITY_OF_LOSSES, {"a": 7, "b": 13, "c": 9, "d": 0}),
    # T-3, all opponents, the draw included: a b+c+d = 3+1+7; b a+d+c = 6+7+1;
    # c d+a+b = 7+6+3; d c+b+a = 1+3+6
    (TieBreak.QUALITY_OF_GAMES, {"a": 11, "b": 14, "c": 16, "d": 10}),
    # T-4: a T3(b)+T3(c)+T3(d) = 14+16+10; b 11+10+16; c 10+11+14; d 16+14+11
    (TieBreak.SECOND_ORDER_QUALITY, {"a": 40, "b": 37, "c": 35, "d": 41}),
]


@pytest.mark.parametrize(("key", "expected"), FOUR_COLUMNS, ids=lambda v: str(v)[:20])
def test_rule_T1_to_T4_qualities_from_current_points(
    key: TieBreak, expected: dict[str, int]
) -> None:
    assert column(sheet("abcd", *FOUR), key) == expected


def test_rule_T1_quality_of_wins_counts_beaten_opponents_only() -> None:
    s = sheet("abcd", *FOUR)
    assert column(s, TieBreak.QUALITY_OF_WINS)["c"] == 0  # c drew d, lost to a and b


def test_rule_T3_quality_of_games_includes_draws() -> None:
    s = sheet("cd", m(1, "c", "d", "1-1"), m(2, "c", "d", "ID"))
    # met twice, both drawn: each has 2 points, and counts the other twice
    assert column(s, TieBreak.QUALITY_OF_GAMES) == {"c": 4, "d": 4}
    assert column(s, TieBreak.QUALITY_OF_WINS) == {"c": 0, "d": 0}
    assert column(s, TieBreak.QUALITY_OF_LOSSES) == {"c": 0, "d": 0}


# Byes of both kinds:
#   R1 a-b 2-0, c-d 2-0, e bye   R2 a-c 2-0, e-b 2-0, d bye
# points: a 6, b 0, c 3, d 0+3 = 3, e 3+3 = 6
BYES = (
    m(1, "a", "b", "2-0"), m(1, "c", "d", "2-0"), bye(1, "e"),
    m(2, "a", "c", "2-0"), m(2, "e", "b", "2-0"), bye(2, "d"),
)  # fmt: skip


def test_rule_T9_bye_adds_nothing_to_T1_to_T3() -> None:
    s = sheet("abcde", *BYES)
    # e: beat b(0) and a bye → T-1 0; d: lost to c(3), and a bye → T-3 3, not 6
    assert column(s, TieBreak.QUALITY_OF_WINS) == {"a": 3, "b": 0, "c": 3, "d": 0, "e": 0}
    assert column(s, TieBreak.QUALITY_OF_LOSSES) == {"a": 0, "b": 12, "c": 6, "d": 3, "e": 0}
    assert column(s, TieBreak.QUALITY_OF_GAMES) == {"a": 3, "b": 12, "c": 9, "d": 3, "e": 0}


def test_rule_T9_opponents_points_include_their_byes() -> None:
    s = sheet("abcde", *BYES)
    # b lost to a(6) and e(6); e's 6 points include its bye
    assert column(s, TieBreak.QUALITY_OF_LOSSES)["b"] == 12
    assert column(s, TieBreak.POINTS)["e"] == 6


def test_rule_T4_bye_adds_own_quality() -> None:
    s = sheet("abcde", *BYES)
    # a T3(b)+T3(c) = 12+9; b T3(a)+T3(e) = 3+0; c T3(d)+T3(a) = 3+3;
    # d T3(c) + its own T3 for the bye = 9+3; e T3(b) + its own T3 (0) = 12
    assert column(s, TieBreak.SECOND_ORDER_QUALITY) == {"a": 21, "b": 3, "c": 6, "d": 12, "e": 12}


# Two byes for one player (a privilege bye and an unrequested one) and a rematch:
#   R1 a privilege bye, b-c 2-0   R2 a-b 2-0, c bye   R3 a bye, b-c 0-2
# points: a 3+3+3 = 9, b 3+0+0 = 3, c 0+3+3 = 6
TWICE = (
    pbye(1, "a"), m(1, "b", "c", "2-0"),
    m(2, "a", "b", "2-0"), bye(2, "c"),
    bye(3, "a"), m(3, "b", "c", "0-2"),
)  # fmt: skip


def test_rule_T9_opponent_met_twice_counts_once_per_match() -> None:
    s = sheet("abc", *TWICE)
    # b: beat c(6), lost to a(9) and c(6); c: beat b(3), lost to b(3)
    assert column(s, TieBreak.QUALITY_OF_WINS) == {"a": 3, "b": 6, "c": 3}
    assert column(s, TieBreak.QUALITY_OF_LOSSES) == {"a": 0, "b": 15, "c": 3}
    # T-3: a b(3); b c+a+c = 6+9+6; c b+b = 3+3
    assert column(s, TieBreak.QUALITY_OF_GAMES) == {"a": 3, "b": 21, "c": 6}


def test_rule_T4_each_bye_of_both_kinds_adds_own_quality() -> None:
    s = sheet("abc", *TWICE)
    # a: T3(b) + 2 byes x T3(a) = 21 + 2*3; b: T3(c)+T3(a)+T3(c) = 6+3+6;
    # c: T3(b) twice + 1 bye x T3(c) = 21+21+6
    assert column(s, TieBreak.SECOND_ORDER_QUALITY) == {"a": 27, "b": 15, "c": 48}


def test_rule_T9_dropped_opponent_counts_with_final_points() -> None:
    # b draws in R2 and then drops: it counts with the 1 point it finished with
    s = sheet(
        "abcd",
        m(1, "a", "b", "2-0"), m(1, "c", "d", "2-0"),
        m(2, "a", "c", "2-0"), m(2, "d", "b", "1-1"),
        m(3, "a", "d", "2-0"), bye(3, "c"),
    )  # fmt: skip
    assert column(s, TieBreak.POINTS) == {"a": 9, "b": 1, "c": 6, "d": 1}
    assert column(s, TieBreak.QUALITY_OF_WINS)["a"] == 1 + 6 + 1


# Double loss: R1 a-b double loss, c-d 2-0   R2 a-c 2-0, b-d 2-1
# points: a 0+3 = 3, b 0+3 = 3, c 3+0 = 3, d 0
DOUBLE = (
    m(1, "a", "b", "DL"), m(1, "c", "d", "2-0"),
    m(2, "a", "c", "2-0"), m(2, "b", "d", "2-1"),
)  # fmt: skip


def test_rule_T9_double_loss_is_a_loss_for_both() -> None:
    s = sheet("abcd", *DOUBLE)
    assert column(s, TieBreak.POINTS) == {"a": 3, "b": 3, "c": 3, "d": 0}
    # neither beat the other: a beat c(3) only, b beat d(0) only
    assert column(s, TieBreak.QUALITY_OF_WINS) == {"a": 3, "b": 0, "c": 0, "d": 0}
    # each lost to the other: a to b(3); b to a(3); c to a(3); d to c(3) and b(3)
    assert column(s, TieBreak.QUALITY_OF_LOSSES) == {"a": 3, "b": 3, "c": 3, "d": 6}
    assert column(s, TieBreak.QUALITY_OF_GAMES) == {"a": 6, "b": 3, "c": 3, "d": 6}
    assert (s.wins[0], s.losses[0], s.wins[1], s.losses[1]) == (1, 1, 1, 1)


def test_rule_T9_double_loss_with_points_for_a_loss() -> None:
    s = sheet("ab", m(1, "a", "b", "DL"), points=PointsTable(win=2, draw=1, loss=1, bye=2))
    assert column(s, TieBreak.POINTS) == {"a": 1, "b": 1}
    assert column(s, TieBreak.QUALITY_OF_LOSSES) == {"a": 1, "b": 1}


def test_rule_T9_unfinished_match_counts_nothing() -> None:
    # R2 a-c has no result yet: neither played, neither is the other's opponent
    s = sheet(
        "abcd",
        m(1, "a", "b", "2-0"), m(1, "c", "d", "2-0"),
        m(2, "a", "c", None), m(2, "b", "d", "2-0"),
    )  # fmt: skip
    assert column(s, TieBreak.POINTS) == {"a": 3, "b": 3, "c": 3, "d": 0}
    assert column(s, TieBreak.QUALITY_OF_GAMES) == {"a": 3, "b": 3, "c": 0, "d": 6}
    assert (s.wins[0] + s.draws[0] + s.losses[0], s.wins[2] + s.draws[2] + s.losses[2]) == (1, 1)
    assert h2h(s, "ac") == ["ac"]  # they have not met


def test_rule_S7_points_table_is_used_for_every_quality() -> None:
    table = PointsTable(win=2, draw=1, loss=0, bye=1)
    s = sheet("abc", m(1, "a", "b", "2-1"), bye(1, "c"), m(2, "c", "a", "1-1"), points=table)
    assert column(s, TieBreak.POINTS) == {"a": 3, "b": 0, "c": 2}
    assert column(s, TieBreak.QUALITY_OF_GAMES) == {"a": 2, "b": 3, "c": 3}


# --- T-5 head-to-head -------------------------------------------------------------------------

H2H_CASES = [
    # two players
    ("decisive meeting", "ab", (m(1, "a", "b", "2-1"),), ["a", "b"]),
    ("decisive meeting, b wins", "ab", (m(1, "a", "b", "0-2"),), ["b", "a"]),
    ("drawn meeting passes", "ab", (m(1, "a", "b", "1-1"),), ["ab"]),
    ("intentional draw passes", "ab", (m(1, "a", "b", "ID"),), ["ab"]),
    ("double loss passes", "ab", (m(1, "a", "b", "DL"),), ["ab"]),
    ("no meeting passes", "ab", (m(1, "a", "c", "2-0"), m(1, "b", "d", "2-0")), ["ab"]),
    ("unfinished meeting passes", "ab", (m(1, "a", "b", None),), ["ab"]),
    ("a win each passes", "ab", (m(1, "a", "b", "2-0"), m(2, "a", "b", "0-2")), ["ab"]),
    ("a win and a draw decide", "ab", (m(1, "a", "b", "1-1"), m(2, "b", "a", "0-2")), ["a", "b"]),
    # three players
    (
        "all met: mini-table, the rest tied",
        "abc",
        (m(1, "a", "b", "2-0"), m(2, "a", "c", "2-1"), m(3, "b", "c", "1-1")),
        ["a", "bc"],
    ),
    (
        "all met: the mini-table orders all three",
        "abc",
        (m(1, "a", "b", "2-0"), m(2, "a", "c", "2-1"), m(3, "b", "c", "0-2")),
        ["a", "c", "b"],
    ),
    (
        "all met: a cycle passes",
        "abc",
        (m(1, "a", "b", "2-0"), m(2, "b", "c", "2-0"), m(3, "c", "a", "2-0")),
        ["abc"],
    ),
    (
        "not all met: passes even if one beat both others",
        "abc",
        (m(1, "a", "b", "2-0"), m(2, "a", "c", "2-0"), m(1, "c", "d", "2-0")),
        ["abc"],
    ),
    # four players, round robin: mini-table a 6, b 6, c 3, d 3; then a beat b and d beat c
    (
        "sub-groups of two use their own meeting",
        "abcd",
        (
            m(1, "a", "b", "2-0"),
            m(1, "c", "d", "0-2"),
            m(2, "a", "c", "0-2"),
            m(2, "b", "d", "2-0"),
            m(3, "a", "d", "2-0"),
            m(3, "b", "c", "2-0"),
        ),
        ["a", "b", "d", "c"],
    ),
]


@pytest.mark.parametrize(
    ("label", "group", "lines", "expected"), H2H_CASES, ids=[c[0] for c in H2H_CASES]
)
def test_rule_T5_head_to_head(
    label: str, group: str, lines: Sequence[Line], expected: list[str]
) -> None:
    assert h2h(sheet("abcd", *lines), group) == expected


def test_rule_T5_head_to_head_splits_every_group_it_is_given() -> None:
    s = sheet("abcd", m(1, "a", "b", "2-0"), m(1, "c", "d", "1-1"))
    metric = METRICS[TieBreak.HEAD_TO_HEAD]
    assert isinstance(metric, GroupMetric)
    a, b, c, d = (s.index[pid(n)] for n in "abcd")
    assert metric.split(s, [[b, a], [d, c]]) == [[[a], [b]], [[c, d]]]


def test_rule_T5_head_to_head_uses_the_points_table() -> None:
    # with win 3, draw 1: a draw and a loss (1) against a win and a draw (4)
    lines = (m(1, "a", "b", "1-1"), m(2, "a", "b", "0-2"))
    assert h2h(sheet("ab", *lines), "ab") == ["b", "a"]


# --- T-6 penalties ----------------------------------------------------------------------------

PENALTY_ORDER = [
    # better (fewer) first; the first difference decides (T-6), losses as (match, game) (T-9)
    (PenaltyCounts(), PenaltyCounts(warnings=1)),
    (PenaltyCounts(warnings=5), PenaltyCounts(penalty_points=1)),
    (PenaltyCounts(penalty_points=9, warnings=9), PenaltyCounts(game_losses=1)),
    (PenaltyCounts(game_losses=3, penalty_points=9), PenaltyCounts(match_losses=1)),
    (PenaltyCounts(match_losses=1), PenaltyCounts(match_losses=1, game_losses=1)),
    (PenaltyCounts(match_losses=1, warnings=2), PenaltyCounts(match_losses=2)),
]


@pytest.mark.parametrize(("better", "worse"), PENALTY_ORDER)
def test_rule_T6_fewer_penalties_strongest_first(
    better: PenaltyCounts, worse: PenaltyCounts
) -> None:
    s = sheet("ab", penalties={"a": worse, "b": better})
    metric = METRICS[TieBreak.PENALTIES]
    assert isinstance(metric, KeyedMetric)
    assert list(metric.sort_keys(s)) == [worse.sort_key, better.sort_key]
    assert better.sort_key < worse.sort_key


def test_rule_T6_penalty_counts_cannot_be_negative() -> None:
    with pytest.raises(InvariantError):
        PenaltyCounts(warnings=-1)


def test_rule_T6_players_without_penalties_have_none() -> None:
    s = sheet("ab", penalties={"a": PenaltyCounts(warnings=1)})
    assert s.penalties == [PenaltyCounts(warnings=1), PenaltyCounts()]


# --- T-7 lot ----------------------------------------------------------------------------------


def test_rule_T7_lower_lot_number_ranks_higher() -> None:
    players = players_of("abc")
    s = Sheet.build(players, [], PointsTable(), lot={1: 3, 2: 1, 3: 2}, penalties=NO_PENALTIES)
    metric = METRICS[TieBreak.LOT]
    assert isinstance(metric, KeyedMetric)
    assert list(metric.sort_keys(s)) == [3, 1, 2]


# --- inconsistent data is a bug -----------------------------------------------------------------

BAD_DATA = [
    ("player twice in the list", "aab", (), {}),
    ("player not in the list", "ab", (m(1, "a", "c", "2-0"),), {}),
    ("bye for a player not in the list", "ab", (bye(1, "c"),), {}),
    ("paired twice in a round", "abc", (m(1, "a", "b", "2-0"), m(1, "a", "c", "2-0")), {}),
    ("a bye and a match in a round", "abc", (m(1, "a", "b", "2-0"), bye(1, "b")), {}),
    ("a match with oneself", "ab", (m(1, "a", "a", "2-0"),), {}),
    ("a lot number missing", "abc", (), {"lot": {1: 1, 2: 2}}),
    ("two equal lot numbers", "abc", (), {"lot": {1: 1, 2: 2, 3: 2}}),
]


@pytest.mark.parametrize(
    ("label", "names", "lines", "extra"), BAD_DATA, ids=[c[0] for c in BAD_DATA]
)
def test_rule_T_inconsistent_data_raises_invariant_error(
    label: str, names: str, lines: Sequence[Line], extra: dict[str, dict[int, int]]
) -> None:
    players = players_of(names)
    lot = extra.get("lot", {p: p for p in players})
    with pytest.raises(InvariantError):
        Sheet.build(players, event(*lines), PointsTable(), lot=lot, penalties=NO_PENALTIES)


def test_rule_T_same_round_number_twice_raises() -> None:
    rounds = event(m(1, "a", "b", "2-0")) * 2
    with pytest.raises(InvariantError):
        Sheet.build(players_of("ab"), rounds, PointsTable(), lot={1: 1, 2: 2}, penalties={})


@pytest.mark.parametrize(
    "pairing",
    [
        Pairing(1, 1, None, PairingKind.MATCH),
        Pairing(1, 1, 2, PairingKind.BYE, parse_result("2-0")),
        Pairing(1, 1, 2, PairingKind.PRIVILEGE_BYE),
    ],
)
def test_rule_S5_kind_must_match_the_opponent(pairing: Pairing) -> None:
    rounds = [Round(1, Stage.SWISS, (pairing,), lot="test")]
    with pytest.raises(InvariantError):
        Sheet.build([1, 2], rounds, PointsTable(), lot={1: 1, 2: 2}, penalties={})


def test_rule_T8_lots_and_penalties_of_other_players_are_ignored() -> None:
    # standings of one draft table: the caller passes the whole tournament's lots and penalties
    s = Sheet.build(
        [2, 3], [], PointsTable(), lot={1: 1, 2: 2, 3: 3, 4: 2}, penalties={9: PenaltyCounts()}
    )
    assert list(s.lots) == [2, 3]

"""Golden tournaments (tests/data/golden): whole events with their expected standings.

``small_8.json`` was computed by hand (the table below is the worked example); the 33- and
128-player events are regression files made by ``tests/data/golden/make_golden.py`` (one has
drops and late entries) and must reproduce exactly from their seeds.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.data.golden.make_golden import GOLDEN, build
from turnir.cli.render import standings_json
from turnir.domain.standings import TieBreak
from turnir.formats.tournament_file import dump_tournament, read_tournament

HERE = Path(__file__).parents[1] / "data" / "golden"

# place, player, points, T-1 wins quality, T-2 losses quality, T-3 games quality, T-4, reason
SMALL_8 = [
    (1, 1, 7, 9, 0, 14, 42, TieBreak.POINTS),
    (2, 3, 6, 7, 7, 14, 40, TieBreak.QUALITY_OF_WINS),
    (3, 8, 6, 3, 5, 8, 41, TieBreak.POINTS),
    (4, 5, 5, 6, 0, 17, 36, TieBreak.POINTS),
    (5, 6, 4, 3, 6, 14, 42, TieBreak.POINTS),
    (6, 4, 3, 0, 12, 12, 34, TieBreak.QUALITY_OF_LOSSES),
    (7, 2, 3, 0, 11, 11, 40, TieBreak.POINTS),
    (8, 7, 0, 0, 12, 12, 31, None),
]


def test_small_8_hand_computed_standings() -> None:
    t = read_tournament(HERE / "small_8.json")
    rows = t.standings().rows
    got = [
        (r.place, r.player, r.points, r.quality_of_wins, r.quality_of_losses,
         r.quality_of_games, r.second_order_quality, r.decided_by)
        for r in rows
    ]
    assert got == SMALL_8


def test_small_8_hand_computed_final_places() -> None:
    t = read_tournament(HERE / "small_8.json")
    # final: 8 beat 1; semifinal losers 3 and 5 by Swiss order; then 6, 4, 2, 7 (P-6)
    assert t.final_places() == [8, 1, 3, 5, 6, 4, 2, 7]


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_event_standings(name: str) -> None:
    t = read_tournament(HERE / f"{name}.json")
    expected = json.loads((HERE / f"{name}.standings.json").read_text(encoding="utf-8"))
    assert standings_json(t) == expected


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_event_reproduces_from_its_seed(name: str) -> None:
    assert dump_tournament(build(name)) == (HERE / f"{name}.json").read_text(encoding="utf-8")

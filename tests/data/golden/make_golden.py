"""Build the golden regression tournaments: ``python -m tests.data.golden.make_golden``.

Each is simulated from a fixed seed through the domain: 33 players with two drops and two late
entries (one with byes for the rounds missed), and 128 players with a top of 8. Run this only
when a rule change is intended, and review the diff of the standings files.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from turnir.cli.render import standings_json
from turnir.demo import demo_tournament, simulate_results, strengths
from turnir.domain.tournament import (
    Phase,
    Tournament,
    add_late_player,
    drop_player,
    pair_next_round,
)
from turnir.formats.tournament_file import dump_tournament

HERE = Path(__file__).parent
GOLDEN = {"event_33_drops_late": 33, "event_128_top8": 128}


def build(name: str) -> Tournament:
    players = GOLDEN[name]
    t = demo_tournament(players, seed=players, top=8 if players >= 128 else 4)
    rng = random.Random(f"golden/{name}")
    strength = strengths(t.players, rng)
    while t.phase is not Phase.FINISHED:
        t = pair_next_round(t)
        rnd = t.current_round
        assert rnd is not None
        t = simulate_results(t, rng, strength)
        if name == "event_33_drops_late" and rnd.number == 2:
            t = drop_player(t, 5)
            t = drop_player(t, 17)
            t = add_late_player(t, "Поздний Игрок")
            t = add_late_player(t, "Поздний С Автопобедами", byes_for_missed_rounds=True)
            for late in t.players[-2:]:
                strength[late.id] = 1.0
    return t


def main() -> None:
    for name in GOLDEN:
        t = build(name)
        (HERE / f"{name}.json").write_text(dump_tournament(t), encoding="utf-8")
        (HERE / f"{name}.standings.json").write_text(
            json.dumps(standings_json(t), ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )


if __name__ == "__main__":
    main()

"""Bench: replay a rating history of 20,000 tournaments among 50,000 players (R-1..R-6).

Generates (seeded, not timed) 20,000 rated tournaments of 8-64 players drawn from 50,000
players: mixed formats (constructed, 1-, 2-, 3- and 4-booster drafts), professional K among
1, 1.2, 1.5 and 2, about one participant in 400 disqualified without prizes, end keys with
ties, handed over shuffled. Times ``replay`` from scratch (target: under 20 s), then applies
the same tournaments one by one, in the order of end, with ``apply_tournament`` (a new book
each time) and counts the players whose ratings differ (target: 0). Both paths share the
integer formulas; their exactness is checked in ``tests/domain/test_ratings.py`` against the
formulas written out in ``Fraction``.

Run: ``.venv/bin/python bench/ratings.py``. The last line printed is one JSON object.
"""

from __future__ import annotations

import itertools
import json
import platform
import random
import sys
import time
from fractions import Fraction

from turnir.domain.ratings import (
    Participant,
    RatedFormat,
    RatedTournament,
    RatingBook,
    apply_tournament,
    ended_before,
    replay,
)

PLAYERS = 50_000
TOURNAMENTS = 20_000
SIZES = (8, 64)
SEED = 20240607
LIMIT_S = 20.0
FORMATS = (
    (RatedFormat.CONSTRUCTED, 40),
    (RatedFormat.DRAFT_1_BOOSTER, 10),
    (RatedFormat.DRAFT_2_BOOSTERS, 10),
    (RatedFormat.DRAFT_3_BOOSTERS, 5),
    (RatedFormat.DRAFT_4_BOOSTERS, 35),
)
PROFESSIONAL_K = (Fraction(1), Fraction(6, 5), Fraction(3, 2), Fraction(2))


def generate(rng: random.Random) -> list[RatedTournament]:
    """The history, shuffled; ``ended_at`` is a minute number, so some tournaments tie."""
    formats = [f for f, _ in FORMATS]
    weights = [w for _, w in FORMATS]
    history: list[RatedTournament] = []
    for number in range(1, TOURNAMENTS + 1):
        size = rng.randint(*SIZES)
        players = rng.sample(range(1, PLAYERS + 1), size)
        participants = tuple(
            Participant(player, place, disqualified_without_prizes=rng.random() < 1 / 400)
            for place, player in enumerate(players, start=1)
        )
        history.append(RatedTournament(
            id=number,
            ended_at=number * 3 // 4,  # every fourth minute has two tournaments ending
            format=rng.choices(formats, weights)[0],
            professional_k=rng.choice(PROFESSIONAL_K),
            participants=participants,
        ))
    rng.shuffle(history)
    return history


def main() -> None:
    rng = random.Random(SEED)
    start = time.perf_counter()
    history = generate(rng)
    generate_s = time.perf_counter() - start
    participations = sum(t.size for t in history)

    start = time.perf_counter()
    book = replay(history)
    replay_s = time.perf_counter() - start

    start = time.perf_counter()
    ordered = sorted(history, key=lambda t: (t.ended_at, t.id))
    assert all(ended_before(a, b) for a, b in itertools.pairwise(ordered))
    one_by_one = RatingBook()
    for tournament in ordered:
        one_by_one, _ = apply_tournament(one_by_one, tournament)
    one_by_one_s = time.perf_counter() - start

    players = set(book.players()) | set(one_by_one.players())
    mismatches = sum(1 for p in players if book.rating(p) != one_by_one.rating(p))
    if book != one_by_one and mismatches == 0:
        mismatches = 1  # the books differ in what they last applied
    top = max(book.entries(), key=lambda entry: entry.professional)
    warlock_top = max(book.entries(), key=lambda entry: entry.warlock or 0)

    print(f"ratings bench: {TOURNAMENTS} tournaments of {SIZES[0]}-{SIZES[1]} players, "
          f"{PLAYERS} players, {participations} participations")
    print(f"python {platform.python_version()} on {platform.machine()}")
    print(f"{'step':<34} {'seconds':>10}")
    print(f"{'generate (not timed)':<34} {generate_s:>10.3f}")
    print(f"{'replay from scratch':<34} {replay_s:>10.3f}  (limit {LIMIT_S} s)")
    print(f"{'apply_tournament one by one':<34} {one_by_one_s:>10.3f}")
    print(f"players rated {len(book)}, mismatches {mismatches}")
    print(f"top professional {top.player}: {top.professional}; "
          f"top Warlock {warlock_top.player}: {warlock_top.warlock}")
    figures = {
        "tournaments": TOURNAMENTS,
        "players": PLAYERS,
        "participations": participations,
        "players_rated": len(book),
        "generate_s": round(generate_s, 3),
        "replay_s": round(replay_s, 3),
        "one_by_one_s": round(one_by_one_s, 3),
        "replay_us_per_participation": round(replay_s / participations * 1e6, 3),
        "top_professional": str(top.professional),
        "top_warlock": str(warlock_top.warlock),
        "python": platform.python_version(),
    }
    targets = {
        "replay_20000_s": {"value": round(replay_s, 3), "limit": LIMIT_S, "better": "lower"},
        "replay_mismatches": {"value": mismatches, "limit": 0, "better": "lower"},
    }
    print(json.dumps({"bench": "ratings", "figures": figures, "targets": targets}))
    sys.stdout.flush()


if __name__ == "__main__":
    main()

"""Bench: replay a rating history of 20,000 tournaments among 50,000 players (R-1..R-6).

Generates (seeded, not timed) 20,000 rated tournaments of 8-64 players drawn from 50,000
players: mixed formats (constructed, 1-, 2-, 3- and 4-booster drafts), professional K among
1, 1.2, 1.5 and 2, about one participant in 400 disqualified without prizes, end keys with
ties, handed over shuffled. Times ``replay`` from scratch (target: under 20 s), then applies
the same tournaments one by one, in the order of end, with ``apply_tournament`` (a new book
each time) and counts the players whose ratings differ (target: 0). Both paths share the
integer formulas; their exactness is checked in ``tests/domain/test_ratings.py`` against the
formulas written out in ``Fraction``.

A second part times the same replay *from the database* (SQLite in a temporary folder): the
first ``DB_TOURNAMENTS`` tournaments of the history (default 2,000; set
``TURNIR_BENCH_RATINGS_DB_TOURNAMENTS``, 0 to skip) are stored as rated tournaments with
placeholder rows (bulk inserts, not timed), then ``replay_ratings`` runs twice: the first
replay rewrites every row (the worst case, as after a change of the settings), the second
finds nothing to rewrite (the check ``turnir rating replay`` normally is). The stored current
ratings are compared with the pure replay (``db_mismatches``). These are figures, not targets.

Run: ``.venv/bin/python bench/ratings.py``. The last line printed is one JSON object.
"""

from __future__ import annotations

import itertools
import json
import os
import platform
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

from sqlalchemy import insert

from turnir.domain.model import Settings
from turnir.domain.ratings import (
    Participant,
    RatedFormat,
    RatedTournament,
    RatingBook,
    apply_tournament,
    ended_before,
    replay,
)
from turnir.services.ratings import replay_ratings
from turnir.storage.database import Database
from turnir.storage.mappers import settings_columns
from turnir.storage.ratings import current_pairs, exact_text, pair_of
from turnir.storage.tables import entries, people, tournaments
from turnir.storage.tables_ratings import rating_history, rating_tournaments

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
DB_TOURNAMENTS = int(os.environ.get("TURNIR_BENCH_RATINGS_DB_TOURNAMENTS", "2000"))
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


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


def _store(db: Database, history: list[RatedTournament]) -> None:
    """Bulk-insert people, finished tournaments, entries and rated tournaments with placeholder
    history rows (every rating 100.00), as ``replay_ratings`` finds them."""
    now = datetime.now(UTC)
    players = sorted({int(p) for t in history for p in t.players})
    defaults = settings_columns(Settings())
    with db.write() as conn:
        for start in range(0, len(players), 5000):
            conn.execute(insert(people), [
                {"id": p, "name": f"Player {p}", "name_key": f"player {p}", "city": "",
                 "club": "", "created_at": now} for p in players[start:start + 5000]])
        for t in history:
            ended = EPOCH + timedelta(minutes=int(t.ended_at))  # type: ignore[call-overload]
            conn.execute(insert(tournaments).values(
                id=t.id, name=f"T{t.id}", format="constructed", rules_level="amateur",
                seed=1, status="finished", undone=[], version=1, created_at=now,
                created_by="bench", finished_at=ended, **defaults))
            conn.execute(insert(entries), [
                {"tournament_id": t.id, "number": e.place, "person_id": e.player,
                 "name": f"Player {e.player}", "name_key": f"player {e.player}", "city": "",
                 "club": "", "joined_round": 1, "checked_in": True, "version": 1}
                for e in t.participants])
            conn.execute(insert(rating_tournaments).values(
                tournament_id=t.id, ended_at=ended, rated_format=t.format.value,
                participants=t.size, professional_k=exact_text(t.professional_k),
                warlock_k="1", submitted_at=now, submitted_by="bench", version=1))
            conn.execute(insert(rating_history), [
                {"tournament_id": t.id, "person_id": e.player, "number": e.place,
                 "place": e.place, "disqualified_without_prizes": e.disqualified_without_prizes,
                 "professional_before": 10000, "professional_change": 0,
                 "professional_after": 10000, "bound": "none", "floor_applied": False,
                 "reset_applied": False, "warlock_before": None, "warlock_change": 10000,
                 "warlock_after": 10000, "warlock_reset": False} for e in t.participants])


def database_figures(history: list[RatedTournament]) -> dict[str, Any]:
    """Replay the first ``DB_TOURNAMENTS`` tournaments from an SQLite database (figures)."""
    subset = sorted((t for t in history if int(t.id) <= DB_TOURNAMENTS),
                    key=lambda t: (t.ended_at, t.id))
    with tempfile.TemporaryDirectory() as folder:
        db = Database.open(f"sqlite:///{Path(folder) / 'ratings.db'}")
        try:
            start = time.perf_counter()
            _store(db, subset)
            setup_s = time.perf_counter() - start
            start = time.perf_counter()
            first = replay_ratings(db, actor="bench")
            rewrite_s = time.perf_counter() - start
            start = time.perf_counter()
            second = replay_ratings(db, actor="bench")
            check_s = time.perf_counter() - start
            with db.read() as conn:
                stored = current_pairs(conn)
        finally:
            db.close()
    book = replay(subset)
    expected = {int(p): pair_of(book.rating(p)) for p in book.players()}
    participations = sum(t.size for t in subset)
    return {
        "db_tournaments": len(subset),
        "db_participations": participations,
        "db_setup_s": round(setup_s, 3),
        "db_replay_rewrite_s": round(rewrite_s, 3),
        "db_replay_check_s": round(check_s, 3),
        "db_rewritten": first.rewritten,
        "db_rewritten_again": second.rewritten,
        "db_changed_again": len(second.changed),
        "db_mismatches": sum(1 for p in expected.keys() | stored.keys()
                             if expected.get(p) != stored.get(p)),
    }


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
    database = database_figures(history) if DB_TOURNAMENTS > 0 else {}
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
    if database:
        print(f"from the database (SQLite): {database['db_tournaments']} tournaments, "
              f"{database['db_participations']} participations; setup (not timed) "
              f"{database['db_setup_s']} s; replay rewriting every row "
              f"{database['db_replay_rewrite_s']} s; replay again (nothing to rewrite) "
              f"{database['db_replay_check_s']} s; mismatches {database['db_mismatches']}")
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
        **database,
    }
    targets = {
        "replay_20000_s": {"value": round(replay_s, 3), "limit": LIMIT_S, "better": "lower"},
        "replay_mismatches": {"value": mismatches, "limit": 0, "better": "lower"},
    }
    print(json.dumps({"bench": "ratings", "figures": figures, "targets": targets}))
    sys.stdout.flush()


if __name__ == "__main__":
    main()

"""One-line builders for service tests: a stored event, a played round, a snapshot of every
table (to prove that a refused change left the database unchanged)."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import select

from turnir.domain.model import Player, Settings
from turnir.domain.results import MatchResult, PointsTable, parse_result
from turnir.domain.standings import PenaltyCounts
from turnir.domain.tournament import (
    Tournament,
    add_late_player,
    drop_player,
    new_tournament,
    pair_next_round,
    record_result,
)
from turnir.formats.players_csv import PlayerLine
from turnir.services.players import register_players
from turnir.services.results import record_result as record
from turnir.services.rounds import RoundView, start_round
from turnir.services.tournaments import create_tournament
from turnir.storage.database import Database
from turnir.storage.tables import Base

ORGANIZER = "Организатор Орлов"
JUDGE = "Судья Смирнова"
SCORES = ("2-0", "2-1", "1-2", "0-2", "1-1", "ID")


def event(db: Database, players: int = 8, *, rounds: int | None = 3, top: int = 0,
          seed: int = 7, best_of: int = 3, name: str = "Кубок клуба") -> int:
    """A stored tournament in registration with ``players`` players; returns its id."""
    info = create_tournament(db, name=name, actor=ORGANIZER, seed=seed,
                             settings=Settings(swiss_rounds=rounds, top_size=top,
                                               best_of=best_of))
    if players:
        register_players(db, info.id, [PlayerLine(f"Игрок {i:02d}", "Москва")
                                       for i in range(1, players + 1)], actor=ORGANIZER)
    return info.id


def play_round(db: Database, tid: int, score: str = "2-1", *, seed: int | None = None) -> RoundView:
    """Pair the next round and record every result (``score``, or random ones from ``seed``)."""
    view = start_round(db, tid, actor=ORGANIZER)
    rng = random.Random(seed)
    for line in view.round.pairings:
        if line.b is None:
            continue
        text = score if seed is None else rng.choice(SCORES[:4] if view.round.stage.value == "top"
                                                     else SCORES)
        record(db, tid, view.round.number, line.table, parse_result(text), actor=JUDGE)
    return view


def snapshot(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, sorted: equal snapshots mean nothing changed."""
    found: dict[str, list[tuple[Any, ...]]] = {}
    with db.read() as conn:
        for table in Base.metadata.sorted_tables:
            rows = conn.execute(select(table)).all()
            found[table.name] = sorted((tuple(row) for row in rows), key=repr)
    return found


def offline_event(seed: int = 31) -> Tournament:
    """An offline tournament in the middle of its Swiss part: 13 players, 5 rounds planned and a
    top of 4, two rounds played, a drop, a late entry with byes, penalty counts (T-6)."""
    rng = random.Random(seed)
    players = [Player(id=i, name=f"Участник {i:02d}", city="Тверь" if i % 2 else "Самара",
                      granted_byes=frozenset({1}) if i == 13 else frozenset())
               for i in range(1, 14)]
    t = new_tournament("Офлайн-турнир", players, seed=seed,
                       settings=Settings(points=PointsTable(), swiss_rounds=5, top_size=4))
    for number in (1, 2):
        t = pair_next_round(t)
        for line in t.rounds[-1].pairings:
            if line.b is not None:
                t = record_result(t, number, line.table, parse_result(rng.choice(SCORES)))
        if number == 1:
            t = drop_player(t, 5)
    t = add_late_player(t, "Поздний Игрок", byes_for_missed_rounds=True, city="Тверь")
    return Tournament(t.name, t.settings, t.seed, t.players, t.rounds, t.undone,
                      {3: PenaltyCounts(warnings=2), 8: PenaltyCounts(game_losses=1)})


def random_result(rng: random.Random, *, top: bool) -> MatchResult:
    return parse_result(rng.choice(SCORES[:4] if top else SCORES))

"""Bench: a live booster draft of 256 players on 16 tables, 4 boosters of 12 cards (issue 14).

Through the service layer (``turnir.services.live_draft``) on a SQLite file database, as the
server runs it: a draft tournament of 256 players with their player accounts, the plan (4×12,
tabletop), the players seated by lot at 16 tables of 16, the live draft started from the
catalogue (the sample cards, default templates). Then simulated clients pick as fast as they
can, one after another in a shuffled order every pass: each reads its seat
(``player_draft``) and, holding a booster, picks a card at random (``pick_card``: one locked
transaction that loads the table's state, applies the pick, stores the state and appends the
pick to the log). The service's clock is simulated (1 ms per call, the review minute skipped
when no one holds a booster) so no timer runs out: 256 × 48 = 12,288 picks in the log, of
them 256 × 44 = 11,264 made by the clients (each booster's last card goes to the next player
at once, D-4).

- ``pick_p95_ms``: the 95th percentile of one ``pick_card`` call, wall time (target ≤ 50 ms);
  with its p50, the reads' p95 and picks per second over the whole draft;
- ``engine_total_s``: the engine alone (``turnir.domain.draft.engine``) replaying the same
  11,264 picks in memory, every table from its stored starting state (target ≤ 5 s), and the
  state's JSON round trip the service adds per pick;
- the baseline, measured side by side on the same picks: the naive way, where each pick
  re-derives the table's state from the start by replaying the whole pick log before it
  (sampled: every 16th pick of every table; its p95 per pick and the projected total).

Run: ``.venv/bin/python bench/draft.py``. The last line printed is one JSON object.
"""

from __future__ import annotations

import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from turnir.domain.draft.engine import DraftEngine
from turnir.domain.draft.plan import DraftProfile, make_plan
from turnir.domain.model import Settings, TournamentFormat
from turnir.formats.players_csv import PlayerLine
from turnir.services.accounts import AccountRole, create_account, make_hasher
from turnir.services.cards import load_sample_cards
from turnir.services.draft_setup import seat_draft, set_draft_plan
from turnir.services.live_draft import draft_overview, pick_card, player_draft, start_live_draft
from turnir.services.players import list_players, register_players
from turnir.services.tournaments import create_tournament
from turnir.storage import live_draft_repo
from turnir.storage.database import Database

PLAYERS = 256
TABLES = 16
BOOSTERS = 4
PICK_LIMIT_MS = 50.0
ENGINE_LIMIT_S = 5.0
BASELINE_EVERY = 16
SEED = 20261401
ACTOR = "Бенч"
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
STEP = timedelta(milliseconds=1)


@dataclass(frozen=True, slots=True)
class Pick:
    player: int
    booster: int
    cards_left: int
    card: str
    at: float


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def prepare(db: Database) -> tuple[int, dict[int, int]]:
    """The seated draft tournament; its entry numbers' player accounts."""
    load_sample_cards(db, actor=ACTOR)
    info = create_tournament(db, name="Бенч драфта", actor=ACTOR, seed=SEED,
                             format=TournamentFormat.DRAFT, settings=Settings())
    register_players(db, info.id, [PlayerLine(f"Игрок {i:03d}", "Москва")
                                   for i in range(1, PLAYERS + 1)], actor=ACTOR)
    plan = make_plan(twelves=BOOSTERS, sevens=0, profile=DraftProfile.TABLETOP)
    set_draft_plan(db, info.id, actor=ACTOR, plan=plan)
    seat_draft(db, info.id, actor=ACTOR, method="lot", tables=TABLES)
    hasher = make_hasher(fast=True)
    accounts = {p.number: create_account(db, login=f"p{p.number}", name=p.name,
                                         password="пароль игрока", role=AccountRole.PLAYER,
                                         person_id=p.person_id, actor=ACTOR,
                                         hasher=hasher).id
                for p in list_players(db, info.id)}
    return info.id, accounts


def draft(db: Database, tid: int, accounts: dict[int, int],
          rng: random.Random) -> tuple[list[float], list[float], float, dict[int, list[Pick]]]:
    """Every client picks as fast as it can until every table is done."""
    seats = {number: table.table for table in draft_overview(db, tid, account_id=None, now=T0)
             for number in (row.number for row in table.rows)}
    order = list(accounts.items())
    picks_ms: list[float] = []
    reads_ms: list[float] = []
    made: dict[int, list[Pick]] = {t: [] for t in set(seats.values())}
    at = T0
    started = time.perf_counter()
    while True:
        rng.shuffle(order)
        picked = 0
        for number, account in order:
            at += STEP
            start = time.perf_counter()
            view = player_draft(db, tid, account_id=account, now=at)
            reads_ms.append((time.perf_counter() - start) * 1000)
            if view is None or view.status != "picking" or view.booster is None:
                continue
            card = rng.choice(view.cards).uid
            at += STEP
            start = time.perf_counter()
            pick_card(db, tid, account_id=account, booster=view.booster,
                      cards_left=view.cards_left, card=card, now=at)
            picks_ms.append((time.perf_counter() - start) * 1000)
            made[seats[number]].append(Pick(number, view.booster, view.cards_left, card,
                                            at.timestamp()))
            picked += 1
        if picked == 0:
            tables = draft_overview(db, tid, account_id=None, now=at)
            if all(t.status == "done" for t in tables):
                break
            at += timedelta(seconds=61)  # everyone is in the review minute
    return picks_ms, reads_ms, time.perf_counter() - started, made


def replay(start: dict[str, Any], picks: list[Pick]) -> DraftEngine:
    engine = DraftEngine.from_json(start)
    for p in picks:
        engine.pick(p.player, booster=p.booster, cards_left=p.cards_left, card=p.card,
                    now=p.at)
    return engine


def engine_figures(starts: dict[int, dict[str, Any]],
                   made: dict[int, list[Pick]]) -> dict[str, float]:
    """The engine alone on the same picks; its JSON round trip; the naive baseline."""
    started = time.perf_counter()
    for table, picks in made.items():
        replay(starts[table], picks)
    engine_s = time.perf_counter() - started
    json_ms = []
    engine = replay(starts[1], made[1][: len(made[1]) // 2])  # a state half way through
    for _ in range(50):
        start = time.perf_counter()
        DraftEngine.from_json(json.loads(json.dumps(engine.to_json())))
        json_ms.append((time.perf_counter() - start) * 1000)
    baseline_ms, baseline_total = [], 0.0
    for table, picks in made.items():
        sampled = []
        for index in range(0, len(picks), BASELINE_EVERY):
            start = time.perf_counter()
            replay(starts[table], picks[: index + 1])  # the whole log before it, then it
            sampled.append((time.perf_counter() - start) * 1000)
        baseline_ms.extend(sampled)
        baseline_total += statistics.mean(sampled) * len(picks) / 1000
    return {"engine_total_s": engine_s, "json_round_trip_p50_ms": statistics.median(json_ms),
            "baseline_p95_ms": percentile(baseline_ms, 0.95),
            "baseline_p50_ms": statistics.median(baseline_ms),
            "baseline_projected_total_s": baseline_total, "baseline_samples": len(baseline_ms)}


def main() -> None:
    rng = random.Random(SEED)
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        db = Database.open(f"sqlite:///{folder}/bench.db")
        try:
            start = time.perf_counter()
            tid, accounts = prepare(db)
            prepare_s = time.perf_counter() - start
            start = time.perf_counter()
            start_live_draft(db, tid, actor=ACTOR, account_id=None, now=T0)
            start_s = time.perf_counter() - start
            with db.read() as tx:
                starts = {d.table: d.state for d in live_draft_repo.drafts_of(tx, tid)}
            picks_ms, reads_ms, draft_s, made = draft(db, tid, accounts, rng)
            with db.read() as tx:
                logged = sum(live_draft_repo.pick_count(tx, tid, t) for t in starts)
        finally:
            db.close()
    engine = engine_figures(starts, made)
    total = sum(len(p) for p in made.values())
    pick_p95 = percentile(picks_ms, 0.95)
    per_s = total / draft_s
    print(f"draft bench: {PLAYERS} players at {TABLES} tables, {BOOSTERS} boosters of 12; "
          f"python {platform.python_version()} on {platform.machine()}; load average "
          f"before: {load_before:.2f}")
    print(f"prepared in {prepare_s:.1f} s; live draft started (boosters drawn) in "
          f"{start_s:.2f} s; {total} picks made, {logged} in the pick log")
    print(f"pick_card: p50 {statistics.median(picks_ms):.2f} ms, p95 {pick_p95:.2f} ms "
          f"(limit {PICK_LIMIT_MS} ms), max {max(picks_ms):.1f} ms; player_draft p95 "
          f"{percentile(reads_ms, 0.95):.2f} ms; {per_s:.0f} picks/s over {draft_s:.1f} s "
          f"(reads included)")
    print(f"engine alone: {engine['engine_total_s']:.3f} s for all {total} picks (limit "
          f"{ENGINE_LIMIT_S} s); state JSON round trip p50 "
          f"{engine['json_round_trip_p50_ms']:.2f} ms")
    print(f"baseline (re-derive from the whole pick log per pick, {engine['baseline_samples']} "
          f"sampled): p50 {engine['baseline_p50_ms']:.2f} ms, p95 "
          f"{engine['baseline_p95_ms']:.2f} ms per pick, projected "
          f"{engine['baseline_projected_total_s']:.1f} s for the draft")
    figures = {
        "players": PLAYERS, "tables": TABLES, "boosters": BOOSTERS, "picks": total,
        "picks_logged": logged, "prepare_s": round(prepare_s, 2),
        "start_s": round(start_s, 3), "draft_s": round(draft_s, 2),
        "picks_per_s": round(per_s, 1),
        "pick_p50_ms": round(statistics.median(picks_ms), 3),
        "pick_p95_ms": round(pick_p95, 3), "pick_max_ms": round(max(picks_ms), 3),
        "read_p95_ms": round(percentile(reads_ms, 0.95), 3),
        "engine_total_s": round(engine["engine_total_s"], 4),
        "json_round_trip_p50_ms": round(engine["json_round_trip_p50_ms"], 3),
        "baseline_p50_ms": round(engine["baseline_p50_ms"], 3),
        "baseline_p95_ms": round(engine["baseline_p95_ms"], 3),
        "baseline_projected_total_s": round(engine["baseline_projected_total_s"], 2),
        "baseline_samples": engine["baseline_samples"],
        "load_average": round(load_before, 2), "python": platform.python_version(),
    }
    targets = {
        "pick_p95_ms": {"value": round(pick_p95, 3), "limit": PICK_LIMIT_MS,
                        "better": "lower"},
        "engine_total_s": {"value": round(engine["engine_total_s"], 4),
                           "limit": ENGINE_LIMIT_S, "better": "lower"},
    }
    print(json.dumps({"bench": "draft", "figures": figures, "targets": targets}))
    sys.stdout.flush()


if __name__ == "__main__":
    main()

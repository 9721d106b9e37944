"""The 33-player tabletop draft end to end through the services on the database (issue 14's
golden event): four boosters of 12 cards, seated by lot on 4 tables (D-2: 9, 8, 8, 8), 4 Swiss
rounds inside each table (D-5, T-8), a top of 8 across tables (P-5: two from every table,
seeded so that the best of one table meets the lowest qualifier of another), the final places
(P-6) and the rating preview with the draft's Warlock K (R-5: 1.8 for 4 boosters, 2.0 with
many participants — 33 are many by the default setting of 32).

The whole run is compared with ``tests/data/golden/draft_33_tabletop.json``; the rules are
also asserted on the run itself, so the golden file cannot hide a broken rule. To write the
file again after an intended change (then check it by hand for the rules above)::

    TURNIR_WRITE_GOLDEN=1 .venv/bin/pytest -q tests/services/test_draft_golden.py -k sqlite
"""

from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path
from typing import Any

from tests.services.builders import play_round
from tests.services.draft_builders import DRAFT_ORGANIZER, draft_event
from turnir.domain.model import Stage
from turnir.domain.pairing import elimination
from turnir.domain.tournament import Tournament
from turnir.services.common import reading
from turnir.services.draft_setup import seat_draft
from turnir.services.ratings import preview_tournament
from turnir.services.tournaments import finish_tournament
from turnir.storage.database import Database
from turnir.storage.mappers import load_tournament

GOLDEN = Path(__file__).parents[1] / "data" / "golden" / "draft_33_tabletop.json"
RESULTS_SEED = 33


def _run(db: Database) -> tuple[Tournament, dict[str, Any]]:
    tid = draft_event(db, 33, twelves=4, top=8, seed=2026)
    seating = seat_draft(db, tid, actor=DRAFT_ORGANIZER, method="lot", tables=4)
    number = 0
    while True:
        with reading(db) as tx:
            t = load_tournament(tx, tid)
        if t.phase.value == "finished":
            break
        number += 1
        play_round(db, tid, seed=RESULTS_SEED * 100 + number)
    finish_tournament(db, tid, actor=DRAFT_ORGANIZER)
    preview = preview_tournament(db, tid).report
    record = {
        "seed": seating.seed,
        "tables": [[s.number for s in table.seats] for table in seating.tables],
        "rounds": [
            {"number": r.number, "stage": r.stage.value,
             "pairings": [[p.table, p.a, p.b, p.result.score if p.result else None]
                          for p in r.pairings]}
            for r in t.rounds
        ],
        "table_standings": {
            str(n): [[row.player, row.points, row.quality_of_wins, row.quality_of_games]
                     for row in s.rows]
            for n, s in t.table_standings().items()
        },
        "standings": t.standings().order(),
        "final_places": t.final_places(),
        "rating": {
            "format": preview.rated_format.value, "warlock_k": str(preview.warlock_k),
            "participants": preview.participants,
            "lines": [[line.number, line.change.place, str(line.change.warlock.after),
                       str(line.change.professional.after)] for line in preview.lines],
        },
    }
    # a 4-booster draft has K 1.8, and 2.0 with many participants (the setting's default
    # 32, R-6): 33 players are many
    assert preview.rated_format.value == "draft_4_boosters"
    assert preview.warlock_k == Fraction(2) and preview.participants >= 32
    return t, record


def _check_rules(t: Tournament, record: dict[str, Any]) -> None:
    assert [len(table) for table in record["tables"]] == [9, 8, 8, 8]  # D-2
    assert t.swiss_rounds_planned == 4 and len(t.swiss_rounds) == 4  # D-5
    for rnd in t.swiss_rounds:  # T-8: pairings only inside a table, one bye at the 9
        assert all(t.tables[p.a] == t.tables[p.b] for p in rnd.pairings if p.b is not None)
        byes = [p.a for p in rnd.pairings if p.b is None]
        assert [t.tables[pid] for pid in byes] == [1]
    first = t.top_rounds[0]
    assert first.stage is Stage.TOP and len(t.top_rounds) == 3
    top = [pid for p in first.pairings for pid in p.players]
    per_table = t.table_standings()
    for table in range(1, 5):  # P-5: the best two of every table
        assert sorted(pid for pid in top if t.tables[pid] == table) == sorted(
            per_table[table].order()[:2])
    assert all(t.tables[p.a] != t.tables[p.b] for p in first.pairings)  # across tables
    seeds = [pid for p in first.pairings for pid in p.players]
    order = elimination.bracket_seeds(8)
    by_seed = {order[i]: seeds[i] for i in range(8)}
    for seed in range(1, 5):  # seed 1..4 are the four tables' winners
        assert by_seed[seed] == per_table[t.tables[by_seed[seed]]].order()[0]
    places = t.final_places()  # P-6: the top first, then the merged standings
    assert set(places[:8]) == set(top) and len(places) == 33
    assert places[8:] == [pid for pid in t.standings().order() if pid not in top]
    assert [line[1] for line in record["rating"]["lines"]] == list(range(1, 34))


def test_golden_33_player_tabletop_draft_end_to_end(db: Database) -> None:
    t, record = _run(db)
    _check_rules(t, record)
    if os.environ.get("TURNIR_WRITE_GOLDEN") == "1":
        GOLDEN.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n",
                          encoding="utf-8")
    assert record == json.loads(GOLDEN.read_text(encoding="utf-8"))

"""Import and export: an offline tournament file imported, run through the services and
exported gives the same file and the same standings as running it offline."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

import pytest

from tests.services.builders import (
    JUDGE,
    ORGANIZER,
    event,
    offline_event,
    play_round,
    random_result,
)
from turnir.cli.render import standings_json
from turnir.domain.consistency import check_tournament
from turnir.domain.tournament import (
    Tournament,
    add_late_player,
    drop_player,
    pair_next_round,
    record_result,
)
from turnir.formats.players_csv import parse_players_csv
from turnir.formats.tournament_file import dump_tournament, parse_tournament
from turnir.services.common import Status
from turnir.services.players import drop_player as drop_service
from turnir.services.players import late_entry, register_players
from turnir.services.queries import audit_log, get_standings
from turnir.services.results import record_result as record_service
from turnir.services.rounds import start_round
from turnir.services.tournaments import create_tournament
from turnir.services.transfer import (
    export_players_csv,
    export_standings_csv,
    export_tournament,
    import_tournament,
)
from turnir.storage.database import Database


def test_import_then_export_gives_the_same_file(db: Database) -> None:
    text = dump_tournament(offline_event())
    progress: list[tuple[int, int]] = []
    info = import_tournament(db, text, actor=ORGANIZER, source="cup.json",
                             progress=lambda done, total: progress.append((done, total)))
    assert info.status is Status.RUNNING and info.players == 14 and info.rounds == 2
    assert progress[-1][0] == progress[-1][1] > 0
    assert export_tournament(db, info.id) == text
    entry = audit_log(db, info.id)[-1]
    assert entry.action == "tournament.import" and entry.after is not None
    assert entry.after["players"] == 14 and len(entry.after["sha256"]) == 64


def _offline_continuation(t: Tournament, rng: random.Random) -> Tournament:
    """The rest of the event run offline on the file, as the file commands do."""
    t = drop_player(t, 9)
    t = add_late_player(t, "Совсем Поздний", city="Псков")
    while True:
        current = t.current_round
        assert current is not None
        if not current.finished:
            for line in current.pairings:
                if line.b is not None and line.result is None:
                    t = record_result(t, current.number, line.table,
                                      random_result(rng, top=current.stage.value == "top"))
            continue
        if t.phase.value == "finished":
            return t
        t = pair_next_round(t)


def test_rule_P7_offline_file_through_the_services_matches_offline_play(db: Database) -> None:
    offline = offline_event()
    text = dump_tournament(offline)
    expected = _offline_continuation(parse_tournament(text), random.Random(5))

    tid = import_tournament(db, text, actor=ORGANIZER).id
    rng = random.Random(5)
    drop_service(db, tid, 9, actor=JUDGE)
    late_entry(db, tid, name="Совсем Поздний", city="Псков", actor=ORGANIZER)
    while True:
        t = get_standings(db, tid).tournament
        current = t.current_round
        assert current is not None
        if not current.finished:
            for line in current.pairings:
                if line.b is not None and line.result is None:
                    record_service(db, tid, current.number, line.table,
                                   random_result(rng, top=current.stage.value == "top"),
                                   actor=JUDGE)
            continue
        if t.phase.value == "finished":
            break
        start_round(db, tid, actor=ORGANIZER)

    exported = export_tournament(db, tid)
    assert exported == dump_tournament(expected)
    stored = parse_tournament(exported)
    check_tournament(stored)
    assert standings_json(stored) == standings_json(expected)
    assert get_standings(db, tid).standings == expected.standings()
    assert stored.final_places() == expected.final_places()


def test_players_and_standings_csv(db: Database) -> None:
    tid = event(db, 6, rounds=2)
    play_round(db, tid, seed=4)
    players = parse_players_csv(export_players_csv(db, tid))
    assert [p.name for p in players] == [f"Игрок {i:02d}" for i in range(1, 7)]
    other = create_tournament(db, name="Копия", actor=ORGANIZER).id
    assert len(register_players(db, other, players, actor=ORGANIZER)) == 6

    rows = list(csv.DictReader(io.StringIO(export_standings_csv(db, tid))))
    standings = get_standings(db, tid).standings
    assert [int(r["number"]) for r in rows] == standings.order()
    assert [int(r["points"]) for r in rows] == [row.points for row in standings.rows]
    assert set(rows[0]) >= {"quality_of_wins", "quality_of_losses", "quality_of_games",
                            "second_order_quality", "lot"}


GOLDEN = Path(__file__).parents[1] / "data" / "golden"


@pytest.mark.parametrize("name", ["small_8", "event_33_drops_late", "event_128_top8"])
def test_golden_files_round_trip_through_the_database(db: Database, name: str) -> None:
    text = (GOLDEN / f"{name}.json").read_text(encoding="utf-8")
    original = parse_tournament(text)
    tid = import_tournament(db, text, actor=ORGANIZER, source=f"{name}.json").id
    exported = export_tournament(db, tid)
    assert parse_tournament(exported) == original
    assert exported == dump_tournament(original)
    view = get_standings(db, tid)
    assert standings_json(view.tournament) == standings_json(original)
    expected = GOLDEN / f"{name}.standings.json"
    if expected.exists():
        assert standings_json(view.tournament) == json.loads(expected.read_text(encoding="utf-8"))

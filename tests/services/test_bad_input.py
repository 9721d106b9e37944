"""Bad input gets a clear ``UserError`` and leaves the database exactly as it was: unknown ids,
a player registered twice, changes after the start or the finish, malformed import files."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from tests.services.builders import JUDGE, ORGANIZER, event, offline_event, play_round, snapshot
from turnir.domain.model import Settings
from turnir.errors import ConflictError, NotFoundError, UserError
from turnir.formats.players_csv import PlayerLine
from turnir.formats.tournament_file import dump_tournament
from turnir.services.players import (
    check_in,
    drop_player,
    late_entry,
    register_player,
    register_players,
)
from turnir.services.rounds import start_round, swap_seats, undo_round
from turnir.services.tournaments import create_tournament, find_tournament, finish_tournament
from turnir.services.transfer import export_tournament, import_tournament
from turnir.storage.database import Database


def refused(db: Database, action: Callable[[], object], error: type[UserError],
            message: str) -> UserError:
    before = snapshot(db)
    with pytest.raises(error, match=message) as caught:
        action()
    assert snapshot(db) == before
    return caught.value


def test_a_player_registered_twice(db: Database) -> None:
    tid = event(db, 3)
    refused(db, lambda: register_player(db, tid, name="  игрок   02 ", actor=ORGANIZER),
            UserError, "already registered as #2")
    refused(db, lambda: register_players(db, tid, [PlayerLine("Новый"), PlayerLine("ИГРОК 01")],
                                         actor=ORGANIZER), UserError, "already registered as #1")
    refused(db, lambda: register_players(db, tid, [PlayerLine("Двойник"), PlayerLine("двойник")],
                                         actor=ORGANIZER), UserError, "already player")
    refused(db, lambda: register_player(db, tid, name="   ", actor=ORGANIZER), UserError,
            "name is empty")
    refused(db, lambda: register_player(db, tid, name="Икс", actor=ORGANIZER, byes=-1),
            UserError, "negative")
    refused(db, lambda: register_player(db, tid, name="Икс", actor=ORGANIZER, person_id=999),
            NotFoundError, "no person #999")


def test_unknown_ids(db: Database) -> None:
    tid = event(db, 4, rounds=2)
    refused(db, lambda: register_player(db, 999, name="X", actor=ORGANIZER), NotFoundError,
            "no tournament #999")
    refused(db, lambda: find_tournament(db, "Нет такого"), NotFoundError, "no tournament")
    refused(db, lambda: drop_player(db, tid, 77, actor=JUDGE), NotFoundError, "no player #77")
    refused(db, lambda: drop_player(db, tid, "Никто", actor=JUDGE), NotFoundError,
            "no player named")
    refused(db, lambda: drop_player(db, tid, "Игрок", actor=JUDGE), UserError,
            "matches several players")
    refused(db, lambda: check_in(db, tid, 12, actor=JUDGE), NotFoundError, "no player #12")
    start_round(db, tid, actor=ORGANIZER)
    refused(db, lambda: swap_seats(db, tid, 4, 1, 2, actor=JUDGE), NotFoundError, "no round 4")


def test_changes_not_allowed_now(db: Database) -> None:
    tid = event(db, 4, rounds=1)
    start_round(db, tid, actor=ORGANIZER)
    refused(db, lambda: register_player(db, tid, name="Поздно", actor=ORGANIZER),
            ConflictError, "late entry")
    refused(db, lambda: start_round(db, tid, actor=ORGANIZER), ConflictError, "not finished")
    undo_round(db, tid, actor=ORGANIZER)
    play_round(db, tid)
    drop_player(db, tid, 1, actor=JUDGE)
    refused(db, lambda: drop_player(db, tid, 1, actor=JUDGE), ConflictError, "already dropped")
    finish_tournament(db, tid, actor=ORGANIZER)
    for action in (lambda: late_entry(db, tid, name="Z", actor=ORGANIZER),
                   lambda: check_in(db, tid, 2, actor=JUDGE),
                   lambda: undo_round(db, tid, actor=ORGANIZER)):
        refused(db, action, ConflictError, "finished")


def test_stale_tournament_version(db: Database) -> None:
    tid = event(db, 4, rounds=2)
    seen = find_tournament(db, tid).version
    register_player(db, tid, name="Пятый", actor="Помощник")
    error = refused(db, lambda: start_round(db, tid, actor=ORGANIZER, expected_version=seen),
                    ConflictError, "changed by Помощник")
    assert error.code == "stale_version"
    start_round(db, tid, actor=ORGANIZER, expected_version=seen + 1)


def test_bad_settings_and_seed(db: Database) -> None:
    refused(db, lambda: create_tournament(db, name="X", actor=ORGANIZER,
                                          settings=Settings(best_of=2)), UserError, "best-of")
    refused(db, lambda: create_tournament(db, name="X", actor=ORGANIZER, seed=2**64),
            UserError, "64 bits")
    refused(db, lambda: create_tournament(db, name=" ", actor=ORGANIZER), UserError, "name")


def _file_with(change: Callable[[dict[str, object]], None]) -> str:
    data = json.loads(dump_tournament(offline_event()))
    change(data)
    return json.dumps(data, ensure_ascii=False)


MALFORMED = {
    "not json": ("{ this is not json", "not valid JSON"),
    "wrong shape": (_file_with(lambda d: d.update(players="everyone")), "players"),
    "unknown player": (_file_with(lambda d: d["rounds"][0]["pairings"][0].update(a=404)),
                       "unknown player #404"),
    "result on a bye": (_file_with(lambda d: d["rounds"][0]["pairings"][-1].update(
        result={"wins_a": 2, "wins_b": 0, "outcome": "a_wins"})), "bye"),
    "duplicate name": (_file_with(lambda d: d["players"][1].update(
        name=d["players"][0]["name"].upper())), "already player"),
    "huge seed": (_file_with(lambda d: d.update(seed=2**70)), "64 bits"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_import_file_leaves_the_database_unchanged(db: Database, case: str) -> None:
    event(db, 2)
    text, message = MALFORMED[case]
    error = refused(db, lambda: import_tournament(db, text, actor=ORGANIZER, source="cup.json"),
                    UserError, message)
    assert error.message.startswith("cup.json") or case == "huge seed"


def test_import_then_export_needs_a_known_tournament(db: Database) -> None:
    refused(db, lambda: export_tournament(db, 5), NotFoundError, "no tournament #5")

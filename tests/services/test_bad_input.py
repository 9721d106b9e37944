"""Bad input gets a clear ``UserError`` and leaves the database exactly as it was: unknown ids,
a player registered twice, changes after the start or the finish, malformed import files."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction

import pytest

from tests.services.builders import JUDGE, ORGANIZER, event, offline_event, play_round, snapshot
from tests.services.penalty_builders import give, judged_event
from turnir.domain.model import Settings
from turnir.domain.results import PointsTable
from turnir.domain.text import LOGIN_LEN, NAME_LEN, NOTE_LEN, PLACE_LEN, REASON_LEN
from turnir.errors import ConflictError, NotFoundError, UserError
from turnir.formats.players_csv import PlayerLine
from turnir.formats.rating_list import RatingListLine
from turnir.formats.tournament_file import dump_tournament
from turnir.services.accounts import AccountRole, authenticate, create_account, make_hasher
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.players import (
    check_in,
    drop_player,
    late_entry,
    register_player,
    register_players,
)
from turnir.services.rating_lists import import_rating_list
from turnir.services.rating_queries import find_person, leaderboard
from turnir.services.rating_terms import kopecks
from turnir.services.ratings import change_rating_settings
from turnir.services.rounds import start_round, swap_seats, undo_round
from turnir.services.tournaments import create_tournament, find_tournament, finish_tournament
from turnir.services.transfer import export_tournament, import_tournament
from turnir.storage.database import Database
from turnir.storage.ratings import parse_exact
from turnir.storage.tables import audit_log, drops, entries, judges, people, tournaments
from turnir.storage.tables_accounts import accounts
from turnir.storage.tables_penalties import penalties


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


# ----- issue 10 item 8: text is checked in one place, the same on both databases ------------


def test_item8_nul_control_characters_and_long_names_are_refused(db: Database) -> None:
    tid = event(db, 3)
    cases: list[tuple[Callable[[], object], str]] = [
        (lambda: register_player(db, tid, name="Анна\x00Котова", actor=ORGANIZER),
         r"the name contains a control character \(U\+0000\) at position 5"),
        (lambda: register_player(db, tid, name="Анна\x1b[2J", actor=ORGANIZER),
         r"the name contains a control character \(U\+001B\)"),
        (lambda: register_player(db, tid, name="я" * 201, actor=ORGANIZER),
         "the name is longer than 200 characters"),
        (lambda: register_player(db, tid, name="ß" * 150, actor=ORGANIZER),
         "the name is longer than 200 characters"),
        (lambda: register_player(db, tid, name="Анна", city="я" * 101, actor=ORGANIZER),
         "the city is longer than 100 characters"),
        (lambda: register_player(db, tid, name="Анна", club="Клуб\x85", actor=ORGANIZER),
         r"the club contains a control character \(U\+0085\)"),
        (lambda: register_players(db, tid, [PlayerLine("Вера"), PlayerLine("Глеб\x00")],
                                  actor=ORGANIZER), "player 2: the name contains a control"),
        (lambda: register_player(db, tid, name="Анна", actor="Орг\x00"),
         "the actor's name contains a control character"),
        (lambda: create_tournament(db, name="Кубок\x00", actor=ORGANIZER),
         "the tournament's name contains a control character"),
        (lambda: create_tournament(db, name="К" * 201, actor=ORGANIZER),
         "the tournament's name is longer than 200"),
        (lambda: add_judge(db, tid, name="Судья\x00", role=JudgeRole.FLOOR_JUDGE,
                           actor=ORGANIZER), "the judge's name contains a control character"),
        (lambda: add_judge(db, tid, name="С" * 201, role=JudgeRole.FLOOR_JUDGE,
                           actor=ORGANIZER), "the judge's name is longer than 200"),
        (lambda: drop_player(db, tid, 1, actor=JUDGE, reason="ушёл\x00"),
         "the reason contains a control character"),
        (lambda: drop_player(db, tid, 1, actor=JUDGE, reason="я" * 501),
         "the reason is longer than 500"),
        (lambda: drop_player(db, tid, "Игрок\x00", actor=JUDGE),
         "the player contains a control character"),
        (lambda: find_tournament(db, "Кубок\x00"), "the tournament contains a control"),
        (lambda: leaderboard(db, search="Анна\x00"), "the search contains a control character"),
        (lambda: leaderboard(db, search="я" * 201), "the search is longer than 200"),
        (lambda: leaderboard(db, city="Тверь\x00"), "the city contains a control character"),
        (lambda: find_person(db, "Анна\x00"), "the person contains a control character"),
        (lambda: import_rating_list(db, [RatingListLine("Анна\x00", "", "", Decimal(120),
                                                        None)], actor=ORGANIZER),
         "line 1: the name contains a control character"),
        (lambda: create_account(db, login="org\x00", name="Орг", password="password1",
                                role=AccountRole.ORGANIZER, actor=ORGANIZER,
                                hasher=make_hasher(fast=True)), "login"),
        (lambda: create_account(db, login="org", name="О" * 201, password="password1",
                                role=AccountRole.ORGANIZER, actor=ORGANIZER,
                                hasher=make_hasher(fast=True)),
         "the account's name is longer than 200"),
    ]
    for action, message in cases:
        error = refused(db, action, UserError, message)
        assert error.code in ("bad_text", "bad_login"), (message, error.code)
    with pytest.raises(UserError, match="wrong login or password"):
        authenticate(db, "org\x00", "password1", hasher=make_hasher(fast=True))


def test_item8_look_alike_names_are_duplicates(db: Database) -> None:
    tid = event(db, 0)
    first = register_player(db, tid, name="  Анна   Котова ", city=" Тверь ", actor=ORGANIZER)
    assert (first.name, first.city) == ("Анна Котова", "Тверь")
    for look_alike in ("Анна Кото\u200bва", "\ufeffанна котова", "Анна\u00a0Котова\u2060",
                       "АННА КОТОВА", "Анна\u200d \u200cКотова"):
        refused(db, lambda name=look_alike: register_player(db, tid, name=name,
                                                           actor=ORGANIZER),
                UserError, "Анна Котова is already registered as #1")
    refused(db, lambda: register_players(db, tid, [PlayerLine("Борис"),
                                                   PlayerLine("Бо\u200bрис")],
                                         actor=ORGANIZER), UserError, "already player")
    found = drop_player(db, tid, "анна кото\u200bва", actor=JUDGE)
    assert found.number == 1
    add_judge(db, tid, name="Судья Ким", role=JudgeRole.FLOOR_JUDGE, actor=ORGANIZER)
    refused(db, lambda: add_judge(db, tid, name="Судья\u200b Ким", role=JudgeRole.FLOOR_JUDGE,
                                  actor=ORGANIZER), UserError, "already floor judge")


def test_item8_penalty_notes_are_checked(db: Database) -> None:
    tid = judged_event(db, 4)
    start_round(db, tid, actor=ORGANIZER)
    refused(db, lambda: give(db, tid, 1, "slow_play", note="заметка\x00"), UserError,
            "the note contains a control character")
    refused(db, lambda: give(db, tid, 1, "slow_play", note="я" * 1001), UserError,
            "the note is longer than 1000")
    assert give(db, tid, 1, "slow_play", note=" две\r\nстроки ").penalty.note == "две\nстроки"


def test_item8_lengths_are_the_column_lengths() -> None:
    assert (people.c.name.type.length, people.c.name_key.type.length) == (NAME_LEN, NAME_LEN)
    assert (entries.c.name.type.length, tournaments.c.name.type.length) == (NAME_LEN, NAME_LEN)
    assert (judges.c.name.type.length, accounts.c.name.type.length) == (NAME_LEN, NAME_LEN)
    assert entries.c.city.type.length == entries.c.club.type.length == PLACE_LEN
    assert accounts.c.login.type.length == LOGIN_LEN
    assert drops.c.reason.type.length == REASON_LEN
    assert penalties.c.note.type.length == NOTE_LEN
    assert audit_log.c.actor.type.length == NAME_LEN


# ----- issue 10 item 5: numbers people type are bounded before anything is built -----------


def test_item5_huge_byes_are_refused_by_the_swiss_rounds(db: Database) -> None:
    tid = event(db, 2, rounds=3)
    for byes, message in ((99999999999999999999, "99999999999999999999 byes: at most 3"),
                          (4, "4 byes: at most 3 .the Swiss rounds")):
        refused(db, lambda b=byes: register_player(db, tid, name="Икс", byes=b,
                                                    actor=ORGANIZER), UserError, message)
        refused(db, lambda b=byes: register_players(db, tid, [PlayerLine("Икс", byes=b)],
                                                     actor=ORGANIZER), UserError,
                "player 1 .'Икс'.: " + message)
    assert register_player(db, tid, name="Икс", byes=3, actor=ORGANIZER).granted_byes == (
        1, 2, 3)
    unset = event(db, 2, rounds=None)
    refused(db, lambda: register_player(db, unset, name="Игрек", byes=51, actor=ORGANIZER),
            UserError, "at most 50 .the most Swiss rounds")


def test_item5_settings_and_money_are_bounded(db: Database) -> None:
    for settings, message in ((Settings(swiss_rounds=10**9), "Swiss rounds: a whole number"),
                              (Settings(top_size=2**40), "top size: a whole number from 0"),
                              (Settings(points=PointsTable(win=10**12)), "points for a win")):
        refused(db, lambda s=settings: create_tournament(db, name="X", actor=ORGANIZER,
                                                         settings=s), UserError, message)
    started = time.monotonic()
    for text in ("1e999999999", "300" + "0" * 30):
        with pytest.raises(UserError, match="entry fee must be"):
            kopecks(text, "the entry fee")
    for text in ("1e999999999", "1000", "12345678901/98765432101"):
        with pytest.raises(UserError, match="the K must be"):
            parse_exact(text, "the K")
    assert time.monotonic() - started < 1
    assert parse_exact("7/5", "the K") == Fraction(7, 5)
    refused(db, lambda: change_rating_settings(db, actor=ORGANIZER, many_participants=2**40),
            UserError, "many participants: a whole number from 4")

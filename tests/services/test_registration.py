"""Issue 12, registration: check in all, a drop undone before the next round (P-7), the surname
kept apart from the given name (lists in surname order), the players list found by name and
filtered, and a players file with surname and given name columns. On SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from tests.services.builders import ORGANIZER, event, play_round
from turnir.domain.names import full_name, name_parts, surname_order
from turnir.errors import ConflictError, UserError
from turnir.formats.players_csv import PlayerLine, parse_players_csv
from turnir.services.players import (
    Shown,
    check_in,
    check_in_all,
    drop_player,
    enter_player,
    list_players,
    register_player,
    register_players,
    reinstate_player,
    select_players,
)
from turnir.services.queries import audit_log
from turnir.services.tournaments import get_tournament
from turnir.storage.database import Database


def test_names_read_given_name_first() -> None:
    assert name_parts("Ольга Волкова") == ("Волкова", "Ольга")
    assert name_parts("Иван Петрович Сидоров") == ("Сидоров", "Иван Петрович")
    assert name_parts("Иван Петров 2") == ("Петров 2", "Иван")  # a demo duplicate's number
    assert name_parts("Кузнецов") == ("Кузнецов", "")
    assert full_name("Римский-Корсаков", "Николай") == "Николай Римский-Корсаков"
    assert surname_order("Пётр Ёлкин") == ("елкин", "петр")
    assert surname_order("Анна Мария Фон Штейн", "Фон Штейн") == ("фон штейн", "анна мария")


def test_check_in_all_checks_in_only_those_not_yet_present(db: Database) -> None:
    tid = event(db, 6)
    check_in(db, tid, 2, actor=ORGANIZER)
    drop_player(db, tid, 5, actor=ORGANIZER)
    checked = check_in_all(db, tid, actor=ORGANIZER)
    assert [p.number for p in checked] == [1, 3, 4, 6]  # not #2 (present), not #5 (dropped)
    players = {p.number: p for p in list_players(db, tid)}
    assert all(players[n].checked_in for n in (1, 2, 3, 4, 6))
    assert not players[5].checked_in
    logged = [e for e in audit_log(db, tid) if e.action == "player.check_in"]
    assert len(logged) == 5  # #2 by hand, then one entry per player checked in
    assert check_in_all(db, tid, actor=ORGANIZER) == []


def test_a_drop_is_undone_while_the_next_round_is_not_paired(db: Database) -> None:
    """P-7: dropped after round N, back while round N+1 is not paired; paired again then."""
    tid = event(db, 6)
    play_round(db, tid)
    drop_player(db, tid, 3, actor=ORGANIZER)
    back = reinstate_player(db, tid, 3, actor=ORGANIZER)
    assert back.dropped_after is None
    entry = [e for e in audit_log(db, tid) if e.action == "player.reinstate"][-1]
    assert entry.before == {"dropped_after": 1, "version": back.version - 1}
    view = play_round(db, tid)
    assert any(3 in (line.a, line.b) for line in view.round.pairings)


def test_a_drop_before_round_1_is_undone_before_round_1(db: Database) -> None:
    tid = event(db, 4)
    drop_player(db, tid, 4, actor=ORGANIZER)  # dropped after round 0
    assert reinstate_player(db, tid, 4, actor=ORGANIZER).dropped_after is None


def test_reinstating_after_the_next_round_is_paired_is_refused(db: Database) -> None:
    tid = event(db, 6)
    play_round(db, tid)
    drop_player(db, tid, 3, actor=ORGANIZER)
    play_round(db, tid)  # round 2 paired without #3
    with pytest.raises(ConflictError, match="round 2 is already paired") as refused:
        reinstate_player(db, tid, 3, actor=ORGANIZER)
    assert refused.value.code == "reinstate_too_late"
    assert get_tournament(db, tid).tournament.player(3).dropped_after == 1
    with pytest.raises(ConflictError, match="has not dropped"):
        reinstate_player(db, tid, 2, actor=ORGANIZER)


def test_surname_and_given_name_kept_apart(db: Database) -> None:
    tid = event(db, 0)
    apart = register_player(db, tid, surname=" Ковалёв ", given_name="Иван", actor=ORGANIZER)
    assert (apart.name, apart.surname, apart.given_name) == ("Иван Ковалёв", "Ковалёв", "Иван")
    one = register_player(db, tid, name="Ольга Волкова", actor=ORGANIZER)
    assert (one.surname, one.given_name) == ("Волкова", "Ольга")
    double = enter_player(db, tid, surname="Фон Штейн", given_name="Анна", actor=ORGANIZER)
    assert double.surname == "Фон Штейн"
    with pytest.raises(UserError, match="is already registered"):
        register_player(db, tid, surname="ковалёв", given_name="иван", actor=ORGANIZER)
    with pytest.raises(UserError, match="empty"):
        register_player(db, tid, given_name="Иван", actor=ORGANIZER)
    loaded = get_tournament(db, tid).tournament.player(3)
    assert loaded.surname == "Фон Штейн"


def test_the_players_list_sorts_by_surname_and_is_found_and_filtered(db: Database) -> None:
    tid = event(db, 0)
    register_players(db, tid, [PlayerLine(n) for n in (
        "Ольга Волкова", "Иван Ковалёв", "Анна Котова", "Пётр Андреев")], actor=ORGANIZER)
    players = list_players(db, tid)
    assert [p.name for p in select_players(players)] == [
        "Пётр Андреев", "Ольга Волкова", "Иван Ковалёв", "Анна Котова"]
    assert [p.name for p in select_players(players, query="ковалев")] == ["Иван Ковалёв"]
    assert [p.name for p in select_players(players, query="Ковалёв Иван")] == ["Иван Ковалёв"]
    check_in(db, tid, 2, actor=ORGANIZER)
    drop_player(db, tid, 4, actor=ORGANIZER)
    players = list_players(db, tid)
    assert [p.number for p in select_players(players, shown=Shown.CHECKED_IN)] == [2]
    assert [p.number for p in select_players(players, shown=Shown.NOT_CHECKED_IN)] == [1, 3]
    assert [p.number for p in select_players(players, shown=Shown.DROPPED)] == [4]
    found = select_players(players, query="ков", shown=Shown.NOT_CHECKED_IN)
    assert [p.number for p in found] == [1]  # Волкова; Ковалёв is checked in


def test_a_players_file_with_surname_and_given_name_columns(db: Database) -> None:
    lines = parse_players_csv("фамилия;имя;отчество;город\n"
                              "Иванова;Мария;Петровна;Казань\n"
                              "Смирнов;Алексей;;Москва\n")
    assert [(ln.name, ln.surname, ln.given_name) for ln in lines] == [
        ("Мария Петровна Иванова", "Иванова", "Мария Петровна"),
        ("Алексей Смирнов", "Смирнов", "Алексей")]
    english = parse_players_csv("Surname,Given name,City\nVolkova,Olga,Tver\n")
    assert (english[0].name, english[0].surname) == ("Olga Volkova", "Volkova")
    assert parse_players_csv("name,city\nОльга Волкова,Тверь\n")[0].surname == ""
    with pytest.raises(UserError, match="line 2"):
        parse_players_csv("фамилия,имя\n,Мария\n")
    tid = event(db, 0)
    register_players(db, tid, lines, actor=ORGANIZER)
    assert [(p.surname, p.given_name) for p in list_players(db, tid)] == [
        ("Иванова", "Мария Петровна"), ("Смирнов", "Алексей")]

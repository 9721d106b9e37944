"""Import and export of the rating list (CSV and JSON) on SQLite and PostgreSQL: round trips,
matching people by name and city, replaying the history on an imported list, refusals that
change nothing."""

from __future__ import annotations

import os
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import insert

from tests.db_fixtures import create_pg_database, drop_pg_database
from tests.services.builders import snapshot
from tests.services.rating_builders import (
    HEAD,
    ORGANIZER,
    assert_book_consistent,
    finished_event,
    load_list,
)
from turnir.errors import UserError
from turnir.formats.rating_list import (
    RatingListLine,
    dump_rating_list_csv,
    dump_rating_list_json,
    parse_rating_list,
)
from turnir.services.queries import audit_log
from turnir.services.rating_lists import export_rating_list, import_rating_list
from turnir.services.rating_queries import find_person, player_rating
from turnir.services.ratings import submit_tournament
from turnir.storage.database import Database
from turnir.storage.tables import people


@pytest.fixture
def other_db(db: Database, request: pytest.FixtureRequest, tmp_path: Path
             ) -> Iterator[Database]:
    """A second, empty database of the same kind as ``db``."""
    if db.is_sqlite:
        other = Database.open(f"sqlite:///{tmp_path / 'other.db'}")
        yield other
        other.close()
        return
    server: str = request.getfixturevalue("pg_server_url")
    name = f"turnir_other_{os.getpid()}"
    url = create_pg_database(server, name, template=request.getfixturevalue("pg_template"))
    other = Database.open(url)
    yield other
    other.close()
    drop_pg_database(server, name)


def line(name: str, professional: str, warlock: str | None = None, *, city: str = "Москва",
         club: str = "") -> RatingListLine:
    return RatingListLine(name, city, club, Decimal(professional),
                          None if warlock is None else Decimal(warlock))


def test_round_trip_csv_and_json_into_an_empty_database(db: Database, other_db: Database
                                                        ) -> None:
    load_list(db, ["Олег", "Пётр"], ["140.50", "120"], ["130.25", None])
    for tid in (finished_event(db, ["Анна", "Олег", "Вера", "Пётр"], name="Т1"),
                finished_event(db, ["Пётр", "Анна", "Вера", "Глеб", "Денис"], name="Т2")):
        submit_tournament(db, tid, actor=HEAD)
    exported = export_rating_list(db)
    assert [e.professional for e in exported] == sorted(
        (e.professional for e in exported), reverse=True)
    assert len(exported) == 6 and {e.tournaments for e in exported} == {1, 2}
    for text in (dump_rating_list_csv(exported), dump_rating_list_json(exported)):
        parsed = parse_rating_list(text)
        assert parsed == exported
    result = import_rating_list(other_db, parse_rating_list(dump_rating_list_json(exported)),
                                actor=ORGANIZER)
    assert (result.lines, result.created, result.matched) == (6, 6, 0)
    assert result.replay.tournaments == 0 and len(result.replay.changed) == 6
    again = export_rating_list(other_db)
    assert [(e.name, e.city, e.professional, e.warlock) for e in again] == [
        (e.name, e.city, e.professional, e.warlock) for e in exported]
    assert {e.tournaments for e in again} == {0}
    csv_again = import_rating_list(other_db, parse_rating_list(dump_rating_list_csv(exported)),
                                   actor=ORGANIZER, replace_all=True)
    assert csv_again.matched == 6 and csv_again.replay.changed == ()


def test_import_matches_people_by_name_and_city_and_replays_the_history(db: Database) -> None:
    tid = finished_event(db, ["Анна", "Борис", "Вера", "Глеб"])
    submit_tournament(db, tid, actor=HEAD)
    anna = find_person(db, "Анна")
    assert player_rating(db, anna.id).professional == Decimal("104.00")
    result = import_rating_list(db, [line(" анна ", "150"), line("Анна", "120", city="Тверь"),
                                     line("Новичок", "101.5", "110", club="Клуб")],
                                actor=ORGANIZER, source="list.csv")
    assert (result.matched, result.created) == (1, 2)
    profile = player_rating(db, anna.id)
    assert profile.start_professional == Decimal("150.00")
    assert profile.history[0].professional_before == Decimal("150.00")
    assert [c.person.name for c in result.replay.changed][:1] == ["Анна"]
    assert "Анна" in {c.person.name for c in result.replay.changed}
    newcomer = find_person(db, "Новичок")
    assert (newcomer.club, player_rating(db, newcomer.id).warlock) == ("Клуб", Decimal("110.00"))
    assert len(audit_log(db, tid, action="rating")) == 1  # the import is not the tournament's
    assert_book_consistent(db)


def test_replace_all_drops_people_no_longer_listed(db: Database) -> None:
    load_list(db, ["Олег", "Пётр"], ["140", "120"])
    load_list(db, ["Олег"], ["130"])
    assert {e.name: e.professional for e in export_rating_list(db)} == {
        "Олег": Decimal("130.00"), "Пётр": Decimal("120.00")}
    result = import_rating_list(db, [line("Олег", "131")], actor=ORGANIZER, replace_all=True)
    assert [(c.person.name, c.new_professional) for c in result.replay.changed] == [
        ("Олег", Decimal("131.00")), ("Пётр", None)]
    assert [e.name for e in export_rating_list(db)] == ["Олег"]


def test_refused_imports_change_nothing(db: Database) -> None:
    load_list(db, ["Олег"], ["140"])
    with db.write() as conn:
        for _ in range(2):
            conn.execute(insert(people).values(name="Двойник", name_key="двойник",
                                               city="Москва", club="",
                                               created_at=conn.execute(
                                                   people.select()).first().created_at))
    before = snapshot(db)
    with pytest.raises(UserError, match="several people") as caught:
        import_rating_list(db, [line("Двойник", "120")], actor=ORGANIZER)
    assert caught.value.code == "ambiguous_person"
    with pytest.raises(UserError, match="already listed on line 1"):
        import_rating_list(db, [line("Пётр", "120"), line("пётр", "121")], actor=ORGANIZER)
    with pytest.raises(UserError, match="nobody"):
        import_rating_list(db, [], actor=ORGANIZER)
    assert snapshot(db) == before


@pytest.mark.parametrize(("text", "message"), [
    ("name,professional\nАнна,99.99\n", "line 2: the professional rating 99.99 is below 100"),
    ("name,professional\nАнна,120.005\n", "line 2: the professional rating '120.005'"),
    ("name,professional,warlock\nАнна,120,abc\n", "line 2: the Warlock rating 'abc'"),
    ("name,city\nАнна,Москва\n", "needs a 'professional' column"),
    ("name,professional\n,120\n", "line 2: the name is empty"),
    ('{"format": "other", "ratings": []}', "not a turnir rating list"),
    ('{"format": "turnir-rating-list", "version": 9, "ratings": []}', "version 9"),
    ("[1]", "rating 1: expected an object"),
    ("{not json", "not valid JSON"),
])
def test_bad_rating_lists_are_refused_with_the_place(text: str, message: str) -> None:
    with pytest.raises(UserError, match=message):
        parse_rating_list(text, source="list")


def test_russian_headers_semicolons_and_decimal_commas() -> None:
    text = "\ufeffИмя;Город;Клуб;Рейтинг;Варлок\nАнна Котова;Тверь;Ладья;123,45;\n\n"
    assert parse_rating_list(text) == [
        RatingListLine("Анна Котова", "Тверь", "Ладья", Decimal("123.45"), None)]
    assert parse_rating_list('[{"name": "Анна", "professional": 120.5, "warlock": "101"}]') == [
        RatingListLine("Анна", "", "", Decimal("120.50"), Decimal("101.00"))]

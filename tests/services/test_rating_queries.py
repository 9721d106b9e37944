"""What the pages read from the rating database, on SQLite and PostgreSQL: the leaderboard
(both ratings, search, city/club filters, paging, ranks), a player's profile with the history
and its chart, the tournament's rating report, the list of rated tournaments."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from decimal import Decimal

import pytest

from tests.services.rating_builders import HEAD, ORGANIZER, finished_event, load_list
from turnir.domain.ratings import RatedFormat
from turnir.errors import NotFoundError, UserError
from turnir.formats.rating_list import RatingListLine
from turnir.services.rating_lists import import_rating_list
from turnir.services.rating_queries import (
    RatingKind,
    find_person,
    leaderboard,
    leaderboard_filters,
    player_rating,
    rated_tournaments,
)
from turnir.services.ratings import submit_tournament
from turnir.storage.database import Database

SVG = "{http://www.w3.org/2000/svg}"


def seeded(db: Database) -> None:
    import_rating_list(db, [
        RatingListLine("Анна Котова", "Тверь", "Ладья", Decimal("150"), Decimal("200")),
        RatingListLine("Борис Котов", "Москва", "Ферзь", Decimal("150"), None),
        RatingListLine("Вера Лаптева", "Москва", "Ладья", Decimal("130"), Decimal("120")),
        RatingListLine("Глеб Сидоров", "Самара", "", Decimal("100"), Decimal("100")),
        RatingListLine("Денис Котельников", "Тверь", "", Decimal("101"), None),
    ], actor=ORGANIZER)


def test_leaderboard_ranks_both_ratings(db: Database) -> None:
    seeded(db)
    board = leaderboard(db)
    assert [(line.rank, line.person.name) for line in board.lines] == [
        (1, "Анна Котова"), (1, "Борис Котов"), (3, "Вера Лаптева"), (4, "Денис Котельников"),
        (5, "Глеб Сидоров")]
    assert board.total == 5 and board.pages == 1
    warlock = leaderboard(db, by=RatingKind.WARLOCK)
    assert [(line.rank, line.person.name, line.warlock) for line in warlock.lines] == [
        (1, "Анна Котова", Decimal("200.00")), (2, "Вера Лаптева", Decimal("120.00")),
        (3, "Глеб Сидоров", Decimal("100.00"))]


def test_leaderboard_search_filters_and_paging(db: Database) -> None:
    seeded(db)
    assert [line.person.name for line in leaderboard(db, search="  КОТ ").lines] == [
        "Анна Котова", "Борис Котов", "Денис Котельников"]
    by_city = leaderboard(db, city="Тверь")
    assert [(line.rank, line.person.name) for line in by_city.lines] == [
        (1, "Анна Котова"), (4, "Денис Котельников")]  # ranks over the whole list
    assert [line.person.name for line in leaderboard(db, club="Ладья", search="вера").lines] == [
        "Вера Лаптева"]
    page = leaderboard(db, page=2, per_page=2)
    assert [line.person.name for line in page.lines] == ["Вера Лаптева", "Денис Котельников"]
    assert (page.total, page.pages) == (5, 3)
    assert leaderboard(db, search="100%_").lines == ()
    with pytest.raises(UserError):
        leaderboard(db, page=0)
    filters = leaderboard_filters(db)
    assert filters.cities == ("Москва", "Самара", "Тверь")
    assert filters.clubs == ("Ладья", "Ферзь")


def test_profile_history_ranks_and_chart(db: Database) -> None:
    names = ["Анна", "Борис", "Вера", "Глеб"]
    load_list(db, ["Анна"], ["120"], ["150"])
    first = finished_event(db, names, name="Осенний кубок")
    second = finished_event(db, list(reversed(names)), name="Зимний кубок")
    submit_tournament(db, first, actor=HEAD)
    submit_tournament(db, second, actor=HEAD)
    anna = find_person(db, "анна")
    profile = player_rating(db, anna.id)
    assert profile.rated and profile.tournaments == 2
    assert [(h.tournament_name, h.place, h.participants, h.professional_k) for h in
            profile.history] == [("Осенний кубок", 1, 4, 1), ("Зимний кубок", 4, 4, 1)]
    assert profile.history[0].professional_before == Decimal("120.00")
    assert profile.history[1].professional_before == profile.history[0].professional_after
    assert profile.history[0].rated_format is RatedFormat.CONSTRUCTED
    assert profile.professional == profile.history[-1].professional_after
    assert profile.professional_rank == 1 and profile.warlock_rank == 1
    assert [p.professional for p in profile.chart] == [
        Decimal("120.00"), *(h.professional_after for h in profile.history)]
    assert [p.warlock for p in profile.chart] == [
        Decimal("150.00"), *(h.warlock_after for h in profile.history)]
    assert profile.chart[0].when is None and profile.chart[1].when is not None
    svg = ET.fromstring(profile.chart_svg())
    circles = svg.findall(f".//{SVG}g[@class='series professional']/{SVG}circle")
    assert len(circles) == 3
    assert "Зимний кубок" in ET.tostring(svg, encoding="unicode")

    boris = player_rating(db, find_person(db, "Борис").id)
    assert boris.start_professional == Decimal("100.00") and boris.start_warlock is None
    assert boris.chart[0].warlock is None and boris.history[0].warlock_before is None
    assert [t.name for t in rated_tournaments(db)] == ["Зимний кубок", "Осенний кубок"]


def test_a_person_without_ratings_and_finding_people(db: Database) -> None:
    finished_event(db, ["Анна Котова", "Анна Петрова", "Вера", "Глеб"])
    nobody = player_rating(db, find_person(db, "Вера").id)
    assert not nobody.rated and nobody.history == () and nobody.professional_rank is None
    assert nobody.professional == Decimal("100.00") and len(nobody.chart) == 1
    assert find_person(db, f"#{nobody.person.id}") == nobody.person
    with pytest.raises(NotFoundError):
        find_person(db, "Котова")  # a part of a name finds rated players only
    load_list(db, ["Анна Котова", "Анна Петрова"], ["110", "120"])
    assert find_person(db, "котова").name == "Анна Котова"
    with pytest.raises(UserError, match="several people"):
        find_person(db, "Анна")
    with pytest.raises(NotFoundError):
        find_person(db, "#999")
    with pytest.raises(NotFoundError):
        player_rating(db, 999)

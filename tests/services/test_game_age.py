"""C-2: online starter constructed is for characters under 18 game years — the entry check on
registration (both databases), the age's bounds, and a tabletop starter event that does not
check."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from turnir.domain.accounts import AccountRole
from turnir.errors import ForbiddenError, UserError
from turnir.formats.players_csv import PlayerLine
from turnir.services.accounts import create_account, make_hasher
from turnir.services.deck_formats import set_tournament_format
from turnir.services.game_age import (
    game_age_of,
    game_ages,
    parse_game_age,
    set_game_age,
    set_own_game_age,
)
from turnir.services.players import list_players, register_player, register_players
from turnir.services.tournaments import create_tournament
from turnir.storage import formats_repo
from turnir.storage.database import Database
from turnir.storage.repositories import person_for

ORG = "Организатор Орлов"
AT = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def a_format(db: Database, *, starter: bool, name: str = "Стартовый") -> int:
    with db.write() as conn:
        return formats_repo.insert_format(conn, {
            "name": name, "name_key": name.casefold(), "editions": [], "min_cards": 30,
            "max_cards": 50, "max_copies": 3, "max_horde_copies": 5, "starter": starter,
        }, at=AT, by=ORG)


def player_account(db: Database, login: str, name: str, age: int | None) -> int:
    """A player's account linked to a person; its age in game years set; the person's id."""
    with db.write() as conn:
        person = person_for(conn, name=name, city="", club="", at=AT)
    account = create_account(db, login=login, name=name, password="correct horse 12",
                             actor=ORG, person_id=person, hasher=make_hasher(fast=True))
    if age is not None:
        set_own_game_age(db, account.id, age, actor=name)
    return person


def starter_event(db: Database, *, online: bool) -> int:
    info = create_tournament(db, name=f"Старт {'онлайн' if online else 'в клубе'}", actor=ORG)
    set_tournament_format(db, info.id, actor=ORG, account_id=None,
                          format_id=a_format(db, starter=True), online=online)
    return info.id


def test_c2_online_starter_refuses_18_and_more_naming_the_rule_and_the_age(db: Database) -> None:
    tid = starter_event(db, online=True)
    adult = player_account(db, "adult", "Иван Взрослый", 18)
    with pytest.raises(UserError) as refused:
        register_player(db, tid, name="Иван Взрослый", person_id=adult, actor=ORG)
    text = refused.value.message
    assert "under 18 game years" in text and "C-2" in text and "is 18" in text
    assert refused.value.code == "game_age"
    assert list_players(db, tid) == []  # the refusal left nothing


def test_c2_online_starter_refuses_a_missing_age_and_a_player_without_account(
        db: Database) -> None:
    tid = starter_event(db, online=True)
    ageless = player_account(db, "ageless", "Пётр Безвозраста", None)
    with pytest.raises(UserError, match="gives no age in game years"):
        register_player(db, tid, name="Пётр Безвозраста", person_id=ageless, actor=ORG)
    with pytest.raises(UserError, match="gives no age in game years"):
        register_players(db, tid, [PlayerLine("Кто-то Без Учётной", "Москва")], actor=ORG)
    assert list_players(db, tid) == []


def test_c2_online_starter_takes_a_character_under_18(db: Database) -> None:
    tid = starter_event(db, online=True)
    young = player_account(db, "young", "Юный Воин", 17)
    entry = register_player(db, tid, name="Юный Воин", person_id=young, actor=ORG)
    assert entry.person_id == young


def test_c2_a_tabletop_starter_event_and_an_online_constructed_one_do_not_check(
        db: Database) -> None:
    tabletop = starter_event(db, online=False)
    register_players(db, tabletop, [PlayerLine("Игрок Без Возраста", "Москва")], actor=ORG)
    constructed = create_tournament(db, name="Конструктед онлайн", actor=ORG)
    set_tournament_format(db, constructed.id, actor=ORG, account_id=None,
                          format_id=a_format(db, starter=False, name="Обычный"), online=True)
    register_players(db, constructed.id, [PlayerLine("Игрок Без Возраста", "Москва")],
                     actor=ORG)
    assert len(list_players(db, tabletop)) == len(list_players(db, constructed.id)) == 1


def test_the_age_is_a_whole_number_from_0_to_1000(db: Database) -> None:
    player_account(db, "p1", "Игрок Один", None)
    for bad in (-1, 1001):
        with pytest.raises(UserError, match="from 0 to 1000"):
            set_game_age(db, "p1", bad, actor=ORG)
    for text in ("abc", "1.5", "-3", "12345", "١٢"):
        with pytest.raises(UserError, match="from 0 to 1000"):
            parse_game_age(text)
    assert parse_game_age(" ") is None and parse_game_age("0") == 0
    assert set_game_age(db, "P1", 1000, actor=ORG) == 1000
    assert set_game_age(db, "p1", None, actor=ORG) is None


def test_a_site_organizer_sets_an_age_and_a_player_only_their_own(db: Database) -> None:
    player_account(db, "kid", "Юный Игрок", None)
    other = create_account(db, login="other", name="Судья Другой", password="correct horse 12",
                           actor=ORG, role=AccountRole.FLOOR_JUDGE,
                           hasher=make_hasher(fast=True))
    boss = create_account(db, login="boss", name="Главный", password="correct horse 12",
                          actor=ORG, role=AccountRole.ORGANIZER, hasher=make_hasher(fast=True))
    with pytest.raises(ForbiddenError):
        set_game_age(db, "kid", 12, actor=other.name, account_id=other.id)
    set_game_age(db, "kid", 12, actor=boss.name, account_id=boss.id)
    kid = next(i for i, age in game_ages(db).items() if age == 12)
    assert game_age_of(db, kid) == 12


def test_a_bad_age_typed_in_a_form_is_refused_with_the_bounds_and_what_was_typed() -> None:
    from turnir.i18n import error_text

    for typed in ("abc", "1001", "-1", "12.5"):
        with pytest.raises(UserError) as raised:
            parse_game_age(typed)
        assert error_text(raised.value, "ru") == (
            f"возраст персонажа в игровых годах — целое число от 0 до 1000, а не «{typed}»")
    assert parse_game_age(" 1000 ") == 1000 and parse_game_age("") is None

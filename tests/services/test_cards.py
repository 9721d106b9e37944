"""The card catalogue as a use case (issue 13): import, search, the cached catalogue and who may
change it; on SQLite and PostgreSQL (the ``db`` fixture)."""

from __future__ import annotations

import csv
import io

import pytest

from turnir.domain.accounts import AccountRole
from turnir.domain.cards import Crystal
from turnir.errors import ForbiddenError
from turnir.formats.cards_file import CardFileError
from turnir.services import cards
from turnir.services.accounts import create_account, make_hasher
from turnir.services.audit import verify_log
from turnir.services.common import Database

HEADER = "название;выпуск;стоимость;кристалл;особенности;уникальность;другие названия\n"


def _file(*lines: str) -> bytes:
    return (HEADER + "".join(line + "\n" for line in lines)).encode()


def _account(db: Database, login: str, role: AccountRole) -> int:
    return create_account(db, login=login, name=login, password="пароль для теста", actor="t",
                          role=role, hasher=make_hasher(fast=True)).id


def test_the_sample_catalogue_loads_and_holds_decks_for_every_element(db: Database) -> None:
    done = cards.load_sample_cards(db, actor="организатор")
    assert done.added == done.total >= 120 and done.updated == 0
    catalogue = cards.card_catalogue(db)
    assert set(catalogue.editions()) == {"Образец: Начало", "Образец: Пробуждение"}
    by_element: dict[str, set[str]] = {}
    for card in catalogue.cards:
        by_element.setdefault(card.element, set()).add(card.key)
    assert set(by_element) == {"Степи", "Горы", "Леса", "Болота", "Тьма", "Нейтральные"}
    # a 50-card deck of at most 3 copies needs 17 different cards (C-1)
    assert all(len(keys) >= 17 for element, keys in by_element.items()
               if element != "Нейтральные")
    assert len(by_element["Нейтральные"]) >= 12
    assert {card.crystal for card in catalogue.cards} == set(Crystal)
    assert sum(card.horde for card in catalogue.cards) >= 5
    assert any(card.unique for card in catalogue.cards)
    assert any(len(catalogue.printings(card.name)) == 2 for card in catalogue.cards)
    assert {card.cost for card in catalogue.cards} == set(range(1, 11))
    # loading it again updates the same cards
    again = cards.load_sample_cards(db, actor="организатор")
    assert (again.added, again.updated, again.total) == (0, done.total, done.total)


def test_lookups_ignore_case_yo_spaces_and_latin_look_alikes(db: Database) -> None:
    cards.load_sample_cards(db, actor="организатор")
    catalogue = cards.card_catalogue(db)
    assert catalogue.find("  горный   козел ") is not None  # ё/е, case, spaces
    assert catalogue.find("Tёмный рыцарь") is not None  # a Latin T
    assert catalogue.find("Dark Knight") is not None  # the English alias
    assert catalogue.suggest("Горный стаж")[0].name == "Горный страж"
    found = cards.search_cards(db, "гоблин")
    assert {card.name for card in found} >= {"Болотный гоблин", "Гоблин-шаман"}
    assert cards.search_cards(db, "   ") == []
    assert len(cards.search_cards(db, "о", limit=5)) == 5
    assert len(cards.search_cards(db, "о", limit=10_000)) <= cards.MAX_LIMIT


def test_the_catalogue_is_cached_until_an_import_changes_it(db: Database) -> None:
    cards.import_cards(db, actor="t", account_id=None, filename="a.csv",
                       data=_file("Карта А;Выпуск;1;серебро;;нет;"))
    first = cards.card_catalogue(db)
    assert cards.card_catalogue(db) is first  # not rebuilt per call
    _account(db, "another_change", AccountRole.FLOOR_JUDGE)  # a server-wide change elsewhere
    assert cards.card_catalogue(db) is first
    # an update in place: same rows, same ids, a new cost
    done = cards.import_cards(db, actor="t", account_id=None, filename="a.csv",
                              data=_file("Карта А;Выпуск;4;золото;;нет;"))
    assert (done.added, done.updated, done.total) == (0, 1, 1)
    changed = cards.card_catalogue(db)
    assert changed is not first
    card = changed.find("карта а")
    assert card is not None and (card.cost, card.crystal) == (4, Crystal.GOLD)
    cards.import_cards(db, actor="t", account_id=None, filename="b.csv",
                       data=_file("Карта Б;Выпуск;2;;Орда;;"))
    assert len(cards.card_catalogue(db)) == 2


def test_replace_empties_the_catalogue_first(db: Database) -> None:
    cards.load_sample_cards(db, actor="t")
    done = cards.import_cards(db, actor="t", account_id=None, filename="new.csv",
                              data=_file("Новая карта;Выпуск 2;3;;;да;New Card"),
                              replace=True)
    assert done.removed >= 120 and (done.added, done.total) == (1, 1)
    catalogue = cards.card_catalogue(db)
    assert [card.name for card in catalogue.cards] == ["Новая карта"]
    assert catalogue.find("new card") is not None


def test_a_bad_file_stores_nothing_and_names_every_row(db: Database) -> None:
    cards.load_sample_cards(db, actor="t")
    before = cards.card_catalogue(db)
    bad = _file("Хорошая карта;Выпуск;1;;;;", ";Выпуск;2;;;;", "Дорогая;Выпуск;сто;;;;",
                "Блестящая;Выпуск;1;платина;;;")
    with pytest.raises(CardFileError) as raised:
        cards.import_cards(db, actor="t", account_id=None, filename="bad.csv", data=bad,
                           replace=True)
    assert len(raised.value.problems) == 3
    message = raised.value.message
    assert "row 3, column название" in message and "row 4, column стоимость" in message
    assert "row 5, column кристалл" in message
    assert cards.card_catalogue(db) is before  # nothing stored: the stamp did not move


def test_only_a_site_organizer_imports(db: Database) -> None:
    organizer = _account(db, "организатор", AccountRole.ORGANIZER)
    data = _file("Карта;Выпуск;1;;;;")
    for role in (AccountRole.HEAD_JUDGE, AccountRole.FLOOR_JUDGE):  # players: the web test
        someone = _account(db, f"who_{role.value}", role)
        with pytest.raises(ForbiddenError):
            cards.import_cards(db, actor="кто-то", account_id=someone, filename="c.csv",
                               data=data)
    assert len(cards.card_catalogue(db)) == 0
    done = cards.import_cards(db, actor="организатор", account_id=organizer,
                              filename="c.csv", data=data)
    assert done.total == 1
    assert verify_log(db).ok


def test_a_merged_import_keeps_other_cards_and_reports_ignored_columns(db: Database) -> None:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["name", "edition", "cost", "artist"])
    writer.writerow(["Card One", "Set", "2", "Somebody"])
    cards.import_cards(db, actor="t", account_id=None, filename="x.csv",
                       data=_file("Карта;Выпуск;1;;;;"))
    done = cards.import_cards(db, actor="t", account_id=None, filename="en.csv",
                              data=out.getvalue().encode())
    assert done.ignored == ("artist",)
    assert (done.added, done.total) == (1, 2)

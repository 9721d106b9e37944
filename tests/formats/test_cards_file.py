"""The card catalogue file (issue 13, ``docs/cards.md``): CSV in UTF-8, UTF-8 with a BOM and
Windows-1251, any of the three separators, JSON and ``.xlsx``; every bad value named by row and
column; the size limits."""

from __future__ import annotations

import io
import json

import pytest
from openpyxl import Workbook

from turnir import i18n
from turnir.domain.cards import MAX_NAME, Crystal, catalogue_of
from turnir.errors import UserError
from turnir.formats import cards_file
from turnir.formats.cards_file import CardFileError, read_cards_bytes
from turnir.services.cards import sample_cards_bytes

ROWS = [
    ["Название", "Выпуск", "Номер", "Редкость", "Стихия", "Стоимость", "Кристалл", "Тип",
     "Особенности", "Уникальность", "Другие названия"],
    ["Гоблин-сапёр", "Образец", "7", "частая", "Болота", "2", "золотой", "существо",
     "Орда, Летает", "нет", "Goblin Sapper|Гоблин-минёр"],
    ["Тёмный рыцарь", "Образец", "8", "редкая", "Тьма", "5", "серебро", "существо", "", "да", ""],
]


def _csv(rows: list[list[str]], delimiter: str = ";") -> str:
    return "".join(delimiter.join(row) + "\n" for row in rows)


def _check_two_cards(data: bytes) -> None:
    found = read_cards_bytes(data, source="f")
    first, second = found.cards
    assert first.name == "Гоблин-сапёр" and first.edition == "Образец" and first.number == "7"
    assert (first.cost, first.crystal, first.element, first.type) == (
        2, Crystal.GOLD, "Болота", "существо")
    assert first.features == ("Орда", "Летает") and first.horde
    assert first.aliases == ("Goblin Sapper", "Гоблин-минёр") and not first.unique
    assert second.unique and second.crystal is Crystal.SILVER and second.features == ()


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1251"])
@pytest.mark.parametrize("delimiter", [";", ",", "\t"])
def test_csv_in_each_encoding_and_separator(encoding: str, delimiter: str) -> None:
    rows = [[f'"{cell}"' if delimiter == "," and "," in cell else cell for cell in row]
            for row in ROWS]
    _check_two_cards(_csv(rows, delimiter).encode(encoding))


def test_english_columns_and_defaults() -> None:
    text = "name,edition,unique,crystal\nStone Giant,Sample,yes,gold\nBat,Sample,,\n"
    giant, bat = read_cards_bytes(text.encode()).cards
    assert giant.unique and giant.crystal is Crystal.GOLD
    assert (bat.cost, bat.crystal, bat.unique) == (0, Crystal.SILVER, False)


def test_xlsx_first_sheet() -> None:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    for row in ROWS:
        sheet.append([int(c) if c.isdigit() else c for c in row])
    book.create_sheet("ignored").append(["nothing"])
    out = io.BytesIO()
    book.save(out)
    _check_two_cards(out.getvalue())


@pytest.mark.parametrize("wrapped", [False, True])
def test_json_list_or_object(wrapped: bool) -> None:
    items: list[dict[str, object]] = [
             {"name": "Гоблин-сапёр", "edition": "Образец", "number": "7", "rarity": "частая",
              "element": "Болота", "cost": 2, "crystal": "gold", "type": "существо",
              "features": ["Орда", "Летает"], "unique": False,
              "aliases": ["Goblin Sapper", "Гоблин-минёр"]},
             {"название": "Тёмный рыцарь", "выпуск": "Образец", "стоимость": "5",
              "уникальность": True, "art": "x"}]
    data = {"cards": items} if wrapped else items
    found = read_cards_bytes(json.dumps(data, ensure_ascii=False).encode(
        "cp1251" if wrapped else "utf-8-sig"))
    assert found.ignored == ("art",)
    first, second = found.cards
    assert first.features == ("Орда", "Летает") and first.crystal is Crystal.GOLD
    assert second.unique and second.cost == 5


def test_every_bad_value_is_named_by_row_and_column() -> None:
    rows = [ROWS[0],
            ["", "Образец", "1"],  # row 2: no name
            ["Карта", "", "1"],  # row 3: no edition
            ["Карта", "Образец", "12 шт", "", "", "-1", "платина"],  # row 4: cost and crystal
            ["Карта 2", "Образец", "", "", "", "", "", "", "", "может быть"],  # row 5
            ["Карта 3", "Образец", "x" * (MAX_NAME + 1)],  # row 6: too long
            ["Карта 4", "Образец"], ["карта  4", "образец"]]  # row 8 repeats row 7
    with pytest.raises(CardFileError) as raised:
        read_cards_bytes(_csv(rows).encode(), source="cards.csv")
    texts = [p.message for p in raised.value.problems]
    assert texts == [
        "row 2, column Название: the value is missing",
        "row 3, column Выпуск: the value is missing",
        "row 4, column Стоимость: the cost must be a whole number from 0 to 99, not '-1'",
        "row 4, column Кристалл: the crystal must be gold or silver, not 'платина'",
        "row 5, column Уникальность: uniqueness must be yes or no, not 'может быть'",
        f"row 6, column Номер: the value is longer than {MAX_NAME} characters",
        "row 8, column Название: the card 'карта 4' of the edition 'образец' is already "
        "listed (row 7)",
    ]
    russian = i18n.error_text(raised.value, "ru")
    assert "строка 4, столбец «Кристалл»: кристалл — золото или серебро" in russian
    assert russian.startswith("cards.csv: ошибок — 7, ничего не загружено")


def test_the_message_names_the_first_twenty_and_counts_the_rest() -> None:
    rows = [["name", "edition", "cost"]] + [[f"Card {i}", "Set", "много"] for i in range(30)]
    with pytest.raises(CardFileError) as raised:
        read_cards_bytes(_csv(rows, ",").encode())
    assert len(raised.value.problems) == 30
    message = raised.value.message
    assert "row 21, column cost" in message and "row 22," not in message
    assert message.endswith("and 10 more")


@pytest.mark.parametrize(("data", "expected"), [
    (b"", "is empty"),
    ("стоимость;стихия\n1;Тьма\n".encode(), "needs a column 'name'"),
    ("name;название;edition\n".encode(), "is given twice"),
    (b"name;edition\n", "lists no card"),
    (b"[1, 2", "not valid JSON"),
    (b'{"cards": 3}', "expected a list of cards"),
    (b"[1]", "card 1: expected an object"),
    (b'[{"name": ["x"], "edition": "E"}]', "card 1, column name: expected text"),
    (b'[{"name": "x", "edition": "E", "features": 3}]', "expected text or a list of texts"),
    (b"\xd0\xcf\x11\xe0 old excel", "old Excel workbook"),
])
def test_each_kind_of_bad_file(data: bytes, expected: str) -> None:
    with pytest.raises(UserError) as raised:
        read_cards_bytes(data)
    assert expected in raised.value.message


def test_the_size_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(UserError, match="larger than 5 MB"):
        read_cards_bytes(b"name;edition\n" + b"x;y\n" * 1_300_000)
    monkeypatch.setattr(cards_file, "MAX_ROWS", 5)
    many = "name;edition\n" + "".join(f"c{i};e\n" for i in range(6))
    with pytest.raises(UserError, match="more than 5 cards"):
        read_cards_bytes(many.encode())
    with pytest.raises(UserError, match="more than 5 cards"):
        read_cards_bytes(json.dumps([{"name": f"c{i}", "edition": "e"} for i in range(6)])
                         .encode())
    assert len(read_cards_bytes(("name;edition\n" + "".join(f"c{i};e\n" for i in range(5)))
                                .encode()).cards) == 5


def test_too_many_features() -> None:
    features = ",".join(f"f{i}" for i in range(cards_file.MAX_LIST + 1))
    with pytest.raises(CardFileError, match="more than 30 values"):
        read_cards_bytes(f'name;edition;features\nc;e;"{features}"\n'.encode())


@pytest.mark.parametrize(("typed", "meant"), [
    ("блабла", None), ("qwerty", None), ("абв", None),  # nonsense: nothing suggested (C-1)
    ("Голлем", "Голем"), ("Упир", "Упырь"), ("Болотный гоблн", "Болотный гоблин"),
    ("Кочевник лучник", "Кочевник-лучник"), ("Тмный рыцарь", "Тёмный рыцарь"),
])
def test_rule_C1_the_sample_catalogue_suggests_for_typos_not_for_nonsense(
        typed: str, meant: str | None) -> None:
    catalogue = catalogue_of(read_cards_bytes(sample_cards_bytes()).cards)
    names = [s.name for s in catalogue.suggest(typed)]
    assert (names[0] if names else None) == meant, names

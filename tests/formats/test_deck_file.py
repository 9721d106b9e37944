"""Deck files (``turnir.formats.deck_file``, issue 13): a .txt list in UTF-8, UTF-8 with a BOM
or Windows-1251, a CSV or .xlsx table with count/name/edition columns under Russian or English
headings (or none), and a clear refusal for any other file."""

from __future__ import annotations

import io

import pytest
from openpyxl import Workbook

from turnir.domain.decks import parse_deck
from turnir.errors import UserError
from turnir.formats.deck_file import MAX_DECK_FILE, read_deck_file

LIST = "3 Лесной страж\n2 Горный тролль [Пробный выпуск]\n# запас\nЁжик x2"


def _lines(text: str) -> list[tuple[int, str, str | None]]:
    deck, problems = parse_deck(text)
    assert problems == []
    return [(line.count, line.name, line.edition) for line in deck.lines]


EXPECTED = [(3, "Лесной страж", None), (2, "Горный тролль", "Пробный выпуск"), (2, "Ёжик", None)]


@pytest.mark.parametrize("data", [LIST.encode(), b"\xef\xbb\xbf" + LIST.encode(),
                                  LIST.encode("cp1251"), LIST.encode("utf-16")])
def test_a_text_file_in_each_encoding_reads_as_the_same_list(data: bytes) -> None:
    assert _lines(read_deck_file(data, filename="колода.txt")) == EXPECTED


@pytest.mark.parametrize("text", [
    "Количество;Название;Выпуск\n3;Лесной страж;\n2;Горный тролль;Пробный выпуск\n2;Ёжик;\n",
    "name,count,set\nЛесной страж,3,\n\"Горный тролль\",2,Пробный выпуск\nЁжик,2,\n",
    "3;Лесной страж\n2;Горный тролль;Пробный выпуск\nЁжик;2\n",
])
def test_a_csv_table_with_russian_english_or_no_headings(text: str) -> None:
    assert _lines(read_deck_file(text.encode("cp1251"), filename="deck.CSV")) == EXPECTED


def test_an_xlsx_sheet_with_headings_in_any_order() -> None:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Карта", "Выпуск", "Кол-во"])
    sheet.append(["Лесной страж", None, 3])
    sheet.append(["Горный тролль", "Пробный выпуск", 2])
    sheet.append(["Ёжик", "", 2.0])
    buffer = io.BytesIO()
    book.save(buffer)
    # recognised by its content even when the name says otherwise
    for name in ("deck.xlsx", "deck.txt"):
        assert _lines(read_deck_file(buffer.getvalue(), filename=name)) == EXPECTED


@pytest.mark.parametrize(("data", "name", "words"), [
    (b"%PDF-1.4 ...", "deck.pdf", "a deck file is a .txt, .csv or .xlsx file"),
    (b"\xd0\xcf\x11\xe0" + b"\x00" * 20, "deck.csv", "old Excel workbook"),
    (b"PK\x03\x04broken", "deck.xlsx", "damaged .xlsx"),
    (b"3 A\n" * (MAX_DECK_FILE // 4 + 1), "deck.txt", "larger than"),
    (b"3 \x00\x01\x02", "deck.txt", "not a text file"),
])
def test_anything_else_is_refused_with_the_files_name(data: bytes, name: str,
                                                      words: str) -> None:
    with pytest.raises(UserError) as refused:
        read_deck_file(data, filename=f"/some/dir/{name}")
    assert words in str(refused.value) and name in str(refused.value)
    assert "/some/dir" not in str(refused.value)

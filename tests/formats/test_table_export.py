"""The spreadsheet files of the exports (issue 12, ``turnir.formats.table_export``): a CSV that a
Russian Excel opens (UTF-8 with a BOM, ``;``), a workbook, and formula injection neutralised in
both (CWE-1236)."""

from __future__ import annotations

import csv
import io

import pytest
from openpyxl import load_workbook

from turnir.formats.table_export import Table, csv_bytes, neutralised, sheet_title, xlsx_bytes

TABLE = Table("Турнирная таблица: Кубок [Твери]",
              ("Место", "Игрок", "Город", "Очки"),
              ((1, "Ёжиков Пётр", "Тверь", 9),
               (2, "=HYPERLINK(\"http://evil\",\"жми\")", "+7 (900)", 6),
               (3, "-Вася; «Ночной», \"клуб\"", "@Самара", -1)))


@pytest.mark.parametrize(("text", "safe"), [
    ("=1+2", "'=1+2"), ("+7", "'+7"), ("-Вася", "'-Вася"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "'\tx"), ("\rx", "'\rx"), ("Анна", "Анна"), ("", ""), ("a=b", "a=b"),
])
def test_a_text_that_starts_a_formula_gets_an_apostrophe(text: str, safe: str) -> None:
    assert neutralised(text) == safe


def test_the_csv_is_utf8_with_a_bom_semicolons_and_reads_back_the_same_rows() -> None:
    data = csv_bytes(TABLE)
    assert data.startswith(b"\xef\xbb\xbf")  # Excel on Windows reads Cyrillic as UTF-8
    text = data.decode("utf-8-sig")
    assert text.splitlines()[0] == "Место;Игрок;Город;Очки" and "\r\n" in text
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))
    assert rows[0] == list(TABLE.header)
    assert rows[1] == ["1", "Ёжиков Пётр", "Тверь", "9"]
    assert rows[2] == ["2", "'=HYPERLINK(\"http://evil\",\"жми\")", "'+7 (900)", "6"]
    assert rows[3] == ["3", "'-Вася; «Ночной», \"клуб\"", "'@Самара", "-1"]  # a number stays
    assert csv.Sniffer().sniff(text.splitlines()[1]).delimiter == ";"


def test_the_workbook_keeps_texts_as_strings_and_numbers_as_numbers() -> None:
    book = load_workbook(io.BytesIO(xlsx_bytes(TABLE)))
    sheet = book.active
    assert sheet is not None
    assert sheet.title == "Турнирная таблица  Кубок  Твери"[:31]
    rows = [[c.value for c in row] for row in sheet.iter_rows()]
    assert rows == [list(TABLE.header), *[list(r) for r in TABLE.rows]]
    formula = sheet.cell(row=3, column=2)
    assert formula.data_type == "s" and formula.value == "=HYPERLINK(\"http://evil\",\"жми\")"
    assert all(sheet.cell(row=r, column=c).data_type != "f"
               for r in range(1, 5) for c in range(1, 5))
    assert sheet.cell(row=2, column=4).data_type == "n"
    assert sheet.freeze_panes == "A2" and sheet.cell(row=1, column=1).font.b


def test_a_sheet_name_excel_accepts() -> None:
    assert sheet_title("a/b\\c?d*e:f[g]h") == "a b c d e f g h"
    assert len(sheet_title("Ж" * 40)) == 31 and sheet_title("[]") == "Sheet"


def test_a_row_that_does_not_fit_the_header_is_a_bug() -> None:
    with pytest.raises(ValueError):
        Table("t", ("a", "b"), ((1,),))

"""Players files and rating lists from people: bounded numbers (issue 10 item 5), malformed CSV,
encodings and Excel workbooks (item 6), text checks (item 8). Every refusal names the line."""

from __future__ import annotations

import io
import json
import time
from decimal import Decimal
from pathlib import Path

import pytest
from openpyxl import Workbook

from turnir.domain.model import Settings
from turnir.domain.tournament import make_players, new_tournament
from turnir.errors import UserError
from turnir.formats.players_csv import (
    MAX_BYTES,
    MAX_LINES,
    PlayerLine,
    parse_players_csv,
    read_players_bytes,
    read_players_csv,
)
from turnir.formats.rating_list import RatingListLine, read_rating_list_bytes
from turnir.formats.tabular import MAX_FIELD, read_table
from turnir.formats.tournament_file import dump_tournament, parse_tournament

HEADER = "имя,город,клуб,автопобеды\n"


def xlsx(rows: list[list[object]]) -> bytes:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


# ----- item 5: numbers are bounded ------------------------------------------------------------


@pytest.mark.parametrize(("byes", "message"), [
    ("99999999999999999999", r"line 2: byes must be a whole number from 0 to 50"),
    ("9" * 5000, r"line 2: byes must be a whole number from 0 to 50"),
    ("51", r"line 2: byes must be a whole number from 0 to 50, not 51"),
    ("-1", r"line 2: byes must be a whole number, not '-1'"),
    ("²", r"line 2: byes must be a whole number, not '²'"),
])
def test_item5_huge_byes_in_a_players_file_are_refused(byes: str, message: str) -> None:
    started = time.monotonic()
    with pytest.raises(UserError, match=message):
        parse_players_csv(f"{HEADER}Анна Котова,Тверь,,{byes}\n", source="p.csv")
    assert time.monotonic() - started < 1


def test_item5_byes_within_the_cap_are_read() -> None:
    assert parse_players_csv(f"{HEADER}Анна Котова,Тверь,,50\n") == [
        PlayerLine("Анна Котова", "Тверь", "", 50)]
    line = PlayerLine("Анна Котова", byes=4)
    assert line.granted_byes(swiss_rounds=5) == frozenset({1, 2, 3, 4})
    with pytest.raises(UserError, match=r"Анна Котова: 4 byes: at most 3 \(the Swiss rounds"):
        line.granted_byes(swiss_rounds=3)


def _file(change: object) -> str:
    t = new_tournament("Кубок", make_players(["Анна", "Борис", "Вера", "Глеб"]),
                       settings=Settings(), seed=1)
    data = json.loads(dump_tournament(t))
    assert callable(change)
    change(data)
    return json.dumps(data, ensure_ascii=False)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["players"][0].update(granted_byes=[10**18]), r"players\[0\]\.granted_byes\[0\]"),
    (lambda d: d["players"][0].update(granted_byes=list(range(1, 100))),
     r"players\[0\]\.granted_byes"),
    (lambda d: d["players"][0].update(id=2**40), r"players\[0\]\.id"),
    (lambda d: d["players"][0].update(joined_round=10**9), r"players\[0\]\.joined_round"),
    (lambda d: d["settings"].update(swiss_rounds=10**9), r"settings\.swiss_rounds"),
    (lambda d: d["settings"].update(top_size=2**20), r"settings\.top_size"),
    (lambda d: d["settings"]["points"].update(win=10**12), r"settings\.points\.win"),
    (lambda d: d.update(undone=[10**6]), r"undone\[0\]"),
    (lambda d: d.update(penalties={"1": {"warnings": 10**9}}), r"penalties\.1\.warnings"),
    (lambda d: d["players"][0].update(name="x" * 201), r"players\[0\]\.name"),
])
def test_item5_numbers_in_a_tournament_file_are_bounded(change: object, message: str) -> None:
    with pytest.raises(UserError, match=message):
        parse_tournament(_file(change), source="cup.json")


def test_item5_a_number_too_long_for_python_is_a_clear_error() -> None:
    text = _file(lambda d: None).replace('"seed": 1', '"seed": ' + "9" * 5000)
    with pytest.raises(UserError, match=r"cup\.json: a number in it is far too long"):
        parse_tournament(text, source="cup.json")


@pytest.mark.parametrize(("text", "message"), [
    ("name,professional\nАнна,1e999999999\n", r"line 2: the professional rating 1e999999999 is "
                                              r"above 100000"),
    ("name,professional\nАнна,100001\n", "line 2: the professional rating 100001 is above"),
    ("name,professional,tournaments\nАнна,120," + "9" * 5000 + "\n",
     "line 2: tournaments must be from 0 to 100,000"),
    ('[{"name": "Анна", "professional": 1e999}]', "rating 1: the professional rating"),
    ("name,professional\nАнна,-1e999999999\n", "line 2: the professional rating -1e999999999 "
                                               "is below 100"),
    ('[{"name": "Анна", "professional": ' + "9" * 5000 + "}]", "not valid JSON"),
])
def test_item5_numbers_in_a_rating_list_are_bounded(text: str, message: str) -> None:
    started = time.monotonic()
    with pytest.raises(UserError, match=message):
        read_rating_list_bytes(text.encode(), source="list")
    assert time.monotonic() - started < 1


# ----- item 6: malformed CSV names the line -----------------------------------------------


@pytest.mark.parametrize(("text", "message"), [
    (HEADER + 'Анна Котова,Тверь\n"Борис Орлов,Тверь\nВера Ким,Москва\n',
     r"p\.csv line 3: a quote is not closed on this line"),
    (HEADER + 'Анна Котова,"Тверь\nМосква",,1\nВера Ким\n',
     r"p\.csv line 2: a quote is not closed on this line .a value in quotes cannot go over"),
    (HEADER + "Анна Котова,Тверь\nБорис," + "я" * (MAX_FIELD + 1) + "\n",
     r"p\.csv line 3: a value is longer than 131,072 characters"),
    (HEADER + 'Анна Котова,"Тверь"x,,1\n', r"p\.csv line 2: text after a closing quote"),
    (HEADER + "Анна Котова,Тверь\n\n# comment\nБорис Орлов," + "я" * 101 + "\n",
     r"p\.csv line 5: the city is longer than 100 characters"),
    (HEADER + "Анна Котова,Тверь,,1,лишнее\n", r"p\.csv line 2: 5 columns, expected at most 4"),
])
def test_item6_malformed_csv_names_the_line(text: str, message: str) -> None:
    with pytest.raises(UserError, match=message):
        read_players_bytes(text.encode(), source="p.csv")


def test_item6_quoted_values_on_one_line_are_fine() -> None:
    text = HEADER + '"Котова, Анна","Тверь",,"2"\n"Борис ""Бор"" Орлов",,,\n'
    assert read_players_bytes(text.encode()) == [
        PlayerLine("Котова, Анна", "Тверь", "", 2), PlayerLine('Борис "Бор" Орлов')]


PLAYERS = [PlayerLine("Анна Котова", "Тверь", "Ладья", 1), PlayerLine("Ёжиков Пётр", "Москва")]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1251", "utf-16"])
@pytest.mark.parametrize("separator", [",", ";", "\t"])
def test_item6_encodings_excel_saves_are_detected(encoding: str, separator: str) -> None:
    text = "\r\n".join(separator.join(row) for row in [
        ["Имя", "Город", "Клуб", "Автопобеды"], ["Анна Котова", "Тверь", "Ладья", "1"],
        ["Ёжиков Пётр", "Москва", "", ""]]) + "\r\n"
    assert read_players_bytes(text.encode(encoding), source="p.csv") == PLAYERS


def test_item6_cp1251_without_a_header_and_short() -> None:
    assert read_players_bytes("Ёж\n".encode("cp1251")) == [PlayerLine("Ёж")]
    assert read_players_bytes("Анна Котова;Тверь\n".encode("cp1251")) == [
        PlayerLine("Анна Котова", "Тверь")]


def test_item6_xlsx_is_read_like_csv(tmp_path: Path) -> None:
    data = xlsx([["Имя", "Город", "Клуб", "Автопобеды"], ["Анна Котова", "Тверь", "Ладья", 1],
                 [None, None, None, None], ["Ёжиков Пётр", "Москва", None, None]])
    assert read_players_bytes(data, source="p.xlsx") == PLAYERS
    path = tmp_path / "players.xlsx"
    path.write_bytes(data)
    assert read_players_csv(path) == PLAYERS
    misnamed = tmp_path / "players.csv"  # recognised by its content, not by its name
    misnamed.write_bytes(data)
    assert read_players_csv(misnamed) == PLAYERS


def test_item6_xlsx_problems_name_the_row() -> None:
    with pytest.raises(UserError, match=r"p\.xlsx line 3: byes must be a whole number from 0"):
        read_players_bytes(xlsx([["name", "byes"], ["Анна", 1], ["Борис", 10**14]]),
                           source="p.xlsx")
    with pytest.raises(UserError, match=r"p\.xlsx line 3: byes must be a whole number, not"):
        read_players_bytes(xlsx([["name", "byes"], ["Анна", 1], ["Борис", 10**20]]),
                           source="p.xlsx")
    with pytest.raises(UserError, match=r"p\.xlsx line 2: the name is longer than 200"):
        read_players_bytes(xlsx([["name"], ["я" * 201]]), source="p.xlsx")
    with pytest.raises(UserError, match=f"more than {MAX_LINES:,} rows"):
        read_players_bytes(xlsx([["name"]] + [[f"Игрок {i}"] for i in range(MAX_LINES + 1)]),
                           source="p.xlsx")


def test_item6_rating_list_from_xlsx_and_cp1251() -> None:
    expected = [RatingListLine("Анна Котова", "Тверь", "", Decimal("123.45"), None)]
    data = xlsx([["Имя", "Город", "Рейтинг"], ["Анна Котова", "Тверь", 123.45]])
    assert read_rating_list_bytes(data) == expected
    text = "Имя;Город;Рейтинг\r\nАнна Котова;Тверь;123,45\r\n"
    assert read_rating_list_bytes(text.encode("cp1251")) == expected


@pytest.mark.parametrize(("data", "message"), [
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 100, r"an old Excel workbook \(\.xls\)"),
    (b"PK\x03\x04" + b"\x00" * 100, "a damaged .xlsx workbook"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 50, "not a text file in UTF-8 or Windows-1251"),
    (b"\xef\xbb\xbf\xff\xfe", "not valid UTF-8 text"),
    (b"x" * (MAX_BYTES + 1), "the file is larger than 2 MB"),
    (b"\n" * (MAX_LINES + 1), f"more than {MAX_LINES:,} lines"),
])
def test_item6_files_that_are_not_tables_are_refused(data: bytes, message: str) -> None:
    with pytest.raises(UserError, match=message):
        read_players_bytes(data, source="p.csv")


def test_item6_a_zip_that_unpacks_too_far_is_refused() -> None:
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b" " * 60_000_000)
    with pytest.raises(UserError, match="unpacks to more than 50 MB"):
        read_table(out.getvalue(), source="p.xlsx", max_bytes=MAX_BYTES, max_lines=MAX_LINES)


# ----- item 8: text in files ----------------------------------------------------------------


@pytest.mark.parametrize(("text", "message"), [
    (HEADER + "Анна Котова\nАнна Кото\u200bва\n", "line 3: 'Анна Котова' is already on line 2"),
    (HEADER + "Анна Котова\nанна  КОТОВА\n", "line 3: 'анна КОТОВА' is already on line 2"),
    (HEADER + "Анна\x00Котова\n", r"line 2: the name contains a control character \(U\+0000\)"),
    (HEADER + "Анна\x1b[2J\n", r"line 2: the name contains a control character \(U\+001B\)"),
    (HEADER + "я" * 201 + "\n", "line 2: the name is longer than 200 characters"),
])
def test_item8_names_in_a_players_file_are_checked(text: str, message: str) -> None:
    with pytest.raises(UserError, match=message):
        parse_players_csv(text)


def test_item8_names_in_a_players_file_are_normalised() -> None:
    assert parse_players_csv("\ufeffАнна Кото\u200bва ,  Тверь\n") == [
        PlayerLine("Анна Котова", "Тверь")]

"""Issue 12, "exports": the standings and the final places download as CSV and XLSX, with the
rows of the page (read back with ``csv`` and ``openpyxl``), Cyrillic intact, the columns named
in the page's language, and a player's name that is a formula kept a text. Public, like the
pages: the anonymous download what they see."""

from __future__ import annotations

import csv
import io
import re
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient
from openpyxl import load_workbook

from tests.services.builders import ORGANIZER, play_round
from turnir.domain.model import Settings
from turnir.formats.players_csv import PlayerLine
from turnir.services.players import drop_player, register_players
from turnir.services.tournaments import create_tournament, finish_tournament
from turnir.storage.database import Database

FORMULA = "=HYPERLINK(\"http://evil.example\",\"Ёж\")"
NAMES = ["Ёлкина Алёна", "Щукин Пётр", FORMULA, "-Минусов Вася", "Юрьев Юрий", "Эльф Эдуард",
         "Жуков Жора"]


@pytest.fixture
def finished(web_db: Database) -> int:
    """Seven players (one named as a formula, one in a club '@…'), two rounds, one drop,
    finished."""
    tid = create_tournament(web_db, name="Кубок «Весна»", actor=ORGANIZER, seed=5,
                            settings=Settings(swiss_rounds=2)).id
    register_players(web_db, tid, [PlayerLine(name, "Тверь" if i % 2 else "",
                                              "@Клуб" if i == 1 else "")
                                   for i, name in enumerate(NAMES)], actor=ORGANIZER)
    play_round(web_db, tid, seed=1)
    drop_player(web_db, tid, "Жуков Жора", actor=ORGANIZER)
    play_round(web_db, tid, seed=2)
    finish_tournament(web_db, tid, actor=ORGANIZER)
    return tid


class Rows(HTMLParser):
    """The cells' texts of every body row of the first ``<table>`` with the class given."""

    def __init__(self, table_class: str) -> None:
        super().__init__()
        self.table_class, self.rows, self.inside, self.depth = table_class, [], False, 0
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if tag == "table" and self.table_class in classes and not self.rows:
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag == "td":
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.inside = False
        elif tag == "td" and self.cell is not None and self.rows:
            self.rows[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def page_rows(html: str, table_class: str) -> list[list[str]]:
    parser = Rows(table_class)
    parser.feed(html)
    return [row for row in parser.rows if row]


def read_csv(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""), delimiter=";"))


def test_the_standings_csv_has_the_pages_rows_in_russian_and_neutralises_formulas(
        client: TestClient, finished: int) -> None:
    page = client.get(f"/t/{finished}/standings")  # anonymous, Russian by default
    assert f'href="/t/{finished}/standings/export?format=csv"' in page.text
    assert f'href="/t/{finished}/standings/export?format=xlsx"' in page.text
    shown = page_rows(page.text, "standings")
    answer = client.get(f"/t/{finished}/standings/export?format=csv")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/csv; charset=utf-8"
    disposition = answer.headers["content-disposition"]
    assert disposition.startswith("attachment;")
    assert f"turnir-{finished}-standings.csv" in disposition
    assert "filename*=UTF-8''" in disposition and "%D0%92%D0%B5%D1%81%D0%BD%D0%B0" in disposition
    header, *rows = read_csv(answer.content)
    assert header[:5] == ["Место", "№", "Игрок", "Город", "Клуб"]
    assert {"Очки", "Качество побед", "Качество поражений", "Жребий", "Победы", "Ничьи",
            "Поражения", "Выше следующего по", "Выбыл после тура"} <= set(header)
    assert len(rows) == len(shown) == len(NAMES)
    for row, seen in zip(rows, shown, strict=True):
        assert row[0] == seen[0]  # the place
        name = row[2][1:] if row[2].startswith("'") else row[2]
        assert name in " ".join(seen)  # the same player on the same line
    by_name = {row[2]: row for row in rows}
    assert "'" + FORMULA in by_name and "'-Минусов Вася" in by_name  # not run as formulas
    assert by_name["Ёлкина Алёна"][3] == "" and by_name["Щукин Пётр"][4] == "'@Клуб"
    assert by_name["Жуков Жора"][header.index("Выбыл после тура")] == "1"
    points = header.index("Очки")
    assert [int(r[points]) for r in rows] == sorted((int(r[points]) for r in rows),
                                                    reverse=True)


def test_the_standings_xlsx_has_the_same_rows_and_keeps_formulas_as_text(
        client: TestClient, finished: int) -> None:
    as_csv = read_csv(client.get(f"/t/{finished}/standings/export?format=csv").content)
    answer = client.get(f"/t/{finished}/standings/export?format=xlsx")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith(
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    sheet = load_workbook(io.BytesIO(answer.content)).active
    assert sheet is not None
    cells = [[c for c in row] for row in sheet.iter_rows()]
    assert [str(c.value) for c in cells[0]] == as_csv[0]
    for got, want in zip(cells[1:], as_csv[1:], strict=True):
        assert ["" if c.value is None else str(c.value) for c in got] == [
            w[1:] if w.startswith("'") else w for w in want]
    formula = next(c for row in cells for c in row if c.value == FORMULA)
    assert formula.data_type == "s"  # a string cell: never run
    assert not any(c.data_type == "f" for row in cells for c in row)
    assert isinstance(cells[1][0].value, int) and cells[1][0].value == 1


def test_the_final_places_download_in_the_pages_order_in_english_too(
        client: TestClient, finished: int) -> None:
    english = {"accept-language": "en"}
    page = client.get(f"/t/{finished}/places", headers=english).text
    assert f'href="/t/{finished}/places/export?format=xlsx"' in page
    shown = page_rows(page, "places")
    header, *rows = read_csv(client.get(f"/t/{finished}/places/export?format=csv",
                                        headers=english).content)
    assert header == ["Place", "No.", "Player", "City", "Club"]
    assert [(r[0], r[1]) for r in rows] == [
        (s[0], re.search(r"#(\d+)", s[1]).group(1)) for s in shown]  # type: ignore[union-attr]
    sheet = load_workbook(io.BytesIO(client.get(
        f"/t/{finished}/places/export?format=xlsx").content)).active
    assert sheet is not None
    values = [[c.value for c in row] for row in sheet.iter_rows()]
    assert values[0] == ["Место", "№", "Игрок", "Город", "Клуб"]
    assert [v[0] for v in values[1:]] == list(range(1, len(NAMES) + 1))
    standings = read_csv(client.get(f"/t/{finished}/standings/export",
                                    headers=english).content)[0]
    assert "Quality of wins" in standings and "Качество побед" not in standings


def test_the_api_gives_the_same_files_and_bounds_its_parameters(
        client: TestClient, finished: int) -> None:
    api = f"/api/v1/tournaments/{finished}"
    page_file = client.get(f"/t/{finished}/standings/export?format=csv").content
    answer = client.get(f"{api}/standings/export", params={"format": "csv"})
    assert answer.status_code == 200 and answer.content == page_file
    places = client.get(f"{api}/final-places/export", params={"format": "xlsx"})
    assert places.status_code == 200 and places.content.startswith(b"PK")
    assert client.get(f"{api}/standings/export", params={"format": "pdf"}).status_code == 422
    assert client.get(f"/t/{finished}/standings/export?format=exe").status_code == 422
    assert client.get("/api/v1/tournaments/999/standings/export").status_code == 404
    assert client.get("/t/999/places/export").status_code == 404
    schema = client.get("/api/v1/openapi.json").json()["paths"]
    described = schema["/api/v1/tournaments/{tid}/standings/export"]["get"]
    assert "anonymous" in described["x-roles"]
    assert "text/csv" in described["responses"]["200"]["content"]

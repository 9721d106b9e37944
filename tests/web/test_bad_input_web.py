"""Bad input through the web, on SQLite and PostgreSQL: a visible message or a 4xx JSON body,
never a 500 (issue 10 items 5, 6, 8)."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from openpyxl import Workbook
from pydantic import BaseModel

from tests.web.conftest import PASSWORD, add_account, csrf_of, log_in, settings_for
from turnir.domain.limits import MAX_BYES, MAX_POINTS, MAX_SWISS_ROUNDS, MAX_TOP_SIZE
from turnir.domain.text import NAME_LEN
from turnir.services.accounts import AccountRole
from turnir.services.players import list_players
from turnir.services.tournaments import list_tournaments
from turnir.storage.database import Database
from turnir.web.api_models import PlayerIn, PointsIn, TournamentIn
from turnir.web.app import create_app

EN = {"accept-language": "en"}


@pytest.fixture
def org(db: Database) -> Iterator[TestClient]:
    add_account(db, "org", AccountRole.ORGANIZER)
    with TestClient(create_app(settings_for(db), db=db), raise_server_exceptions=False) as c:
        yield log_in(c, "org")


def _upload(client: TestClient, tid: int, name: str, data: bytes) -> tuple[int, str]:
    headers = {"x-csrf-token": csrf_of(client, "/"), "hx-request": "true", **EN}
    answer = client.post(f"/t/{tid}/players/import", headers=headers,
                         files={"file": (name, data, "text/csv")}, follow_redirects=False)
    return answer.status_code, answer.text


def _form(client: TestClient, path: str, data: dict[str, str]) -> tuple[int, str]:
    headers = {"x-csrf-token": csrf_of(client, "/"), "hx-request": "true", **EN}
    answer = client.post(path, data=data, headers=headers, follow_redirects=False)
    return answer.status_code, answer.text


def _new(client: TestClient, db: Database, rounds: str = "") -> int:
    """A tournament made by the organizer's account (so it is its organizer)."""
    status, page = _form(client, "/new", {"name": "Кубок", "rounds": rounds})
    assert status in (200, 303), page[:300]
    return list_tournaments(db)[0].id


def _xlsx(rows: list[list[object]]) -> bytes:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_item5_item6_players_upload_refuses_bad_files_with_the_line(db: Database,
                                                                    org: TestClient) -> None:
    tid = _new(org, db, rounds="3")
    bad = {
        "name,byes\nАнна,99999999999999999999\n": "line 2: byes must be a whole number from 0",
        "name,byes\nАнна,4\n": "at most 3 (the Swiss rounds)",
        'name,city\nАнна,Тверь\n"Борис,Тверь\n': "line 3: a quote is not closed",
        'name,city\nАнна,"Тверь\nМосква"\n': "line 2: a quote is not closed",
        "name,city\nАнна," + "я" * 131_073 + "\n": "line 2: a value is longer than 131,072",
        "name\nАнна\x00\n": "line 2: the name contains a control character (U+0000)",
        "name\n" + "я" * 201 + "\n": "line 2: the name is longer than 200 characters",
        "name\nАнна Котова\nАнна Кото\u200bва\n": "is already on line 2",
    }
    for text, message in bad.items():
        status, page = _upload(org, tid, "p.csv", text.encode())
        assert status == 422, (message, status, page[:300])
        assert message in page.replace("&#39;", "'"), (message, page[:300])
    status, page = _upload(org, tid, "p.csv", b"x" * 2_000_001)
    assert status in (413, 422) and "larger than" in page
    assert list_players(db, tid) == []


def test_item6_players_upload_reads_cp1251_bom_and_xlsx(db: Database, org: TestClient) -> None:
    tid = _new(org, db)
    text = "Имя;Город\r\nАнна Котова;Тверь\r\n"
    assert _upload(org, tid, "excel.csv", text.encode("cp1251"))[0] == 200
    assert _upload(org, tid, "bom.csv", "\ufeffname\nБорис Орлов\n".encode())[0] == 200
    data = _xlsx([["Имя", "Клуб"], ["Вера Ким", "Ладья"]])
    assert _upload(org, tid, "players.xlsx", data)[0] == 200
    assert [(p.name, p.city, p.club) for p in list_players(db, tid)] == [
        ("Анна Котова", "Тверь", ""), ("Борис Орлов", "", ""), ("Вера Ким", "", "Ладья")]


def test_item8_forms_api_and_search_refuse_nul_and_long_text(db: Database,
                                                             org: TestClient) -> None:
    tid = _new(org, db)
    for data, message in (({"name": "Анна\x00"}, "the name contains a control character"),
                          ({"name": "Анна", "city": "Тверь\x00"}, "the city contains"),
                          ({"name": "ß" * 150}, "the name is longer than 200")):
        status, page = _form(org, f"/t/{tid}/players", data)
        assert status == 422 and message in page, (status, page[:300])
    status, page = _form(org, "/new", {"name": "Кубок\x00"})
    assert status == 422 and "the tournament&#39;s name contains a control character" in page
    _form(org, f"/t/{tid}/players", {"name": "Анна Котова"})
    status, page = _form(org, f"/t/{tid}/players", {"name": "Анна Кото\u200bва"})
    assert status == 422 and "already registered as #1" in page
    assert [p.name for p in list_players(db, tid)] == ["Анна Котова"]
    for query in ("Анна\x00", "я" * 150 + "\x01"):
        answer = org.get("/ratings", params={"q": query}, headers=EN)
        assert answer.status_code == 422 and "the search contains a control" in answer.text
    with TestClient(create_app(settings_for(db), db=db), raise_server_exceptions=False,
                    headers=EN) as api:
        wrong = api.post("/api/v1/session", json={"login": "org\x00", "password": PASSWORD})
        assert wrong.status_code in (401, 422) and wrong.json()["code"] != "internal_error"
        token = api.post("/api/v1/session", json={"login": "org", "password": PASSWORD})
        headers = {"authorization": f"Bearer {token.json()['token']}"}
        made = api.post(f"/api/v1/tournaments/{tid}/players", headers=headers,
                        json={"name": "Борис\u0000"})
        assert made.status_code == 422
        assert made.json() == {"code": "bad_text", "message": "the name contains a control "
                               "character (U+0000) at position 6"}


def test_item5_the_api_caps_are_the_domain_limits() -> None:
    def bounds(model: type[BaseModel], field: str) -> tuple[object, object]:
        schema = model.model_json_schema()["properties"][field]
        options = schema.get("anyOf", [schema])
        found = next(o for o in options if o.get("type") == "integer")
        return found.get("minimum"), found.get("maximum")

    assert bounds(TournamentIn, "swiss_rounds") == (1, MAX_SWISS_ROUNDS)
    assert bounds(TournamentIn, "top_size") == (0, MAX_TOP_SIZE)
    assert bounds(PointsIn, "win") == (0, MAX_POINTS)
    assert bounds(PlayerIn, "byes") == (0, MAX_BYES)
    name = PlayerIn.model_json_schema()["properties"]["name"]
    assert name["maxLength"] == NAME_LEN

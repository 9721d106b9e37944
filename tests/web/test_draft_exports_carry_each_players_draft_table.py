"""The exports of a draft event with draft tables (issue 14 QA fix): the standings and the final
places as CSV and XLSX, and the API's standings and final places, carry each player's draft
table and his place at it (T-8); an event without draft tables keeps its columns (the issue 12
tests check those files as they were) and the API's fields are null."""

from __future__ import annotations

import csv
import io

from openpyxl import load_workbook

from tests.services.builders import play_round
from tests.services.draft_builders import draft_event
from tests.web.conftest import Clients
from turnir.domain.draft.tables import table_places
from turnir.services.draft_setup import seat_draft
from turnir.services.queries import get_standings
from turnir.services.tournaments import create_tournament, finish_tournament, get_tournament
from turnir.storage.database import Database

RU = {"accept-language": "ru"}


def _finished_draft(db: Database) -> int:
    tid = draft_event(db, 16, rounds=2)
    seat_draft(db, tid, actor="test", method="lot", tables=2)
    play_round(db, tid, seed=3)
    play_round(db, tid, seed=4)
    finish_tournament(db, tid, actor="test")
    return tid


def _csv(body: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=";"))


def test_standings_and_places_files_name_each_players_draft_table_and_place_at_it(
        clients: Clients, web_db: Database) -> None:
    tid = _finished_draft(web_db)
    view = get_standings(web_db, tid)
    expected = table_places(view.tournament, view.standings)
    assert {table for table, _ in expected.values()} == {1, 2}
    anon = clients.as_(None)
    rows = _csv(anon.get(f"/t/{tid}/standings/export?format=csv", headers=RU).content)
    head = rows[0]
    at, place = head.index("Стол драфта"), head.index("Место за столом")
    assert place == at + 1 and head[at - 1] == "Город"
    number = head.index("№")
    got = {int(r[number]): (int(r[at]), int(r[place])) for r in rows[1:]}
    assert got == expected
    book = load_workbook(io.BytesIO(anon.get(f"/t/{tid}/standings/export?format=xlsx",
                                             headers=RU).content))
    sheet = [[c.value for c in r] for r in book.active.iter_rows()]
    assert sheet[0] == head
    assert {r[number]: (r[at], r[place]) for r in sheet[1:]} == expected
    places = _csv(anon.get(f"/t/{tid}/places/export?format=csv", headers=RU).content)
    assert places[0][-2:] == ["Стол драфта", "Место за столом"]
    assert len(places) == 17
    assert {int(r[1]): (int(r[-2]), int(r[-1])) for r in places[1:]} == expected
    api = anon.get(f"/api/v1/tournaments/{tid}/standings").json()["rows"]
    assert {r["player"]: (r["draft_table"], r["table_place"]) for r in api} == expected
    final = anon.get(f"/api/v1/tournaments/{tid}/final-places").json()
    assert len(final) == 16
    assert {r["player"]: (r["draft_table"], r["table_place"]) for r in final} == expected
    order = [r["player"] for r in final]
    assert order == get_tournament(web_db, tid).tournament.final_places()


def test_an_event_without_draft_tables_has_no_draft_columns_and_null_api_fields(
        clients: Clients, web_db: Database) -> None:
    from turnir.domain.model import Settings
    from turnir.formats.players_csv import PlayerLine
    from turnir.services.players import register_players

    tid = create_tournament(web_db, name="Кубок", actor="test", seed=3,
                            settings=Settings(swiss_rounds=1)).id
    register_players(web_db, tid, [PlayerLine(f"Игрок {i}", "", "") for i in range(4)],
                     actor="test")
    play_round(web_db, tid)
    finish_tournament(web_db, tid, actor="test")
    anon = clients.as_(None)
    for page in ("standings", "places"):
        head = _csv(anon.get(f"/t/{tid}/{page}/export?format=csv", headers=RU).content)[0]
        assert "Стол драфта" not in head and "Место за столом" not in head
    for path in ("standings", "final-places"):
        answer = anon.get(f"/api/v1/tournaments/{tid}/{path}").json()
        rows = answer["rows"] if path == "standings" else answer
        assert rows and all(r["draft_table"] is None and r["table_place"] is None
                            for r in rows)

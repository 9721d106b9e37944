"""``turnir deck-checks …`` (issue 13, the judges' tools): ``draw TID --round R --count N`` draws
by lot and prints the lot, the same lot as the web's; ``add``, ``done`` and ``list``
(SQLite and PostgreSQL)."""

from __future__ import annotations

import json

import pytest

from tests.cli.test_db_cli import run
from tests.services.test_deck_checks import constructed
from turnir.domain.deck_lots import draw_by_lot
from turnir.services.deck_checks import deck_checks_page
from turnir.services.queries import audit_log
from turnir.storage.database import Database


@pytest.fixture
def env(database_url: str) -> dict[str, str]:
    return {"TURNIR_DATABASE_URL": database_url, "TURNIR_ACTOR": "Судья Тест"}


def test_draw_prints_the_lot_and_list_shows_the_checks(db: Database,
                                                        env: dict[str, str]) -> None:
    tid = constructed(db)
    left = [s.number for s in deck_checks_page(db, tid, account_id=None).left]
    code, out = run(env, "deck-checks", "draw", str(tid), "--round", "1", "--count", "2",
                    "--json")
    assert code == 0, out
    drawn = json.loads(out)
    assert tuple(c["number"] for c in drawn) == draw_by_lot(left, 2, seed=7, round_number=1,
                                                            draw=1).numbers
    assert {c["lot"] for c in drawn} == {"7/deck-checks/round/1/draw/1"}
    assert audit_log(db, tid, action="deck.check_draw")[-1].actor == "Судья Тест"
    code, out = run(env, "deck-checks", "done", str(tid), str(drawn[0]["id"]), "--note", "ok")
    assert code == 0, out
    code, out = run(env, "deck-checks", "list", str(tid))
    assert code == 0 and all(f"(#{c['number']})" in out for c in drawn) and " ok " in out, out
    code, out = run(env, "deck-checks", "draw", str(tid), "--round", "2")
    assert code == 2 and "current round (1)" in out, out


def test_add_a_chosen_player_in_russian(db: Database, env: dict[str, str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    tid = constructed(db)
    monkeypatch.delenv("LANG")
    code, out = run(env, "deck-checks", "add", str(tid), "Игрок 03")
    assert code == 0 and "выбор" in out and "(#3)" in out, out
    code, out = run(env, "deck-checks", "add", str(tid), "3")
    assert code == 2 and "уже проверяется" in out, out

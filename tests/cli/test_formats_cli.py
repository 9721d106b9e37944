"""``turnir format …`` (issue 13): a format made, listed and shown; a ban list from a day (by
arguments or a file; every unknown card named with the closest names, exit 2, nothing stored);
a starter deck from a file; a tournament's format set with its planned start (SQLite and
PostgreSQL)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.services.builders import ORGANIZER, event, snapshot
from turnir.cli.main import app
from turnir.services.cards import load_sample_cards
from turnir.services.deck_formats import tournament_format
from turnir.services.demo_formats import STARTER_DECKS
from turnir.services.rating_terms import tournament_rating_terms
from turnir.storage.database import Database

runner = CliRunner()


@pytest.fixture
def env(database_url: str) -> dict[str, str]:
    return {"TURNIR_DATABASE_URL": database_url, "TURNIR_ACTOR": "Организатор Тест"}


def run(env: dict[str, str], *args: object) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args], env=env)
    return result.exit_code, result.output


def test_add_list_show_and_ban(db: Database, env: dict[str, str], tmp_path: Path) -> None:
    load_sample_cards(db, actor=ORGANIZER)
    code, out = run(env, "format", "add", "Стандарт", "--edition", "образец: начало")
    assert code == 0, out
    assert "Стандарт" in out
    code, out = run(env, "format", "ban", "стандарт", "--from", "2026-01-01", "Лавина", "Йети")
    assert code == 0, out
    listed = tmp_path / "bans.txt"
    listed.write_text("# the list of March\nЛавина\nДракон ледника\n", encoding="utf-8")
    code, out = run(env, "format", "ban", "Стандарт", "--from", "2099-03-01", "--file", listed)
    assert code == 0, out
    code, out = run(env, "format", "list", "--json")
    assert code == 0, out
    assert [(f["name"], f["editions"], f["banned_today"]) for f in json.loads(out)] == [
        ("Стандарт", ["Образец: Начало"], 2)]
    code, out = run(env, "--lang", "en", "format", "show", "Стандарт")
    assert code == 0, out
    assert "Ban list from 2099-03-01 (not in force yet): Лавина, Дракон ледника" in out
    assert "Ban list from 2026-01-01 (in force today): Лавина, Йети" in out
    code, out = run(env, "format", "ban", "Стандарт", "--from", "2099-03-01", "--delete")
    assert code == 0, out
    code, out = run(env, "format", "show", "Стандарт", "--json")
    assert [b["effective"] for b in json.loads(out)["ban_lists"]] == ["2026-01-01"]


def test_unknown_cards_and_bad_input_exit_2_and_store_nothing(
        db: Database, env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    load_sample_cards(db, actor=ORGANIZER)
    assert run(env, "format", "add", "Стандарт")[0] == 0
    before = snapshot(db)
    code, out = run(env, "--lang", "en", "format", "ban", "Стандарт", "--from", "2030-01-01",
                    "Лавина", "Йетти", "Дракон ледникка")
    assert code == 2, out
    assert "no such cards in the catalogue" in out
    assert "Йетти (maybe: Йети" in out and "Дракон ледникка (maybe: Дракон ледника" in out
    code, out = run(env, "format", "ban", "Стандарт", "--from", "1.1.2030", "Лавина")
    assert code == 2 and "'1.1.2030' is not a day (YYYY-MM-DD)" in out, out
    code, out = run(env, "format", "add", "СТАНДАРТ")
    assert code == 2 and "there is a format named 'СТАНДАРТ' already" in out, out
    code, out = run(env, "format", "show", "Нет такого")
    assert code == 2 and "no format 'Нет такого'" in out, out
    monkeypatch.delenv("LANG")  # the Russian default
    code, out = run(env, "format", "ban", "Стандарт", "--from", "2030-01-01", "Йетти")
    assert code == 2 and "Таких карт нет в каталоге: «Йетти» → Йети" in out, out
    assert "Йетти (возможно: Йети" in out
    assert snapshot(db) == before


def test_starter_deck_and_set_a_tournaments_format(db: Database, env: dict[str, str],
                                                   tmp_path: Path) -> None:
    load_sample_cards(db, actor=ORGANIZER)
    assert run(env, "format", "add", "Стартер", "--starter")[0] == 0
    deck = tmp_path / "deck.txt"
    deck.write_text(STARTER_DECKS[0][1], encoding="utf-8")
    code, out = run(env, "format", "starter-deck", "Стартер", "Степная орда", deck)
    assert code == 0, out
    assert "30" in out
    bad = tmp_path / "bad.txt"
    bad.write_text("3 Лавина\n1 Несуществующая", encoding="utf-8")
    code, out = run(env, "--lang", "en", "format", "starter-deck", "Стартер", "Плохая", bad)
    assert code == 2, out
    assert "Несуществующая" in out and "a deck has" in out
    tid = event(db, 4)
    code, out = run(env, "--lang", "en", "format", "set", str(tid), "Стартер", "--starts-at",
                    "2026-12-05T15:15", "--online", "--json")
    assert code == 0, out
    found = json.loads(out)
    assert (found["starter"], found["online"], found["rules_day"]) == (True, True,
                                                                       "2026-12-05")
    assert found["starts_at"] == "2026-12-05T12:15:00+00:00"
    info = tournament_format(db, tid)
    assert info is not None and info.format.name == "Стартер"
    assert tournament_rating_terms(db, tid).starter
    code, out = run(env, "format", "set", str(tid), "Стартер", "--starts-at", "завтра")
    assert code == 2 and "is not a date and time" in out, out

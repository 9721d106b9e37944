"""``turnir deck …`` (issue 13): ``check`` with no tournament exits 2 on a deck that breaks a
rule and prints every problem in the reader's language (Russian by default), 0 on a legal deck;
``register``, ``show`` and ``list`` on a tournament's decks (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_db_cli import run
from tests.services.test_decks import BANNED, CARDS, LEGAL, constructed, seed_catalogue
from turnir.services.queries import audit_log
from turnir.services.rounds import start_round
from turnir.storage.database import Database


@pytest.fixture
def env(database_url: str) -> dict[str, str]:
    return {"TURNIR_DATABASE_URL": database_url, "TURNIR_ACTOR": "Судья Тест"}


def deck_file(tmp_path: Path, text: str, name: str = "deck.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="cp1251")
    return path


def test_check_exits_2_and_names_every_problem_in_russian(
        db: Database, env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seed_catalogue(db)
    monkeypatch.delenv("LANG")  # the Russian default
    bad = deck_file(tmp_path, f"{LEGAL}\n1 {BANNED}\n1 Лесной страш\n4 {CARDS[11]}")
    code, out = run(env, "deck", "check", bad, "--format", "ТЕСТОВЫЙ")
    assert code == 2, out
    assert "ошибок — 3" in out, out
    assert "строка 12" in out and BANNED in out and "запрещ" in out
    assert "Лесной страш" in out and "возможно, вы имели в виду: Лесной страж" in out
    assert CARDS[11] in out and "(C-1)" in out
    assert "problem" not in out
    good = deck_file(tmp_path, LEGAL, "good.txt")
    code, out = run(env, "deck", "check", good, "--format", "Тестовый")
    assert code == 0, out
    assert "соответствует формату «Тестовый»" in out


def test_check_in_english_as_json_and_its_refusals(db: Database, env: dict[str, str],
                                                   tmp_path: Path) -> None:
    seed_catalogue(db)
    bad = deck_file(tmp_path, f"1 {BANNED}")
    code, out = run(env, "--lang", "en", "deck", "check", bad, "--format", "тестовый", "--json")
    assert code == 2
    found = json.loads(out)
    assert (found["ok"], found["total"], found["format"]) == (False, 1, "Тестовый")
    assert [(p["kind"], p["rule"], p["card"]) for p in found["problems"]] == [
        ("banned", "C-1", BANNED), ("size", "C-1", None)]
    assert "banned" in found["problems"][0]["message"]
    code, out = run(env, "deck", "check", bad, "--format", "Модерн")
    assert code == 2 and "Модерн" in out and "Тестовый" in out
    code, out = run(env, "deck", "check", tmp_path / "missing.txt", "--format", "Тестовый")
    assert code == 2 and "no such file" in out
    pdf = tmp_path / "deck.pdf"
    pdf.write_bytes(b"%PDF")
    code, out = run(env, "deck", "check", pdf, "--format", "Тестовый")
    assert code == 2 and ".txt, .csv or .xlsx" in out


def test_register_show_and_list_a_tournaments_decks(db: Database, env: dict[str, str],
                                                     tmp_path: Path) -> None:
    tid, _ = constructed(db, 4)
    code, out = run(env, "deck", "register", tid, "Игрок 01", deck_file(tmp_path, LEGAL))
    assert code == 0, out
    assert "player #1 (Игрок 01) is stored, version 1" in out
    code, out = run(env, "deck", "register", tid, "2", deck_file(tmp_path, f"1 {BANNED}"))
    assert code == 0 and "banned" in out, out
    code, out = run(env, "deck", "show", tid, "1")
    assert code == 0 and f"3 {CARDS[0]}" in out and "35 cards" in out, out
    code, out = run(env, "deck", "show", tid, "3")
    assert code == 0 and "has no deck registered" in out
    code, out = run(env, "deck", "list", tid, "--json")
    rows = json.loads(out)
    assert [(r["number"], r["registered"], r["valid"], r["problems"]) for r in rows] == [
        (1, True, True, 0), (2, True, False, 2), (3, False, False, 0), (4, False, False, 0)]
    start_round(db, tid, actor="Организатор")
    code, out = run(env, "deck", "register", tid, "1", deck_file(tmp_path, LEGAL))
    assert code == 0 and "version 2" in out and "locked" in out, out
    assert [e.action for e in audit_log(db, tid, action="deck")] == [
        "deck.register", "deck.register", "deck.judge_change"]

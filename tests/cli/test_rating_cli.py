"""``turnir rating …`` on SQLite and PostgreSQL: terms, preview, submit by the head judge (and
the refusals, exit code 2), report, show with the SVG chart, top, replay, export and import."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.services.rating_builders import HEAD, finished_event
from turnir.cli.main import app
from turnir.storage.database import Database

runner = CliRunner()
NAMES = ["Анна", "Борис", "Вера", "Глеб"]


@pytest.fixture
def env(database_url: str) -> Iterator[dict[str, str]]:
    db = Database.open(database_url)
    try:
        finished_event(db, NAMES, name="Кубок")
        finished_event(db, NAMES[:3], name="Трое")
        finished_event(db, NAMES, name="Идёт", finish=False)
    finally:
        db.close()
    yield {"TURNIR_DATABASE_URL": database_url, "TURNIR_ACTOR": "Организатор", "COLUMNS": "200",
           "LANG": "en_US.UTF-8"}  # the messages asserted are the English ones


def run(env: dict[str, str], *args: object) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args], env=env)
    return result.exit_code, result.output


def ok(env: dict[str, str], *args: object) -> str:
    code, out = run(env, *args)
    assert code == 0, out
    return out


def refused(env: dict[str, str], *args: object) -> str:
    code, out = run(env, *args)
    assert code == 2, out
    return out


def test_terms_preview_submit_report_and_refusals(env: dict[str, str]) -> None:
    assert "professional K 1;" in ok(env, "rating", "terms", "Кубок")
    out = ok(env, "rating", "terms", "Кубок", "--k", "1.4", "--entry-fee", "250", "--dq", "Глеб")
    assert "professional K 1.4" in out and "entry fee 250.00" in out and "#4" in out
    assert "Would submit Кубок" in ok(env, "rating", "preview", "Кубок")
    assert "only the head judge" in refused(env, "rating", "submit", "Кубок")
    assert "not finished" in refused(env, "rating", "submit", "Идёт", "--actor", HEAD)
    assert "at least 4" in refused(env, "rating", "submit", "Трое", "--actor", HEAD)
    assert "bad" not in refused(env, "rating", "terms", "Кубок", "--boosters", "7")
    out = ok(env, "rating", "submit", "Кубок", "--actor", HEAD)
    assert "Submitted Кубок" in out and "4 player(s) changed" in out
    assert "Prize fund 1000.00: winner 700.00 (70%), second 300.00 (30%)" in out
    assert "Already submitted" in ok(env, "rating", "submit", "Кубок", "--actor", HEAD)
    data = json.loads(ok(env, "rating", "report", "Кубок", "--json"))
    assert data["status"] == "submitted" and data["professional_k"] == "1.4"
    assert [line["professional"]["after"] for line in data["lines"]] == [
        "105.60", "102.10", "100.00", "100.00"]
    assert data["lines"][3]["professional"]["reset_applied"] is True
    again = json.loads(ok(env, "rating", "submit", "Кубок", "--actor", HEAD, "--json"))
    assert again["status"] == "unchanged" and again["changed"] == []
    ok(env, "rating", "terms", "Кубок", "--clear-dq", "--no-money")
    out = ok(env, "rating", "submit", "Кубок", "--actor", HEAD)
    assert "Corrected Кубок" in out and "no prize" not in out


def test_show_top_replay_export_import_settings(env: dict[str, str], tmp_path: Path) -> None:
    ok(env, "rating", "submit", "Кубок", "--actor", HEAD)
    chart = tmp_path / "anna.svg"
    out = ok(env, "rating", "show", "анна", "--svg", chart)
    assert "professional 104.00 (#1)" in out and "Кубок" in out and "1/4" in out
    assert chart.read_text(encoding="utf-8").startswith("<svg")
    profile = json.loads(ok(env, "rating", "show", "Анна", "--json"))
    assert profile["history"][0]["professional"]["change"] == "4.00"
    assert "no player named" in refused(env, "rating", "show", "Никто")

    board = json.loads(ok(env, "rating", "top", "--json", "--per-page", "2"))
    assert [line["person"]["name"] for line in board["lines"]] == ["Анна", "Борис"]
    assert board["pages"] == 2
    assert "Вера" in ok(env, "rating", "top", "--city", "Москва", "--by", "warlock")

    out = ok(env, "rating", "replay")
    assert "Replayed 1 tournament(s); 0 rewritten." in out and "Nobody's ratings changed" in out

    csv_file, json_file = tmp_path / "ratings.csv", tmp_path / "ratings.json"
    assert "Wrote 4 rating(s)" in ok(env, "rating", "export", csv_file)
    ok(env, "rating", "export", json_file)
    assert "already exists" in refused(env, "rating", "export", csv_file)
    assert csv_file.read_text(encoding="utf-8").splitlines()[1] == \
        "Анна,Москва,,104.00,100.00,1"
    assert json.loads(json_file.read_text(encoding="utf-8"))["ratings"][0]["name"] == "Анна"
    assert ok(env, "rating", "export", "-").startswith("name,city,club")

    listed = tmp_path / "list.csv"
    listed.write_text("Имя;Город;Рейтинг\nАнна;Москва;150\nНовый;Тула;120,50\n",
                      encoding="utf-8")
    out = ok(env, "rating", "import", listed)
    assert "Imported 2 rating(s)" in out and "1 matched, 1 new people" in out
    assert "Анна: professional 104.00 → 153.00" in out
    bad = tmp_path / "bad.csv"
    bad.write_text("name,professional\nАнна,99\n", encoding="utf-8")
    assert "below 100" in refused(env, "rating", "import", bad)

    assert "many participants 32" in ok(env, "rating", "settings")
    out = ok(env, "rating", "settings", "--warlock-first", "start_at_100")
    assert "Warlock first tournament start_at_100" in out and "changed" in out

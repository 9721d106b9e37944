"""``turnir cards …`` (issue 13): import a file (and replace), find a card or be told the
closest names with exit code 2, list an edition; on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from turnir.cli.main import app
from turnir.storage.database import Database

runner = CliRunner()


@pytest.fixture
def env(database_url: str) -> dict[str, str]:
    return {"TURNIR_DATABASE_URL": database_url, "TURNIR_ACTOR": "Организатор"}


def run(env: dict[str, str], *args: object) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args], env=env)
    return result.exit_code, result.output


def test_import_find_and_list(db: Database, env: dict[str, str], tmp_path: Path) -> None:
    path = tmp_path / "cards.csv"
    path.write_bytes("название;выпуск;стоимость;кристалл\nГорный страж;Сет;2;серебро\n"
                     "Тёмный рыцарь;Сет;5;золото\n".encode("cp1251"))
    code, out = run(env, "cards", "import", path)
    assert code == 0 and "2 new card(s), 0 updated; 2 in the catalogue" in out
    code, out = run(env, "cards", "find", "темныи рыцарь")
    assert code == 2 and "did you mean «Тёмный рыцарь»" in out
    code, out = run(env, "cards", "find", "  ТЁМНЫЙ  рыцарь")
    assert code == 0 and "Тёмный рыцарь" in out and "cost: 5 gold" in out
    code, out = run(env, "cards", "find", "Горный страж", "--json")
    assert code == 0 and json.loads(out)["cost"] == 2
    code, out = run(env, "cards", "list", "--edition", "сет", "--json")
    assert code == 0 and [c["name"] for c in json.loads(out)] == ["Горный страж",
                                                                   "Тёмный рыцарь"]
    code, out = run(env, "cards", "list", "--edition", "другой")
    assert code == 2 and "no edition 'другой'" in out


def test_a_bad_file_names_rows_and_replace_empties(db: Database, env: dict[str, str],
                                                   tmp_path: Path) -> None:
    assert run(env, "cards", "sample")[0] == 0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"name": "A", "edition": "E", "cost": "дорого"}]))
    code, out = run(env, "cards", "import", bad, "--replace")
    assert code == 2 and "card 1, column cost: the cost must be a whole number" in out
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"cards": [{"name": "A", "edition": "E"}]}))
    code, out = run(env, "cards", "import", good, "--replace")
    assert code == 0 and "removed first; 1 in the catalogue" in out
    assert run(env, "cards", "find", "Горный страж")[0] == 2

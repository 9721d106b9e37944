"""The CLI speaks the reader's language (issue 11): Russian by default, English when LANG is
English or with ``--lang en``; refusals exit 2 either way. And ``turnir --help`` imports none
of the database, the web or the robot."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from turnir.cli.main import app

runner = CliRunner()


def refusal(*args: str, env: dict[str, str] | None = None) -> str:
    result = runner.invoke(app, list(args), env=env)
    assert result.exit_code == 2, result.output
    return result.output


def test_russian_by_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("LANG")
    out = refusal("pairings", str(tmp_path / "missing.json"))
    assert "ошибка:" in out and "нет такого файла" in out


def test_english_from_lang_and_from_the_option(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.json")
    assert "error:" in refusal("pairings", missing) and "no such file" in refusal(
        "pairings", missing)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert "нет такого файла" in refusal("pairings", missing)
    out = refusal("--lang", "en", "pairings", missing)
    assert "error:" in out and "no such file" in out
    assert "нет такого файла" in refusal("--lang", "ru", "pairings", missing, env={
        "LANG": "en_US.UTF-8"})


def test_the_cli_own_refusals_are_translated(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    file = tmp_path / "t.json"
    file.write_text("{}", encoding="utf-8")
    players = tmp_path / "p.csv"
    players.write_text("name\nАнна\nБорис\n", encoding="utf-8")
    assert "already exists" in refusal("new", str(file), "--players", str(players))
    assert "уже есть" in refusal("--lang", "ru", "new", str(file), "--players", str(players))


def test_an_unknown_language_is_refused() -> None:
    result = runner.invoke(app, ["--lang", "de", "schema"])
    assert result.exit_code == 2 and "ru or en" in result.output


HEAVY = ("sqlalchemy", "fastapi", "starlette", "uvicorn", "alembic", "turnir.robot",
         "turnir.web", "turnir.storage", "turnir.services")


def imported_by(*args: str) -> list[str]:
    """The heavy modules ``turnir ARGS`` has imported when it ends."""
    script = ("import sys, json, atexit\n"
              "atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr))\n"
              "sys.argv = ['turnir', *json.loads(sys.argv[1])]\n"
              "from turnir.cli.main import main\nmain()\n")
    done = subprocess.run([sys.executable, "-c", script, json.dumps(args)], text=True,
                          capture_output=True, env={**os.environ, "LANG": "en_US.UTF-8"},
                          check=False)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stderr.strip().splitlines()[-1])
    return [m for m in loaded if m.split(".")[0] in HEAVY or m.startswith(HEAVY)]


def test_help_and_file_commands_import_no_database_web_or_robot(tmp_path: Path) -> None:
    assert imported_by("--help") == []
    players = tmp_path / "p.csv"
    players.write_text("name\n" + "".join(f"Игрок {i}\n" for i in range(1, 9)), "utf-8")
    file = tmp_path / "t.json"
    assert imported_by("new", str(file), "--players", str(players), "--seed", "3") == []
    assert imported_by("pair", str(file)) == []
    assert imported_by("standings", str(file)) == []

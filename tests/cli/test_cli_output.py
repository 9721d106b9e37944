"""What the command line prints cannot steer the terminal (issue 10 item 9): control characters
from data are shown escaped, Rich markup in data is text, and bad input files are refused with
a message (items 5, 6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from openpyxl import Workbook
from sqlalchemy import update
from typer.testing import CliRunner

from turnir.cli.main import app
from turnir.cli.output import escape_controls, write
from turnir.domain.model import Settings
from turnir.domain.tournament import make_players, new_tournament
from turnir.formats.tournament_file import dump_tournament
from turnir.storage.database import Database
from turnir.storage.tables import entries

runner = CliRunner()
ESC = "\x1b"
CLEAR = "\x1b[2J"


def run(*args: object, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args], env=env)
    return result.exit_code, result.output


def test_item9_escape_controls() -> None:
    assert escape_controls(f"Анна{CLEAR}\x9b1m\x07\x7f") == r"Анна\x1b[2J\x9b1m\x07\x7f"
    assert escape_controls("две\nстроки\tи табуляция") == "две\nстроки\tи табуляция"
    assert escape_controls("a\nb", keep="") == r"a\x0ab"


def test_item9_json_output_stays_valid_json(capsys: pytest.CaptureFixture[str]) -> None:
    write(json.dumps({"name": f"Анна{CLEAR}\x9b"}, ensure_ascii=False))
    out = capsys.readouterr().out
    assert ESC not in out and "\x9b" not in out
    assert json.loads(out) == {"name": f"Анна{CLEAR}\x9b"}


def test_item9_standings_of_a_file_with_an_escape_in_a_name(tmp_path: Path) -> None:
    t = new_tournament("Кубок", make_players(["Анна", "Борис", "Вера", "Глеб"]),
                       settings=Settings(), seed=1)
    data = json.loads(dump_tournament(t))
    data["players"][0]["name"] = f"Анна{CLEAR}"
    data["name"] = f"Кубок{CLEAR}"
    path = tmp_path / "cup.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, out = run("standings", path)
    assert ESC not in out
    assert code == 2, out
    assert "control character (U+001B)" in out


def _legacy_name(database_url: str, tid: int, name: str) -> None:
    """A name stored before names were checked (straight into the table)."""
    db = Database.open(database_url)
    try:
        with db.write() as conn:
            conn.execute(update(entries).where(entries.c.tournament_id == tid,
                                               entries.c.number == 1).values(name=name))
    finally:
        db.close()


def test_item9_database_output_escapes_stored_control_characters(database_url: str,
                                                                 tmp_path: Path) -> None:
    env = {"TURNIR_DATABASE_URL": database_url, "TURNIR_ACTOR": "Судья Тест", "COLUMNS": "200"}
    players = tmp_path / "players.csv"
    players.write_text("name\nАнна\nБорис\nВера\nГлеб\n", encoding="utf-8")
    code, out = run("tournament", "new", "Кубок", "--players", players, "--rounds", "2", env=env)
    assert code == 0, out
    _legacy_name(database_url, 1, f"Анна{CLEAR}[/]\x9b")
    for args in (("standings", "Кубок"), ("player", "list", "Кубок"),
                 ("player", "list", "Кубок", "--json")):
        code, out = run(*args, env=env)
        assert code == 0, (args, out)
        assert ESC not in out and "\x9b" not in out, args
        assert "Анна" in out
    code, out = run("player", "list", "Кубок", env=env)
    assert r"\x1b" in out and r"\x9b" in out and "[/]" in out
    code, out = run("player", "list", "Кубок", "--json", env=env)
    assert json.loads(out)[0]["name"] == f"Анна{CLEAR}[/]\x9b"
    code, out = run("player", "drop", "Кубок", f"Никто{CLEAR}", env=env)
    assert code == 2 and ESC not in out and "control character (U+001B)" in out, out
    code, out = run("player", "drop", "Кубок", "Никто[/]", env=env)
    assert code == 2 and "no player named 'Никто[/]'" in out, out


def test_item5_huge_byes_in_a_players_file_exit_2(tmp_path: Path) -> None:
    players = tmp_path / "players.csv"
    players.write_text("name,byes\nАнна,99999999999999999999\nБорис,0\n", encoding="utf-8")
    code, out = run("new", tmp_path / "t.json", "--players", players)
    assert code == 2
    assert "line 2: byes must be a whole number from 0 to 50" in out
    players.write_text("name,byes\nАнна,3\nБорис,0\n", encoding="utf-8")
    code, out = run("new", tmp_path / "t.json", "--players", players, "--rounds", "2")
    assert code == 2 and "Анна: 3 byes: at most 2" in out, out
    assert not (tmp_path / "t.json").exists()


def test_item6_cli_reads_cp1251_and_xlsx_players(tmp_path: Path) -> None:
    cp1251 = tmp_path / "excel.csv"
    cp1251.write_bytes("Имя;Город\r\nАнна Котова;Тверь\r\nЁжиков Пётр;Москва\r\n"
                       .encode("cp1251"))
    code, out = run("new", tmp_path / "a.json", "--players", cp1251)
    assert code == 0, out
    names = [p["name"] for p in json.loads((tmp_path / "a.json").read_text())["players"]]
    assert names == ["Анна Котова", "Ёжиков Пётр"]
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    for row in (["Имя", "Автопобеды"], ["Анна Котова", 1], ["Ёжиков Пётр", None]):
        sheet.append(row)
    xlsx = tmp_path / "players.xlsx"
    book.save(xlsx)
    code, out = run("new", tmp_path / "b.json", "--players", xlsx)
    assert code == 0, out
    players = json.loads((tmp_path / "b.json").read_text())["players"]
    assert [(p["name"], p["granted_byes"]) for p in players] == [
        ("Анна Котова", [1]), ("Ёжиков Пётр", [])]


def test_item6_cli_names_the_line_of_a_malformed_csv(tmp_path: Path) -> None:
    players = tmp_path / "players.csv"
    players.write_text('name,city\nАнна,Тверь\n"Борис,Тверь\nВера,Москва\n', encoding="utf-8")
    code, out = run("new", tmp_path / "t.json", "--players", players)
    assert code == 2
    assert "players.csv line 3: a quote is not closed on this line" in out

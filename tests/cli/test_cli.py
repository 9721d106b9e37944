"""The ``turnir`` command line on a tournament file: every command, and refusals that exit 2
and leave the file untouched."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from turnir.cli.main import app

runner = CliRunner()


def run(*args: str | Path) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


def make(tmp_path: Path, count: int = 8, *extra: str) -> Path:
    players = tmp_path / "players.csv"
    players.write_text("name,city\n" + "".join(f"Игрок {i},Москва\n" for i in range(1, count + 1)),
                       encoding="utf-8")
    path = tmp_path / "t.json"
    code, out = run("new", path, "--players", players, "--seed", "11", *extra)
    assert code == 0, out
    return path


def finish_round(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    rnd = data["rounds"][-1]
    for line in rnd["pairings"]:
        if line["b"] is not None and line["result"] is None:
            code, out = run("result", path, rnd["number"], line["table"], "2-1")
            assert code == 0, out


def test_whole_tournament_through_the_cli(tmp_path: Path) -> None:
    path = make(tmp_path, 8, "--rounds", "3", "--top", "4", "--best-of", "3")
    for _ in range(3):
        code, out = run("pair", path)
        assert code == 0, out
        finish_round(path)
    code, out = run("standings", path)
    assert code == 0 and "QW" in out
    for _ in range(2):
        code, out = run("pair", path)
        assert code == 0, out
        finish_round(path)
    code, out = run("standings", path, "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["phase"] == "finished"
    assert len(data["final_places"]) == 8
    assert [row["place"] for row in data["standings"]] == list(range(1, 9))
    code, out = run("pair", path)
    assert code == 2 and "finished" in out


def assert_refused(path: Path, *args: str | Path, message: str) -> None:
    before = path.read_bytes()
    code, out = run(*args)
    assert code == 2, out
    assert message in out, out
    assert path.read_bytes() == before


def test_refusals_exit_2_and_leave_the_file(tmp_path: Path) -> None:
    path = make(tmp_path, 5, "--rounds", "2")
    code, _ = run("pair", path)
    assert code == 0
    assert_refused(path, "result", path, "1", "7", "2-0", message="no table 7")
    assert_refused(path, "result", path, "1", "1", "3-0", message="best-of-3")
    assert_refused(path, "result", path, "1", "1", "two", message="cannot read")
    assert_refused(path, "pair", path, message="not finished")
    assert_refused(path, "drop", path, "Nobody", message="no player named")
    assert_refused(path, "late", path, "игрок 1", message="already")


def test_new_refuses_bad_input(tmp_path: Path) -> None:
    players = tmp_path / "p.csv"
    players.write_text("name\nAnna\nanna\n", encoding="utf-8")
    code, out = run("new", tmp_path / "t.json", "--players", players)
    assert code == 2 and "line 3" in out
    players.write_text("name\nA\nB\nC\n", encoding="utf-8")
    code, out = run("new", tmp_path / "t.json", "--players", players, "--top", "3")
    assert code == 2 and "power-of-two" in out
    assert not (tmp_path / "t.json").exists()
    code, out = run("new", tmp_path / "t.json", "--players", tmp_path / "none.csv")
    assert code == 2 and "no such file" in out


def test_broken_file_is_refused(tmp_path: Path) -> None:
    path = make(tmp_path, 6)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["players"][0]["name"] = data["players"][1]["name"]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert_refused(path, "pair", path, message="already player #1")


def test_drop_late_swap_undo(tmp_path: Path) -> None:
    path = make(tmp_path, 8, "--rounds", "3")
    run("pair", path)
    finish_round(path)
    code, out = run("drop", path, "Игрок 3")
    assert code == 0 and "dropped" in out
    code, out = run("late", path, "Новый Игрок", "--byes")
    assert code == 0 and "#9" in out
    code, out = run("pair", path)
    assert code == 0, out
    assert "Игрок 3 " not in out
    code, out = run("undo", path)
    assert code == 0, out
    code, out = run("pair", path)
    assert code == 0, out
    code, out = run("pairings", path, "1")
    assert code == 0 and "2-1" in out


def test_schema_prints_json() -> None:
    code, out = run("schema")
    assert code == 0
    assert json.loads(out)["title"].startswith("turnir")


def test_demo_runs_a_whole_tournament() -> None:
    code, out = run("demo", "--players", "12", "--seed", "3")
    assert code == 0, out
    assert "Place" in out and "final" in out

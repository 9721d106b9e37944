"""The database commands of ``turnir`` on SQLite and PostgreSQL: a whole event from the command
line, refusals with exit code 2 that change nothing, the file/database dispatch of ``result``
and ``standings``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.services.builders import offline_event, snapshot
from turnir.cli.db_common import LazyProgress
from turnir.cli.main import app
from turnir.formats.tournament_file import dump_tournament, parse_tournament
from turnir.services.transfer import export_tournament
from turnir.storage.database import Database
from turnir.storage.repositories import find_tournament_id

runner = CliRunner()


@pytest.fixture
def env(database_url: str) -> dict[str, str]:
    return {"TURNIR_DATABASE_URL": database_url, "TURNIR_ACTOR": "Судья Тест"}


def run(env: dict[str, str], *args: object) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args], env=env)
    return result.exit_code, result.output


def ok(env: dict[str, str], *args: object) -> str:
    code, out = run(env, *args)
    assert code == 0, out
    return out


def players_csv(tmp_path: Path, count: int) -> Path:
    path = tmp_path / "players.csv"
    path.write_text("name,city\n" + "".join(f"Игрок {i},Москва\n" for i in range(1, count + 1)),
                    encoding="utf-8")
    return path


def finish_round(env: dict[str, str], tournament: str, score: str = "2-1") -> None:
    """Record ``score`` at every table of the current round still without a result."""
    data = json.loads(_dump(env, tournament))
    rnd = data["rounds"][-1]
    for line in rnd["pairings"]:
        if line["b"] is not None and line["result"] is None:
            ok(env, "result", tournament, rnd["number"], line["table"], score)


def _dump(env: dict[str, str], tournament: str) -> str:
    db = Database.open(env["TURNIR_DATABASE_URL"])
    try:
        with db.read() as conn:
            tid = find_tournament_id(conn, tournament)
        return export_tournament(db, tid)
    finally:
        db.close()


def test_whole_event_from_the_command_line(env: dict[str, str], tmp_path: Path) -> None:
    csv_file = players_csv(tmp_path, 8)
    out = ok(env, "tournament", "new", "Кубок города", "--players", csv_file, "--rounds", "3",
             "--top", "4", "--seed", "11")
    assert "Created tournament #1" in out and "8 players" in out
    assert "Кубок города" in ok(env, "tournament", "list")
    ok(env, "judge", "add", "Кубок города", "Главный Судья", "--role", "head_judge")
    assert "head judge: Главный Судья" in ok(env, "tournament", "show", "1")
    ok(env, "player", "add", "Кубок города", "Девятый", "--city", "Тула")
    ok(env, "player", "checkin", "1", "Девятый")
    players = json.loads(ok(env, "player", "list", "1", "--json"))
    assert [p["number"] for p in players] == list(range(1, 10))
    assert players[-1]["checked_in"] is True

    assert "round 1" in ok(env, "round", "pair", "Кубок города", "--include-absent")
    ok(env, "round", "undo", "1")
    ok(env, "round", "pair", "1", "--include-absent")
    finish_round(env, "1")
    ok(env, "player", "drop", "1", "Игрок 3", "--reason", "ушёл")
    assert "joined as #10" in ok(env, "player", "late", "1", "Поздний", "--byes")
    for _ in range(2):
        ok(env, "round", "pair", "1")
        finish_round(env, "1")
    ok(env, "round", "pair", "1", "--top")
    finish_round(env, "1")
    ok(env, "round", "pair", "1")
    finish_round(env, "1", "0-2")
    ok(env, "round", "show", "1", "4")
    standings = json.loads(ok(env, "standings", "Кубок города", "--json"))
    assert standings["phase"] == "finished" and len(standings["final_places"]) == 10
    assert "place,number,name" in ok(env, "standings", "1", "--csv")
    assert "is finished" in ok(env, "tournament", "finish", "1")
    code, out = run(env, "round", "pair", "1")
    assert code == 2 and "finished" in out

    log = json.loads(ok(env, "log", "1", "--json"))
    actions = [entry["action"] for entry in log]
    assert actions[0] == "tournament.create" and actions[-1] == "tournament.finish"
    assert {"round.undo", "player.drop", "player.late_entry", "judge.add"} <= set(actions)
    assert all(entry["actor"] == "Судья Тест" for entry in log)
    assert "result.record" in ok(env, "log", "1", "--action", "result", "--limit", "2")


def test_result_repeat_correction_and_refusals(env: dict[str, str], tmp_path: Path) -> None:
    ok(env, "tournament", "new", "Лига", "--players", players_csv(tmp_path, 4), "--rounds", "2")
    ok(env, "round", "pair", "Лига")
    assert "recorded; version 2" in ok(env, "result", "Лига", "1", "1", "2-0")
    assert "unchanged" in ok(env, "result", "Лига", "1", "1", "2-0", "--actor", "Другой")
    db = Database.open(env["TURNIR_DATABASE_URL"])
    before = snapshot(db)
    for args, message in [
        (("result", "Лига", "1", "1", "0-2"), "already has the result"),
        (("result", "Лига", "1", "1", "0-2", "--correct", "--expected-version", "1"),
         "changed by Судья Тест"),
        (("result", "Лига", "1", "9", "2-0"), "no table 9"),
        (("result", "Лига", "1", "1", "3-0"), "best-of-3"),
        (("result", "Нет такого", "1", "1", "2-0"), "no tournament"),
        (("player", "late", "Лига", "игрок 2"), "already player #2"),
        (("player", "add", "Лига", "Новый"), "late entry"),
        (("round", "pair", "Лига"), "not finished"),
        (("player", "drop", "Лига", "Никто"), "no player named"),
    ]:
        code, out = run(env, *args)
        assert code == 2, (args, out)
        assert message in out, (args, out)
    assert snapshot(db) == before
    assert "corrected" in ok(env, "result", "Лига", "1", "1", "0-2", "--correct",
                             "--expected-version", "2")
    db.close()


def test_export_and_import(env: dict[str, str], tmp_path: Path) -> None:
    source = tmp_path / "offline.json"
    source.write_text(dump_tournament(offline_event()), encoding="utf-8")
    assert "as tournament #1" in ok(env, "import", source)
    out_file = tmp_path / "back.json"
    ok(env, "export", "1", out_file)
    assert out_file.read_text(encoding="utf-8") == source.read_text(encoding="utf-8")
    code, out = run(env, "export", "1", out_file)
    assert code == 2 and "already exists" in out
    players = tmp_path / "players.csv"
    ok(env, "export", "1", players, "--kind", "players")
    ok(env, "tournament", "new", "Копия")
    assert "Registered 14 players" in ok(env, "import", players, "--into", "Копия")
    standings = tmp_path / "standings.csv"
    ok(env, "export", "1", standings)
    assert standings.read_text(encoding="utf-8").startswith("place,number,name")

    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "turnir-tournament", "players": 5}', encoding="utf-8")
    db = Database.open(env["TURNIR_DATABASE_URL"])
    before = snapshot(db)
    code, out = run(env, "import", broken)
    assert code == 2 and "broken.json" in out
    code, out = run(env, "import", players)
    assert code == 2 and "--into" in out
    assert snapshot(db) == before
    db.close()
    assert parse_tournament(out_file.read_text(encoding="utf-8")).name == "Офлайн-турнир"


def test_db_upgrade_and_where(env: dict[str, str]) -> None:
    assert "already at schema" in ok(env, "db", "upgrade")
    assert ok(env, "db", "where").strip().split("://")[0] in {"sqlite", "postgresql+psycopg"}


def test_new_database_on_first_use_and_file_dispatch(tmp_path: Path) -> None:
    fresh = {"TURNIR_DATABASE_URL": f"sqlite:///{tmp_path}/new/t.db", "TURNIR_ACTOR": "x"}
    assert "Tournaments" in ok(fresh, "tournament", "list")
    assert (tmp_path / "new" / "t.db").exists()
    code, out = run(fresh, "result", tmp_path / "missing.json", "1", "1", "2-0")
    assert code == 2 and "no such file" in out
    code, out = run(fresh, "standings", "missing")
    assert code == 2 and "no tournament 'missing'" in out
    xdg = {"XDG_DATA_HOME": str(tmp_path / "xdg"), "TURNIR_DATABASE_URL": "", "TURNIR_ACTOR": "x"}
    assert str(tmp_path / "xdg" / "turnir" / "turnir.db") in ok(xdg, "db", "where")


def test_progress_bar_waits_a_second() -> None:
    bar = LazyProgress("work", after_s=3600)
    bar(1, 10)
    assert bar.progress is None
    shown = LazyProgress("work", after_s=0)
    shown(1, 10)
    shown(10, 10)
    assert shown.progress is not None and shown.task is not None
    assert shown.progress.tasks[0].completed == 10
    shown.close()

"""``turnir penalty …`` on SQLite and PostgreSQL: a judge's day from the command line (give,
list, appeal, withdraw, technical results, claims, games, the report, the catalogue, settings,
the suspension register), and refusals with exit code 2 that change nothing."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.services.builders import snapshot
from turnir.cli.main import app
from turnir.services.penalty_catalogue import get_catalogue
from turnir.services.rounds import current_round
from turnir.storage.database import Database

runner = CliRunner()
HEAD = "Главный Судья"
FLOOR = "Судья Петров"


@pytest.fixture
def env(database_url: str) -> dict[str, str]:
    return {"TURNIR_DATABASE_URL": database_url, "TURNIR_ACTOR": FLOOR, "COLUMNS": "200"}


def run(env: dict[str, str], *args: object) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args], env=env)
    return result.exit_code, result.output


def ok(env: dict[str, str], *args: object) -> str:
    code, out = run(env, *args)
    assert code == 0, out
    return out


def refused(env: dict[str, str], *args: object) -> str:
    db = Database.open(env["TURNIR_DATABASE_URL"])
    try:
        before = snapshot(db)
        code, out = run(env, *args)
        assert code == 2, out
        assert snapshot(db) == before
    finally:
        db.close()
    return out


def setup(env: dict[str, str], tmp_path: Path, level: str = "professional") -> str:
    csv_file = tmp_path / "players.csv"
    csv_file.write_text("name,city\n" + "".join(f"Игрок {i},Тверь\n" for i in range(1, 9)),
                        encoding="utf-8")
    ok(env, "tournament", "new", "Кубок", "--players", csv_file, "--rounds", "3",
       "--rules-level", level, "--seed", "5")
    ok(env, "judge", "add", "Кубок", HEAD, "--role", "head_judge", "--official")
    ok(env, "judge", "add", "Кубок", FLOOR, "--role", "floor_judge")
    ok(env, "judge", "add", "Кубок", "Организатор", "--role", "organizer")
    return "Кубок"


def pairings(env: dict[str, str]) -> list[tuple[int, int, int | None]]:
    db = Database.open(env["TURNIR_DATABASE_URL"])
    try:
        view = current_round(db, 1)
        return [(p.table, p.a, p.b) for p in view.round.pairings]
    finally:
        db.close()


def test_a_judges_day_from_the_command_line(env: dict[str, str], tmp_path: Path) -> None:
    t = setup(env, tmp_path)
    out = ok(env, "penalty", "catalogue", "show", t, "--lang", "en")
    assert "slow_play" in out and "Slow play" in out
    ok(env, "round", "pair", t)
    table, a, _ = pairings(env)[0]
    dry = ok(env, "penalty", "give", t, a, "unsporting_minor", "--dry-run", "--lang", "en")
    assert "Would give" in dry and "remark" in dry
    ok(env, "penalty", "give", t, a, "unsporting_minor")
    ok(env, "penalty", "give", t, a, "unsporting_minor")
    third = ok(env, "penalty", "give", t, a, "unsporting_minor", "--lang", "en")
    assert "raised from warning to game loss" in third
    assert "waits for the player's next result" in third
    listed = json.loads(ok(env, "penalty", "list", t, str(a), "--json"))
    assert [p["penalty"] for p in listed] == ["remark", "warning", "game_loss"]
    assert listed[2]["pending_loss"] is True
    # The game in progress is lost; the players report the games played after it.
    ok(env, "penalty", "games", t, 1, table, "a", "b:lethal_damage")
    after = json.loads(ok(env, "penalty", "list", t, str(a), "--json"))
    assert after[2]["applied_round"] == 1
    appeal = ok(env, "penalty", "appeal", t, 2, "--outcome", "changed", "--to", "remark",
                "--actor", HEAD, "--note", "погорячился", "--lang", "en")
    assert "changed by Главный Судья" in appeal
    refused(env, "penalty", "appeal", t, 1, "--outcome", "withdrawn")       # not the head judge
    withdrawn = ok(env, "penalty", "withdraw", t, 1, "--reason", "не тот игрок", "--actor", HEAD)
    assert "снято главным судьёй" in withdrawn
    line = pairings(env)[1]
    tech = ok(env, "penalty", "technical", t, 1, line[0], "--a-silver", "9", "--a-gold", "3",
              "--b-silver", "10", "--games", "a", "--actor", HEAD, "--lang", "en")
    assert "technical win for player A: 12 crystals against 10" in tech and "2-0" in tech
    line = pairings(env)[2]
    claim = ok(env, "penalty", "claim", t, 1, line[0], line[2], "--kind", "draw", "--granted",
               "--games", "a,b")
    assert "1-1-1" in claim
    ruling = json.loads(ok(env, "penalty", "rulings", t, "--json"))
    assert [r["kind"] for r in ruling] == ["technical", "claim"]
    report_ru = ok(env, "penalty", "report", t)
    assert "## Пенальти: Кубок" in report_ru and "### Апелляции" in report_ru
    report_en = json.loads(ok(env, "penalty", "report", t, "--json"))
    assert report_en["head_judge"] == HEAD and len(report_en["appeals"]) == 1
    history = json.loads(ok(env, "penalty", "history", f"Игрок {a}", "--json"))
    assert [h["tournament"] for h in history] == ["Кубок"] * 3


def test_settings_catalogue_and_suspensions(env: dict[str, str], tmp_path: Path) -> None:
    t = setup(env, tmp_path)
    out = ok(env, "penalty", "settings", t)
    assert "Official: yes; technical win margin: 1; penalty points: 0/1/2/3/4/5/6" in out
    refused(env, "penalty", "settings", t, "--margin", "2")                # a floor judge
    out = ok(env, "penalty", "settings", t, "--margin", "2", "--points", "0/2/3/4/5/6/7",
             "--actor", "Организатор")
    assert "margin: 2; penalty points: 0/2/3/4/5/6/7" in out
    refused(env, "penalty", "settings", t, "--points", "1/2", "--actor", HEAD)
    ok(env, "penalty", "catalogue", "default", t, "slow_play", "professional", "remark",
       "--actor", HEAD)
    ok(env, "penalty", "catalogue", "set", t, "phone_use", "--ru", "Телефон", "--en", "Phone",
       "--amateur", "remark", "--professional", "warning", "--highest", "game-loss",
       "--actor", HEAD)
    ok(env, "penalty", "catalogue", "remove", t, "theft", "--actor", HEAD)
    db = Database.open(env["TURNIR_DATABASE_URL"])
    try:
        catalogue = get_catalogue(db, 1).catalogue
    finally:
        db.close()
    assert "phone_use" in catalogue and "theft" not in catalogue
    refused(env, "penalty", "catalogue", "default", t, "slow_play", "professional", "nothing",
            "--actor", HEAD)
    ok(env, "round", "pair", t)
    refused(env, "penalty", "give", t, "1", "theft")                     # removed
    refused(env, "penalty", "give", t, "1", "slow_play", "--penalty", "suspension")
    out = ok(env, "penalty", "give", t, "1", "aggressive_behaviour", "--penalty", "suspension",
             "--actor", HEAD, "--until", "2031-01-31")
    assert "Suspension register entry #1" in out and "Disqualified" in out
    listed = json.loads(ok(env, "penalty", "suspension", "list", "--json"))
    assert listed[0]["until"] == "2031-01-31" and listed[0]["tournament"] == "Кубок"
    ok(env, "penalty", "suspension", "term", "1", "--open")
    added = ok(env, "penalty", "suspension", "add", "Игрок 2", "--from", "2020-01-01",
               "--until", "2020-02-01", "--reason", "старое дело", "--issued-by", "Координатор")
    assert "2020-01-01 — 2020-02-01" in added
    on = ok(env, "penalty", "suspension", "list", "--on", date.today().isoformat(), "--json")
    assert [s["person"] for s in json.loads(on)] == ["Игрок 1"]
    refused(env, "penalty", "suspension", "add", "Никто", "--from", "2020-01-01",
            "--reason", "x", "--issued-by", "y")
    refused(env, "penalty", "suspension", "list", "--on", "вчера")


def test_refusals_name_the_problem(env: dict[str, str], tmp_path: Path) -> None:
    t = setup(env, tmp_path)
    ok(env, "round", "pair", t)
    assert "known: unsporting_minor" in refused(env, "penalty", "give", t, "1", "swearing")
    assert "needs the head judge" in refused(env, "penalty", "give", t, "1", "slow_play",
                                             "--penalty", "game-loss")
    assert "unknown penalty" in refused(env, "penalty", "give", t, "1", "slow_play",
                                        "--penalty", "yellow-card")
    assert "is not a judge" in refused(env, "penalty", "give", t, "1", "slow_play",
                                       "--actor", "Зритель")
    assert "only the head judge records" in refused(env, "penalty", "technical", t, 1, 1,
                                                    "--a-silver", "3")
    assert "write a, b or draw" in refused(env, "penalty", "games", t, 1, 1, "x")
    out = ok(env, "penalty", "give", t, "1", "slow_play", "--penalty", "game-loss",
             "--confirmed-by", HEAD, "--key", "tap-1")
    again = ok(env, "penalty", "give", t, "1", "slow_play", "--penalty", "game-loss",
               "--confirmed-by", HEAD, "--key", "tap-1")
    assert out.splitlines()[0] == again.splitlines()[0]

"""``turnir draft …`` (issue 14): ``simulate`` runs a whole draft in memory and checks every
pool (D-2, D-4, D-6); ``plan`` and ``seat`` set a stored tournament's plan and seat it at
draft tables (D-2, D-3), printing the tables; errors are a message and exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_db_cli import players_csv, run


@pytest.fixture
def env(database_url: str) -> dict[str, str]:
    return {"TURNIR_DATABASE_URL": database_url, "TURNIR_ACTOR": "Организатор"}


def test_simulate_32_players_4_boosters_every_card_in_exactly_one_pool() -> None:
    code, out = run({}, "draft", "simulate", "--players", "32", "--boosters", "4", "--json")
    assert code == 0, out
    report = json.loads(out)
    assert report["ok"] is True
    assert report["plan"]["boosters"] == [12, 12, 12, 12]
    assert [t["players"] for t in report["tables"]] == [16, 16]
    for table in report["tables"]:
        assert table["picks"] == table["cards"] == 16 * 48
        assert table["pool_sizes"] == [48] * 16
        assert table["every_card_once"] and table["pools_full"]
        assert table["auto_picks"] > 0  # the player who left and the timeouts
        assert table["dropped"] == 1


def test_simulate_online_prints_per_table_in_russian(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LANG")
    code, out = run({}, "draft", "simulate", "--players", "20", "--boosters", "2",
                    "--profile", "online", "--seed", "7", "--timeouts", "0.3")
    assert code == 0, out
    assert "игроков 20, 2×7 (онлайн), сид 7" in out
    assert "14×10" in out  # two tables of 10, 14 cards each
    assert "Каждая карта оказалась ровно в одном пуле" in out


def test_simulate_is_replayed_by_its_seed() -> None:
    args = ("draft", "simulate", "--players", "9", "--boosters", "1", "--json", "--seed", "3")
    assert run({}, *args) == run({}, *args)


@pytest.mark.parametrize(("args", "message"), [
    (("--players", "3"), "4 to 512 players"),
    (("--boosters", "5"), "1 to 4 boosters"),
    (("--size", "10"), "7 or 12 cards"),
    (("--profile", "moon"), "tabletop or online"),
])
def test_simulate_refusals_are_a_message_and_exit_2(args: tuple[str, ...], message: str) -> None:
    code, out = run({}, "draft", "simulate", *args)
    assert code == 2
    assert message in out
    assert "Traceback" not in out


def draft_event(env: dict[str, str], tmp_path: Path, players: int) -> None:
    code, out = run(env, "tournament", "new", "Драфт", "--format", "draft", "--seed", "5",
                    "--players", players_csv(tmp_path, players))
    assert code == 0, out


def test_seat_33_players_at_four_tables_by_lot(env: dict[str, str], tmp_path: Path) -> None:
    draft_event(env, tmp_path, 33)
    code, out = run(env, "draft", "seat", "Драфт")
    assert code == 2
    assert "set the draft plan before seating" in out
    code, out = run(env, "draft", "seat", "Драфт", "--profile", "tabletop", "--json")
    assert code == 0, out
    seating = json.loads(out)
    assert seating["profile"] == "tabletop"
    assert [len(t["seats"]) for t in seating["tables"]] == [9, 8, 8, 8]
    numbers = sorted(line["number"] for t in seating["tables"] for line in t["seats"])
    assert numbers == list(range(1, 34))
    assert all([line["seat"] for line in t["seats"]] == list(range(1, len(t["seats"]) + 1))
               for t in seating["tables"])
    code, out = run(env, "draft", "seat", "Драфт", "--tables", "2")
    assert code == 2
    assert "cannot sit at 2 draft tables; allowed: 4" in out
    code, out = run(env, "draft", "seat", "Драфт", "--method", "standings")
    assert code == 2
    assert "needs a played round" in out


def test_plan_sets_boosters_and_seat_prints_the_tables(env: dict[str, str],
                                                        tmp_path: Path) -> None:
    draft_event(env, tmp_path, 12)
    code, out = run(env, "draft", "plan", "Драфт")
    assert code == 0, out
    assert "No draft plan is set" in out
    code, out = run(env, "draft", "plan", "Драфт", "--twelves", "2", "--profile", "online",
                    "--pick-seconds", "20")
    assert code == 0, out
    assert "2×12, online; pick timer 20 s + 5 s a card" in out
    assert "Amateur level" in out  # D-1
    code, out = run(env, "draft", "plan", "Драфт", "--review-seconds", "90", "--json")
    assert code == 0, out
    assert json.loads(out)["boosters"] == [12, 12]
    assert json.loads(out)["review_seconds"] == 90
    assert json.loads(out)["pick_seconds"] == 20
    code, out = run(env, "draft", "plan", "Драфт", "--sevens", "5")
    assert code == 2
    assert "1 to 4 boosters" in out
    code, out = run(env, "draft", "seat", "Драфт", "--tables", "2")
    assert code == 0, out
    assert "Table 1 — 6 players" in out and "Table 2 — 6 players" in out
    assert "Игрок 1" in out
    assert "Seated by lot, online; seed 5/draft/seating/1." in out


def test_simulate_exits_1_when_a_card_is_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    from turnir.domain.draft.engine import DraftEngine

    real = DraftEngine.__dict__["pools"]

    def losing(engine: DraftEngine) -> dict[int, tuple[object, ...]]:
        pools = dict(real.fget(engine))
        first = next(iter(pools))
        pools[first] = pools[first][1:]
        return pools

    monkeypatch.setattr(DraftEngine, "pools", property(losing))
    code, out = run({}, "draft", "simulate", "--players", "8", "--boosters", "1")
    assert code == 1
    assert "An engine bug: cards lost or doubled." in out

"""``turnir robot work`` (issue 15): ``--once`` runs the checks due now and prints what it did;
bad input exits 2 with a message (a lease out of 1..8 s too); ``robot serve --quiet`` runs
without the access log."""

from __future__ import annotations

from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

from tests.services.test_robot_work import decision_ids, game_rows, lagging_round
from turnir.cli.main import app as cli
from turnir.storage.database import Database

runner = CliRunner()


def test_work_once_decides_the_due_games_and_says_so(db: Database, database_url: str) -> None:
    lagging_round(db, players=6)     # the round started at 0: every stage is long past
    env = {"TURNIR_DATABASE_URL": database_url}
    done = runner.invoke(cli, ["robot", "work", "--once", "--engine", "fake", "--worker", "w1",
                               "--batch", "2"], env=env)
    assert done.exit_code == 0, done.output
    assert "worker w1 on" in done.output
    assert "claimed 2 games" in done.output and "claimed 1 games" in done.output
    assert "r1-t3/unconditional A-3 award" in done.output
    assert done.output.rstrip().endswith("done: 3 decisions")
    assert sorted(decision_ids(db)) == [f"r1-t{t}/unconditional" for t in (1, 2, 3)]
    assert all(r["lease_owner"] is None for r in game_rows(db).values())
    again = runner.invoke(cli, ["robot", "work", "--once", "--engine", "fake"], env=env)
    assert again.exit_code == 0 and again.output.rstrip().endswith("done: 0 decisions")


def test_work_refuses_bad_input_with_exit_2(database_url: str) -> None:
    env = {"TURNIR_DATABASE_URL": database_url}
    for args, extra, says in (
            (["--lease-seconds", "0"], {}, "lease-seconds"),
            (["--worker", " "], {}, "worker name"),
            (["--poll-ms", "x"], {}, "poll-ms"),
            (["--engine", "fake"], {"TURNIR_ROBOT_FAKE_DELAY_MS": "soon"},
             "TURNIR_ROBOT_FAKE_DELAY_MS")):
        done = runner.invoke(cli, ["robot", "work", "--once", *args], env={**env, **extra})
        assert done.exit_code == 2, (args, done.output)
        assert says in done.output, (args, done.output)


def test_serve_no_checks_needs_the_database() -> None:
    done = runner.invoke(cli, ["robot", "serve", "--memory", "--no-checks"])
    assert done.exit_code == 2
    assert "--no-checks needs the database" in done.output


def test_work_refuses_a_lease_that_a_takeover_would_come_after_the_next_check(
        database_url: str) -> None:
    env = {"TURNIR_DATABASE_URL": database_url}
    for lease in ("0.5", "8.5", "30", "nan"):
        done = runner.invoke(cli, ["robot", "work", "--once", "--engine", "fake",
                                   "--lease-seconds", lease], env=env)
        assert done.exit_code == 2, (lease, done.output)
        assert "--lease-seconds must be from 1 to 8" in done.output, (lease, done.output)
        assert "10 s later at the least" in done.output, done.output
    done = runner.invoke(cli, ["robot", "work", "--once", "--engine", "fake",
                               "--lease-seconds", "8"], env=env)
    assert done.exit_code == 0, done.output
    assert "lease 8 s" in done.output


@pytest.mark.parametrize(("flag", "access_log"), [("--quiet", False), (None, True)])
def test_serve_quiet_runs_without_the_access_log(monkeypatch: pytest.MonkeyPatch,
                                                 flag: str | None, access_log: bool) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: seen.update(options))
    done = runner.invoke(cli, ["robot", "serve", "--memory", *([flag] if flag else [])],
                         env={"TURNIR_ROBOT_TOKEN": "trb_" + "t" * 40})
    assert done.exit_code == 0, done.output
    assert seen["access_log"] is access_log
    assert seen["log_level"] == ("warning" if flag else "info")

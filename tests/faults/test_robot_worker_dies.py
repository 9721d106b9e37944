"""A robot worker dies in the middle of a check (issue 15): two ``turnir robot work``
processes share a round's lagging games on PostgreSQL, the fake engine slowed down
(``TURNIR_ROBOT_FAKE_DELAY_MS``, a test aid); one is killed with SIGKILL while it holds
leases on games it has not decided yet. The other takes its games over once the leases expire
and finishes every game; no game gets two decisions, every match result is recorded, and no
game is left with a lease (a game's recorded end clears its lease)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from tests.db_fixtures import create_pg_database, drop_pg_database
from tests.faults.servers import stop_group
from tests.robot.online_builders import online_event
from turnir.clock import SystemClock
from turnir.domain.robot_rules import TimeControl
from turnir.robot.engine import ScriptedEvaluator
from turnir.robot.game import ClockReading, GameSetup, MovePlayed
from turnir.robot.journal import TournamentLink
from turnir.services.online import online_robot
from turnir.storage.database import Database
from turnir.storage.tables_robot import robot_decisions, robot_games

PLAYERS = 96
"""48 games, every one with a lagger: the victim alone decides about three a second, so games
are left for both workers however slowly the survivor starts on a loaded machine."""
READY_S = 120.0
"""Generous waits on a loaded machine; no duration is asserted."""


@pytest.fixture
def pg_url(pg_server_url: str, pg_template: str) -> Iterator[str]:
    name = f"turnir_faults_robot_{os.getpid()}"
    yield create_pg_database(pg_server_url, name, template=pg_template)
    drop_pg_database(pg_server_url, name)


def wait_for(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + READY_S
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"waited {READY_S} s for {what}")


def lagging_round_now(db: Database) -> list[str]:
    """The round started 7:30 ago (3+0), so every game's first check is due now; Black lags
    6.5 s a move: with the fake engine's 0.00 the check awards each game to White (A-1)."""
    ev = online_event(db, players=PLAYERS)
    start = SystemClock().now_ms() - 450_000
    robot, _ = online_robot(db, clock=SystemClock(), evaluator=ScriptedEvaluator(), shared=True)
    ids = []
    for table, _, _ in ev.tables:
        game_id = f"r1-t{table}"
        robot.register(GameSetup(game_id=game_id, white="w", black="b",
                                 time_control=TimeControl.parse("3+0"), round_start_ms=start),
                       TournamentLink(ev.id, 1, table, 1, "a"))
        robot.apply(game_id, [MovePlayed(start + 10_000, "g1f3", 300),
                              MovePlayed(start + 20_000, "g8f6", 6_500),
                              ClockReading(start + 449_000, 60_000, 50_000)])
        ids.append(game_id)
    return ids


def start_worker(name: str, url: str, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "TURNIR_DATABASE_URL": url, "TURNIR_ROBOT_FAKE_DELAY_MS": "250",
           "PYTHONUNBUFFERED": "1", "LANG": "en_US.UTF-8"}
    command = [str(Path(sys.executable).parent / "turnir"), "robot", "work", "--worker", name,
               "--engine", "fake", "--lease-seconds", "3", "--batch", "3", "--poll-ms", "100"]
    with log.open("wb") as out:
        return subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)


def leases_of(db: Database, owner: str) -> list[str]:
    with db.read() as conn:
        return list(conn.execute(select(robot_games.c.game_id).where(
            robot_games.c.lease_owner == owner)).scalars())


def undecided_leases(db: Database, owner: str) -> list[str]:
    """The games ``owner`` holds a lease on and has no decision about yet: it is in the
    middle of their check."""
    with db.read() as conn:
        return list(conn.execute(select(robot_games.c.game_id).where(
            robot_games.c.lease_owner == owner,
            robot_games.c.game_id.not_in(select(robot_decisions.c.game_id)))).scalars())


def open_games(db: Database) -> int:
    """Games with a check to come or a lease held."""
    with db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(robot_games).where(
            robot_games.c.next_check_ms.is_not(None) | robot_games.c.lease_owner.is_not(None)
        )).scalar_one())


def test_a_robot_worker_killed_mid_check_is_taken_over_and_no_game_is_decided_twice(
        tmp_path: Path, pg_url: str) -> None:
    db = Database.open(pg_url)
    victim = survivor = None
    try:
        games = lagging_round_now(db)
        victim = start_worker("victim", pg_url, tmp_path / "victim.log")
        wait_for(lambda: bool(leases_of(db, "victim")), "the victim to claim games")
        survivor = start_worker("survivor", pg_url, tmp_path / "survivor.log")
        wait_for(lambda: bool(leases_of(db, "survivor")), "the survivor to claim games")
        wait_for(lambda: bool(undecided_leases(db, "victim")),
                 "the victim to be in the middle of a check again")
        os.killpg(victim.pid, signal.SIGKILL)          # in the middle of a check
        victim.wait(timeout=30)
        assert leases_of(db, "victim")                 # it died holding them
        wait_for(lambda: open_games(db) == 0, "every game to be finished")
        with db.read() as conn:
            decided = Counter(conn.execute(select(robot_decisions.c.game_id)).scalars())
            states = Counter(conn.execute(select(robot_games.c.end_state)).scalars())
            owners = list(conn.execute(select(robot_games.c.lease_owner)).scalars())
        assert sorted(decided) == sorted(games)
        assert set(decided.values()) == {1}           # no game has two decisions
        assert states == Counter({"applied": len(games)})
        assert owners == [None] * len(games)
        survived = tmp_path / "survivor.log"       # a round is printed after its release
        wait_for(lambda: "taken over from victim" in survived.read_text(),
                 "the survivor to report taking over the victim's games")
    finally:
        for process in (victim, survivor):
            if process is not None:
                stop_group(process)
        db.close()

"""Robot workers (issue 15) on SQLite and PostgreSQL: two workers share a round's lagging games
and decide each exactly once; an expired lease is taken over; a decision a dead worker stored
is not made again; the API process without checks refuses a move after a worker's award; the
next check moment is kept for the workers; with the default lease a bullet game whose worker
died in its first check is taken over and checked as the first check before the second is due,
and a slow worker keeps its lease by renewing it."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Sequence

import pytest
from sqlalchemy import select

from tests.robot.builders import FIRST, SECOND, setup
from tests.robot.online_builders import OnlineEvent, online_event
from turnir.clock import ManualClock
from turnir.domain.games import Side
from turnir.domain.robot_rules import (
    ChessResult,
    RobotSettings,
    Rule,
    TimeControl,
    check_schedule,
)
from turnir.errors import ConflictError, UserError
from turnir.robot.decision import Decision
from turnir.robot.engine import EvaluationOutcome, EvaluationRequest, ScriptedEvaluator
from turnir.robot.game import ClockReading, GameEnd, MovePlayed, Resigned
from turnir.robot.journal import TournamentLink
from turnir.robot.robot import CheckStatus, Robot
from turnir.robot.sink import InMemoryResultSink
from turnir.services.online import ServicesResultSink, online_robot
from turnir.services.queries import get_standings
from turnir.services.robot_store import DatabaseRobotStore
from turnir.services.robot_work import (
    DEFAULT_LEASE_MS,
    MIN_LEASE_MS,
    RobotWorker,
    check_worker_name,
    claim_due_games,
    max_lease_ms,
    next_due_ms,
    renew_leases,
)
from turnir.storage.database import Database
from turnir.storage.tables_robot import robot_games

LEASE_MS = 5_000
"""Shorter than the 30 s from the first check to the second, so a takeover runs the first."""


def match_results(db: Database, tid: int) -> dict[int, str | None]:
    rnd = get_standings(db, tid).tournament.rounds[0]
    return {p.table: None if p.result is None else p.result.score
            for p in rnd.pairings if p.b is not None}


def lagging_round(db: Database, players: int) -> tuple[Robot, OnlineEvent, ManualClock]:
    """The API process (no checks) with one lagging game per table: Black lags 6.5 s a move,
    so the first check with the fake engine (0.00) awards every game to White (A-1)."""
    ev = online_event(db, players=players)
    clock = ManualClock(0)
    robot, _ = online_robot(db, clock=clock, evaluator=ScriptedEvaluator(), shared=True)
    for table, _, _ in ev.tables:
        game_id = f"r1-t{table}"
        robot.register(setup(game_id), TournamentLink(ev.id, 1, table, 1, "a"))
        robot.apply(game_id, [MovePlayed(10_000, "g1f3", 300), MovePlayed(20_000, "g8f6", 6_500),
                              ClockReading(FIRST - 1_000, 60_000, 50_000)])
    return robot, ev, clock


def worker(db: Database, name: str, clock: ManualClock, *, batch: int = 3,
           evaluator: ScriptedEvaluator | None = None) -> RobotWorker:
    return RobotWorker(db, owner=name, clock=clock, evaluator=evaluator or ScriptedEvaluator(),
                       lease_ms=LEASE_MS, batch=batch)


def decision_ids(db: Database) -> list[str]:
    return [d.id for d in DatabaseRobotStore(db).since(0)]


def game_rows(db: Database) -> dict[str, dict[str, object]]:
    with db.read() as conn:
        return {r["game_id"]: dict(r) for r in conn.execute(select(
            robot_games.c.game_id, robot_games.c.next_check_ms, robot_games.c.lease_owner,
            robot_games.c.lease_until_ms, robot_games.c.last_stage)).mappings()}


def test_two_workers_take_turns_and_decide_each_game_of_the_round_once(db: Database) -> None:
    _, ev, clock = lagging_round(db, players=24)
    clock.set(FIRST)
    a, b = worker(db, "a", clock), worker(db, "b", clock)
    by_worker: Counter[str] = Counter()
    while True:
        rounds = [(w.owner, w.work_once()) for w in (a, b)]
        if not any(done.claimed for _, done in rounds):
            break
        for name, done in rounds:
            assert done.error is None
            by_worker[name] += done.count(CheckStatus.DECIDED)
    ids = decision_ids(db)
    assert sorted(ids) == sorted(f"r1-t{t}/first" for t, _, _ in ev.tables)
    assert by_worker["a"] > 0 and by_worker["b"] > 0
    assert by_worker["a"] + by_worker["b"] == len(ev.tables) == 12
    assert set(match_results(db, ev.id).values()) == {"1-0"}
    rows = game_rows(db)
    assert all(r["next_check_ms"] is None and r["lease_owner"] is None for r in rows.values())


def test_two_workers_at_the_same_time_decide_every_game_once(db: Database) -> None:
    _, ev, clock = lagging_round(db, players=40)
    clock.set(FIRST)
    errors: list[str] = []

    def work(name: str) -> None:
        me = worker(db, name, clock, batch=2)
        while (done := me.work_once()).claimed:
            if done.error:
                errors.append(done.error)

    threads = [threading.Thread(target=work, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    ids = decision_ids(db)
    assert len(ids) == len(set(ids)) == len(ev.tables) == 20
    assert set(match_results(db, ev.id).values()) == {"1-0"}


def test_a_game_claimed_by_a_worker_that_died_is_taken_over_once_its_lease_expires(
        db: Database) -> None:
    _, ev, clock = lagging_round(db, players=4)
    clock.set(FIRST)
    dead = claim_due_games(db, owner="dead", now_ms=FIRST, lease_ms=LEASE_MS, limit=10)
    assert len(dead) == 2
    other = worker(db, "alive", clock)
    assert other.work_once().claimed == []          # the leases still hold
    assert decision_ids(db) == []
    clock.set(FIRST + LEASE_MS)
    done = other.work_once()
    assert {c.taken_from for c in done.claimed} == {"dead"}
    assert done.count(CheckStatus.DECIDED) == 2
    assert sorted(decision_ids(db)) == ["r1-t1/first", "r1-t2/first"]
    assert set(match_results(db, ev.id).values()) == {"1-0"}


def test_a_decision_a_dead_worker_stored_is_not_made_again(db: Database) -> None:
    _, ev, clock = lagging_round(db, players=2)
    clock.set(FIRST)
    claims = claim_due_games(db, owner="dead", now_ms=FIRST, lease_ms=LEASE_MS, limit=10)
    ids = [c.game_id for c in claims]
    # the dead worker got as far as storing its decision: no result, no stage, lease held
    store = DatabaseRobotStore(db)
    dying = Robot(clock=clock, evaluator=ScriptedEvaluator(), store=store,
                  sink=InMemoryResultSink())
    dying.adopt(*store.load_many(ids))
    assert dying.run_due_checks().decisions[0].rule is Rule.FIRST_AWARD
    assert match_results(db, ev.id) == {1: None}
    assert game_rows(db)["r1-t1"]["lease_owner"] == "dead"

    clock.set(FIRST + LEASE_MS)
    saving = ScriptedEvaluator(9.0)        # it would let the game go on: it must not be asked
    done = worker(db, "alive", clock, evaluator=saving).work_once()
    assert [c.taken_from for c in done.claimed] == ["dead"]
    assert saving.requests == []
    assert done.count(CheckStatus.DECIDED) == 0 and done.redelivered == 1
    assert decision_ids(db) == ["r1-t1/first"]
    assert match_results(db, ev.id) == {1: "1-0"}
    assert game_rows(db)["r1-t1"]["next_check_ms"] is None


class DiesAfterEnds:
    """A worker's result sink that records ``ends`` game ends and then is killed: the ends
    after those are never recorded."""

    def __init__(self, db: Database, ends: int) -> None:
        self.sink, self.left = ServicesResultSink(db), ends

    def deliver(self, game_id: str, result: ChessResult, decision: Decision) -> None:
        if self.left > 0:
            self.left -= 1
            self.sink.deliver(game_id, result, decision)

    def deliver_end(self, game_id: str, end: GameEnd) -> None:
        raise AssertionError("the checked games end by decisions")


def test_a_worker_killed_between_recording_an_end_and_releasing_its_leases_leaves_no_game_open(
        db: Database) -> None:
    _, ev, clock = lagging_round(db, players=4)
    clock.set(FIRST)
    claims = claim_due_games(db, owner="dead", now_ms=FIRST, lease_ms=LEASE_MS, limit=10)
    ids = [c.game_id for c in claims]
    # the dead worker stored both decisions, recorded the first game's end and was killed:
    # the second end not recorded, no lease released
    store = DatabaseRobotStore(db)
    dying = Robot(clock=clock, evaluator=ScriptedEvaluator(), store=store,
                  sink=DiesAfterEnds(db, 1))
    dying.adopt(*store.load_many(ids))
    assert len(dying.run_due_checks().decisions) == 2
    assert sorted(decision_ids(db)) == ["r1-t1/first", "r1-t2/first"]
    assert match_results(db, ev.id) == {1: "1-0", 2: None}

    clock.set(FIRST + LEASE_MS)
    alive = worker(db, "alive", clock)
    done = alive.work_once()
    assert [c.taken_from for c in done.claimed] == ["dead"]
    assert done.count(CheckStatus.DECIDED) == 0 and done.redelivered == 1
    assert alive.work_once().claimed == []
    assert sorted(decision_ids(db)) == ["r1-t1/first", "r1-t2/first"]
    assert match_results(db, ev.id) == {1: "1-0", 2: "1-0"}
    with db.read() as conn:
        rows = list(conn.execute(select(
            robot_games.c.game_id, robot_games.c.next_check_ms, robot_games.c.lease_owner,
            robot_games.c.lease_until_ms, robot_games.c.end_state)).mappings())
    assert sorted(map(dict, rows), key=lambda r: str(r["game_id"])) == [
        {"game_id": g, "next_check_ms": None, "lease_owner": None, "lease_until_ms": None,
         "end_state": "applied"} for g in ("r1-t1", "r1-t2")]


def test_a_renewal_counts_as_taken_over_only_the_leases_another_worker_holds(
        db: Database) -> None:
    api, _, clock = lagging_round(db, players=8)
    clock.set(FIRST)
    claimed = claim_due_games(db, owner="a", now_ms=FIRST, lease_ms=LEASE_MS, limit=10)
    ids = [c.game_id for c in claimed]
    assert ids == ["r1-t1", "r1-t2", "r1-t3", "r1-t4"]
    api.post("r1-t1", Resigned(FIRST + 100, False))     # its end frees its lease
    assert game_rows(db)["r1-t1"]["lease_owner"] is None
    taken = claim_due_games(db, owner="b", now_ms=FIRST + LEASE_MS, lease_ms=LEASE_MS, limit=1)
    assert [c.game_id for c in taken] == ["r1-t2"]
    assert renew_leases(db, owner="a", game_ids=ids, until_ms=FIRST + 2 * LEASE_MS) == 1
    assert [game_rows(db)[g]["lease_until_ms"] for g in ("r1-t3", "r1-t4")] == [
        FIRST + 2 * LEASE_MS] * 2


def test_the_api_process_without_checks_refuses_a_move_after_a_workers_award(
        db: Database) -> None:
    api, _, clock = lagging_round(db, players=2)
    clock.set(FIRST)
    assert worker(db, "w", clock).work_once().count(CheckStatus.DECIDED) == 1
    with pytest.raises(ConflictError) as refused:
        api.post("r1-t1", MovePlayed(FIRST + 1_000, "e2e4", 100))
    assert refused.value.code == "game_over"
    assert api.snapshot("r1-t1").end is not None


def test_a_workers_continue_with_lag_compensation_off_reaches_the_api_process(
        db: Database) -> None:
    api, _, clock = lagging_round(db, players=2)
    clock.set(FIRST)
    done = worker(db, "w", clock, evaluator=ScriptedEvaluator(3.0)).work_once()
    assert done.run is not None and done.run.decisions[0].rule is Rule.A3_2
    api.post("r1-t1", MovePlayed(FIRST + 1_000, "e2e4", 100))
    assert api.snapshot("r1-t1").lag_compensation_off
    assert game_rows(db)["r1-t1"]["next_check_ms"] == SECOND


def test_the_next_check_is_kept_on_registration_on_stages_and_when_a_game_ends(
        db: Database) -> None:
    ev = online_event(db, players=4)
    clock = ManualClock(0)
    robot, _ = online_robot(db, clock=clock, evaluator=ScriptedEvaluator())
    robot.register(setup("quiet"), TournamentLink(ev.id, 1, 1, 1, "a"))
    robot.register(setup("gone"), TournamentLink(ev.id, 1, 2, 1, "a"))
    assert {g: r["next_check_ms"] for g, r in game_rows(db).items()} == {
        "quiet": FIRST, "gone": FIRST}
    robot.apply("gone", [MovePlayed(10_000, "e2e4", 0), Resigned(20_000, False)])
    assert game_rows(db)["gone"]["next_check_ms"] is None
    clock.set(FIRST)
    robot.run_due_checks()                  # no lagger: the stage is passed
    assert game_rows(db)["quiet"] == {"game_id": "quiet", "next_check_ms": SECOND,
                                      "lease_owner": None, "lease_until_ms": None,
                                      "last_stage": "first"}
    assert [c.game_id for c in claim_due_games(db, owner="w", now_ms=SECOND - 1,
                                               lease_ms=LEASE_MS, limit=5)] == []


def test_a_worker_name_is_checked() -> None:
    assert check_worker_name("  box-1 ") == "box-1"
    for bad in ("", " ", "x" * 101, "a\nb"):
        with pytest.raises(UserError):
            check_worker_name(bad)


BULLET = check_schedule(TimeControl.parse("1+0"), 0, RobotSettings())
"""1+0 (A-6: bullet): the first check at 2:30, the second 20 s later, the unconditional 10 s
after it."""


def lagging_bullet_game(db: Database) -> ManualClock:
    """One 1+0 game, Black lagging 6.5 s a move (A-1 awards it to White at the first check),
    with its first check due."""
    ev = online_event(db, players=2)
    clock = ManualClock(0)
    robot, _ = online_robot(db, clock=clock, evaluator=ScriptedEvaluator(), shared=True)
    robot.register(setup("r1-t1", tc="1+0"), TournamentLink(ev.id, 1, 1, 1, Side.A))
    robot.apply("r1-t1", [MovePlayed(10_000, "g1f3", 300), MovePlayed(20_000, "g8f6", 6_500),
                          ClockReading(BULLET.first_ms - 1_000, 30_000, 20_000)])
    clock.set(BULLET.first_ms)
    return clock


def test_a_bullet_game_whose_worker_died_in_the_first_check_gets_the_first_check(
        db: Database) -> None:
    clock = lagging_bullet_game(db)
    # the worker claimed the first check with the default lease and was killed
    dead = claim_due_games(db, owner="dead", now_ms=BULLET.first_ms,
                           lease_ms=DEFAULT_LEASE_MS, limit=10)
    assert [c.game_id for c in dead] == ["r1-t1"]
    alive = RobotWorker(db, owner="alive", clock=clock, evaluator=ScriptedEvaluator())
    assert alive.lease_ms == DEFAULT_LEASE_MS
    # a waiting worker wakes when the dead worker's lease runs out
    assert next_due_ms(db, BULLET.first_ms) == BULLET.first_ms + DEFAULT_LEASE_MS
    clock.set(BULLET.first_ms + DEFAULT_LEASE_MS - 1)
    assert alive.work_once().claimed == []
    clock.set(BULLET.first_ms + DEFAULT_LEASE_MS)
    assert clock.now_ms() < BULLET.second_ms
    done = alive.work_once()
    assert [c.taken_from for c in done.claimed] == ["dead"]
    assert done.run is not None
    assert [(d.id, d.rule) for d in done.run.decisions] == [("r1-t1/first", Rule.FIRST_AWARD)]
    assert decision_ids(db) == ["r1-t1/first"]


def test_the_longest_lease_is_taken_over_before_the_next_check_in_every_time_control() -> None:
    settings = RobotSettings()
    longest = max_lease_ms(settings)
    assert MIN_LEASE_MS <= DEFAULT_LEASE_MS <= longest
    for tc in ("0.5+0", "1+0", "2+1", "3+0", "5+3", "15+10", "90+30"):
        s = check_schedule(TimeControl.parse(tc), 0, settings)
        # claimed (or renewed) just as a stage came due, killed at once: taken over in time
        assert s.first_ms + longest < s.second_ms, tc
        assert s.second_ms + longest < s.unconditional_ms, tc


def test_a_worker_lease_out_of_bounds_is_refused(db: Database) -> None:
    clock = ManualClock(0)
    for lease in (MIN_LEASE_MS - 1, max_lease_ms(RobotSettings()) + 1, 30_000):
        with pytest.raises(UserError) as refused:
            RobotWorker(db, owner="w", clock=clock, evaluator=ScriptedEvaluator(),
                        lease_ms=lease)
        assert refused.value.code == "invalid_lease"


class SlowEvaluator(ScriptedEvaluator):
    """Stockfish busy under load: while it evaluates, the clock runs past the worker's lease
    twice; each time it waits (at most 60 s) for the worker's renewal, and another worker
    tries to claim the game."""

    def __init__(self, db: Database, clock: ManualClock, lease_ms: int) -> None:
        super().__init__(0.0)
        self.db, self.clock, self.lease_ms = db, clock, lease_ms
        self.others: list[object] = []

    def evaluate_many(self, requests: Sequence[EvaluationRequest]) -> list[EvaluationOutcome]:
        for _ in range(2):
            self.clock.advance(2 * self.lease_ms)
            deadline = time.monotonic() + 60
            while (until := game_rows(self.db)["r1-t1"]["lease_until_ms"]) is None or \
                    int(str(until)) <= self.clock.now_ms():
                assert time.monotonic() < deadline, "the lease was not renewed"
                time.sleep(0.02)
            self.others.extend(claim_due_games(self.db, owner="other",
                                               now_ms=self.clock.now_ms(),
                                               lease_ms=self.lease_ms, limit=10))
        return super().evaluate_many(requests)


def test_a_slow_worker_keeps_its_lease_by_renewing_it(db: Database) -> None:
    clock = lagging_bullet_game(db)
    slow = SlowEvaluator(db, clock, MIN_LEASE_MS)
    me = RobotWorker(db, owner="slow", clock=clock, evaluator=slow, lease_ms=MIN_LEASE_MS)
    done = me.work_once()
    assert slow.others == []
    assert done.error is None and done.count(CheckStatus.DECIDED) == 1
    assert decision_ids(db) == ["r1-t1/first"]
    assert game_rows(db)["r1-t1"]["lease_owner"] is None

"""An online tournament through the robot, on SQLite and PostgreSQL: games registered with
their match, played through the robot's HTTP API, their results in the tournament's standings;
idempotent deliveries; a restarted robot; results that cannot be recorded kept for a judge."""

from __future__ import annotations

import json

import chess
import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from tests.robot.builders import FIRST, SECOND, setup
from tests.robot.online_builders import (
    FOOLS_MATE,
    LAGGING,
    api,
    audit,
    events,
    first_check,
    moves,
    online_event,
    register,
    robot_on,
)
from tests.services.builders import JUDGE, ORGANIZER
from turnir.cli.main import app as cli
from turnir.clock import ManualClock
from turnir.domain.results import GameReason, parse_result
from turnir.domain.robot_rules import ChessResult, Rule
from turnir.errors import ConflictError, NotFoundError, UserError
from turnir.robot.engine import (
    DEFAULT_STOCKFISH,
    EngineSettings,
    ScriptedEvaluator,
    SearchLimit,
    StockfishPool,
)
from turnir.robot.game import EndReason, MovePlayed, Resigned
from turnir.robot.journal import TournamentLink
from turnir.robot.sink import InMemoryResultSink
from turnir.services.online import (
    APPLIED,
    DISMISSED,
    UNAPPLIED,
    WAITING,
    GameEndReport,
    online_results,
    online_robot,
    record_game_end,
    retry_game_end,
)
from turnir.services.queries import get_standings
from turnir.services.results import record_result
from turnir.services.tournaments import finish_tournament
from turnir.storage.database import Database
from turnir.storage.tables import games, pairings
from turnir.web.robot_api import PREFIX

runner = CliRunner()


def match_results(db: Database, tid: int) -> dict[int, str | None]:
    view = get_standings(db, tid)
    rnd = view.tournament.rounds[0]
    return {p.table: None if p.result is None else p.result.score
            for p in rnd.pairings if p.b is not None}


def game_reasons(db: Database) -> list[tuple[str | None, str]]:
    with db.read() as conn:
        return [tuple(r) for r in conn.execute(  # type: ignore[misc]
            select(games.c.winner, games.c.reason).order_by(games.c.pairing_id, games.c.number))]


def test_an_online_round_played_through_the_robot_api_ends_in_the_standings(
        db: Database) -> None:
    ev = online_event(db)
    robot, results, clock = robot_on(db, {"t1-r1-3/first": 0.2})
    with api(robot, results) as client:
        a1, b1 = ev.players(1)
        register(client, "t1-r1-1", a1, b1, ev.id, 1)              # a plays White, by name
        a2, b2 = ev.players(2)
        created = register(client, "t1-r1-2", b2, a2, ev.id, 2)    # b plays White, by name
        assert created["tournament"] == {"id": ev.id, "round": 1, "table": 2, "game": 1,
                                         "white": "b"}
        register(client, "t1-r1-3", "login-x", "login-y", ev.id, 3, white_side="a")
        a4, b4 = ev.players(4)
        register(client, "t1-r1-4", a4, b4, ev.id, 4)
        mated = events(client, "t1-r1-1", *moves(*FOOLS_MATE))      # 0-1: b wins by mate
        assert (mated["game"]["result"], mated["game"]["end_reason"]) == ("0-1", "checkmate")
        events(client, "t1-r1-2", *moves("e2e4"), {"type": "resign", "at": 30, "color": "black"})
        events(client, "t1-r1-3", *LAGGING)                          # the robot awards White
        events(client, "t1-r1-4", *moves("e2e4", "e7e5"), {"type": "draw", "at": 40})
        assert match_results(db, ev.id) == {1: "0-1", 2: "0-1", 3: None, 4: "0-0-1"}
        run = first_check(client, clock)
        [outcome] = run["outcomes"]
        assert (outcome["decision"]["rule"], outcome["decision"]["result"]) == ("A-1", "1-0")
        # both players see the decision with the rule and the figures
        [shown] = client.get(f"{PREFIX}/games/t1-r1-3/decisions").json()
        assert shown["figures"]["black_mean_lag"] == 6.5 and "Awarded to white" in shown["message"]
        listed = client.get(f"{PREFIX}/results", params={"tournament": ev.id}).json()
    assert match_results(db, ev.id) == {1: "0-1", 2: "0-1", 3: "1-0", 4: "0-0-1"}
    assert {r["game_id"]: (r["state"], r["reason"]) for r in listed} == {
        "t1-r1-1": ("applied", "checkmate"), "t1-r1-2": ("applied", "concession"),
        "t1-r1-3": ("applied", "robot"), "t1-r1-4": ("applied", "agreed_draw")}
    standings = get_standings(db, ev.id).standings
    _, a1n, b1n = ev.tables[0]
    _, a3n, b3n = ev.tables[2]
    _, a4n, b4n = ev.tables[3]
    assert standings.row_of(b1n).points == 3 and standings.row_of(a1n).points == 0
    assert standings.row_of(a3n).points == 3 and standings.row_of(b3n).points == 0
    assert standings.row_of(a4n).points == standings.row_of(b4n).points == 1
    recorded = audit(db, "result.record")
    assert len(recorded) == 4 and {r["actor"] for r in recorded} == {"robot:Magic"}
    assert ("a", "robot") in game_reasons(db) and (None, "agreed_draw") in game_reasons(db)


def test_rule_S2_a_best_of_3_match_is_recorded_once_two_games_decide_it(db: Database) -> None:
    ev = online_event(db, best_of=3)
    robot, results, clock = robot_on(db, {"m-g2/first": 0.2})
    a, b = ev.players(1)
    with api(robot, results) as client:
        register(client, "m-g1", a, b, ev.id, 1, game=1)
        events(client, "m-g1", *moves(*FOOLS_MATE))                  # b wins game 1
        assert match_results(db, ev.id)[1] is None
        assert [r.state for r in online_results(db, tournament_id=ev.id)] == [WAITING]
        register(client, "m-g2", b, a, ev.id, 1, game=2)             # b plays White in game 2
        events(client, "m-g2", *LAGGING)
        first_check(client, clock)                                   # White (b) awarded
        refused = client.post(f"{PREFIX}/games", json={
            "game_id": "m-g3", "white": a, "black": b, "time_control": "3+0", "round_start": 0,
            "tournament": {"id": ev.id, "round": 1, "table": 1, "game": 3}})
    assert match_results(db, ev.id)[1] == "0-2"
    assert [r.state for r in online_results(db, tournament_id=ev.id)] == [APPLIED, APPLIED]
    assert game_reasons(db) == [("b", "checkmate"), ("b", "robot")]
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "match_decided")


def test_a_link_that_names_no_match_is_refused(db: Database) -> None:
    ev = online_event(db, best_of=3)
    robot, _, _ = robot_on(db)
    with pytest.raises(NotFoundError, match="no table 9"):
        robot.register(setup("g1"), TournamentLink(ev.id, 1, 9, 1))
    with pytest.raises(UserError, match="no game 4"):
        robot.register(setup("g1"), TournamentLink(ev.id, 1, 1, 4))
    with pytest.raises(UserError, match="plays White"):
        robot.register(setup("g1"), TournamentLink(ev.id, 1, 1, 1))
    robot.register(setup("g1"), TournamentLink(ev.id, 1, 1, 1, "a"))
    robot.register(setup("g1"), TournamentLink(ev.id, 1, 1, 1))      # the same again
    with pytest.raises(ConflictError, match="already the game 'g1'"):
        robot.register(setup("g2"), TournamentLink(ev.id, 1, 1, 1, "b"))
    assert robot.game_ids() == ["g1"]
    with pytest.raises(NotFoundError, match="no tournament"):
        robot.register(setup("g3"), TournamentLink(ev.id + 1, 1, 1, 1, "a"))


def test_the_same_end_delivered_twice_records_one_result_and_one_audit_row(
        db: Database) -> None:
    ev = online_event(db)
    robot, results, clock = robot_on(db, {"g/first": 0.2})
    with api(robot, results) as client:
        register(client, "g", "w", "b", ev.id, 1, white_side="b")
        events(client, "g", *LAGGING)
        first_check(client, clock)
    [decision] = robot.decisions("g")
    assert decision.result is ChessResult.WHITE_WINS
    before = match_results(db, ev.id)[1]
    for _ in range(2):    # a retry of the same delivery, and the robot's own repeat
        results.deliver("g", ChessResult.WHITE_WINS, decision)
        again = record_game_end(db, GameEndReport.of_decision(decision))
    assert again.state == APPLIED and before == match_results(db, ev.id)[1] == "0-1"
    assert len(audit(db, "result.record")) == 1
    with pytest.raises(ConflictError, match="already ended"):
        record_game_end(db, GameEndReport("g", ChessResult.DRAW, EndReason.DRAW_AGREED, None,
                                          "g/end"))
    with pytest.raises(NotFoundError):
        record_game_end(db, GameEndReport("nope", ChessResult.DRAW, EndReason.DRAW_AGREED,
                                          None, "nope/end"))


def test_a_restarted_robot_sees_the_games_and_decisions_and_goes_on(db: Database) -> None:
    ev = online_event(db)
    script = {"slow/first": 3.0, "slow/second": 0.0}
    robot, results, clock = robot_on(db, script)
    with api(robot, results) as client:
        register(client, "slow", "w", "b", ev.id, 1, white_side="a")
        register(client, "calm", "w", "b", ev.id, 2, white_side="a")
        register(client, "over", "w", "b", ev.id, 3, white_side="a")
        events(client, "slow", *LAGGING)                       # A3-2: lag compensation off
        events(client, "calm", *moves("e2e4", "e7e5"))         # no lagger at the first check
        events(client, "over", *moves("e2e4"), {"type": "resign", "at": 30, "color": "white"})
        run = first_check(client, clock)
    assert {o["game_id"]: o["status"] for o in run["outcomes"]} == {
        "slow": "decided", "calm": "no_lagger"}
    assert robot.decisions("slow")[0].rule is Rule.A3_2
    before = {g: robot.snapshot(g) for g in robot.game_ids()}

    clock2 = ManualClock(clock.now_ms())
    robot2, _, _ = robot_on(db, script, clock=clock2)
    assert sorted(robot2.game_ids()) == sorted(before)
    for game_id, snapshot in before.items():
        assert robot2.snapshot(game_id) == snapshot, game_id
        assert robot2.decisions(game_id) == robot.decisions(game_id)
        assert robot2.link(game_id) == robot.link(game_id)
    assert robot2.snapshot("slow").lag_compensation_off == frozenset({chess.BLACK})
    # the game goes on in the new robot: a move (lag not compensated), then the second check
    robot2.post("slow", MovePlayed(FIRST + 5_000, "e2e4", 100))
    robot2.post("calm", MovePlayed(FIRST + 5_000, "g1f3", 100))
    clock2.set(SECOND)
    run2 = robot2.run_due_checks()
    assert {(o.game_id, o.stage.value, o.status.value) for o in run2.outcomes} == {
        ("slow", "second", "decided"), ("calm", "second", "no_lagger")}
    assert robot2.decisions("slow")[-1].rule is Rule.SECOND_AWARD
    assert match_results(db, ev.id) == {1: "1-0", 2: None, 3: "0-1", 4: None}


def test_a_restarted_robot_hands_over_the_ends_it_had_not_recorded(db: Database) -> None:
    ev = online_event(db)
    robot, results, _ = robot_on(db)
    with api(robot, results) as client:
        register(client, "g", "w", "b", ev.id, 1, white_side="a")
        robot.sink = InMemoryResultSink()        # the database was not told (a crash, say)
        events(client, "g", *moves(*FOOLS_MATE))
    assert match_results(db, ev.id)[1] is None
    robot2, _, _ = robot_on(db)
    assert robot2.snapshot("g").end is not None
    assert match_results(db, ev.id)[1] == "0-1"
    robot_on(db)                                  # a third start hands over nothing again
    assert len(audit(db, "result.record")) == 1


def test_an_end_that_cannot_be_recorded_is_kept_listed_retried_and_dismissed(
        db: Database, database_url: str) -> None:
    ev = online_event(db)
    robot, results, clock = robot_on(db, {"g1/first": 0.2})
    with api(robot, results) as client:
        register(client, "g1", "w", "b", ev.id, 1, white_side="a")
        register(client, "g2", "w", "b", ev.id, 2, white_side="a")
        events(client, "g1", *LAGGING)
        # a judge enters a different result at table 1 before the robot decides
        record_result(db, ev.id, 1, 1, parse_result("0-1"), actor=JUDGE)
        first_check(client, clock)                # the robot awards White (a): 1-0
        events(client, "g2", *moves("e2e4"), {"type": "resign", "at": 30, "color": "black"})
        listed = client.get(f"{PREFIX}/results", params={"state": "unapplied"}).json()
    assert [(r["game_id"], r["result"], r["problem_code"]) for r in listed] == [
        ("g1", "1-0", "result_exists")]
    assert "already has the result 0-1" in listed[0]["problem"]
    assert match_results(db, ev.id)[1] == "0-1" and match_results(db, ev.id)[2] == "1-0"

    env = {"TURNIR_DATABASE_URL": database_url, "TURNIR_ACTOR": "Судья Тест"}
    shown = runner.invoke(cli, ["robot", "unapplied", str(ev.id), "--json"], env=env)
    assert shown.exit_code == 0, shown.output
    assert [r["game_id"] for r in json.loads(shown.output)] == ["g1"]
    table = runner.invoke(cli, ["robot", "unapplied"], env=env)
    assert table.exit_code == 0 and "g1" in table.output and "g2" not in table.output
    # still refused: the retry changes nothing and says why
    assert runner.invoke(cli, ["robot", "retry", "g1"], env=env).exit_code == 2
    # the judge corrects the result to the robot's; the retry now applies it
    record_result(db, ev.id, 1, 1, parse_result("1-0"), actor=JUDGE, correction=True)
    assert retry_game_end(db, "g1", actor="Судья Тест").state == APPLIED
    with pytest.raises(ConflictError, match="not unapplied"):
        retry_game_end(db, "g1", actor="Судья Тест")

    # the tournament finishes before another game's end arrives: kept, then dismissed
    robot.register(setup("g3"), TournamentLink(ev.id, 1, 3, 1, "a"))
    for table in (3, 4):
        record_result(db, ev.id, 1, table, parse_result("1-0"), actor=JUDGE)
    finish_tournament(db, ev.id, actor=ORGANIZER, early=True)
    robot.post("g3", Resigned(FIRST + 2, chess.WHITE))
    [kept] = online_results(db, state=UNAPPLIED)
    assert (kept.game_id, kept.problem_code) == ("g3", "finished")
    dismissed = runner.invoke(cli, ["robot", "dismiss", "g3", "--note", "settled 1-0 by hand"],
                              env=env)
    assert dismissed.exit_code == 0, dismissed.output
    assert [r.state for r in online_results(db, tournament_id=ev.id) if r.game_id == "g3"] == [
        DISMISSED]
    [logged] = audit(db, "robot.dismiss")
    assert logged["actor"] == "Судья Тест" and logged["after"]["note"] == "settled 1-0 by hand"


def test_game_reasons_for_every_way_a_game_ends() -> None:
    from turnir.services.online import game_reason

    assert game_reason(EndReason.CHECKMATE) is GameReason.CHECKMATE
    assert game_reason(EndReason.RESIGNATION) is GameReason.CONCESSION
    assert game_reason(EndReason.FLAG_FALL) is GameReason.FLAG_FALL
    assert game_reason(EndReason.FLAG_FALL, Rule.NO_COOPERATIVE_MATE) is \
        GameReason.NO_WIN_POSSIBLE
    assert game_reason(EndReason.STALEMATE) is GameReason.DRAWN_POSITION
    assert game_reason(EndReason.DRAW_AGREED) is GameReason.AGREED_DRAW
    assert game_reason(EndReason.ROBOT, Rule.FIRST_AWARD) is GameReason.ROBOT
    assert {game_reason(r) for r in EndReason} <= set(GameReason)


def test_real_stockfish_through_the_database_awards_an_equal_game(db: Database) -> None:
    ev = online_event(db)
    pool = StockfishPool(EngineSettings(path=DEFAULT_STOCKFISH, processes=1,
                                        limit=SearchLimit(nodes=20_000)))
    try:
        robot, results, clock = robot_on(db, evaluator=pool)
        with api(robot, results) as client:
            register(client, "sf", "w", "b", ev.id, 1, white_side="a")
            events(client, "sf", *LAGGING)
            run = first_check(client, clock)
    finally:
        pool.close()
    decision = run["outcomes"][0]["decision"]
    assert decision["figures"]["evaluation"]["source"] == "stockfish"
    assert abs(decision["figures"]["evaluation"]["pawns"]) <= 2.5
    assert (decision["rule"], decision["result"]) == ("A-1", "1-0")
    assert match_results(db, ev.id)[1] == "1-0"
    with db.read() as conn:
        assert conn.execute(select(pairings.c.updated_by).where(
            pairings.c.tournament_id == ev.id, pairings.c.table_no == 1)).scalar() == \
            "robot:Magic"


def test_a_game_outside_the_restore_window_comes_back_as_kept_when_registered_again(
        db: Database) -> None:
    ev = online_event(db)
    robot, results, _ = robot_on(db)
    with api(robot, results) as client:
        register(client, "old", "w", "b", ev.id, 1, white_side="a")
        events(client, "old", *moves("e2e4", "e7e5"))
    later, _ = online_robot(db, clock=ManualClock(0), evaluator=ScriptedEvaluator(),
                            restore_since_ms=10**12)
    assert later.game_ids() == []
    again = later.register(robot.snapshot("old").setup, TournamentLink(ev.id, 1, 1, 1))
    assert again.plies == 2 and later.link("old") == robot.link("old")
    later.post("old", MovePlayed(40_000, "g1f3"))
    assert later.snapshot("old").plies == 3


def test_an_end_that_met_a_database_failure_is_tried_again(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    import turnir.services.online as online

    ev = online_event(db)
    robot, results, _ = robot_on(db)
    robot.register(setup("g"), TournamentLink(ev.id, 1, 1, 1, "a"))
    real = online.record_game_end

    def down(*args: object, **kwargs: object) -> object:
        raise OSError("connection lost")

    monkeypatch.setattr(online, "record_game_end", down)
    robot.post("g", Resigned(1_000, chess.BLACK))
    assert [r.end_id for r in results.pending] == ["g/end"]
    monkeypatch.setattr(online, "record_game_end", real)
    assert results.retry_pending() == 0
    assert match_results(db, ev.id)[1] == "1-0"


def test_the_results_route_needs_a_ledger() -> None:
    from fastapi.testclient import TestClient

    from tests.robot.builders import make_robot
    from tests.robot.test_api import AUTH, TOKENS
    from turnir.web.robot_api import create_robot_app

    with TestClient(create_robot_app(make_robot()[0], run_checks=False, tokens=TOKENS),
                    headers=AUTH) as client:
        assert client.get(f"{PREFIX}/results").status_code == 404


def test_a_game_of_a_pairing_changed_since_its_registration_is_kept_unapplied(
        db: Database) -> None:
    from turnir.services.rounds import swap_seats

    ev = online_event(db)
    robot, _, _ = robot_on(db)
    robot.register(setup("g"), TournamentLink(ev.id, 1, 1, 1, "a"))
    _, a1, _ = ev.tables[0]
    _, a2, _ = ev.tables[1]
    swap_seats(db, ev.id, 1, a1, a2, actor=JUDGE, note="seated wrongly")
    robot.post("g", Resigned(1_000, chess.BLACK))
    [kept] = online_results(db, state=UNAPPLIED)
    assert kept.problem_code == "pairing_changed" and "re-paired" in (kept.problem or "")
    assert match_results(db, ev.id)[1] is None

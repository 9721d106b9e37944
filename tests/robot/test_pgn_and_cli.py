"""Recorded games (PGN with clock and lag comments, JSON) and the ``turnir robot`` commands."""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest
from typer.testing import CliRunner

from turnir.cli.robot import robot_app
from turnir.domain.robot_rules import CheckStage, TimeControl
from turnir.errors import UserError
from turnir.robot.game import DrawAgreed, FlagFell, MovePlayed, Resigned
from turnir.robot.pgn import parse_game_json, parse_pgn, read_recorded_game
from turnir.robot.replay import EntryKind, replay, scripted_for

DATA = Path(__file__).parent.parent / "data" / "robot"
runner = CliRunner()

PGN = """[White "alice"]
[Black "bob"]
[TimeControl "180+2"]
[RoundStart "100"]
[Result "{result}"]
{extra}
1. e4 {{[%clk 0:02:58] [%lag 0.5]}} e5 {{[%clk 0:02:51] [%lag 4.0]}}
2. Nf3 {{[%clk 0:02:57] [%lag 0.2] [%ts 200]}} {result}
"""


def pgn(result: str = "*", extra: str = "") -> str:
    return PGN.format(result=result, extra=extra)


def test_pgn_timestamps_come_from_clocks_and_lags() -> None:
    game = parse_pgn(pgn(), default_id="my game")
    assert game.setup.game_id == "my_game"
    assert game.setup.time_control == TimeControl(180_000, 2_000)
    assert (game.setup.round_start_ms, game.setup.started_at_ms) == (100_000, 100_000)
    e4, e5, nf3 = game.events
    # e4: 180 - 178 + 2 = 4 s on the clock, + 0.5 s lag
    assert e4 == MovePlayed(104_500, "e2e4", 500, 178_000)
    # e5: 180 - 171 + 2 = 11 s, + 4 s lag, after e4
    assert e5 == MovePlayed(119_500, "e7e5", 4_000, 171_000)
    assert nf3 == MovePlayed(200_000, "g1f3", 200, 177_000)     # explicit [%ts]


@pytest.mark.parametrize(("result", "extra", "ending"), [
    ("1-0", "", Resigned(200_000, chess.BLACK)),
    ("0-1", "", Resigned(200_000, chess.WHITE)),
    ("1/2-1/2", "", DrawAgreed(200_000)),
    ("1-0", '[Termination "Time forfeit"]', FlagFell(371_000, chess.BLACK)),
])
def test_pgn_endings(result: str, extra: str, ending: object) -> None:
    assert parse_pgn(pgn(result, extra)).events[-1] == ending


@pytest.mark.parametrize("text", [
    "",
    '[White "a"]\n\n1. e4 *',                                  # no TimeControl
    '[TimeControl "180+0"]\n\n1. e4 e5 2. Ke3 *',              # illegal move
    '[TimeControl "180+0"]\n[RoundStart "soon"]\n\n1. e4 *',
    '[TimeControl "180+0"]\n\n1. e4 {[%ts 50]} e5 {[%ts 40]} *',  # time goes back
])
def test_bad_pgn_is_a_user_error(text: str) -> None:
    with pytest.raises(UserError):
        parse_pgn(text)


def test_json_game_file_and_its_errors() -> None:
    game = read_recorded_game(DATA / "both_laggers.json")
    assert game.setup.game_id == "r1-t2"
    assert game.evaluations == {CheckStage.FIRST: 0.0, CheckStage.SECOND: 0.0,
                                CheckStage.UNCONDITIONAL: 3.0}
    with pytest.raises(UserError, match="not JSON"):
        parse_game_json("{")
    with pytest.raises(UserError, match=r"events\.0"):
        parse_game_json(json.dumps({"game_id": "g", "white": "a", "black": "b",
                                    "time_control": "3+0", "round_start": 0,
                                    "events": [{"type": "move", "at": 1}]}))
    with pytest.raises(UserError):
        read_recorded_game(DATA / "missing.json")
    with pytest.raises(UserError):
        read_recorded_game(Path(__file__))


def test_rule_A1_replay_of_a_recorded_json_game() -> None:
    game = read_recorded_game(DATA / "one_lagger_equal.json")
    report = replay(game, scripted_for(game))
    [decision] = report.decisions
    assert (decision.rule.value, decision.result) == ("A-1", "1-0")
    kinds = [e.kind for e in report.entries]
    assert kinds == [EntryKind.START, EntryKind.DECISION, EntryKind.END]


def test_rule_A5_replay_of_a_flag_fall_pgn() -> None:
    game = read_recorded_game(DATA / "flag_lone_knight.pgn")
    report = replay(game, scripted_for(game))
    assert [d.rule.value for d in report.decisions] == ["A-5"]
    assert report.final.end is not None and report.final.end.result.value == "1/2-1/2"


def test_cli_replay_json_output() -> None:
    result = runner.invoke(robot_app, ["replay", str(DATA / "both_laggers.json"),
                                       "--engine", "fake", "--json"])
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    assert [d["rule"] for d in body["decisions"]] == ["A-6", "A-6", "A-6"]
    assert body["result"] == "1-0"
    assert [e["kind"] for e in body["timeline"]][-1] == "end"


def test_cli_replay_table_with_real_stockfish() -> None:
    result = runner.invoke(robot_app, ["replay", str(DATA / "lagger_queen_up.pgn")],
                           env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "r3-t7" in result.output and "Timeline" in result.output
    assert "First check" in result.output


def test_cli_replay_shows_a_refused_event(tmp_path: Path) -> None:
    body = json.loads((DATA / "one_lagger_equal.json").read_text())
    body["events"].insert(3, {"type": "move", "at": 125, "move": "e2e5"})
    path = tmp_path / "bad_event.json"
    path.write_text(json.dumps(body))
    result = runner.invoke(robot_app, ["replay", str(path), "--engine", "fake", "--json"])
    assert result.exit_code == 0
    assert any("illegal_move" in e["text"] for e in json.loads(result.output)["timeline"])


def test_cli_errors_exit_2() -> None:
    result = runner.invoke(robot_app, ["replay", "nope.pgn", "--engine", "fake"])
    assert result.exit_code == 2
    result = runner.invoke(robot_app, ["simulate", "--games", "5", "--time-control", "x"])
    assert result.exit_code == 2


def test_cli_simulate_fake() -> None:
    result = runner.invoke(robot_app, ["simulate", "--games", "40", "--laggers", "0.5",
                                       "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    assert body["games"] == 40 and body["games_with_decisions"] > 0
    table = runner.invoke(robot_app, ["simulate", "--games", "10", "--laggers", "0.5"],
                          env={"COLUMNS": "120"})
    assert table.exit_code == 0 and "Simulated round" in table.output


def test_cli_simulate_stockfish() -> None:
    result = runner.invoke(robot_app, ["simulate", "--games", "20", "--laggers", "0.5",
                                       "--engine", "stockfish", "--nodes", "2000", "--json"])
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    assert body["engine"] == "stockfish" and body["evaluations"] > 0

"""Benchmark: one check of a big online round with real Stockfish (issue 7).

10,000 simultaneous 3+0 games, 10% of them with a lagger, all reaching the first check at the
same moment. Each game's position is a random legal playout of 20-40 plies from the start: the
game is registered at the position four plies earlier and the last four plies are posted as
moves with their lags (a lagger's lags average 3.5-12 s, a normal player's 0.05-1.5 s); both
clocks are then read at 5-120 s. The clock is set to the first check and the time the robot
takes to decide every game of that check (the check run, including all Stockfish
evaluations through a pool of 2 processes) is measured. The pool is started before timing, as
in the service. The robot's own overhead is measured separately with a fake engine.

Usage: ``.venv/bin/python bench/robot.py [--games N] [--laggers F] [--nodes N]
[--processes P] [--seed S]``. The last line of the output is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter

import chess
from rich.console import Console
from rich.table import Table

from turnir.clock import ManualClock
from turnir.domain.robot_rules import RobotSettings, TimeControl, check_schedule
from turnir.errors import InvariantError
from turnir.robot.engine import (
    EngineSettings,
    Evaluator,
    ScriptedEvaluator,
    SearchLimit,
    StockfishPool,
)
from turnir.robot.game import ClockReading, GameEvent, GameSetup, MovePlayed
from turnir.robot.robot import CheckRun, CheckStatus, Robot
from turnir.robot.simulate import random_legal_move

LIMIT_S = 20.0
CONTROL = TimeControl.parse("3+0")


def playout(rng: random.Random) -> tuple[str, list[str]]:
    """A random legal game of 20-40 plies: (FEN four plies before the end, last four moves)."""
    while True:
        board = chess.Board()
        plies = rng.randint(20, 40)
        moves: list[chess.Move] = []
        for _ in range(plies):
            try:
                move = random_legal_move(board, rng)
            except InvariantError:  # mate or stalemate: draw another game
                break
            board.push(move)
            moves.append(move)
        if len(moves) == plies and board.outcome() is None:
            start = chess.Board()
            for move in moves[:-4]:
                start.push(move)
            return start.fen(), [m.uci() for m in moves[-4:]]


def build_round(games: int, laggers: float, seed: int,
                ) -> list[tuple[GameSetup, list[GameEvent]]]:
    rng = random.Random(seed)
    first = check_schedule(CONTROL, 0, RobotSettings()).first_ms
    out: list[tuple[GameSetup, list[GameEvent]]] = []
    for i in range(games):
        fen, moves = playout(rng)
        lagging = rng.random() < laggers
        lagger = rng.choice((chess.WHITE, chess.BLACK))
        board = chess.Board(fen)
        events: list[GameEvent] = []
        at = first - 60_000
        for move in moves:
            mean = rng.uniform(3.5, 12.0) if lagging and board.turn == lagger else (
                rng.uniform(0.05, 1.5))
            at += rng.randint(1_000, 5_000)
            events.append(MovePlayed(at, move, round(mean * 1000)))
            board.push_uci(move)
        events.append(ClockReading(first - 500, rng.randint(5_000, 120_000),
                                   rng.randint(5_000, 120_000)))
        setup = GameSetup(game_id=f"b{i:05d}", white=f"w{i}", black=f"b{i}",
                          time_control=CONTROL, round_start_ms=0, initial_fen=fen)
        out.append((setup, events))
    return out


def one_check(round_: list[tuple[GameSetup, list[GameEvent]]],
              evaluator: Evaluator) -> tuple[CheckRun, float]:
    clock = ManualClock(0)
    robot = Robot(clock=clock, evaluator=evaluator)
    for setup, events in round_:
        robot.register(setup)
        robot.apply(setup.game_id, events)
    moment = robot.next_check_ms()
    assert moment is not None
    clock.set(moment)
    started = time.perf_counter()
    run = robot.run_due_checks()
    return run, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--laggers", type=float, default=0.1)
    parser.add_argument("--nodes", type=int, default=SearchLimit().nodes)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    console = Console(stderr=False)

    t0 = time.perf_counter()
    round_ = build_round(args.games, args.laggers, args.seed)
    build_s = time.perf_counter() - t0

    fake_run, fake_s = one_check(round_, ScriptedEvaluator(0.0))

    settings = EngineSettings(processes=args.processes, limit=SearchLimit(nodes=args.nodes))
    with StockfishPool(settings) as pool:
        t0 = time.perf_counter()
        pool.start()
        start_s = time.perf_counter() - t0
        run, check_s = one_check(round_, pool)
        restarts = pool.restarts

    statuses = Counter(o.status for o in run.outcomes)
    rules = Counter(d.rule.value for d in run.decisions)
    verdicts = Counter(d.verdict.value for d in run.decisions)
    figures: dict[str, object] = {
        "games": args.games,
        "games_with_lagger": statuses[CheckStatus.DECIDED] + statuses[CheckStatus.FAILED],
        "decided": statuses[CheckStatus.DECIDED],
        "not_touched": statuses[CheckStatus.NO_LAGGER],
        "failed": statuses[CheckStatus.FAILED],
        "evaluations": run.evaluations,
        "check_10000_games_s": round(check_s, 3),
        "evaluations_per_s": round(run.evaluations / check_s, 1) if check_s else None,
        "robot_overhead_s": round(fake_s, 3),
        "engine_processes": args.processes,
        "nodes_per_search": args.nodes,
        "engine_start_s": round(start_s, 3),
        "engine_restarts": restarts,
        "round_build_s": round(build_s, 2),
        "rules": dict(sorted(rules.items())),
        "verdicts": dict(sorted(verdicts.items())),
    }
    if fake_run.evaluations != run.evaluations:
        print("warning: fake and real runs asked for a different number of evaluations",
              file=sys.stderr)

    table = Table(title=f"Robot: first check of {args.games} simultaneous 3+0 games, "
                        f"{args.laggers:.0%} with a lagger, Stockfish x{args.processes}")
    table.add_column("Figure")
    table.add_column("Value", justify="right")
    for key, value in figures.items():
        if isinstance(value, dict):
            for sub, n in value.items():
                table.add_row(f"{key}: {sub}", str(n))
        else:
            table.add_row(key, str(value))
    table.add_row("target: check within", f"{LIMIT_S:g} s")
    console.print(table)
    value = figures["check_10000_games_s"]
    print(json.dumps({"bench": "robot", "figures": figures, "targets": {
        "check_10000_games_s": {"value": value, "limit": LIMIT_S, "better": "lower"}}}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

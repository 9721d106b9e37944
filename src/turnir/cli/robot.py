"""``turnir robot``: replay a recorded game, simulate a round, serve the robot's HTTP API on the
database (an online tournament's results go into it), and a judge's commands for the results
the robot could not record (``unapplied``, ``retry``, ``dismiss``) and its decisions; the game
server's tokens (``token create|list|revoke``, ``turnir.cli.robot_tokens``) and the organizer's
permission (``turnir tournament set … --robot on``). ``serve`` needs a token on every request;
``replay`` and ``simulate`` are offline and need none.

The main CLI mounts ``robot_app``. A ``UserError`` is printed on stderr with exit code 2.
"""

from __future__ import annotations

import json
import os
import time
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from turnir.cli.db_common import actor_name, command, fail
from turnir.cli.options import ActorOption, command_group
from turnir.cli.output import SafeConsole, styled
from turnir.cli.robot_tokens import token_app
from turnir.cli.session import database, tournament_id
from turnir.errors import UserError

if TYPE_CHECKING:
    from rich.table import Table

    from turnir.domain.robot_rules import RobotSettings
    from turnir.robot.auth import StaticTokens
    from turnir.robot.engine import EngineSettings, ScriptedEvaluator, StockfishPool
    from turnir.robot.journal import OnlineResult
    from turnir.robot.replay import ReplayReport
    from turnir.services.robot_work import RobotWorker, WorkRound

robot_app = command_group(
    name="robot",
    help="The online judge robot (rules A-0..A-6): replay, simulate, serve, work.",
    add_completion=False,
)
robot_app.add_typer(token_app, name="token")
console = SafeConsole()
err_console = SafeConsole(stderr=True)
TOKEN_ENV = "TURNIR_ROBOT_TOKEN"
"""The one token of ``serve --memory`` (else a fresh one is printed at the start)."""


class EngineChoice(StrEnum):
    fake = "fake"
    stockfish = "stockfish"


EngineOpt = Annotated[EngineChoice, typer.Option(help="fake (scripted scores) or stockfish.")]
NodesOpt = Annotated[int, typer.Option(min=1, help="Stockfish nodes per evaluation.")]
ProcessesOpt = Annotated[int, typer.Option(min=1, help="Stockfish processes.")]
PathOpt = Annotated[str | None, typer.Option(
    help="The Stockfish binary (default: /usr/games/stockfish).", show_default=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
GameIdArg = Annotated[str, typer.Argument(help="The game's id.")]


def _engine(path: str | None, processes: int, nodes: int) -> EngineSettings:
    from turnir.robot.engine import DEFAULT_STOCKFISH, EngineSettings, SearchLimit

    return EngineSettings(path=path or DEFAULT_STOCKFISH, processes=processes,
                          limit=SearchLimit(nodes=nodes))


def _pool(path: str | None, processes: int, nodes: int) -> StockfishPool:
    from turnir.robot.engine import StockfishPool

    return StockfishPool(_engine(path, processes, nodes))


@command(robot_app, "replay")
def replay_command(
    game: Annotated[Path, typer.Argument(help="A recorded game: GAME.json or GAME.pgn.")],
    engine: EngineOpt = EngineChoice.stockfish,
    nodes: NodesOpt = 10_000,
    stockfish: PathOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Print the timeline of checks and decisions of a recorded game."""
    from turnir.robot.engine import Evaluator
    from turnir.robot.pgn import read_recorded_game
    from turnir.robot.replay import replay, scripted_for

    recorded = read_recorded_game(game)
    evaluator: Evaluator = (scripted_for(recorded) if engine is EngineChoice.fake
                            else _pool(stockfish, 1, nodes))
    try:
        report = replay(recorded, evaluator)
    finally:
        evaluator.close()
    if as_json:
        console.print_json(json.dumps(_replay_json(report)))
        return
    _print_replay(report)


def _replay_json(report: ReplayReport) -> dict[str, object]:
    from turnir.robot.schemas import DecisionOut

    start = report.game.setup.round_start_ms
    final = report.final
    return {
        "game_id": report.game.setup.game_id,
        "timeline": [{"t": (e.at_ms - start) / 1000, "kind": e.kind.value, "text": e.text}
                     for e in report.entries],
        "decisions": [DecisionOut.build(d).model_dump(mode="json") for d in report.decisions],
        "result": final.end.result.value if final.end else None,
        "end_reason": final.end.reason.value if final.end else None,
        "evaluations": report.evaluations,
    }


_STYLE = {"start": "bold", "check": "dim", "decision": "cyan", "end": "bold green",
          "ignored": "yellow"}
"""The style of a timeline entry by its kind (``turnir.robot.replay.EntryKind``)."""


def _print_replay(report: ReplayReport) -> None:
    from rich.table import Table

    from turnir.domain.robot_rules import color_name
    from turnir.robot.decision import format_clock

    setup = report.game.setup
    schedule = report.final.schedule
    start = setup.round_start_ms
    console.print(styled((setup.game_id, "bold"), f": {setup.white} v {setup.black}, "
                  f"{setup.time_control.label()}; checks at "
                  f"{format_clock(schedule.first_ms - start)}, "
                  f"{format_clock(schedule.second_ms - start)}, "
                  f"{format_clock(schedule.unconditional_ms - start)} after the round start"))
    table = Table(title="Timeline (time after the round start)")
    table.add_column("Time", justify="right")
    table.add_column("What")
    table.add_column("Rule")
    table.add_column("Clocks W / B", justify="right")
    table.add_column("Mean lag W / B", justify="right")
    table.add_column("Eval", justify="right")
    table.add_column("Details")
    for entry in report.entries:
        rule = clocks = lags = evaluation = ""
        what = entry.kind.value
        if entry.decision is not None:
            d = entry.decision
            f = d.figures
            what = d.verdict.value.replace("_", " ")
            rule = " > ".join(r.value for r in d.trail)
            clocks = f"{format_clock(f.white_clock_ms)} / {format_clock(f.black_clock_ms)}"
            lags = (f"{float(f.white_mean_lag_ms) / 1000:.2f} / "
                    f"{float(f.black_mean_lag_ms) / 1000:.2f}")
            if f.evaluation is not None and f.evaluation_pov is not None:
                evaluation = f"{f.evaluation.pawns:+.2f} ({color_name(f.evaluation_pov)[0]})"
        elif entry.snapshot is not None:
            s = entry.snapshot
            clocks = f"{format_clock(s.white_clock_ms)} / {format_clock(s.black_clock_ms)}"
            lags = (f"{float(s.white_lag.mean_ms) / 1000:.2f} / "
                    f"{float(s.black_lag.mean_ms) / 1000:.2f}")
        table.add_row(format_clock(entry.at_ms - start), what, rule, clocks, lags, evaluation,
                      entry.text, style=_STYLE[entry.kind.value])
    console.print(table)


@command(robot_app, "simulate")
def simulate_command(
    games: Annotated[int, typer.Option(min=1, help="Games in the round.")] = 1000,
    laggers: Annotated[float, typer.Option(min=0.0, max=1.0,
                                           help="Share of games with a lagger.")] = 0.1,
    seed: Annotated[int, typer.Option(help="Random seed.")] = 1,
    time_control: Annotated[str, typer.Option(help="base+increment, e.g. 3+0.")] = "3+0",
    engine: EngineOpt = EngineChoice.fake,
    nodes: NodesOpt = 10_000,
    processes: ProcessesOpt = 2,
    stockfish: PathOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Run a synthetic round in simulated time and summarise the robot's decisions."""
    from rich.table import Table

    from turnir.robot.engine import Evaluator
    from turnir.robot.simulate import SimulationSettings, random_evaluator, simulate_round

    settings = SimulationSettings(games=games, laggers=laggers, seed=seed,
                                  time_control=time_control)
    evaluator: Evaluator = (random_evaluator(seed) if engine is EngineChoice.fake
                            else _pool(stockfish, processes, nodes))
    started = time.perf_counter()
    try:
        report = simulate_round(settings, evaluator=evaluator)
    finally:
        evaluator.close()
    elapsed = time.perf_counter() - started
    summary = {**report.summary(), "seconds": round(elapsed, 2), "engine": engine.value}
    if as_json:
        console.print_json(json.dumps(summary))
        return
    table = Table(title=f"Simulated round: {games} games, {laggers:.0%} with a lagger, "
                        f"{time_control}, seed {seed}, engine {engine.value}")
    table.add_column("Figure")
    table.add_column("Value", justify="right")
    for key, value in summary.items():
        if isinstance(value, dict):
            for sub, n in value.items():
                table.add_row(f"{key}: {sub}", str(n))
        else:
            table.add_row(key.replace("_", " "), str(value))
    console.print(table)


@command(robot_app, "serve")
def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8100,
    webhook: Annotated[str | None, typer.Option(help="POST ending decisions here.")] = None,
    nodes: NodesOpt = 10_000,
    processes: ProcessesOpt = 2,
    stockfish: PathOpt = None,
    memory: Annotated[bool, typer.Option(
        "--memory", help="Keep games and decisions in memory only (no database, no "
        "tournament results).")] = False,
    restore_hours: Annotated[float, typer.Option(
        min=0.0, help="On start, rebuild the games of rounds started this many hours ago "
        "or later.")] = 24.0,
    actor: Annotated[str | None, typer.Option(
        help="Who the audit log names for the results the robot records (default: "
             "robot:Magic).", show_default=False)] = None,
    checks: Annotated[bool, typer.Option(
        "--checks/--no-checks", help="Run the checks in this process (one process), or leave "
        "them to `turnir robot work` processes.")] = True,
    quiet: Annotated[bool, typer.Option(
        help="No access log (a line per request); warnings and errors only.")] = False,
) -> None:
    """Run the robot's HTTP API with checks on the real clock, on the database.

    With --no-checks the process only takes the games and their events; `turnir robot work`
    processes on the same database run the checks.

    The database in effect (TURNIR_DATABASE_URL or the default) keeps the games, their events
    and the decisions, and gets the results of the tournaments that allow the robot. Every
    request needs a token of `turnir robot token create` (Authorization: Bearer …); with
    --memory, the token in $TURNIR_ROBOT_TOKEN or one printed at the start.
    """
    import uvicorn

    from turnir.compose import robot_app as create_robot_app

    if memory:
        if not checks:
            raise fail(UserError("--no-checks needs the database: the robot workers find the "
                                 "games there", code="invalid_option"))
        app = create_robot_app(engine=_engine(stockfish, processes, nodes),
                               webhook_url=webhook, tokens=_memory_tokens())
        uvicorn.run(app, host=host, port=port, **_log_options(quiet))
        return
    from turnir.robot.sink import WebhookResultSink
    from turnir.services.online import ROBOT_ACTOR, online_robot
    from turnir.services.robot_tokens import DatabaseTokens, list_robot_tokens

    with database() as db:
        pool = _pool(stockfish, processes, nodes)
        hook = WebhookResultSink(webhook) if webhook else None
        clock = db.clock
        try:
            robot, results = online_robot(
                db, clock=clock, evaluator=pool, actor=actor or ROBOT_ACTOR,
                also=[hook] if hook else [], shared=not checks,
                restore_since_ms=clock.now_ms() - round(restore_hours * 3_600_000))
        except BaseException:
            pool.close()
            raise
        err_console.print(f"robot on {db.describe()}: {len(robot.game_ids())} games restored"
                          + ("" if checks else "; the checks are left to `turnir robot work`"),
                          highlight=False)
        if not list_robot_tokens(db):
            err_console.print("no robot token yet: every request will be refused until one "
                              "is created (turnir robot token create [--tournament T])",
                              highlight=False)
        app = create_robot_app(robot, tokens=DatabaseTokens(db), results=results,
                               run_checks=checks,
                               on_close=[*([hook.close] if hook else []), pool.close])
        uvicorn.run(app, host=host, port=port, **_log_options(quiet))


def _log_options(quiet: bool) -> dict[str, Any]:
    """uvicorn's logging, as ``turnir serve [--quiet]``: no access log when quiet."""
    return {"log_level": "warning" if quiet else "info", "access_log": not quiet}


def _memory_tokens() -> StaticTokens:
    """``serve --memory``: the deployment token in ``$TURNIR_ROBOT_TOKEN``, else a new one
    printed once on stderr."""
    from turnir.robot.auth import StaticTokens, new_token

    given = os.environ.get(TOKEN_ENV, "").strip()
    if given:
        try:
            return StaticTokens.of(given)
        except UserError as error:
            raise fail(UserError("{name}: {reason}", code=error.code, name=TOKEN_ENV,
                                 reason=error)) from None
    token = new_token()
    err_console.print(f"robot token for this run (or set {TOKEN_ENV}): {token}",
                      highlight=False, soft_wrap=True)
    return StaticTokens.of(token)


def _results_table(title: str, results: list[OnlineResult]) -> Table:
    from rich.table import Table

    table = Table(title=title)
    for column in ("Game", "Match", "White v Black", "Result", "Reason", "State", "Why / note"):
        table.add_column(column)
    for r in results:
        link = r.link
        match = "" if link is None else (
            f"#{link.tournament_id} r{link.round} t{link.table} g{link.game}")
        table.add_row(r.game_id, match, f"{r.white} v {r.black}", r.result.value,
                      r.reason + (f" ({r.rule})" if r.rule else ""), r.state, r.problem or "")
    return table


def _results_json(results: list[OnlineResult]) -> str:
    from turnir.robot.schemas import OnlineResultOut

    return json.dumps([OnlineResultOut.build(r).model_dump(mode="json") for r in results],
                      ensure_ascii=False)


@command(robot_app, "unapplied")
def unapplied_command(
    tournament: Annotated[str | None, typer.Argument(
        help="Only this tournament (its number or name).")] = None,
    every: Annotated[bool, typer.Option(
        "--all", help="Every ended game, not only the unapplied ones.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Online results the robot could not record in their tournament.

    A judge removes the cause and retries them, or dismisses them.
    """
    from turnir.services.online import UNAPPLIED, online_results

    with database() as db:
        found = online_results(db, tournament_id=tournament_id(db, tournament),
                               state=None if every else UNAPPLIED)
    if as_json:
        console.print_json(_results_json(found))
        return
    if not found:
        console.print("no unapplied results" if not every else "no ended online games")
        return
    console.print(_results_table("Online results" if every else "Unapplied online results",
                                 found))


@command(robot_app, "retry")
def retry_command(
    game: GameIdArg,
    actor: ActorOption = None,
) -> None:
    """Record an unapplied result again, once its cause is removed."""
    from turnir.services.online import retry_game_end

    with database() as db:
        done = retry_game_end(db, game, actor=actor_name(actor))
    message = f"{done.game_id}: {done.state}"
    console.print(message + (f" ({done.problem})" if done.problem else ""), highlight=False)
    if done.state != "applied":
        raise typer.Exit(code=2)


@command(robot_app, "dismiss")
def dismiss_command(
    game: GameIdArg,
    note: Annotated[str, typer.Option(help="Why (e.g. how the result was settled).")],
    actor: ActorOption = None,
) -> None:
    """Set an unapplied result aside (logged with the note)."""
    from turnir.services.online import dismiss_game_end

    with database() as db:
        done = dismiss_game_end(db, game, actor=actor_name(actor), note=note)
    console.print(f"{done.game_id}: {done.state}", highlight=False)


@command(robot_app, "decisions")
def decisions_command(
    game: GameIdArg,
    as_json: JsonOpt = False,
) -> None:
    """The robot's decisions about a game, as both players see them."""
    from turnir.robot.schemas import DecisionOut
    from turnir.services.robot_store import DatabaseRobotStore

    with database() as db:
        found = DatabaseRobotStore(db).for_game(game)
    if as_json:
        console.print_json(json.dumps([DecisionOut.build(d).model_dump(mode="json")
                                       for d in found], ensure_ascii=False))
        return
    if not found:
        console.print(f"no decisions about {game}", highlight=False)
        return
    for d in found:
        console.print(styled((str(d.id), "bold"), f" {d.message}"), highlight=False)


FAKE_DELAY_ENV = "TURNIR_ROBOT_FAKE_DELAY_MS"
"""A test aid: with ``--engine fake`` each position takes this many milliseconds (0 to 60000),
so a test can stop a worker in the middle of a check."""


def _fake_evaluator() -> ScriptedEvaluator:
    from turnir.robot.engine import ScriptedEvaluator

    given = os.environ.get(FAKE_DELAY_ENV, "").strip() or "0"
    if not given.isdigit() or int(given) > 60_000:
        raise fail(UserError("{name} must be a whole number of milliseconds from 0 to 60000",
                             code="invalid_option", name=FAKE_DELAY_ENV))
    return ScriptedEvaluator(0.0, delay_ms=int(given))


def _default_worker_name() -> str:
    import socket

    return f"{socket.gethostname()[:80]}-{os.getpid()}"


def _print_round(done: WorkRound) -> None:
    from turnir.robot.robot import CheckStatus

    taken = {c.taken_from for c in done.taken_over}
    parts = [f"claimed {len(done.claimed)} games"]
    if taken:
        parts.append(f"{len(done.taken_over)} taken over from {', '.join(sorted(map(str, taken)))}")
    parts.append(", ".join(f"{status.value.replace('_', ' ')} {done.count(status)}"
                           for status in CheckStatus))
    if done.redelivered:
        parts.append(f"{done.redelivered} ends handed over again")
    if done.run is not None:
        parts.extend(f"{d.id} {d.rule.value} {d.verdict.value}" for d in done.run.decisions)
    if done.error:
        parts.append(f"error: {done.error}; tried again later")
    console.print("; ".join(parts), highlight=False, soft_wrap=True)


@command(robot_app, "work")
def work_command(
    worker: Annotated[str | None, typer.Option(
        help="This worker's name in the leases (default: host-pid).",
        show_default=False)] = None,
    lease_seconds: Annotated[float, typer.Option(
        help="How long a claim holds unless renewed (every third of it); a dead worker's "
        "games are taken over after it, before their next check: 1 to 8 seconds.")] = 5.0,
    engine: EngineOpt = EngineChoice.stockfish,
    nodes: NodesOpt = 10_000,
    processes: ProcessesOpt = 2,
    stockfish: PathOpt = None,
    batch: Annotated[int, typer.Option(min=1, max=10_000,
                                       help="Games claimed at a time.")] = 200,
    poll_ms: Annotated[int, typer.Option(min=10, max=60_000,
                                         help="Longest wait between looks for due games.")] = 500,
    once: Annotated[bool, typer.Option(
        "--once", help="Run the checks due now once and exit.")] = False,
    actor: Annotated[str | None, typer.Option(
        help="Who the audit log names for the results (default: robot:Magic).",
        show_default=False)] = None,
) -> None:
    """Run the due checks of the games on the database, sharing them with other workers.

    The games come from `turnir robot serve --no-checks`. Each due game is claimed with a
    lease, so no two workers decide one game; a dead worker's games are taken over once its
    leases expire. Stop with Ctrl+C or SIGTERM.
    """
    import signal
    import threading

    from turnir.robot.engine import Evaluator
    from turnir.services.online import ROBOT_ACTOR
    from turnir.services.robot_work import RobotWorker, check_worker_name

    name = check_worker_name(worker if worker is not None else _default_worker_name())
    lease_ms = _lease_ms(lease_seconds)
    evaluator: Evaluator = (_fake_evaluator() if engine is EngineChoice.fake
                            else _pool(stockfish, processes, nodes))
    stop = threading.Event()
    try:
        with database() as db:
            me = RobotWorker(db, owner=name, clock=db.clock, evaluator=evaluator,
                             lease_ms=lease_ms, batch=batch,
                             actor=actor or ROBOT_ACTOR)
            console.print(f"worker {name} on {db.describe()}: lease {lease_seconds:g} s, "
                          f"engine {engine.value}, batch {batch}", highlight=False)
            if once:
                _work_once(me)
                return
            signal.signal(signal.SIGTERM, lambda *_: stop.set())
            try:
                me.run(stop, poll_ms=poll_ms, report=_print_round)
            except KeyboardInterrupt:
                stop.set()
            console.print(f"worker {name} stopped", highlight=False)
    finally:
        evaluator.close()


def _lease_ms(seconds: float) -> int:
    """``--lease-seconds`` in milliseconds, within the bounds of ``check_lease_ms``."""
    from turnir.domain.robot_rules import RobotSettings
    from turnir.services.robot_work import MIN_LEASE_MS, max_lease_ms

    settings = RobotSettings()
    low, high = MIN_LEASE_MS, max_lease_ms(settings)
    if not low / 1000 <= seconds <= high / 1000:  # also refuses nan
        raise fail(UserError(
            "--lease-seconds must be from {low} to {high}: a dead worker's check is taken "
            "over once its lease runs out, before the game's next check ({gap} s later at "
            "the least)", code="invalid_option", low=low // 1000, high=high // 1000,
            gap=_shortest_gap_s(settings)))
    return round(seconds * 1000)


def _shortest_gap_s(settings: RobotSettings) -> int:
    from turnir.services.robot_work import shortest_check_gap_ms

    return shortest_check_gap_ms(settings) // 1000


def _work_once(me: RobotWorker) -> None:
    decided = 0
    while (done := me.work_once()).claimed:
        _print_round(done)
        if done.run is not None:
            decided += len(done.run.decisions)
        if done.error:
            break
    console.print(f"done: {decided} decisions", highlight=False)

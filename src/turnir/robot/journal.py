"""What the robot keeps to survive a restart: the ``GameJournal`` protocol, the tournament link
of a game, the JSON forms of events and decisions, and rebuilding a game from what was kept.

A journal keeps every registered game (its ``GameSetup`` and ``TournamentLink``), every event
the robot applied to it, numbered from 0 in order, and the last check stage each game went
through (also the stages of games that had no lagger, A-0, which leave no decision). With the
decisions (``DecisionStore``) that is enough to rebuild each game exactly: the events are
applied again in order, and each check decision's effects (the lagger's lag compensation
switched off, A3-2/B1-2; the game ended, A-1..A-6) are applied again at the point it was made —
after the moves counted in its figures (``white_moves + black_moves``): only moves depend on
the lag compensation, and nothing is applied to a game after a decision ended it.

The JSON forms keep integers and exact fractions, so a decision read back compares equal to the
one stored (``DecisionStore.add`` is idempotent by that equality).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any, Protocol

import chess

from turnir.domain.games import Side
from turnir.domain.robot_rules import (
    STAGES,
    CheckStage,
    ChessResult,
    LaggerKind,
    RobotSettings,
    Rule,
    TimeControl,
    Verdict,
)
from turnir.errors import InvariantError, UserError
from turnir.robot.decision import CheckFigures, Decision
from turnir.robot.engine import Evaluation
from turnir.robot.game import (
    ClockReading,
    DrawAgreed,
    FlagFell,
    Game,
    GameEvent,
    GameSetup,
    MovePlayed,
    Resigned,
)


@dataclass(frozen=True)
class TournamentLink:
    """Which game of which tournament match a robot game is (issue 7 integration)."""

    tournament_id: int
    round: int
    table: int
    game: int
    """The game's number in the match: 1, 2, … (best-of, S-2, S-7)."""
    white_side: Side | None = None
    """Which player of the pairing plays White (``a`` is the first-named). ``None`` when the
    registration left it to be found from the players' names."""

    def __post_init__(self) -> None:
        if self.white_side is not None:  # "a"/"b" from a file or a row: the domain's Side
            object.__setattr__(self, "white_side", Side(self.white_side))
        if min(self.tournament_id, self.round, self.table, self.game) < 1:
            raise UserError("a tournament link needs a tournament, round, table and game "
                            "number of 1 or more", code="invalid_link")

    @property
    def slot(self) -> str:
        """``#T R.T game G`` for messages."""
        return f"#{self.tournament_id} round {self.round} table {self.table} game {self.game}"

    def accepts(self, given: TournamentLink | None) -> bool:
        """Is ``given`` (a registration repeated) the same link as this resolved one?"""
        return given is not None and (
            (given.tournament_id, given.round, given.table, given.game)
            == (self.tournament_id, self.round, self.table, self.game)
            and given.white_side in (None, self.white_side))


@dataclass(frozen=True)
class JournaledGame:
    """A game as the journal kept it."""

    setup: GameSetup
    link: TournamentLink | None
    events: tuple[GameEvent, ...]
    last_stage: CheckStage | None
    end_delivered: bool
    """The game's end was handed to the result sink and recorded (or it has not ended)."""


@dataclass(frozen=True)
class OnlineResult:
    """A game's end as the tournament side recorded it (``turnir.services.online``)."""

    game_id: str
    white: str
    black: str
    link: TournamentLink | None
    result: ChessResult
    reason: str
    """The game's reason in the tournament (``turnir.domain.results.GameReason``)."""
    end_reason: str
    """How the game ended on the board (``turnir.robot.game.EndReason``)."""
    rule: str | None
    """The robot's rule when a decision ended the game."""
    end_id: str
    """The decision id, or ``<game id>/end`` for an end by an event."""
    state: str
    """``no_tournament``, ``waiting``, ``applied``, ``unapplied`` or ``dismissed``."""
    problem_code: str | None
    problem: str | None
    """Why it could not be recorded (``unapplied``), or the judge's note (``dismissed``)."""
    ended_at: datetime
    handled_by: str | None
    """Who recorded, retried or dismissed it last."""


class ResultLedger(Protocol):
    """Where the API reads what became of the games' ends in the tournaments."""

    def results(self, *, tournament_id: int | None = None,
                state: str | None = None) -> list[OnlineResult]:
        ...


class GameJournal(Protocol):
    """Keeps the robot's games across restarts (one process feeds a journal its events; robot
    workers may run the checks elsewhere, ``turnir.services.robot_work``)."""

    def register(self, setup: GameSetup, link: TournamentLink | None) -> TournamentLink | None:
        """Keep a new game; returns its link resolved (``white_side`` known). Raises
        ``UserError`` for a link that names no match, and ``ConflictError`` when the game id
        or the link's slot is already taken by another game; the same registration again is
        a no-op."""
        ...

    def append(self, game_id: str, first: int, events: Sequence[GameEvent]) -> None:
        """Keep events numbered ``first``, ``first + 1``, … of a game."""
        ...

    def passed(self, stages: Sequence[tuple[str, CheckStage]]) -> None:
        """Games that went through a check stage (decided or not touched)."""
        ...

    def load(self, game_id: str | None = None, *,
             since_ms: int | None = None) -> list[JournaledGame]:
        """Every kept game (or the one), in registration order, with its events; ``since_ms``:
        only the games whose round started then or later."""
        ...


# ----- events ----------------------------------------------------------------------------


def _color(color: chess.Color | None) -> str | None:
    return None if color is None else ("white" if color == chess.WHITE else "black")


def _uncolor(text: str | None) -> chess.Color | None:
    return None if text is None else text == "white"


def event_json(event: GameEvent) -> dict[str, Any]:
    """An event as JSON (integer milliseconds)."""
    if isinstance(event, MovePlayed):
        return {"type": "move", "at_ms": event.at_ms, "move": event.move,
                "lag_ms": event.lag_ms, "clock_ms": event.clock_ms}
    if isinstance(event, ClockReading):
        return {"type": "clock", "at_ms": event.at_ms, "white_ms": event.white_ms,
                "black_ms": event.black_ms}
    if isinstance(event, Resigned):
        return {"type": "resign", "at_ms": event.at_ms, "color": _color(event.color)}
    if isinstance(event, FlagFell):
        return {"type": "flag", "at_ms": event.at_ms, "color": _color(event.color)}
    return {"type": "draw", "at_ms": event.at_ms}


def event_from_json(data: dict[str, Any]) -> GameEvent:
    kind = data["type"]
    at = int(data["at_ms"])
    if kind == "move":
        return MovePlayed(at, data["move"], int(data["lag_ms"]), data["clock_ms"])
    if kind == "clock":
        return ClockReading(at, int(data["white_ms"]), int(data["black_ms"]))
    if kind == "resign":
        return Resigned(at, data["color"] == "white")
    if kind == "flag":
        return FlagFell(at, data["color"] == "white")
    if kind == "draw":
        return DrawAgreed(at)
    raise InvariantError(f"unknown kept event {kind!r}")


# ----- decisions -------------------------------------------------------------------------


def _fraction(value: Fraction) -> list[int]:
    return [value.numerator, value.denominator]


def decision_json(d: Decision) -> dict[str, Any]:
    """A decision as JSON, exactly (fractions as ``[numerator, denominator]``)."""
    f = d.figures
    e = f.evaluation
    return {
        "id": d.id, "game_id": d.game_id, "white": d.white, "black": d.black,
        "stage": d.stage.value if d.stage else None, "scheduled_at_ms": d.scheduled_at_ms,
        "at_ms": d.at_ms, "verdict": d.verdict.value, "rule": d.rule.value,
        "trail": [r.value for r in d.trail], "winner": _color(d.winner),
        "lagger": _color(d.lagger),
        "figures": {
            "white_clock_ms": f.white_clock_ms, "black_clock_ms": f.black_clock_ms,
            "white_mean_lag_ms": _fraction(f.white_mean_lag_ms),
            "black_mean_lag_ms": _fraction(f.black_mean_lag_ms),
            "white_moves": f.white_moves, "black_moves": f.black_moves,
            "lagger_kind": f.lagger_kind.value,
            "evaluation": None if e is None else {
                "centipawns": e.centipawns, "mate_plies": e.mate_plies, "depth": e.depth,
                "nodes": e.nodes, "source": e.source},
            "evaluation_pov": _color(f.evaluation_pov), "fen": f.fen,
        },
    }


def decision_from_json(data: dict[str, Any]) -> Decision:
    f = data["figures"]
    e = f["evaluation"]
    figures = CheckFigures(
        white_clock_ms=f["white_clock_ms"], black_clock_ms=f["black_clock_ms"],
        white_mean_lag_ms=Fraction(*f["white_mean_lag_ms"]),
        black_mean_lag_ms=Fraction(*f["black_mean_lag_ms"]),
        white_moves=f["white_moves"], black_moves=f["black_moves"],
        lagger_kind=LaggerKind(f["lagger_kind"]),
        evaluation=None if e is None else Evaluation(
            centipawns=e["centipawns"], mate_plies=e["mate_plies"], depth=e["depth"],
            nodes=e["nodes"], source=e["source"]),
        evaluation_pov=_uncolor(f["evaluation_pov"]), fen=f["fen"])
    return Decision(
        id=data["id"], game_id=data["game_id"], white=data["white"], black=data["black"],
        stage=None if data["stage"] is None else CheckStage(data["stage"]),
        scheduled_at_ms=data["scheduled_at_ms"], at_ms=data["at_ms"],
        verdict=Verdict(data["verdict"]), rule=Rule(data["rule"]),
        trail=tuple(Rule(r) for r in data["trail"]), winner=_uncolor(data["winner"]),
        lagger=_uncolor(data["lagger"]), figures=figures)


# ----- setups ----------------------------------------------------------------------------


def setup_columns(setup: GameSetup) -> dict[str, Any]:
    """A setup as the journal's columns."""
    return {"game_id": setup.game_id, "white": setup.white, "black": setup.black,
            "time_control": setup.time_control.label(), "round_start_ms": setup.round_start_ms,
            "started_at_ms": setup.started_at_ms, "initial_fen": setup.initial_fen}


def setup_from_columns(row: Any) -> GameSetup:
    return GameSetup(game_id=row["game_id"], white=row["white"], black=row["black"],
                     time_control=TimeControl.parse(row["time_control"]),
                     round_start_ms=int(row["round_start_ms"]),
                     started_at_ms=(None if row["started_at_ms"] is None
                                    else int(row["started_at_ms"])),
                     initial_fen=row["initial_fen"])


# ----- rebuilding ------------------------------------------------------------------------


def rebuild_game(kept: JournaledGame, decisions: Sequence[Decision],
                 settings: RobotSettings) -> Game:
    """The game as it was: the kept events applied again in order, with each check
    decision's effects at the point it was made (see the module doc). A-5 decisions come
    back from the flag-fall event itself."""
    game = Game(kept.setup, settings)
    pending = sorted((d for d in decisions if d.stage is not None),
                     key=lambda d: (d.figures.white_moves + d.figures.black_moves, d.at_ms))
    moves = 0
    for event in kept.events:
        if isinstance(event, MovePlayed):
            while pending and _moves_at(pending[0]) <= moves:
                _redo(game, pending.pop(0))
            moves += 1
        game.apply(event)
    for decision in pending:
        _redo(game, decision)
    stages = [kept.last_stage, *(d.stage for d in decisions)]
    known = [s for s in stages if s is not None]
    if known:
        game.last_stage = max(known, key=STAGES.index)
    return game


def _moves_at(decision: Decision) -> int:
    return decision.figures.white_moves + decision.figures.black_moves


def _redo(game: Game, decision: Decision) -> None:
    result = decision.result
    if result is not None:
        if game.running:
            game.finish(result, at_ms=max(decision.at_ms, game.last_event_ms))
    elif decision.verdict is Verdict.CONTINUE_NO_LAG_COMPENSATION and decision.lagger is not None:
        game.lag_compensation_off.add(decision.lagger)

"""Recorded games for ``turnir robot replay``: PGN with clock and lag comments, or JSON.

PGN (one game per file; documented in ``docs/robot.md``)::

    [White "alice"]
    [Black "bob"]
    [TimeControl "180+0"]      ; PGN form: base and increment in seconds (required)
    [GameId "r3-t12"]          ; optional, else the file name
    [RoundStart "0"]           ; optional: the round's start, seconds on the timeline (0)
    [GameStart "0"]            ; optional: when the clocks started (the round start)
    [Result "*"]

    1. e4 {[%clk 0:02:59.1] [%lag 0.4]} e5 {[%clk 0:02:55] [%lag 5.2] [%ts 9.6]} *

- ``[%clk h:mm:ss(.s)]``: the mover's clock after the move (the usual PGN clock comment).
- ``[%lag S]``: the lag in seconds the server measured for the move (ours; 0 when absent).
- ``[%ts S]``: the server's timestamp of the move, seconds on the timeline (ours; optional).
  Without it the timestamp is the previous move's (or the game start) plus the time the move
  cost the mover's clock (previous clock - this clock + increment) plus the move's lag: with
  lag compensation the server does not charge the lag, so it adds to the wall time.
- The end: ``*`` means the game was still running. A ``Termination`` containing "time" is a
  flag fall of the side to move at the moment its clock ran out; another decisive result is a
  resignation of the loser at the last move; a drawn result the board does not explain is a
  draw agreement. ``[FEN]``/``[SetUp]`` start positions are supported.

JSON: ``schemas.GameFile`` — the registration fields of the HTTP API plus ``events`` (the
API's event objects) and optional scripted ``evaluations`` by check for ``--engine fake``.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.pgn
from pydantic import ValidationError

from turnir.domain.robot_rules import CheckStage, ChessResult, TimeControl
from turnir.errors import UserError
from turnir.robot.clock import seconds_to_ms
from turnir.robot.game import (
    DrawAgreed,
    FlagFell,
    GameEvent,
    GameSetup,
    MovePlayed,
    Resigned,
)
from turnir.robot.schemas import GameFile, event_to_domain

_LAG = re.compile(r"\[%lag\s+(\d+(?:\.\d+)?)\s*\]")
_TS = re.compile(r"\[%ts\s+(\d+(?:\.\d+)?)\s*\]")


@dataclass(frozen=True)
class RecordedGame:
    """A game to replay: its registration, its events and scripted evaluations (pawns)."""

    setup: GameSetup
    events: tuple[GameEvent, ...]
    evaluations: dict[CheckStage, float] = field(default_factory=dict)


def read_recorded_game(path: Path) -> RecordedGame:
    """A ``.pgn`` or ``.json`` recorded game; ``UserError`` for anything malformed."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError("cannot read {path}: {reason}", code="unreadable_file", path=str(path),
                        reason=exc.strerror or str(exc)) from exc
    suffix = path.suffix.lower()
    if suffix == ".pgn":
        return parse_pgn(text, default_id=path.stem)
    if suffix == ".json":
        return parse_game_json(text)
    raise UserError("{path}: expected a .pgn or .json file", code="unknown_format",
                    path=str(path))


def parse_game_json(text: str) -> RecordedGame:
    try:
        file = GameFile.model_validate(json.loads(text))
    except json.JSONDecodeError as exc:
        raise UserError("not JSON: {reason}", code="invalid_json", reason=str(exc)) from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UserError("bad game file at {where}: {reason}", code="invalid_game_file",
                        where=where, reason=first["msg"]) from exc
    return RecordedGame(setup=file.to_setup(),
                        events=tuple(event_to_domain(e) for e in file.events),
                        evaluations={CheckStage(k): v for k, v in file.evaluations.items()})


def _seconds_header(headers: chess.pgn.Headers, name: str, default: float) -> float:
    value = headers.get(name)
    if value is None or value in ("", "?"):
        return default
    try:
        seconds = float(value)
    except ValueError as exc:
        raise UserError("PGN header {name} must be seconds, not {value!r}",
                        code="invalid_pgn", name=name, value=value) from exc
    if seconds < 0:
        raise UserError("PGN header {name} cannot be negative", code="invalid_pgn", name=name)
    return seconds


def parse_pgn(text: str, *, default_id: str = "game") -> RecordedGame:
    game = chess.pgn.read_game(io.StringIO(text))
    if game is None:
        raise UserError("no game in the PGN", code="invalid_pgn")
    if game.errors:
        raise UserError("bad PGN: {reason}", code="invalid_pgn", reason=str(game.errors[0]))
    headers = game.headers
    control = headers.get("TimeControl")
    if not control or control in ("?", "-"):
        raise UserError("the PGN needs a TimeControl header like 180+0", code="invalid_pgn")
    time_control = TimeControl.parse_pgn(control)
    round_start = _seconds_header(headers, "RoundStart", 0.0)
    game_start = _seconds_header(headers, "GameStart", round_start)
    fen = headers.get("FEN")
    setup = GameSetup(game_id=headers.get("GameId") or re.sub(r"[^A-Za-z0-9._:\-]", "_",
                                                                 default_id)[:100] or "game",
                      white=headers.get("White") or "White",
                      black=headers.get("Black") or "Black",
                      time_control=time_control, round_start_ms=seconds_to_ms(round_start),
                      started_at_ms=seconds_to_ms(game_start), initial_fen=fen)
    events: list[GameEvent] = []
    board = game.board()
    base_s = time_control.base_ms / 1000
    increment_s = time_control.increment_ms / 1000
    clocks = {chess.WHITE: base_s, chess.BLACK: base_s}
    at = game_start
    for node in game.mainline():
        mover = board.turn
        lag_match, ts_match = _LAG.search(node.comment), _TS.search(node.comment)
        lag = float(lag_match.group(1)) if lag_match else 0.0
        clock = node.clock()
        if ts_match:
            moment = float(ts_match.group(1))
        else:
            spent = 0.0 if clock is None else max(0.0, clocks[mover] - clock + increment_s)
            moment = at + spent + lag
        if moment < at:
            raise UserError("move {number} ({move}) is stamped before the move before it",
                            code="invalid_pgn", number=board.fullmove_number, move=node.san())
        events.append(MovePlayed(seconds_to_ms(moment), node.uci(), seconds_to_ms(lag),
                                 None if clock is None else seconds_to_ms(clock)))
        if clock is not None:
            clocks[mover] = clock
        at = moment
        board.push(node.move)
    ending = _ending(headers, board, clocks, at)
    if ending is not None:
        events.append(ending)
    return RecordedGame(setup=setup, events=tuple(events))


def _ending(headers: chess.pgn.Headers, board: chess.Board, clocks: dict[chess.Color, float],
            at: float) -> GameEvent | None:
    result = headers.get("Result", "*")
    if result == "*" or board.is_game_over():
        return None
    if result not in {r.value for r in ChessResult}:
        raise UserError("unknown PGN result {result!r}", code="invalid_pgn", result=result)
    if "time" in headers.get("Termination", "").lower():
        flagged = board.turn
        return FlagFell(seconds_to_ms(at + clocks[flagged]), flagged)
    if result == ChessResult.WHITE_WINS.value:
        return Resigned(seconds_to_ms(at), chess.BLACK)
    if result == ChessResult.BLACK_WINS.value:
        return Resigned(seconds_to_ms(at), chess.WHITE)
    return DrawAgreed(seconds_to_ms(at))

"""The robot's JSON shapes (pydantic): the HTTP API's requests and responses, the webhook's
payload and the recorded-game JSON file. Times are seconds (floats) on the game server's
timeline (Unix time in production; any origin in a recorded file), lags and clocks are seconds.
Separate input and output models; inputs forbid unknown fields.
"""

from __future__ import annotations

from typing import Annotated, Literal

import chess
from pydantic import BaseModel, ConfigDict, Field

from turnir.domain.games import Side
from turnir.domain.robot_rules import TimeControl, parse_color
from turnir.domain.text import NAME_LEN, clean_name
from turnir.robot.clock import ms_to_seconds, seconds_to_ms
from turnir.robot.decision import Decision
from turnir.robot.engine import Evaluation
from turnir.robot.game import (
    ClockReading,
    DrawAgreed,
    FlagFell,
    GameEvent,
    GameSetup,
    GameSnapshot,
    MovePlayed,
    Resigned,
)
from turnir.robot.journal import OnlineResult, TournamentLink

Moment = Annotated[float, Field(ge=0, le=1e11, allow_inf_nan=False,
                                description="seconds on the server's timeline")]
Duration = Annotated[float, Field(ge=0, le=1e6, allow_inf_nan=False, description="seconds")]
ColorName = Literal["white", "black"]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LinkIn(_In):
    """Which game of which tournament match the game is (an online tournament's game)."""

    id: int = Field(ge=1, description="the tournament's number")
    round: int = Field(ge=1)
    table: int = Field(ge=1)
    game: int = Field(default=1, ge=1, le=99, description="the game's number in the match")
    white: Side | None = Field(
        default=None, description="which player of the pairing plays White (a: the first "
        "named); found from the players' names when not given")

    def to_link(self) -> TournamentLink:
        return TournamentLink(self.id, self.round, self.table, self.game, self.white)


class LinkOut(BaseModel):
    id: int
    round: int
    table: int
    game: int
    white: Side | None

    @staticmethod
    def build(link: TournamentLink | None) -> LinkOut | None:
        if link is None:
            return None
        return LinkOut(id=link.tournament_id, round=link.round, table=link.table,
                       game=link.game, white=link.white_side)


class GameIn(_In):
    """Register a game (the game server calls this when a game of a round starts)."""

    game_id: str = Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9._:\-]+$",
                         examples=["r3-t12"])
    white: str = Field(min_length=1, max_length=200)
    black: str = Field(min_length=1, max_length=200)
    time_control: str = Field(min_length=3, max_length=20, examples=["3+0"],
                              description="base minutes + increment seconds")
    round_start: Moment
    started_at: Moment | None = Field(default=None,
                                      description="when the clocks started; the round start")
    fen: str | None = Field(default=None, max_length=100,
                            description="a start position other than the standard one")
    tournament: LinkIn | None = Field(default=None,
                                      description="the tournament match game it is, if any")

    def to_setup(self) -> GameSetup:
        """The domain's setup; raises ``UserError`` for a bad time control or position."""
        return GameSetup(game_id=self.game_id,
                         white=clean_name(self.white, field="white", max_len=NAME_LEN),
                         black=clean_name(self.black, field="black", max_len=NAME_LEN),
                         time_control=TimeControl.parse(self.time_control),
                         round_start_ms=seconds_to_ms(self.round_start),
                         started_at_ms=(None if self.started_at is None
                                        else seconds_to_ms(self.started_at)),
                         initial_fen=self.fen)


class MoveIn(_In):
    type: Literal["move"]
    at: Moment
    move: str = Field(min_length=2, max_length=10, examples=["e2e4", "Nf3"])
    lag: Duration = Field(default=0.0, description="the lag measured for this move")
    clock: Duration | None = Field(default=None, description="the mover's clock after it")


class ClockIn(_In):
    type: Literal["clock"]
    at: Moment
    white: Duration
    black: Duration


class ResignIn(_In):
    type: Literal["resign"]
    at: Moment
    color: ColorName


class FlagIn(_In):
    type: Literal["flag"]
    at: Moment
    color: ColorName


class DrawIn(_In):
    type: Literal["draw"]
    at: Moment


EventIn = Annotated[MoveIn | ClockIn | ResignIn | FlagIn | DrawIn, Field(discriminator="type")]


def event_to_domain(event: MoveIn | ClockIn | ResignIn | FlagIn | DrawIn) -> GameEvent:
    at = seconds_to_ms(event.at)
    if isinstance(event, MoveIn):
        return MovePlayed(at, event.move, seconds_to_ms(event.lag),
                          None if event.clock is None else seconds_to_ms(event.clock))
    if isinstance(event, ClockIn):
        return ClockReading(at, seconds_to_ms(event.white), seconds_to_ms(event.black))
    if isinstance(event, ResignIn):
        return Resigned(at, parse_color(event.color))
    if isinstance(event, FlagIn):
        return FlagFell(at, parse_color(event.color))
    return DrawAgreed(at)


class EventsIn(_In):
    """Several events of one game at once, applied in order; stops at the first bad one."""

    events: list[EventIn] = Field(min_length=1, max_length=1000)


class GameFile(GameIn):
    """A recorded game as JSON (``turnir robot replay GAME.json``); ``tournament`` is
    ignored."""

    events: list[EventIn] = Field(default_factory=list)
    evaluations: dict[Literal["first", "second", "unconditional"], float] = Field(
        default_factory=dict,
        description="scripted evaluations in pawns for --engine fake, by check")


def _name(color: chess.Color) -> ColorName:
    return "white" if color == chess.WHITE else "black"


def _color(color: chess.Color | None) -> ColorName | None:
    return None if color is None else _name(color)


class EvaluationOut(BaseModel):
    pawns: float
    centipawns: int
    mate_plies: int | None
    depth: int | None
    nodes: int | None
    source: str
    side: ColorName | None = Field(description="the side the score is from")

    @staticmethod
    def build(evaluation: Evaluation, side: chess.Color | None) -> EvaluationOut:
        return EvaluationOut(pawns=evaluation.pawns, centipawns=evaluation.centipawns,
                             mate_plies=evaluation.mate_plies, depth=evaluation.depth,
                             nodes=evaluation.nodes, source=evaluation.source,
                             side=_color(side))


class FiguresOut(BaseModel):
    white_clock: float
    black_clock: float
    white_mean_lag: float
    black_mean_lag: float
    white_moves: int
    black_moves: int
    laggers: str
    evaluation: EvaluationOut | None
    fen: str


class DecisionOut(BaseModel):
    """A decision as the API and the webhook show it."""

    id: str
    game_id: str
    stage: str | None
    scheduled_at: float | None
    at: float
    verdict: str
    rule: str
    trail: list[str]
    winner: ColorName | None
    result: str | None
    lagger: ColorName | None
    message: str
    figures: FiguresOut

    @staticmethod
    def build(d: Decision) -> DecisionOut:
        f = d.figures
        evaluation = (None if f.evaluation is None
                      else EvaluationOut.build(f.evaluation, f.evaluation_pov))
        return DecisionOut(
            id=d.id, game_id=d.game_id, stage=d.stage.value if d.stage else None,
            scheduled_at=(None if d.scheduled_at_ms is None
                          else ms_to_seconds(d.scheduled_at_ms)),
            at=ms_to_seconds(d.at_ms), verdict=d.verdict.value, rule=d.rule.value,
            trail=[r.value for r in d.trail], winner=_color(d.winner),
            result=d.result.value if d.result else None, lagger=_color(d.lagger),
            message=d.message,
            figures=FiguresOut(
                white_clock=ms_to_seconds(f.white_clock_ms),
                black_clock=ms_to_seconds(f.black_clock_ms),
                white_mean_lag=round(float(f.white_mean_lag_ms) / 1000, 3),
                black_mean_lag=round(float(f.black_mean_lag_ms) / 1000, 3),
                white_moves=f.white_moves, black_moves=f.black_moves,
                laggers=f.lagger_kind.value, evaluation=evaluation, fen=f.fen))


class ScheduleOut(BaseModel):
    first: float
    second: float
    unconditional: float


class GameOut(BaseModel):
    game_id: str
    white: str
    black: str
    time_control: str
    status: Literal["running", "finished"]
    result: str | None
    end_reason: str | None
    fen: str
    plies: int
    white_clock: float
    black_clock: float
    white_mean_lag: float
    black_mean_lag: float
    lag_compensation_off: list[ColorName]
    checks: ScheduleOut
    last_check: str | None
    tournament: LinkOut | None = None

    @staticmethod
    def build(s: GameSnapshot, link: TournamentLink | None = None) -> GameOut:
        return GameOut(
            game_id=s.setup.game_id, white=s.setup.white, black=s.setup.black,
            time_control=s.setup.time_control.label(),
            status="running" if s.end is None else "finished",
            result=s.end.result.value if s.end else None,
            end_reason=s.end.reason.value if s.end else None, fen=s.fen, plies=s.plies,
            white_clock=ms_to_seconds(s.white_clock_ms),
            black_clock=ms_to_seconds(s.black_clock_ms),
            white_mean_lag=round(float(s.white_lag.mean_ms) / 1000, 3),
            black_mean_lag=round(float(s.black_lag.mean_ms) / 1000, 3),
            lag_compensation_off=[_name(c) for c in (chess.WHITE, chess.BLACK)
                                  if c in s.lag_compensation_off],
            checks=ScheduleOut(first=ms_to_seconds(s.schedule.first_ms),
                               second=ms_to_seconds(s.schedule.second_ms),
                               unconditional=ms_to_seconds(s.schedule.unconditional_ms)),
            last_check=s.last_stage.value if s.last_stage else None,
            tournament=LinkOut.build(link))


class PostedOut(BaseModel):
    """The game after an event, and the decision the event caused (A-5 on a flag fall)."""

    game: GameOut
    decisions: list[DecisionOut]


class CheckOutcomeOut(BaseModel):
    game_id: str
    stage: str
    status: str
    decision: DecisionOut | None
    error: str | None


class CheckRunOut(BaseModel):
    at: float
    evaluations: int
    outcomes: list[CheckOutcomeOut]


class OnlineResultOut(BaseModel):
    """What became of a game's end in its tournament."""

    game_id: str
    white: str
    black: str
    tournament: LinkOut | None
    result: str
    reason: str = Field(description="the game's reason in the tournament")
    end_reason: str = Field(description="how the game ended on the board")
    rule: str | None
    end_id: str = Field(description="the decision's id, or <game id>/end")
    state: Literal["no_tournament", "waiting", "applied", "unapplied", "dismissed"]
    problem_code: str | None
    problem: str | None = Field(description="why it was not recorded, or the judge's note")
    ended_at: str
    handled_by: str | None

    @staticmethod
    def build(r: OnlineResult) -> OnlineResultOut:
        return OnlineResultOut(
            game_id=r.game_id, white=r.white, black=r.black, tournament=LinkOut.build(r.link),
            result=r.result.value, reason=r.reason, end_reason=r.end_reason, rule=r.rule,
            end_id=r.end_id, state=r.state,
            problem_code=r.problem_code, problem=r.problem, ended_at=r.ended_at.isoformat(),
            handled_by=r.handled_by)


class WebhookPayload(BaseModel):
    """What the webhook sink POSTs when a decision ends a game."""

    event: Literal["robot.game_decided"] = "robot.game_decided"
    game_id: str
    result: str
    decision: DecisionOut


class ErrorBody(BaseModel):
    code: str
    message: str
    details: list[dict[str, object]] | None = None


class ErrorOut(BaseModel):
    error: ErrorBody

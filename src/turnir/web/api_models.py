"""The REST API's JSON shapes: separate inputs (unknown fields refused) and outputs."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator

from turnir.domain.draft.tables import table_places
from turnir.domain.model import (
    PlayerId,
    Round,
    RulesLevel,
    Settings,
    StaffRole,
    TournamentFormat,
)
from turnir.domain.results import MatchResult, PointsTable, parse_result
from turnir.domain.standings import StandingRow, TieBreak
from turnir.domain.tournament import Tournament
from turnir.formats.tournament_file import PointsModel as PointsIn
from turnir.services.accounts import AccountInfo, AccountRole
from turnir.services.common import TournamentInfo
from turnir.services.queries import StandingsView
from turnir.services.reports import ReportAnswer
from turnir.services.results import RecordedResult
from turnir.web.views import Seat

Name = Annotated[str, Field(min_length=1, max_length=200)]
Short = Annotated[str, Field(max_length=100)]
__all__ = ["PointsIn"]  # the points of a new tournament: the tournament file's model


def utc(moment: datetime) -> datetime:
    """SQLite keeps no zone; every stored time is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def in_utc(info: TournamentInfo) -> TournamentInfo:
    """The tournament as the API answers it: its times in UTC with the zone (SQLite keeps
    none; every stored time is UTC)."""
    return replace(info, created_at=utc(info.created_at),
                   finished_at=None if info.finished_at is None else utc(info.finished_at))


class ErrorOut(BaseModel):
    """Every error: a machine-readable code and a message for a person."""

    code: str
    message: str


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Out(BaseModel):
    """An answer read from the attributes of what a service returned (``model_validate``)."""

    model_config = ConfigDict(from_attributes=True)


class LoginIn(_In):
    login: Annotated[str, Field(min_length=1, max_length=100)]
    password: Annotated[str, Field(min_length=1, max_length=1000)]


class SessionOut(BaseModel):
    token: str
    """Send as ``Authorization: Bearer <token>``."""
    account: AccountInfo


class AccountIn(_In):
    login: Annotated[str, Field(min_length=1, max_length=100)]
    name: Name
    password: Annotated[str, Field(min_length=8, max_length=1000)]
    role: AccountRole = AccountRole.PLAYER
    """A player unless given another role (a player needs ``person_id``)."""
    person_id: Annotated[int | None, Field(ge=1, le=2**31 - 1)] = None


class PasswordIn(_In):
    password: Annotated[str, Field(min_length=8, max_length=1000)]


class TournamentIn(_In):
    name: Name
    format: TournamentFormat = TournamentFormat.SWISS
    rules_level: RulesLevel = RulesLevel.AMATEUR
    points: PointsIn = PointsIn()
    best_of: Literal[1, 3, 5] = 3
    top_best_of: Literal[1, 3, 5] = 3
    swiss_rounds: Annotated[int | None, Field(ge=1, le=50)] = None
    top_size: Annotated[int, Field(ge=0, le=1024)] = 0
    seed: Annotated[int | None, Field(ge=-(2**63), le=2**63 - 1)] = None

    def settings(self) -> Settings:
        p = self.points
        return Settings(points=PointsTable(win=p.win, draw=p.draw, loss=p.loss, bye=p.bye),
                        best_of=self.best_of, top_best_of=self.top_best_of,
                        swiss_rounds=self.swiss_rounds, top_size=self.top_size)


class PlayerIn(_In):
    name: Annotated[str, Field(max_length=200)] = ""
    """The whole name, given name first; or leave it out and give ``surname`` and
    ``given_name`` apart (then the name is "given surname"; lists sort by surname)."""
    surname: Annotated[str, Field(max_length=200)] = ""
    given_name: Annotated[str, Field(max_length=200)] = ""
    city: Short = ""
    club: Short = ""
    byes: Annotated[int, Field(ge=0, le=50)] = 0
    """Before round 1: privilege byes for the first rounds."""
    byes_for_missed_rounds: bool = False
    """A late entry: byes for the rounds already played."""


class PlayerOut(_Out):
    """A participant (``turnir.services.players.PlayerInfo``)."""

    number: int
    name: str
    city: str
    club: str
    granted_byes: list[int]
    joined_round: int
    dropped_after: int | None
    checked_in: bool
    person_id: int | None
    version: int
    surname: str
    """The surname kept apart (read from the name when only the name was given)."""
    given_name: str


class CheckInIn(_In):
    present: bool = True


class DropIn(_In):
    reason: Annotated[str, Field(max_length=500)] = ""


class PairIn(_In):
    drop_absent: bool = False
    """Before round 1: drop the players who did not check in."""
    include_absent: bool = False
    """Before round 1, once check-in has started: pair the players who did not check in too
    (by default they are left out, issue 12 item 6)."""


class TimerIn(_In):
    minutes: Annotated[int, Field(ge=1, le=600)]


class TimerOut(_Out):
    """A round's clock (``turnir.services.round_clock.RoundTimer``)."""

    round: int
    started_at: datetime
    ends_at: datetime
    duration_s: int


class ResultOut(BaseModel):
    """A match result in the form ``MatchResult.to_json`` gives it (the audit log's)."""

    score: str
    wins_a: int
    wins_b: int
    draws: int
    outcome: str
    ending: str

    @staticmethod
    def of(result: MatchResult) -> ResultOut:
        return ResultOut.model_validate(result.to_json())


class PairingOut(_Out):
    table: int
    a: int
    b: int | None
    kind: str
    result: ResultOut | None

    @field_validator("result", mode="before")
    @classmethod
    def _result(cls, value: Any) -> Any:
        return value.to_json() if isinstance(value, MatchResult) else value


class RoundOut(_Out):
    """A round with its pairings (the domain's ``Round``)."""

    number: int
    stage: str
    finished: bool
    pairings: list[PairingOut]

    @staticmethod
    def of(rnd: Round) -> RoundOut:
        return RoundOut.model_validate(rnd)


class ResultIn(_In):
    score: Annotated[str, Field(min_length=1, max_length=20, examples=["2-1", "1-1-1", "ID"])]
    correction: bool = False
    """A judge's correction of a result already there (logged, S-6)."""
    expected_version: Annotated[int | None, Field(ge=1, le=2**31 - 1)] = None
    idempotency_key: Annotated[str | None, Field(min_length=1, max_length=200)] = None

    def result(self) -> MatchResult:
        """The score as typed (``parse_result``)."""
        return parse_result(self.score)


class RecordedOut(BaseModel):
    round: int
    table: int
    a: int
    b: int
    result: ResultOut
    status: str
    version: int

    @staticmethod
    def of(done: RecordedResult) -> RecordedOut:
        return RecordedOut(round=done.round, table=done.table, a=done.a, b=done.b,
                           result=ResultOut.of(done.result), status=done.status.value,
                           version=done.version)


class ReportIn(_In):
    mine: Annotated[int, Field(ge=0, le=5)]
    """The reporter's game wins."""
    theirs: Annotated[int, Field(ge=0, le=5)]
    draws: Annotated[int, Field(ge=0, le=5)] = 0


class ReportOut(BaseModel):
    status: str
    """``waiting``, ``recorded``, ``disputed`` or ``unchanged``."""
    round: int
    table: int
    result: ResultOut

    @staticmethod
    def of(answer: ReportAnswer) -> ReportOut:
        return ReportOut(status=answer.status.value, round=answer.round, table=answer.table,
                         result=ResultOut.of(answer.result))


class StandingOut(BaseModel):
    place: int
    player: int
    name: str
    dropped: bool
    points: int
    wins: int
    draws: int
    losses: int
    byes: int
    quality_of_wins: int
    quality_of_losses: int
    quality_of_games: int
    second_order_quality: int
    penalties: dict[str, int]
    lot: int
    decided_by: str | None
    draft_table: int | None = Field(
        default=None, description="the player's draft table (T-8); null without draft tables")
    table_place: int | None = Field(
        default=None, description="the place at his draft table; null without draft tables")

    @staticmethod
    def of(t: Tournament, row: StandingRow,
           draft: dict[PlayerId, tuple[int, int]] | None = None) -> StandingOut:
        p = t.player(row.player)
        pen = row.penalties
        table, place = (draft or {}).get(p.id, (None, None))
        return StandingOut(
            place=row.place, player=p.id, name=p.name, dropped=p.dropped_after is not None,
            points=row.points, wins=row.wins, draws=row.draws, losses=row.losses, byes=row.byes,
            quality_of_wins=row.quality_of_wins, quality_of_losses=row.quality_of_losses,
            quality_of_games=row.quality_of_games,
            second_order_quality=row.second_order_quality,
            penalties={"match_losses": pen.match_losses, "game_losses": pen.game_losses,
                       "penalty_points": pen.penalty_points, "warnings": pen.warnings},
            lot=row.lot, decided_by=row.decided_by.value if row.decided_by else None,
            draft_table=table, table_place=place)


class TiebreakOut(_Out):
    """A tiebreak (the domain's ``TieBreak``: its value is the key)."""

    key: str = Field(validation_alias=AliasChoices("key", "value"))
    rule: str
    name_en: str
    name_ru: str
    explanation_en: str
    explanation_ru: str

    @staticmethod
    def of(tb: TieBreak) -> TiebreakOut:
        return TiebreakOut.model_validate(tb)


class StandingsOut(BaseModel):
    tournament: int
    swiss_rounds_played: int
    tiebreaks: list[TiebreakOut]
    rows: list[StandingOut]

    @staticmethod
    def of(view: StandingsView) -> StandingsOut:
        t = view.tournament
        draft = table_places(t, view.standings) if t.tables else {}
        return StandingsOut(tournament=view.info.id, swiss_rounds_played=len(t.swiss_rounds),
                            tiebreaks=[TiebreakOut.of(tb) for tb in TieBreak],
                            rows=[StandingOut.of(t, row, draft) for row in view.standings.rows])


class PlaceOut(BaseModel):
    place: int
    player: int
    name: str
    draft_table: int | None = Field(
        default=None, description="the player's draft table (T-8); null without draft tables")
    table_place: int | None = Field(
        default=None, description="the place at his draft table in the Swiss standings; null "
                                  "without draft tables")

    @staticmethod
    def places(seats: list[Seat], t: Tournament | None = None) -> list[PlaceOut]:
        """Final places from the first on (with each player's draft table and place at it)."""
        draft = table_places(t, t.standings()) if t is not None and t.tables else {}
        out = []
        for i, s in enumerate(seats, start=1):
            table, place = draft.get(s.number, (None, None))
            out.append(PlaceOut(place=i, player=s.number, name=s.name, draft_table=table,
                                table_place=place))
        return out


class FinishIn(_In):
    early: bool = False


class StaffIn(_In):
    """Give an account a role in the tournament (issue 10 item 1)."""

    login: Annotated[str, Field(min_length=1, max_length=100)]
    role: StaffRole = StaffRole.FLOOR_JUDGE


class StaffOut(_Out):
    """A member of the tournament's staff; ``login`` is the account acting in the role
    (``None``: a judge named for the record, with no web rights)."""

    id: int
    name: str
    role: StaffRole
    login: str | None

"""The REST API's JSON shapes: separate inputs (unknown fields refused) and outputs."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from turnir.domain.model import Pairing
from turnir.domain.results import MatchResult
from turnir.domain.standings import StandingRow
from turnir.domain.tournament import Tournament
from turnir.services.accounts import AccountInfo, AccountRole
from turnir.services.common import RulesLevel, Status, TournamentFormat, TournamentInfo
from turnir.services.judges import JudgeInfo, JudgeRole
from turnir.services.players import PlayerInfo

Name = Annotated[str, Field(min_length=1, max_length=200)]
Short = Annotated[str, Field(max_length=100)]
Count = Annotated[int, Field(ge=0, le=100)]


def utc(moment: datetime | None) -> datetime | None:
    """SQLite keeps no zone; every stored time is UTC."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


class ErrorOut(BaseModel):
    """Every error: a machine-readable code and a message for a person."""

    code: str
    message: str


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LoginIn(_In):
    login: Annotated[str, Field(min_length=1, max_length=100)]
    password: Annotated[str, Field(min_length=1, max_length=1000)]


class AccountOut(BaseModel):
    id: int
    login: str
    name: str
    role: AccountRole
    person_id: int | None
    active: bool
    """A deactivated account cannot log in (``POST /accounts/{login}/activate``)."""

    @staticmethod
    def of(a: AccountInfo) -> AccountOut:
        return AccountOut(id=a.id, login=a.login, name=a.name, role=a.role,
                          person_id=a.person_id, active=a.active)


class SessionOut(BaseModel):
    token: str
    """Send as ``Authorization: Bearer <token>``."""
    account: AccountOut


class AccountIn(_In):
    login: Annotated[str, Field(min_length=1, max_length=100)]
    name: Name
    password: Annotated[str, Field(min_length=8, max_length=1000)]
    role: AccountRole = AccountRole.PLAYER
    """A player unless given another role (a player needs ``person_id``)."""
    person_id: Annotated[int | None, Field(ge=1, le=2**31 - 1)] = None


class PasswordIn(_In):
    password: Annotated[str, Field(min_length=8, max_length=1000)]


class PointsIn(_In):
    win: Count = 3
    draw: Count = 1
    loss: Count = 0
    bye: Count = 3


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


class SettingsOut(BaseModel):
    points: dict[str, int]
    best_of: int
    top_best_of: int
    swiss_rounds: int | None
    top_size: int


class TournamentOut(BaseModel):
    id: int
    name: str
    format: TournamentFormat
    rules_level: RulesLevel
    status: Status
    settings: SettingsOut
    seed: int
    version: int
    created_at: datetime
    finished_at: datetime | None
    players: int
    rounds: int

    @staticmethod
    def of(i: TournamentInfo) -> TournamentOut:
        s = i.settings
        return TournamentOut(
            id=i.id, name=i.name, format=i.format, rules_level=i.rules_level, status=i.status,
            settings=SettingsOut(points={"win": s.points.win, "draw": s.points.draw,
                                         "loss": s.points.loss, "bye": s.points.bye},
                                 best_of=s.best_of, top_best_of=s.top_best_of,
                                 swiss_rounds=s.swiss_rounds, top_size=s.top_size),
            seed=i.seed, version=i.version, created_at=utc(i.created_at) or i.created_at,
            finished_at=utc(i.finished_at), players=i.players, rounds=i.rounds)


class PlayerIn(_In):
    name: Name
    city: Short = ""
    club: Short = ""
    byes: Annotated[int, Field(ge=0, le=50)] = 0
    """Before round 1: privilege byes for the first rounds."""
    byes_for_missed_rounds: bool = False
    """A late entry: byes for the rounds already played."""


class PlayerOut(BaseModel):
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

    @staticmethod
    def of(p: PlayerInfo) -> PlayerOut:
        return PlayerOut(number=p.number, name=p.name, city=p.city, club=p.club,
                         granted_byes=list(p.granted_byes), joined_round=p.joined_round,
                         dropped_after=p.dropped_after, checked_in=p.checked_in,
                         person_id=p.person_id, version=p.version)


class CheckInIn(_In):
    present: bool = True


class DropIn(_In):
    reason: Annotated[str, Field(max_length=500)] = ""


class PairIn(_In):
    drop_absent: bool = False
    """Before round 1: drop the players who did not check in."""


class TimerIn(_In):
    minutes: Annotated[int, Field(ge=1, le=600)]


class TimerOut(BaseModel):
    round: int
    started_at: datetime
    ends_at: datetime
    duration_s: int


class ResultOut(BaseModel):
    score: str
    wins_a: int
    wins_b: int
    draws: int
    outcome: str
    ending: str

    @staticmethod
    def of(r: MatchResult | None) -> ResultOut | None:
        if r is None:
            return None
        return ResultOut(score=r.score, wins_a=r.wins_a, wins_b=r.wins_b, draws=r.draws,
                         outcome=r.outcome.value, ending=r.ending.value)


class PairingOut(BaseModel):
    table: int
    a: int
    b: int | None
    kind: str
    result: ResultOut | None

    @staticmethod
    def of(p: Pairing) -> PairingOut:
        return PairingOut(table=p.table, a=p.a, b=p.b, kind=p.kind.value,
                          result=ResultOut.of(p.result))


class RoundOut(BaseModel):
    number: int
    stage: str
    finished: bool
    pairings: list[PairingOut]


class ResultIn(_In):
    score: Annotated[str, Field(min_length=1, max_length=20, examples=["2-1", "1-1-1", "ID"])]
    correction: bool = False
    """A judge's correction of a result already there (logged, S-6)."""
    expected_version: Annotated[int | None, Field(ge=1, le=2**31 - 1)] = None
    idempotency_key: Annotated[str | None, Field(min_length=1, max_length=200)] = None


class RecordedOut(BaseModel):
    round: int
    table: int
    a: int
    b: int
    result: ResultOut
    status: str
    version: int


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

    @staticmethod
    def of(t: Tournament, row: StandingRow) -> StandingOut:
        p = t.player(row.player)
        pen = row.penalties
        return StandingOut(
            place=row.place, player=p.id, name=p.name, dropped=p.dropped_after is not None,
            points=row.points, wins=row.wins, draws=row.draws, losses=row.losses, byes=row.byes,
            quality_of_wins=row.quality_of_wins, quality_of_losses=row.quality_of_losses,
            quality_of_games=row.quality_of_games,
            second_order_quality=row.second_order_quality,
            penalties={"match_losses": pen.match_losses, "game_losses": pen.game_losses,
                       "penalty_points": pen.penalty_points, "warnings": pen.warnings},
            lot=row.lot, decided_by=row.decided_by.value if row.decided_by else None)


class TiebreakOut(BaseModel):
    key: str
    rule: str
    name_en: str
    name_ru: str
    explanation_en: str
    explanation_ru: str


class StandingsOut(BaseModel):
    tournament: int
    swiss_rounds_played: int
    tiebreaks: list[TiebreakOut]
    rows: list[StandingOut]


class PlaceOut(BaseModel):
    place: int
    player: int
    name: str


class FinishIn(_In):
    early: bool = False


class StaffIn(_In):
    """Give an account a role in the tournament (issue 10 item 1)."""

    login: Annotated[str, Field(min_length=1, max_length=100)]
    role: JudgeRole = JudgeRole.FLOOR_JUDGE


class StaffOut(BaseModel):
    """A member of the tournament's staff; ``login`` is the account acting in the role
    (``None``: a judge named for the record, with no web rights)."""

    id: int
    name: str
    role: JudgeRole
    login: str | None

    @staticmethod
    def of(j: JudgeInfo) -> StaffOut:
        return StaffOut(id=j.id, name=j.name, role=j.role, login=j.login)

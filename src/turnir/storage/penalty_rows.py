"""Rows of the penalty tables and the domain records they hold (``turnir.domain.penalties``).

Like ``repositories``, nothing here commits: the service that calls it owns the transaction.
``recorded_penalty_counts`` is what the standings read (T-6, through ``mappers.load_penalties``);
``without_prizes`` is what the ratings read (J-4, R-4).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, RowMapping, delete, func, insert, select

from turnir.domain.games import GameRecord, Side
from turnir.domain.model import PlayerId, RulesLevel
from turnir.domain.penalties import (
    DEFAULT_CATALOGUE,
    DEFAULT_PENALTY_POINTS,
    Catalogue,
    GivenAt,
    Infraction,
    Judge,
    JudgeRole,
    Moment,
    Penalty,
    PenaltyPoints,
    PenaltyRecord,
    PenaltyStatus,
    ReportedResult,
    Text,
    penalty_counts_by_player,
)
from turnir.domain.results import GameReason, MatchResult
from turnir.domain.standings import PenaltyCounts
from turnir.storage.tables import entries, tournaments
from turnir.storage.tables_penalties import (
    infractions,
    judging_settings,
    penalties,
    reported_results,
)

# ----- judging settings -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class JudgingSettings:
    """A tournament's judging settings (J-5, S-8, T-6)."""

    official: bool
    """An official tournament: a suspended player cannot register (J-5). **Decided** default:
    official from Professional level up."""
    technical_margin: int
    """The crystal difference that gives a technical win (S-8, default 1)."""
    points: PenaltyPoints
    """The penalty-point weights T-6 compares (default: remark 0 … suspension 6)."""
    stored: bool
    """Whether the tournament has changed any setting (a row exists)."""
    version: int
    """The settings row's version (1 before the first change)."""


def default_official(rules_level: str) -> bool:
    return RulesLevel(rules_level).guide_binding


def judging_settings_of(conn: Connection, tournament_id: int,
                        rules_level: str | None = None) -> JudgingSettings:
    """The tournament's judging settings, or the defaults for its rules level."""
    row = conn.execute(
        select(judging_settings).where(judging_settings.c.tournament_id == tournament_id)
    ).mappings().first()
    if row is not None:
        return JudgingSettings(bool(row["official"]), row["technical_margin"],
                               PenaltyPoints.from_list(row["penalty_points"]), True, row["version"])
    if rules_level is None:
        rules_level = conn.execute(
            select(tournaments.c.rules_level).where(tournaments.c.id == tournament_id)
        ).scalar_one()
    return JudgingSettings(default_official(rules_level), 1, DEFAULT_PENALTY_POINTS, False, 1)


# ----- the catalogue ------------------------------------------------------------------------


def infraction_from_row(row: Mapping[Any, Any]) -> Infraction:
    return Infraction(row["code"], Text(row["name_ru"], row["name_en"]),
                      Penalty(row["amateur"]), Penalty(row["professional"]),
                      Penalty(row["highest"]),
                      Text(row["description_ru"], row["description_en"]))


def infraction_columns(infraction: Infraction) -> dict[str, Any]:
    return {"code": infraction.code, "name_ru": infraction.name.ru,
            "name_en": infraction.name.en, "amateur": infraction.amateur.value,
            "professional": infraction.professional.value,
            "highest": infraction.highest.value,
            "description_ru": infraction.description.ru,
            "description_en": infraction.description.en}


def catalogue_rows(conn: Connection, tournament_id: int) -> list[RowMapping]:
    return list(conn.execute(
        select(infractions).where(infractions.c.tournament_id == tournament_id)
        .order_by(infractions.c.position)
    ).mappings())


def load_catalogue(conn: Connection, tournament_id: int) -> Catalogue:
    """The tournament's own catalogue, or the shipped one until the organizer edits it."""
    rows = catalogue_rows(conn, tournament_id)
    if not rows:
        return DEFAULT_CATALOGUE
    return Catalogue(tuple(infraction_from_row(row) for row in rows))


# ----- penalty records ----------------------------------------------------------------------


def judge_of(row: Mapping[Any, Any]) -> Judge | None:
    if row["judge_kind"] is None:
        return None
    return Judge(row["judge_name"], JudgeRole(row["judge_kind"]),
                 official_representative=bool(row["judge_official"]))


def record_from_row(row: Mapping[Any, Any]) -> PenaltyRecord:
    """The domain record of a ``penalties`` row (``id`` is the tournament's ``seq``)."""
    return PenaltyRecord(
        id=row["seq"], player=row["number"], reason=row["reason"],
        penalty=Penalty(row["penalty"]),
        given_at=GivenAt(row["given_round"], Moment(row["moment"]), row["given_game"]),
        guide_penalty=Penalty(row["guide_penalty"]),
        explanation=Text(row["explanation_ru"], row["explanation_en"]),
        judge=judge_of(row), confirmed_by_head_judge=bool(row["confirmed_by_head_judge"]),
        deferred=bool(row["deferred"]), sources=tuple(row["sources"] or ()),
        note=row["note"], status=PenaltyStatus(row["status"]),
    )


@dataclass(frozen=True, slots=True)
class StoredPenalty:
    """A penalty as stored: the domain record and what the store keeps around it."""

    row_id: int
    record: PenaltyRecord
    reason_name: Text
    """The reason's name when the penalty was given (the catalogue may change later)."""
    judge_name: str
    confirmed_by: str
    """The head judge who confirmed a deviation ('' if none was needed)."""
    applied_round: int | None
    """The round whose result took its loss (J-3); ``None``: none yet, or no loss."""
    given_on: datetime
    version: int

    @property
    def seq(self) -> int:
        return self.record.id

    @property
    def player(self) -> PlayerId:
        return self.record.player


def stored_from_row(row: Mapping[Any, Any]) -> StoredPenalty:
    return StoredPenalty(row["id"], record_from_row(row), Text(row["reason_ru"], row["reason_en"]),
                         row["judge_name"], row["confirmed_by"], row["applied_round"],
                         row["created_at"], row["version"])


def stored_penalties(conn: Connection, tournament_id: int,
                     players: Iterable[PlayerId] | None = None) -> list[StoredPenalty]:
    """The tournament's penalties (of ``players`` only, when given), in ``seq`` order."""
    return [stored_from_row(row) for row in penalty_rows(conn, tournament_id, players)]


def stored_penalty(conn: Connection, tournament_id: int, seq: int) -> StoredPenalty | None:
    row = penalty_row(conn, tournament_id, seq)
    return None if row is None else stored_from_row(row)


def penalty_records(conn: Connection, tournament_id: int) -> list[PenaltyRecord]:
    """The domain records of every penalty of the tournament, in ``seq`` order."""
    return [record_from_row(row) for row in penalty_rows(conn, tournament_id)]


def penalty_rows(conn: Connection, tournament_id: int,
                 players: Iterable[PlayerId] | None = None) -> list[RowMapping]:
    """The tournament's penalty rows (of ``players`` only, when given), in ``seq`` order."""
    query = select(penalties).where(penalties.c.tournament_id == tournament_id)
    if players is not None:
        query = query.where(penalties.c.number.in_(sorted(set(players))))
    return list(conn.execute(query.order_by(penalties.c.seq)).mappings())


def penalty_row(conn: Connection, tournament_id: int, seq: int) -> RowMapping | None:
    return conn.execute(
        select(penalties).where(penalties.c.tournament_id == tournament_id,
                                penalties.c.seq == seq)
    ).mappings().first()


def next_seq(conn: Connection, tournament_id: int) -> int:
    found = conn.execute(
        select(func.max(penalties.c.seq)).where(penalties.c.tournament_id == tournament_id)
    ).scalar()
    return int(found or 0) + 1


def record_columns(record: PenaltyRecord) -> dict[str, Any]:
    """The columns a domain record sets (everything but ids, names and bookkeeping)."""
    judge = record.judge
    return {
        "seq": record.id, "number": record.player, "reason": record.reason,
        "penalty": record.penalty.value, "guide_penalty": record.guide_penalty.value,
        "given_round": record.given_at.round, "moment": record.given_at.moment.value,
        "given_game": record.given_at.game, "explanation_ru": record.explanation.ru,
        "explanation_en": record.explanation.en,
        "judge_name": "" if judge is None else judge.name,
        "judge_kind": None if judge is None else judge.role.value,
        "judge_official": False if judge is None else judge.official_representative,
        "confirmed_by_head_judge": record.confirmed_by_head_judge,
        "deferred": record.deferred, "sources": list(record.sources), "note": record.note,
        "status": record.status.value,
    }


def insert_penalty(conn: Connection, tournament_id: int, record: PenaltyRecord, *,
                   reason_name: Text, judge_id: int | None, confirmed_by: str, at: datetime,
                   actor: str) -> int:
    """Store a new penalty; returns its row id."""
    return int(conn.execute(insert(penalties).values(
        tournament_id=tournament_id, reason_ru=reason_name.ru, reason_en=reason_name.en,
        judge_id=judge_id, confirmed_by=confirmed_by, applied_round=None, version=1,
        created_at=at, created_by=actor, **record_columns(record),
    ).returning(penalties.c.id)).scalar_one())


def record_json(record: PenaltyRecord, *, applied_round: int | None = None) -> dict[str, Any]:
    """A penalty for the audit log."""
    columns = record_columns(record)
    columns.pop("explanation_ru")
    return {**columns, "explanation": record.explanation.en, "applied_round": applied_round}


# ----- T-6 and J-4 read by other modules ----------------------------------------------------


def add_counts(first: PenaltyCounts, second: PenaltyCounts) -> PenaltyCounts:
    return PenaltyCounts(first.match_losses + second.match_losses,
                         first.game_losses + second.game_losses,
                         first.penalty_points + second.penalty_points,
                         first.warnings + second.warnings)


def recorded_penalty_counts(conn: Connection, tournament_id: int) -> dict[PlayerId, PenaltyCounts]:
    """T-6 counts of the penalties recorded in the tournament (withdrawn ones count nothing)."""
    rows = penalty_rows(conn, tournament_id)
    if not rows:
        return {}
    settings = judging_settings_of(conn, tournament_id)
    return penalty_counts_by_player((record_from_row(r) for r in rows), points=settings.points)


def combine_counts(imported: Mapping[PlayerId, PenaltyCounts],
                   recorded: Mapping[PlayerId, PenaltyCounts]) -> dict[PlayerId, PenaltyCounts]:
    """**Decided**: the imported counts (a tournament file's) and the recorded penalties add up,
    field by field."""
    combined = dict(imported)
    for player, counts in recorded.items():
        combined[player] = add_counts(combined.get(player, PenaltyCounts()), counts)
    return combined


def without_prizes(conn: Connection, tournament_id: int) -> dict[PlayerId, int | None]:
    """Players disqualified without prizes (J-4), by number, with their person id: the flag the
    ratings read (R-4) and the report names."""
    rows = conn.execute(
        select(penalties.c.number, entries.c.person_id)
        .join(entries, (entries.c.tournament_id == penalties.c.tournament_id)
              & (entries.c.number == penalties.c.number))
        .where(penalties.c.tournament_id == tournament_id,
               penalties.c.status == PenaltyStatus.ACTIVE.value,
               penalties.c.penalty.in_([Penalty.DISQUALIFICATION_WITHOUT_PRIZES.value,
                                        Penalty.SUSPENSION.value]))
        .order_by(penalties.c.number)
    )
    return {number: person for number, person in rows}


# ----- the result as reported at the table (J-3) --------------------------------------------


Report = ReportedResult
"""The old name of ``ReportedResult`` (``services.penalty_losses`` still imports it)."""


def games_json(games: Sequence[GameRecord]) -> list[list[str | None]]:
    return [[None if g.winner is None else g.winner.value, g.reason.value] for g in games]


def games_from_json(data: Sequence[Sequence[str | None]]) -> tuple[GameRecord, ...]:
    return tuple(GameRecord(None if w is None else Side(w), GameReason(str(r))) for w, r in data)


def stored_report(conn: Connection, pairing_id: int) -> ReportedResult | None:
    row = conn.execute(
        select(reported_results).where(reported_results.c.pairing_id == pairing_id)
    ).mappings().first()
    if row is None:
        return None
    result = MatchResult.from_columns(row)
    games = None if row["games"] is None else games_from_json(row["games"]["games"])
    return ReportedResult(result, games)


def store_report(conn: Connection, pairing_id: int, report: ReportedResult | None) -> None:
    """Keep (or, with ``None``, forget) the reported result of a pairing."""
    conn.execute(delete(reported_results).where(reported_results.c.pairing_id == pairing_id))
    if report is None:
        return
    conn.execute(insert(reported_results).values(
        pairing_id=pairing_id, **report.result.to_columns(),
        games=None if report.games is None else {"games": games_json(report.games)},
    ))

"""The penalty services' queries and writes (issue 11: storage owns all SQL).

Every statement the penalty, appeal, catalogue, suspension, ruling and judging services
(``turnir.services.penalt*``, ``suspensions``, ``game_rulings``, ``judging``) run is here, as
a plain function taking the transaction first. Nothing here commits: the service that calls it
owns the transaction (``services.common.changing``/``reading``). The penalty records themselves
(rows ↔ ``PenaltyRecord``, the catalogue, the judging settings, the reported results) are in
``turnir.storage.penalty_rows``.

The register entries (``SuspensionView``), the game rulings (``GameRulingView``) and the
appeals (``AppealView``) come out as the values the services return (and re-export), so no
service picks columns out of a row.

A write guarded by a version (``update_penalty``, ``update_judging_settings``,
``set_suspension_until``) returns whether the row was still at that version; the service says
what to do when it was not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import ColumnElement, RowMapping, Table, delete, insert, or_, select, update

from turnir.domain.games import Side
from turnir.domain.model import Pairing, PairingKind, Stage
from turnir.domain.penalties import (
    AppealOutcome,
    Catalogue,
    ClaimKind,
    Penalty,
    PenaltyRecord,
    PenaltyStatus,
    RulingKind,
    Text,
)
from turnir.domain.results import GameReason
from turnir.storage.database import Tx
from turnir.storage.mappers import name_key, pairing_from_row
from turnir.storage.penalty_rows import (
    StoredPenalty,
    catalogue_rows,
    infraction_columns,
    record_from_row,
)
from turnir.storage.tables import (
    entries,
    games,
    judges,
    pairings,
    people,
    rounds,
    stages,
    tournaments,
)
from turnir.storage.tables_penalties import (
    appeals,
    game_rulings,
    infractions,
    judging_settings,
    penalties,
    suspensions,
)

# ----- players and people -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EntryLine:
    """A player of a tournament as the penalty report names them."""

    number: int
    name: str
    person_id: int | None
    dropped_after: int | None


def entry_lines(tx: Tx, tournament_id: int) -> dict[int, EntryLine]:
    """The tournament's players by number."""
    return {number: EntryLine(number, name, person, dropped)
            for number, name, person, dropped in tx.execute(
                select(entries.c.number, entries.c.name, entries.c.person_id,
                       entries.c.dropped_after)
                .where(entries.c.tournament_id == tournament_id))}


def player_names(tx: Tx, tournament_id: int) -> dict[int, str]:
    """The tournament's players' names by number."""
    return {number: name for number, name in tx.execute(
        select(entries.c.number, entries.c.name).where(entries.c.tournament_id == tournament_id))}


def player_name(tx: Tx, tournament_id: int, number: int) -> str:
    """One player's name (``'None'`` for a number the tournament does not have)."""
    name = tx.execute(select(entries.c.name).where(
        entries.c.tournament_id == tournament_id, entries.c.number == number)).scalar()
    return str(name)


@dataclass(frozen=True, slots=True)
class PersonEntry:
    """One tournament a person played in."""

    tournament_id: int
    number: int
    name: str
    tournament: str


def person_entries(tx: Tx, person_id: int) -> list[PersonEntry]:
    """Every tournament entry of a person, by tournament id."""
    return [PersonEntry(tid, number, name, tournament) for tid, number, name, tournament in
            tx.execute(
                select(entries.c.tournament_id, entries.c.number, entries.c.name,
                       tournaments.c.name.label("tournament"))
                .join(tournaments, tournaments.c.id == entries.c.tournament_id)
                .where(entries.c.person_id == person_id).order_by(entries.c.tournament_id))]


# ----- judges -------------------------------------------------------------------------------


def judges_named(tx: Tx, tournament_id: int, name: str) -> list[RowMapping]:
    """The tournament's staff rows with this name (every role it has)."""
    return list(tx.execute(select(judges).where(
        judges.c.tournament_id == tournament_id, judges.c.name_key == name_key(name)
    )).mappings())


def staff_with_role(tx: Tx, tournament_id: int, role: str) -> RowMapping | None:
    """The first staff row of the tournament with ``role`` (e.g. its head judge)."""
    return tx.execute(select(judges).where(judges.c.tournament_id == tournament_id,
                                           judges.c.role == role)).mappings().first()


def staff_names(tx: Tx, tournament_id: int) -> list[tuple[str, str]]:
    """(name, role) of every staff row of the tournament, in the order they were added."""
    return [(name, role) for name, role in tx.execute(
        select(judges.c.name, judges.c.role).where(judges.c.tournament_id == tournament_id)
        .order_by(judges.c.id))]


# ----- a player's matches -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """One of a player's lines (a match or a bye) in a round."""

    pairing_id: int
    round: int
    """The round's number."""
    stage: Stage
    pairing: Pairing
    """The line itself, with its result when it has one."""

    @property
    def is_match(self) -> bool:
        return self.pairing.kind is PairingKind.MATCH

    @property
    def table(self) -> int:
        return self.pairing.table


def player_lines(tx: Tx, tournament_id: int, number: int, *,
                 from_round: int = 1) -> list[PlayerLine]:
    """The player's lines (matches and byes) from round ``from_round`` on, in round order."""
    return [PlayerLine(row["id"], row["round"], Stage(row["stage"]), pairing_from_row(row))
            for row in tx.execute(
        select(pairings, rounds.c.number.label("round"), stages.c.kind.label("stage"))
        .join(rounds, rounds.c.id == pairings.c.round_id)
        .join(stages, stages.c.id == rounds.c.stage_id)
        .where(pairings.c.tournament_id == tournament_id,
               or_(pairings.c.a == number, pairings.c.b == number),
               rounds.c.number >= from_round)
        .order_by(rounds.c.number)
    ).mappings()]


def games_of(tx: Tx, pairing_id: int) -> list[tuple[Side | None, GameReason]]:
    """(winner, reason) of each game recorded for a pairing, in order."""
    return [(None if winner is None else Side(winner), GameReason(reason))
            for winner, reason in tx.execute(
        select(games.c.winner, games.c.reason).where(games.c.pairing_id == pairing_id)
        .order_by(games.c.number))]


# ----- penalties ----------------------------------------------------------------------------

_MATCH_LOSSES = [p.value for p in Penalty if p >= Penalty.MATCH_LOSS]


def waiting_match_losses(tx: Tx, tournament_id: int) -> list[PenaltyRecord]:
    """Active penalties with a match loss (or more) that no result has taken yet, by seq."""
    return [record_from_row(row) for row in tx.execute(
        select(penalties).where(penalties.c.tournament_id == tournament_id,
                                penalties.c.status == PenaltyStatus.ACTIVE.value,
                                penalties.c.applied_round.is_(None),
                                penalties.c.penalty.in_(_MATCH_LOSSES))
        .order_by(penalties.c.seq)
    ).mappings()]


def update_penalty(tx: Tx, stored: StoredPenalty, record: PenaltyRecord, *,
                   confirmed_by: str | None = None) -> bool:
    """Store ``record``'s penalty, status, explanation and confirmation over ``stored`` (and
    ``confirmed_by`` when given), one version up; ``False`` when the row changed meanwhile."""
    values: dict[str, Any] = {
        "penalty": record.penalty.value, "status": record.status.value,
        "explanation_ru": record.explanation.ru[:2000],
        "explanation_en": record.explanation.en[:2000],
        "confirmed_by_head_judge": record.confirmed_by_head_judge,
        "version": stored.version + 1,
    }
    if confirmed_by is not None:
        values["confirmed_by"] = confirmed_by
    return _at_version(tx, penalties.c.id == stored.row_id, penalties, stored.version, values)


def _at_version(tx: Tx, which: ColumnElement[bool], table: Table, version: int,
                values: Mapping[str, Any]) -> bool:
    """Update the row ``which`` of ``table`` only while it is at ``version``; whether it was."""
    done = tx.execute(update(table).where(which, table.c.version == version).values(**values))
    return done.rowcount == 1


@dataclass(frozen=True, slots=True)
class AppealView:
    """An appeal decided by the head judge (J-8)."""

    id: int
    penalty_seq: int
    player: int
    player_name: str
    outcome: AppealOutcome
    decided_by: str
    before: Penalty
    changed_to: Penalty | None
    note: str
    at: datetime

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "penalty": self.penalty_seq, "player": self.player,
                "player_name": self.player_name, "outcome": self.outcome.value,
                "decided_by": self.decided_by, "before": self.before.value,
                "changed_to": None if self.changed_to is None else self.changed_to.value,
                "note": self.note, "at": self.at.isoformat()}


def appeal_views(tx: Tx, tournament_id: int) -> list[AppealView]:
    """The tournament's appeals, oldest first."""
    names = player_names(tx, tournament_id)
    rows = tx.execute(
        select(appeals, penalties.c.seq, penalties.c.number)
        .join(penalties, penalties.c.id == appeals.c.penalty_id)
        .where(appeals.c.tournament_id == tournament_id).order_by(appeals.c.id)
    ).mappings()
    return [AppealView(r["id"], r["seq"], r["number"], names.get(r["number"], "?"),
                       AppealOutcome(r["outcome"]), r["decided_by"], Penalty(r["before_penalty"]),
                       None if r["changed_to"] is None else Penalty(r["changed_to"]), r["note"],
                       r["at"]) for r in rows]


def insert_appeal(tx: Tx, **values: Any) -> int:
    """Store an appeal's decision; returns its id."""
    return int(tx.execute(insert(appeals).values(**values).returning(appeals.c.id)).scalar_one())


# ----- the catalogue and the judging settings -----------------------------------------------


def catalogue_customised(tx: Tx, tournament_id: int) -> bool:
    """Whether the tournament has its own catalogue (otherwise it uses the shipped one)."""
    return bool(catalogue_rows(tx, tournament_id))


def store_catalogue(tx: Tx, tournament_id: int, before: Catalogue, after: Catalogue) -> None:
    """Store the tournament's catalogue changed from ``before`` to ``after``: new infractions
    inserted, changed or moved ones updated (one version up), removed ones deleted."""
    old = {e.code: e for e in before}
    rows = {r["code"]: r for r in catalogue_rows(tx, tournament_id)}
    for position, entry in enumerate(after, start=1):
        stored = rows.get(entry.code)
        if stored is None:
            tx.execute(insert(infractions).values(tournament_id=tournament_id,
                                                  position=position, version=1,
                                                  **infraction_columns(entry)))
        elif old.get(entry.code) != entry or stored["position"] != position:
            tx.execute(update(infractions).where(infractions.c.id == stored["id"]).values(
                position=position, version=stored["version"] + 1, **infraction_columns(entry)))
    for code, row in rows.items():
        if code not in after:
            tx.execute(delete(infractions).where(infractions.c.id == row["id"]))


def update_judging_settings(tx: Tx, tournament_id: int, version: int,
                            values: Mapping[str, Any]) -> bool:
    """Change the settings row still at ``version``; ``False`` when it changed meanwhile."""
    return _at_version(tx, judging_settings.c.tournament_id == tournament_id, judging_settings,
                       version, values)


def insert_judging_settings(tx: Tx, tournament_id: int, values: Mapping[str, Any]) -> None:
    tx.execute(insert(judging_settings).values(tournament_id=tournament_id, **values))


# ----- the suspension register --------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SuspensionView:
    """One entry of the register."""

    id: int
    person_id: int
    person_name: str
    start: date
    until: date | None
    """The last day; ``None`` until the coordinator sets the term."""
    reason: Text
    issued_by: str
    tournament_id: int | None
    tournament: str
    penalty_seq: int | None
    version: int

    def covers(self, day: date) -> bool:
        return self.start <= day and (self.until is None or day <= self.until)

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "person_id": self.person_id, "person": self.person_name,
                "start": self.start.isoformat(),
                "until": None if self.until is None else self.until.isoformat(),
                "reason": {"ru": self.reason.ru, "en": self.reason.en},
                "issued_by": self.issued_by, "tournament_id": self.tournament_id,
                "tournament": self.tournament, "penalty": self.penalty_seq,
                "version": self.version}


def _suspension(row: Mapping[Any, Any]) -> SuspensionView:
    return SuspensionView(row["id"], row["person_id"], row["person_name"], row["start"],
                          row["until"], Text(row["reason_ru"], row["reason_en"]),
                          row["issued_by"], row["tournament_id"], row["tournament_name"] or "",
                          row["penalty_seq"], row["version"])


_SUSPENSIONS = (
    select(suspensions, people.c.name.label("person_name"),
           tournaments.c.name.label("tournament_name"), penalties.c.seq.label("penalty_seq"))
    .join(people, people.c.id == suspensions.c.person_id)
    .outerjoin(tournaments, tournaments.c.id == suspensions.c.tournament_id)
    .outerjoin(penalties, penalties.c.id == suspensions.c.penalty_id)
)
"""Register entries with the person's name, the tournament's name and the penalty's seq."""


def suspension(tx: Tx, suspension_id: int) -> SuspensionView | None:
    row = tx.execute(_SUSPENSIONS.where(suspensions.c.id == suspension_id)).mappings().first()
    return None if row is None else _suspension(row)


def suspension_register(tx: Tx, *, person_id: int | None = None) -> list[SuspensionView]:
    """The register (one person's entries when given), by start and id."""
    query = _SUSPENSIONS.order_by(suspensions.c.start, suspensions.c.id)
    if person_id is not None:
        query = query.where(suspensions.c.person_id == person_id)
    return [_suspension(row) for row in tx.execute(query).mappings()]


def suspensions_given_in(tx: Tx, tournament_id: int) -> list[SuspensionView]:
    """The register entries given at one tournament, by id."""
    return [_suspension(row) for row in tx.execute(
        _SUSPENSIONS.where(suspensions.c.tournament_id == tournament_id)
        .order_by(suspensions.c.id)).mappings()]


def insert_suspension(tx: Tx, **values: Any) -> int:
    """Enter a suspension in the register (version 1); returns its id."""
    return int(tx.execute(insert(suspensions).values(version=1, **values)
                          .returning(suspensions.c.id)).scalar_one())


def set_suspension_until(tx: Tx, suspension_id: int, version: int, until: date | None) -> bool:
    """Set the last day of an entry still at ``version``; ``False`` when it changed meanwhile."""
    return _at_version(tx, suspensions.c.id == suspension_id, suspensions, version,
                       {"until": until, "version": version + 1})


# ----- game rulings (S-8, S-9) --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameRulingView:
    """A judge's ruling on one game (S-8, S-9)."""

    id: int
    round: int
    table: int
    game: int
    """The game's number among the games played at the table."""
    kind: RulingKind
    crystals: tuple[int, int] | None
    margin: int | None
    claim: ClaimKind | None
    claimant: Side | None
    granted: bool | None
    winner: Side | None
    reason: GameReason | None
    """The game's reason when the ruling decided it."""
    judge: str
    explanation: Text
    note: str
    at: datetime

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "round": self.round, "table": self.table, "game": self.game,
                "kind": self.kind.value, "crystals": None if self.crystals is None
                else list(self.crystals), "margin": self.margin,
                "claim": None if self.claim is None else self.claim.value,
                "claimant": None if self.claimant is None else self.claimant.value,
                "granted": self.granted,
                "winner": None if self.winner is None else self.winner.value,
                "reason": None if self.reason is None else self.reason.value,
                "judge": self.judge,
                "explanation": {"ru": self.explanation.ru, "en": self.explanation.en},
                "note": self.note, "at": self.at.isoformat()}


def _ruling(row: Mapping[Any, Any]) -> GameRulingView:
    crystals = (None if row["crystals_a"] is None
                else (int(row["crystals_a"]), int(row["crystals_b"])))
    return GameRulingView(
        id=row["id"], round=row["round"], table=row["table_no"], game=row["game"],
        kind=RulingKind(row["kind"]), crystals=crystals, margin=row["margin"],
        claim=None if row["claim"] is None else ClaimKind(row["claim"]),
        claimant=None if row["claimant"] is None else Side(row["claimant"]),
        granted=row["granted"], winner=None if row["winner"] is None else Side(row["winner"]),
        reason=None if row["reason"] is None else GameReason(row["reason"]),
        judge=row["judge_name"], explanation=Text(row["explanation_ru"], row["explanation_en"]),
        note=row["note"], at=row["at"],
    )


def ruling_views(tx: Tx, tournament_id: int) -> list[GameRulingView]:
    """The tournament's game rulings, oldest first."""
    return [_ruling(row) for row in tx.execute(
        select(game_rulings).where(game_rulings.c.tournament_id == tournament_id)
        .order_by(game_rulings.c.id)).mappings()]


def insert_ruling(tx: Tx, **values: Any) -> GameRulingView:
    """Store a game ruling; returns it as stored."""
    ruling_id = tx.execute(insert(game_rulings).values(**values)
                           .returning(game_rulings.c.id)).scalar_one()
    return _ruling(tx.execute(select(game_rulings).where(game_rulings.c.id == ruling_id))
                   .mappings().one())

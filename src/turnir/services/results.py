"""Recording and correcting match results (S-1..S-6): the hot path of a live tournament.

A result is recorded without loading the tournament: lock it, fetch the one pairing (and the
settings), let the domain decide (``check_result_change``: a possible result for the match,
S-2/S-3; a different result only as a correction, S-6; no correction once a later round
exists), update the row on its version, append the audit record, commit.

The players' pending penalty losses (J-3) are applied to the reported result on the way in,
and the end of the match adds up penalties (J-6): ``services.penalty_losses``.

Safe to repeat: the same result again changes nothing (``ResultStatus.UNCHANGED``), and a
request sent with an idempotency key is answered once. A correction is a new logged event
(``result.correct`` with the result before and after); standings recompute from it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from sqlalchemy import (
    Connection,
    and_,
    bindparam,
    delete,
    func,
    insert,
    select,
    update,
)

from turnir.domain.model import Stage
from turnir.domain.penalties import GameRecord
from turnir.domain.penalties import Side as GameSide
from turnir.domain.results import GameReason, MatchEnding, MatchOutcome, MatchResult
from turnir.domain.tournament import check_result_change
from turnir.errors import ConflictError, NotFoundError, UserError
from turnir.services.common import check_actor, refuse_when_finished, utc_now
from turnir.services.judges import ANY_STAFF, check_staff
from turnir.services.penalty_losses import apply_penalty_losses, settle_penalty_losses
from turnir.storage.audit import append_entry
from turnir.storage.database import Database
from turnir.storage.direct import DirectStatement
from turnir.storage.mappers import (
    pairing_from_row,
    result_columns,
    result_json,
    settings_from_row,
)
from turnir.storage.repositories import (
    check_version,
    stale_version,
    store_answer,
    stored_answer,
)
from turnir.storage.tables import games, pairings, rounds, stages, tournaments

Side = Literal["a", "b"]


@dataclass(frozen=True, slots=True)
class GameReport:
    """One game of a match as reported (S-1): who won (``None``: a drawn game) and why."""

    winner: Side | None
    reason: GameReason = GameReason.UNSPECIFIED

    def as_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason.value}

    @property
    def record(self) -> GameRecord:
        """The domain's game record (refuses a reason that does not fit the winner)."""
        return GameRecord(None if self.winner is None else GameSide(self.winner), self.reason)

    @staticmethod
    def of(record: GameRecord) -> GameReport:
        side: Side | None = None
        if record.winner is not None:
            side = "a" if record.winner is GameSide.A else "b"
        return GameReport(side, record.reason)


class ResultStatus(StrEnum):
    RECORDED = "recorded"
    """The first result at this table."""
    CORRECTED = "corrected"
    """A judge's correction of an earlier result (S-6)."""
    UNCHANGED = "unchanged"
    """The same result was already there: nothing changed."""


@dataclass(frozen=True, slots=True)
class RecordedResult:
    round: int
    table: int
    a: int
    b: int
    result: MatchResult
    status: ResultStatus
    version: int
    """The pairing's version now; pass it as ``expected_version`` to correct it safely."""

    def as_json(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "a": self.a, "b": self.b,
                "result": result_columns(self.result), "status": self.status.value,
                "version": self.version}

    @staticmethod
    def from_json(data: dict[str, Any]) -> RecordedResult:
        r = data["result"]
        result = MatchResult(r["wins_a"], r["wins_b"], r["draws"], MatchOutcome(r["outcome"]),
                             MatchEnding(r["ending"]))
        return RecordedResult(data["round"], data["table"], data["a"], data["b"], result,
                              ResultStatus(data["status"]), data["version"])


def _check_games(result: MatchResult, reported: Sequence[GameReport]) -> None:
    wins_a = sum(1 for g in reported if g.winner == "a")
    wins_b = sum(1 for g in reported if g.winner == "b")
    draws = sum(1 for g in reported if g.winner is None)
    if (wins_a, wins_b, draws) != (result.wins_a, result.wins_b, result.draws):
        raise UserError(
            f"the games reported ({wins_a}-{wins_b}-{draws}) do not add up to {result.score}",
            code="bad_games",
        )


def _stored_games(conn: Connection, pairing_id: int) -> list[GameReport]:
    return [
        GameReport(winner, GameReason(reason))
        for winner, reason in conn.execute(
            select(games.c.winner, games.c.reason).where(games.c.pairing_id == pairing_id)
            .order_by(games.c.number)
        )
    ]


_LAST_ROUND = rounds.alias("later")
_SLOT_COLUMNS = (
    tournaments.c.status, tournaments.c.name, tournaments.c.points_win,
    tournaments.c.points_draw, tournaments.c.points_loss, tournaments.c.points_bye,
    tournaments.c.best_of, tournaments.c.top_best_of, tournaments.c.swiss_rounds,
    tournaments.c.top_size, rounds.c.id.label("round_id"), stages.c.kind.label("stage"),
    pairings.c.id.label("pairing_id"), pairings.c.table_no, pairings.c.a, pairings.c.b,
    pairings.c.kind, pairings.c.wins_a, pairings.c.wins_b, pairings.c.draws,
    pairings.c.outcome, pairings.c.ending, pairings.c.version,
    select(func.max(_LAST_ROUND.c.number))
    .where(_LAST_ROUND.c.tournament_id == tournaments.c.id)
    .scalar_subquery().label("last_round"),
)
_SLOT = (
    select(*_SLOT_COLUMNS)
    .select_from(tournaments)
    .outerjoin(rounds, and_(rounds.c.tournament_id == tournaments.c.id,
                            rounds.c.number == bindparam("round_number")))
    .outerjoin(stages, stages.c.id == rounds.c.stage_id)
    .outerjoin(pairings, and_(pairings.c.round_id == rounds.c.id,
                              pairings.c.table_no == bindparam("table_no"),
                              pairings.c.kind == "match"))
    .where(tournaments.c.id == bindparam("tournament_id"))
)
"""Everything one result needs in one statement: the settings, the round, the pairing."""
_SLOT_KEYS = tuple(column.key for column in _SLOT.selected_columns)
_READ_SLOT = DirectStatement(_SLOT)
_LOCK = DirectStatement(
    select(tournaments.c.id).where(tournaments.c.id == bindparam("tournament_id"))
    .with_for_update()
)
"""The tournament's write lock on PostgreSQL. It is a statement of its own: a ``FOR UPDATE``
that waited returns the locked row fresh but the rows joined to it from the statement's older
snapshot, so the slot is read only once the lock is held."""
_UPDATE_RESULT = DirectStatement(
    update(pairings)
    .where(pairings.c.id == bindparam("pairing_id"),
           pairings.c.version == bindparam("old_version"))
    .values(version=bindparam("new_version"), updated_by=bindparam("actor"),
            updated_at=bindparam("at"), wins_a=bindparam("new_wins_a"),
            wins_b=bindparam("new_wins_b"), draws=bindparam("new_draws"),
            outcome=bindparam("new_outcome"), ending=bindparam("new_ending"))
)


def record_result(
    db: Database, tournament_id: int, round_number: int, table: int, result: MatchResult, *,
    actor: str, correction: bool = False, expected_version: int | None = None,
    idempotency_key: str | None = None, games_played: Sequence[GameReport] | None = None,
    account_id: int | None = None,
) -> RecordedResult:
    """Record the result at a table, or correct it (``correction=True``, a judge's action).

    ``expected_version``: the pairing's version the change is based on; a stale one is refused
    with the name of who changed it. ``games_played``: the games one by one, when reported.
    ``idempotency_key``: the same key again returns the first answer and changes nothing.
    ``account_id``: the web account recording, which must be on the tournament's staff.
    """
    with db.write() as conn:
        check_staff(conn, tournament_id, account_id, ANY_STAFF, what="record results")
        return record_result_in(
            conn, tournament_id, round_number, table, result, actor=actor,
            correction=correction, expected_version=expected_version,
            idempotency_key=idempotency_key, games_played=games_played)


def record_result_in(
    conn: Connection, tournament_id: int, round_number: int, table: int, result: MatchResult, *,
    actor: str, correction: bool = False, expected_version: int | None = None,
    idempotency_key: str | None = None, games_played: Sequence[GameReport] | None = None,
) -> RecordedResult:
    """``record_result`` inside a write transaction the caller owns (a use case that records a
    result as part of a larger change: the robot's online results, a penalty's match loss, the
    players' two agreeing reports): it takes the tournament's lock itself and never commits, so
    the result, its audit record and its penalty effects commit with the caller's change or
    not at all."""
    if games_played is not None:
        _check_games(result, games_played)
    who = check_actor(actor)
    # The same lock as ``Database.write(lock=…)`` (SQLite: the transaction is BEGIN IMMEDIATE;
    # PostgreSQL: FOR UPDATE on the tournament's row), taken with a prepared statement.
    if conn.dialect.name != "sqlite" and _LOCK.execute(
        conn, {"tournament_id": tournament_id}
    ).fetchone() is None:
        raise NotFoundError(f"no tournament #{tournament_id}", code="unknown_tournament")
    found = _READ_SLOT.execute(
        conn,
        {"tournament_id": tournament_id, "round_number": round_number, "table_no": table},
    ).fetchone()
    if found is None:
        raise NotFoundError(f"no tournament #{tournament_id}", code="unknown_tournament")
    slot = dict(zip(_SLOT_KEYS, found, strict=True))
    request: dict[str, Any] = {}
    if idempotency_key is not None:
        request = {"round": round_number, "table": table, "result": result_columns(result),
                   "correction": correction,
                   "games": (None if games_played is None
                             else [g.as_json() for g in games_played])}
        answered = stored_answer(conn, tournament_id, idempotency_key, "result", request)
        if answered is not None:
            return RecordedResult.from_json(answered)
    recorded = _record(conn, slot, tournament_id, round_number, table, result, who,
                       utc_now(), correction, expected_version, games_played)
    if idempotency_key is not None:
        store_answer(conn, tournament_id, idempotency_key, "result", request,
                     recorded.as_json(), utc_now())
    return recorded


def _record(conn: Connection, slot: Mapping[Any, Any], tournament_id: int, round_number: int,
            table: int, result: MatchResult, actor: str, at: datetime, correction: bool,
            expected_version: int | None,
            games_played: Sequence[GameReport] | None) -> RecordedResult:
    if slot["round_id"] is None:
        raise NotFoundError(f"there is no round {round_number} yet", code="unknown_round")
    if slot["pairing_id"] is None:
        raise NotFoundError(f"round {round_number} has no table {table}", code="unknown_table")
    pairing_id, version = slot["pairing_id"], slot["version"]
    stage = Stage(slot["stage"])
    settings = settings_from_row(slot)
    entity_id = f"{round_number}.{table}"
    current = pairing_from_row(slot)
    assert current.b is not None
    # J-3: the players' pending penalty losses turn the reported result into the one recorded.
    losses = apply_penalty_losses(conn, tournament_id, round_number, pairing_id, current,
                                  stage=stage, settings=settings, result=result,
                                  games=games_played)
    if losses.changed:
        result = losses.result
        games_played = [GameReport.of(g) for g in losses.games or ()]
    old_games = (_stored_games(conn, pairing_id)
                 if games_played is not None or current.result is not None else [])
    games_differ = games_played is not None and list(games_played) != old_games

    same_result = current.result == result
    if same_result and not games_differ:
        # Validated anyway, so that a repeat is judged like the first call.
        check_result_change(current, result, round_number=round_number, stage=stage,
                            settings=settings, last_round=round_number, correction=correction)
        settle_penalty_losses(conn, losses, actor=actor, at=at, match_ended=False)
        return RecordedResult(round_number, table, current.a, current.b, result,
                              ResultStatus.UNCHANGED, version)
    check_version(conn, tournament_id, "pairing", entity_id,
                  f"round {round_number} table {table}", expected_version, version)
    refuse_when_finished(slot)
    last_round = slot["last_round"]
    if same_result:
        # Only the games differ: a correction of the report, under the same rules.
        if not correction:
            raise ConflictError(
                f"round {round_number} table {table} already has the result with other games; "
                "correcting it is a judge's correction",
                code="result_exists",
            )
        if round_number != last_round:
            raise ConflictError(
                f"round {round_number} table {table}: a later round was already paired from "
                "this result; undo that round first",
                code="result_locked",
            )
    else:
        check_result_change(current, result, round_number=round_number, stage=stage,
                            settings=settings, last_round=last_round, correction=correction)
    columns = result_columns(result)
    done = _UPDATE_RESULT.execute(conn, {
        "pairing_id": pairing_id, "old_version": version, "new_version": version + 1,
        "actor": actor, "at": at, **{f"new_{k}": v for k, v in columns.items()},
    })
    if done.rowcount != 1:
        raise stale_version(conn, tournament_id, "pairing", entity_id,
                            f"round {round_number} table {table}", version, version + 1)
    if old_games:
        conn.execute(delete(games).where(games.c.pairing_id == pairing_id))
    if games_played:
        conn.execute(insert(games), [
            {"pairing_id": pairing_id, "number": number, "winner": g.winner,
             "reason": g.reason.value}
            for number, g in enumerate(games_played, start=1)
        ])
    status = ResultStatus.RECORDED if current.result is None else ResultStatus.CORRECTED
    before = None if current.result is None else {
        "result": result_json(current.result), "version": version,
        "games": [g.as_json() for g in old_games],
    }
    append_entry(  # the tournament's lock is held: taken above, or by the caller's change
        conn, tournament_id=tournament_id, at=at, actor=actor,
        action="result.record" if status is ResultStatus.RECORDED else "result.correct",
        entity="pairing", entity_id=entity_id, before=before,
        after={"result": result_json(result), "version": version + 1, "a": current.a,
               "b": current.b, "games": [g.as_json() for g in games_played or ()]},
        chain_locked=True)
    settle_penalty_losses(conn, losses, actor=actor, at=at, match_ended=True)
    return RecordedResult(round_number, table, current.a, current.b, result, status,
                          version + 1)

"""Recording and correcting match results (S-1..S-6): the hot path of a live tournament.

A result is recorded without loading the tournament: lock it, fetch the one pairing (and the
settings), let the domain decide (``check_result_change``: a possible result for the match,
S-2/S-3; a different result only as a correction, S-6; no correction once a later round
exists), update the row on its version, append the audit record, commit.

Safe to repeat: the same result again changes nothing (``ResultStatus.UNCHANGED``), and a
request sent with an idempotency key is answered once. A correction is a new logged event
(``result.correct`` with the result before and after); standings recompute from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from sqlalchemy import Connection, delete, insert, select, update

from turnir.domain.model import Stage
from turnir.domain.results import GameReason, MatchEnding, MatchOutcome, MatchResult
from turnir.domain.tournament import check_result_change
from turnir.errors import ConflictError, UserError
from turnir.services.common import changing, refuse_when_finished
from turnir.storage.database import Database
from turnir.storage.mappers import (
    pairing_from_row,
    result_columns,
    result_json,
    settings_from_row,
    tournament_row,
)
from turnir.storage.repositories import (
    check_version,
    last_round_number,
    match_row,
    round_row,
    stale_version,
    store_answer,
    stored_answer,
)
from turnir.storage.tables import games, pairings

Side = Literal["a", "b"]


@dataclass(frozen=True, slots=True)
class GameReport:
    """One game of a match as reported (S-1): who won (``None``: a drawn game) and why."""

    winner: Side | None
    reason: GameReason = GameReason.UNSPECIFIED

    def as_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason.value}


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


def record_result(
    db: Database, tournament_id: int, round_number: int, table: int, result: MatchResult, *,
    actor: str, correction: bool = False, expected_version: int | None = None,
    idempotency_key: str | None = None, games_played: Sequence[GameReport] | None = None,
) -> RecordedResult:
    """Record the result at a table, or correct it (``correction=True``, a judge's action).

    ``expected_version``: the pairing's version the change is based on; a stale one is refused
    with the name of who changed it. ``games_played``: the games one by one, when reported.
    """
    request = {"round": round_number, "table": table, "result": result_columns(result),
               "correction": correction,
               "games": None if games_played is None else [g.as_json() for g in games_played]}
    if games_played is not None:
        _check_games(result, games_played)
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        if idempotency_key is not None:
            answered = stored_answer(conn, tournament_id, idempotency_key, "result", request)
            if answered is not None:
                return RecordedResult.from_json(answered)
        recorded = _record(conn, tournament_id, round_number, table, result, change.actor,
                           change.at, correction, expected_version, games_played, change.log)
        if idempotency_key is not None:
            store_answer(conn, tournament_id, idempotency_key, "result", request,
                         recorded.as_json(), change.at)
        return recorded


def _record(conn: Connection, tournament_id: int, round_number: int, table: int,
            result: MatchResult, actor: str, at: Any, correction: bool,
            expected_version: int | None, games_played: Sequence[GameReport] | None,
            log: Any) -> RecordedResult:
    t_row = tournament_row(conn, tournament_id)
    rnd = round_row(conn, tournament_id, round_number)
    line = match_row(conn, rnd["id"], round_number, table)
    entity_id = f"{round_number}.{table}"
    current = pairing_from_row(line)
    old_games = (_stored_games(conn, line["id"])
                 if games_played is not None or current.result is not None else [])
    games_differ = games_played is not None and list(games_played) != old_games

    def answer(status: ResultStatus, version: int) -> RecordedResult:
        assert current.b is not None
        return RecordedResult(round_number, table, current.a, current.b, result, status,
                              version)

    same_result = current.result == result
    if same_result and not games_differ:
        # Validate anyway, so that a repeat is judged like the first call.
        check_result_change(current, result, round_number=round_number, stage=Stage(rnd["stage"]),
                            settings=settings_from_row(t_row), last_round=round_number,
                            correction=correction)
        return answer(ResultStatus.UNCHANGED, line["version"])
    check_version(conn, tournament_id, "pairing", entity_id, f"round {round_number} table {table}",
                  expected_version, line["version"])
    refuse_when_finished(t_row)
    last_round = last_round_number(conn, tournament_id)
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
        check_result_change(current, result, round_number=round_number,
                            stage=Stage(rnd["stage"]), settings=settings_from_row(t_row),
                            last_round=last_round, correction=correction)
    done = conn.execute(
        update(pairings)
        .where(pairings.c.id == line["id"], pairings.c.version == line["version"])
        .values(version=line["version"] + 1, updated_by=actor, updated_at=at,
                **result_columns(result))
    )
    if done.rowcount != 1:
        raise stale_version(conn, tournament_id, "pairing", entity_id,
                            f"round {round_number} table {table}", line["version"],
                            line["version"] + 1)
    if old_games:
        conn.execute(delete(games).where(games.c.pairing_id == line["id"]))
    if games_played:
        conn.execute(insert(games), [
            {"pairing_id": line["id"], "number": number, "winner": g.winner,
             "reason": g.reason.value}
            for number, g in enumerate(games_played, start=1)
        ])
    status = ResultStatus.RECORDED if current.result is None else ResultStatus.CORRECTED
    action = "result.record" if status is ResultStatus.RECORDED else "result.correct"
    before = None if current.result is None else {
        "result": result_json(current.result), "version": line["version"],
        "games": [g.as_json() for g in old_games],
    }
    log(tournament_id, action, "pairing", entity_id, before, {
        "result": result_json(result), "version": line["version"] + 1, "a": current.a,
        "b": current.b, "games": [g.as_json() for g in games_played or ()],
    })
    return answer(status, line["version"] + 1)

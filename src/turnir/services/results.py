"""Recording and correcting match results (S-1..S-6): the hot path of a live tournament.

A result is recorded without loading the tournament, in one transaction (``changing``): take
the tournament's lock (``storage.database.lock_tournament``), read the table's slot in one
statement (``storage.results_repo.result_slot``: settings, round, pairing, last round), let
the domain decide (``check_result_change``: a possible result for the match, S-2/S-3; a
different result only as a correction, S-6; no correction once a later round exists), update
the row on its version, append the audit record, commit. Every statement is the repository's;
``MatchResult`` gives the columns and the JSON.

The players' pending penalty losses (J-3) are applied to the reported result on the way in,
and the end of the match adds up penalties (J-6): ``services.penalty_losses``.

Safe to repeat: the same result again changes nothing (``ResultStatus.UNCHANGED``), and a
request sent with an idempotency key is answered once. A correction is a new logged event
(``result.correct`` with the result before and after); standings recompute from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from turnir.domain.games import GameRecord, Side
from turnir.domain.model import Pairing
from turnir.domain.results import MatchResult
from turnir.domain.tournament import check_result_change
from turnir.errors import NotFoundError, UserError
from turnir.services.common import (
    Database,
    Tx,
    changing,
    check_actor,
    now_in,
    refuse_when_finished,
)
from turnir.services.judges import ANY_STAFF, check_staff
from turnir.services.penalty_losses import apply_penalty_losses, settle_penalty_losses
from turnir.storage import results_repo
from turnir.storage.audit import append_entry
from turnir.storage.database import lock_tournament
from turnir.storage.repositories import check_version, stale_version, store_answer, stored_answer
from turnir.storage.results_repo import ResultSlot

__all__ = ["GameReport", "RecordedResult", "ResultStatus", "Side", "found_match",
           "locked_slot", "record_in_slot", "record_result", "record_result_in"]


GameReport = GameRecord
"""A game as reported (S-1) is the domain's game record: who won (``None``: a drawn game) and
why, the reason checked against the winner (``turnir.domain.games``)."""


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
        """The answer kept for an idempotency key."""
        return {"round": self.round, "table": self.table, "a": self.a, "b": self.b,
                "result": self.result.to_columns(), "status": self.status.value,
                "version": self.version}

    @staticmethod
    def from_json(data: dict[str, Any]) -> RecordedResult:
        return RecordedResult(data["round"], data["table"], data["a"], data["b"],
                              MatchResult.from_columns(data["result"]),
                              ResultStatus(data["status"]), data["version"])


@dataclass(frozen=True, slots=True)
class _Recording:
    """One result to record: what was asked, by whom, when."""

    tournament_id: int
    round: int
    table: int
    result: MatchResult
    actor: str
    at: datetime
    correction: bool
    expected_version: int | None
    games: Sequence[GameReport] | None

    @property
    def entity_id(self) -> str:
        return f"{self.round}.{self.table}"

    @property
    def what(self) -> str:
        return f"round {self.round} table {self.table}"


def _check_games(result: MatchResult, reported: Sequence[GameReport]) -> None:
    wins_a = sum(1 for g in reported if g.winner is Side.A)
    wins_b = sum(1 for g in reported if g.winner is Side.B)
    draws = sum(1 for g in reported if g.winner is None)
    if (wins_a, wins_b, draws) != (result.wins_a, result.wins_b, result.draws):
        raise UserError(
            "the games reported ({wins_a}-{wins_b}-{draws}) do not add up to {score}",
            code="bad_games", wins_a=wins_a, wins_b=wins_b, draws=draws, score=result.score,
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
    if games_played is not None:
        _check_games(result, games_played)
    # The lock is taken by the result path itself, right before the slot is read: on SQLite
    # the transaction's BEGIN IMMEDIATE holds it and the slot read finds the tournament.
    with changing(db, tournament_id, actor, lock=False) as change:
        check_staff(change.conn, tournament_id, account_id, ANY_STAFF, what="record results")
        return _record_keyed(change.conn, _Recording(
            tournament_id, round_number, table, result, change.actor, change.at, correction,
            expected_version, games_played), idempotency_key, locked=False)


def record_result_in(
    conn: Tx, tournament_id: int, round_number: int, table: int, result: MatchResult, *,
    actor: str, correction: bool = False, expected_version: int | None = None,
    idempotency_key: str | None = None, games_played: Sequence[GameReport] | None = None,
    locked: bool = False,
) -> RecordedResult:
    """``record_result`` inside a write transaction the caller owns (a use case that records a
    result as part of a larger change: the robot's online results, a penalty's match loss):
    it never commits, so the result, its audit record and its penalty effects commit with the
    caller's change or not at all. ``locked``: the transaction already holds the tournament's
    lock (``changing(db, tournament_id, …)``); otherwise it is taken here."""
    if games_played is not None:
        _check_games(result, games_played)
    return _record_keyed(conn, _Recording(
        tournament_id, round_number, table, result, check_actor(actor), now_in(conn), correction,
        expected_version, games_played), idempotency_key, locked=locked)


def locked_slot(tx: Tx, tournament_id: int, round_number: int, table: int, *,
                locked: bool) -> ResultSlot:
    """The table's slot, read under the tournament's lock (taken here unless ``locked``);
    ``NotFoundError`` when there is no such tournament."""
    if not locked:
        lock_tournament(tx, tournament_id, check=False)
    slot = results_repo.result_slot(tx, tournament_id, round_number, table)
    if slot is None:
        raise NotFoundError("no tournament #{id}", code="unknown_tournament", id=tournament_id)
    return slot


def _record_keyed(tx: Tx, change: _Recording, idempotency_key: str | None, *,
                  locked: bool) -> RecordedResult:
    """Record ``change``; with an idempotency key, answer a repeat with the first answer."""
    slot = locked_slot(tx, change.tournament_id, change.round, change.table, locked=locked)
    if idempotency_key is None:
        return _record_at(tx, slot, change)
    request = {"round": change.round, "table": change.table,
               "result": change.result.to_columns(), "correction": change.correction,
               "games": (None if change.games is None
                         else [g.to_json() for g in change.games])}
    answered = stored_answer(tx, change.tournament_id, idempotency_key, "result", request)
    if answered is not None:
        return RecordedResult.from_json(answered)
    recorded = _record_at(tx, slot, change)
    store_answer(tx, change.tournament_id, idempotency_key, "result", request,
                 recorded.as_json(), change.at)
    return recorded


def found_match(slot: ResultSlot, round_number: int, table: int) -> tuple[int, Pairing]:
    """The pairing id and the match of a slot; ``NotFoundError`` without the round or table."""
    if slot.round_id is None:
        raise NotFoundError("there is no round {round} yet", code="unknown_round",
                            round=round_number)
    if slot.pairing_id is None or slot.pairing is None:
        raise NotFoundError("round {round} has no table {table}", code="unknown_table",
                            round=round_number, table=table)
    return slot.pairing_id, slot.pairing


def record_in_slot(tx: Tx, slot: ResultSlot, tournament_id: int, round_number: int, table: int,
                   result: MatchResult, *, actor: str, at: datetime) -> RecordedResult:
    """Record ``result`` at a slot the caller read under the tournament's lock in its own
    transaction (the players' two agreeing reports: ``services.reports``); not a correction."""
    return _record_at(tx, slot, _Recording(tournament_id, round_number, table, result,
                                           check_actor(actor), at, False, None, None))


def _check_change(slot: ResultSlot, change: _Recording, current: Pairing, result: MatchResult,
                  *, last_round: int, games_differ: bool = False) -> None:
    assert slot.stage is not None
    check_result_change(current, result, round_number=change.round, stage=slot.stage,
                        settings=slot.settings, last_round=last_round,
                        correction=change.correction, games_differ=games_differ)


def _record_at(tx: Tx, slot: ResultSlot, change: _Recording) -> RecordedResult:
    """Record ``change`` at the table of ``slot`` (read under the tournament's lock): the
    players' penalty losses applied (J-3), the S-6 rule checked (``check_result_change``), the
    row updated on its version, its games and the audit record written."""
    pairing_id, current = found_match(slot, change.round, change.table)
    assert current.b is not None and slot.stage is not None
    version = slot.version
    # J-3: the players' pending penalty losses turn the reported result into the one recorded.
    losses = apply_penalty_losses(tx, change.tournament_id, change.round, pairing_id, current,
                                  stage=slot.stage, settings=slot.settings,
                                  result=change.result, games=change.games)
    result, games_played = change.result, change.games
    if losses.changed:
        result = losses.result
        games_played = list(losses.games or ())
    old_games = (results_repo.stored_games(tx, pairing_id)
                 if games_played is not None or current.result is not None else [])
    games_differ = games_played is not None and list(games_played) != old_games
    if current.result == result and not games_differ:
        # Validated anyway, so that a repeat is judged like the first call.
        _check_change(slot, change, current, result, last_round=change.round)
        settle_penalty_losses(tx, losses, actor=change.actor, at=change.at, match_ended=False)
        return RecordedResult(change.round, change.table, current.a, current.b, result,
                              ResultStatus.UNCHANGED, version)
    check_version(tx, change.tournament_id, "pairing", change.entity_id, change.what,
                  change.expected_version, version)
    refuse_when_finished({"status": slot.status, "name": slot.name})
    _check_change(slot, change, current, result, last_round=slot.last_round,
                  games_differ=games_differ)
    if not results_repo.update_result(tx, pairing_id, version, result, actor=change.actor,
                                      at=change.at):
        raise stale_version(tx, change.tournament_id, "pairing", change.entity_id, change.what,
                            version, version + 1)
    new_games = list(games_played or ())
    results_repo.replace_games(tx, pairing_id, new_games, had_games=bool(old_games))
    status = ResultStatus.RECORDED if current.result is None else ResultStatus.CORRECTED
    before = None if current.result is None else {
        "result": current.result.to_json(), "version": version,
        "games": [g.to_json() for g in old_games],
    }
    append_entry(  # the tournament's lock is held: by the caller's change or taken above
        tx, tournament_id=change.tournament_id, at=change.at, actor=change.actor,
        action="result.record" if status is ResultStatus.RECORDED else "result.correct",
        entity="pairing", entity_id=change.entity_id, before=before,
        after={"result": result.to_json(), "version": version + 1, "a": current.a,
               "b": current.b, "games": [g.to_json() for g in new_games]},
        chain_locked=True)
    settle_penalty_losses(tx, losses, actor=change.actor, at=change.at, match_ended=True)
    return RecordedResult(change.round, change.table, current.a, current.b, result, status,
                          version + 1)

"""What a penalty does beyond its record (J-3, J-4, J-5): its loss lands on a result, a
disqualification drops the player, a suspension enters the register.

Used by the penalty services inside their transaction (``services.penalties``):

- ``land``: a new game or match loss (or a changed one) goes to the result it belongs to
  (J-3). When that match is still unreported, a game loss waits for the report (the results
  hook applies it); a match loss decides the match at once (nothing is left to play, and a
  disqualified player has left). When the match already has its result (the penalty was
  entered after the result), the result is recorded again with the loss, as a logged
  correction, as long as no later round was paired from it; otherwise the penalty is refused.
  A bye, an intentional draw or a match decided before the loss's game is passed over (the
  loss waits for the next match, as the domain says).
- ``refresh``: after an appeal or a withdrawal, the result that took the loss is recorded again
  from the players' report; a result a later round was paired from stays (S-6), and the caller
  says so in the penalty's explanation.
- ``decide_waiting_match_losses``: when a round is paired, a match loss waiting for the
  player's next match decides it at once.
- ``disqualify_player`` (from ``penalty_losses``) and ``register_suspension``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from turnir.domain.penalties import (
    GameRecord,
    Penalty,
    PenaltyRecord,
    ReportedResult,
    carry_of,
    suspension_entry,
)
from turnir.domain.results import MatchEnding, MatchOutcome, MatchResult
from turnir.errors import ConflictError, UserError
from turnir.services.common import Tx
from turnir.services.eligibility import day
from turnir.services.penalty_losses import PenaltyLosses, apply_penalty_losses
from turnir.services.results import GameReport, RecordedResult, record_result_in
from turnir.storage.mappers import (
    settings_from_row,
    tournament_row,
)
from turnir.storage.penalties_repo import (
    PlayerLine,
    games_of,
    insert_suspension,
    player_lines,
    waiting_match_losses,
)
from turnir.storage.penalty_rows import stored_report
from turnir.storage.repositories import Change, entry_by_ref, last_round_number


def player_pairings(conn: Tx, tournament_id: int, number: int, *,
                    from_round: int = 1) -> list[PlayerLine]:
    """The player's lines (matches and byes) from round ``from_round`` on, in round order."""
    return player_lines(conn, tournament_id, number, from_round=from_round)


def report_at(conn: Tx, line: PlayerLine) -> ReportedResult:
    """The result of a recorded match as the players reported it (before penalty losses)."""
    kept = stored_report(conn, line.pairing_id)
    if kept is not None:
        return kept
    result = line.pairing.result
    if result is None:
        raise UserError("round {round} table {table} has no result yet", code="no_result",
                        round=line.round, table=line.table)
    played = [GameReport(w, r) for w, r in games_of(conn, line.pairing_id)]
    return ReportedResult(result, tuple(played) if played else None)


def _reports(games_played: Sequence[GameRecord] | None) -> list[GameReport] | None:
    return None if games_played is None else list(games_played)


def losses_at(conn: Tx, tournament_id: int, line: PlayerLine,
              report: ReportedResult) -> PenaltyLosses:
    """What the players' pending losses would make of ``report`` at ``line``."""
    settings = settings_from_row(tournament_row(conn, tournament_id))
    return apply_penalty_losses(conn, tournament_id, line.round, line.pairing_id,
                                line.pairing, stage=line.stage,
                                settings=settings, result=report.result,
                                games=_reports(report.games))


def _record(change: Change, tournament_id: int, line: PlayerLine,
            report: ReportedResult) -> RecordedResult:
    return record_result_in(change.conn, tournament_id, line.round, line.table,
                            report.result, actor=change.actor, correction=True,
                            games_played=_reports(report.games))


NOTHING_PLAYED = ReportedResult(
    MatchResult(0, 0, 0, MatchOutcome.DOUBLE_LOSS, MatchEnding.PENALTY), None)
"""The report of a match decided by a match loss before anything was reported: the losses
make the result (J-3)."""


def land(change: Change, tournament_id: int, record: PenaltyRecord) -> RecordedResult | None:
    """Put ``record``'s loss on the result it belongs to, when that can be done now (J-3)."""
    carry = carry_of(record)
    if carry is None:
        return None
    conn = change.conn
    last = last_round_number(conn, tournament_id)
    for line in player_pairings(conn, tournament_id, record.player,
                                from_round=carry.applies_from.round):
        if not line.is_match:
            continue
        if line.pairing.result is None:
            if carry.loss is not Penalty.MATCH_LOSS:
                return None  # the report brings the game loss in (services.results)
            decided = losses_at(conn, tournament_id, line, NOTHING_PLAYED)
            if record.id not in decided.applied:
                return None
            return _record(change, tournament_id, line, ReportedResult(decided.result, None))
        report = report_at(conn, line)
        try:
            taken = losses_at(conn, tournament_id, line, report).applied
        except UserError as error:
            if error.code != "games_needed":
                raise
            raise UserError(
                "round {round} table {table} was reported as a score, and this {penalty} lands "
                "on a later game of it: record that match game by game first, then give the "
                "penalty (J-3)", code="games_needed", round=line.round, table=line.table,
                penalty=record.penalty.term) from None
        if record.id not in taken:
            continue
        if line.round != last:
            raise UserError(
                "the {penalty} lands on round {round} table {table}, whose result a later "
                "round was already paired from (S-6); give it between matches after round "
                "{last} instead (J-3)", code="result_locked", penalty=record.penalty.term,
                round=line.round, table=line.table, last=last)
        return _record(change, tournament_id, line, report)
    return None


def refresh(change: Change, tournament_id: int, number: int, round_number: int) -> bool:
    """Record the player's result of ``round_number`` again from the report with the losses
    as they are now; ``False`` when a later round was paired from it (it stays, S-6)."""
    for line in player_pairings(change.conn, tournament_id, number, from_round=round_number):
        if line.round != round_number or not line.is_match or line.pairing.result is None:
            continue
        try:
            _record(change, tournament_id, line, report_at(change.conn, line))
        except ConflictError as error:
            if error.code == "result_locked":
                return False
            raise
        return True
    return True


def register_suspension(change: Change, tournament_id: int, record: PenaltyRecord, *,
                        penalty_row_id: int, until: date | None) -> int:
    """A suspension penalty enters the register at once, from today; the term may be set
    later by the game's coordinator (J-5)."""
    conn = change.conn
    entry = entry_by_ref(conn, tournament_id, record.player)
    person = entry["person_id"]
    if person is None:
        raise UserError("{name} has no person record to suspend", code="no_person",
                        name=entry["name"])
    start = change.at.date()
    row = tournament_row(conn, tournament_id)
    suspension = suspension_entry(record, person=str(person), start=day(start),
                                  until=None if until is None else day(until),
                                  tournament=row["name"])
    suspension_id = insert_suspension(
        conn, person_id=person, start=start, until=until, reason_ru=suspension.reason.ru,
        reason_en=suspension.reason.en, issued_by=suspension.issued_by,
        tournament_id=tournament_id, penalty_id=penalty_row_id, created_at=change.at,
        created_by=change.actor)
    change.log(tournament_id, "suspension.add", "suspension", suspension_id, None, {
        "person_id": person, "player": entry["name"], "start": start.isoformat(),
        "until": None if until is None else until.isoformat(), "penalty": record.id,
        "issued_by": suspension.issued_by, "reason": suspension.reason.en,
    })
    return suspension_id


def decide_waiting_match_losses(change: Change, tournament_id: int,
                                round_number: int) -> list[RecordedResult]:
    """A match loss waiting for the player's next match decides it as soon as the round is
    paired (J-3): the player does not play it. Called when a round is paired."""
    conn = change.conn
    decided: list[RecordedResult] = []
    for record in waiting_match_losses(conn, tournament_id):
        carry = carry_of(record)
        if carry is None or carry.applies_from.round > round_number:
            continue
        landed = land(change, tournament_id, record)
        if landed is not None:
            decided.append(landed)
    return decided

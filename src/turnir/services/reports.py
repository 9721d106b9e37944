"""Players report their own results (``docs/web.md``).

A player reports the match they play in (from their own side: "I won 2-1"); the report is
kept (сообщение о результате). When the opponent reports the same result, it is recorded
through ``turnir.services.results.record_result_in`` with both players named as the actor, in
the same transaction as the report (both are stored, with the penalty effects of the result,
or neither); two different reports wait for a judge, who records the result
(``record_result``, a correction when one is already there). A report for someone else's match
is refused with ``NotAllowedError``; so is a report once the table has a result that differs
from it.

A report belongs to the pairing and its two players (``turnir.storage.result_reports``): it
is gone when its round is undone, and it no longer counts (and is deleted) once a swap puts
someone else at the table, so a stale report can never confirm a different match. Once the
table has a result, its reports are settled and no longer shown.

The round clock is ``turnir.services.round_clock``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from turnir.domain.model import Pairing
from turnir.domain.results import MatchResult
from turnir.domain.text import clean_text
from turnir.domain.tournament import check_result_change
from turnir.errors import InvariantError, UserError
from turnir.services.accounts import AccountInfo
from turnir.services.audit import CONFIRMED_BY_BOTH
from turnir.services.common import Database, Tx, changing, reading, refuse_when_finished
from turnir.services.results import RecordedResult, found_match, locked_slot, record_in_slot
from turnir.storage import results_repo
from turnir.storage.repositories import round_row
from turnir.storage.result_reports import open_round_reports, pairing_reports, save_report

COMMENT_LEN = 200
"""The longest comment a player adds to a report (a dispute's reason)."""


class NotAllowedError(UserError):
    """The person is logged in but may not do this (the API answers 403)."""

    code = "forbidden"


class ReportStatus(StrEnum):
    WAITING = "waiting"
    """Reported; the opponent has not reported yet."""
    RECORDED = "recorded"
    """Both reports agree: the result is recorded."""
    DISPUTED = "disputed"
    """The two reports differ: a judge decides."""
    UNCHANGED = "unchanged"
    """The table already has this very result."""


@dataclass(frozen=True, slots=True)
class ReportAnswer:
    status: ReportStatus
    round: int
    table: int
    result: MatchResult
    """As player A of the pairing sees it."""
    recorded: RecordedResult | None = None


@dataclass(frozen=True, slots=True)
class TableReports:
    """What the two players of a table reported (from player A's side), when they did."""

    a: MatchResult | None
    b: MatchResult | None

    @property
    def disputed(self) -> bool:
        return self.a is not None and self.b is not None and self.a != self.b


def player_numbers(conn: Tx, tournament_id: int, person_id: int | None) -> list[int]:
    """The entry numbers a person has in a tournament (normally one)."""
    if person_id is None:
        return []
    return results_repo.entry_numbers(conn, tournament_id, person_id)


def _my_side(pairing: Pairing, numbers: list[int], mine: MatchResult, round_number: int,
             table: int) -> tuple[str, int, int, MatchResult]:
    """(side, me, opponent, the result from A's side) for the reporter's entry numbers."""
    if pairing.b is None:  # pragma: no cover - the slot holds matches only
        raise InvariantError(f"round {round_number} table {table} is a bye")
    if pairing.a in numbers:
        return "a", pairing.a, pairing.b, mine
    if pairing.b in numbers:
        return "b", pairing.b, pairing.a, mine.swapped()
    raise NotAllowedError(
        "round {round} table {table} is not your match; you can report only your own",
        code="not_your_match", round=round_number, table=table)


def report_result(
    db: Database, tournament_id: int, round_number: int, table: int, mine: MatchResult, *,
    account: AccountInfo, comment: str = "",
) -> ReportAnswer:
    """A player reports their own match; ``mine`` is the result from the reporter's side.
    ``comment``: a few words for the judge (a dispute's "why"), kept in the audit log.

    One transaction, one lock, one read of the table's slot: the report and, when it agrees
    with the opponent's, the result recorded (``services.results.record_in_slot``).
    """
    with changing(db, tournament_id, account.name, lock=False) as change:
        conn = change.conn
        slot = locked_slot(conn, tournament_id, round_number, table, locked=False)
        refuse_when_finished({"status": slot.status, "name": slot.name})
        pairing_id, pairing = found_match(slot, round_number, table)
        numbers = player_numbers(conn, tournament_id, account.person_id)
        side, me, opponent, result = _my_side(pairing, numbers, mine, round_number, table)
        assert slot.stage is not None and pairing.b is not None
        if not check_result_change(pairing, result, round_number=round_number,
                                   stage=slot.stage, settings=slot.settings,
                                   last_round=slot.last_round, correction=False,
                                   by_player=True):
            return ReportAnswer(ReportStatus.UNCHANGED, round_number, table, result)
        save_report(conn, tournament_id=tournament_id, pairing_id=pairing_id, a=pairing.a,
                    b=pairing.b, player=me, account_id=account.id, result=result,
                    at=change.at)
        note = clean_text(comment, field="note", max_len=COMMENT_LEN)
        change.log(tournament_id, "report.submit", "pairing", f"{round_number}.{table}", None,
                   {"side": side, "player": me, "opponent": opponent,
                    "account": account.login, **result.to_json(),
                    **({"comment": note} if note else {})})
        theirs = pairing_reports(conn, pairing_id).get(opponent)
        if theirs is None:
            return ReportAnswer(ReportStatus.WAITING, round_number, table, result)
        if theirs != result:
            return ReportAnswer(ReportStatus.DISPUTED, round_number, table, result)
        recorded = record_in_slot(conn, slot, tournament_id, round_number, table, result,
                                  actor=account.name + CONFIRMED_BY_BOTH,
                                  at=change.at)
        return ReportAnswer(ReportStatus.RECORDED, round_number, table, result, recorded)


def round_reports(db: Database, tournament_id: int, round_number: int) -> dict[int, TableReports]:
    """Every table of a round without a result that has a report still bound to its two
    players: what each side reported."""
    with reading(db) as tx:
        found = open_round_reports(tx, tournament_id, round_number)
    return {table: TableReports(sides.get("a"), sides.get("b")) for table, sides in found.items()}


def pairing_versions(db: Database, tournament_id: int, round_number: int) -> dict[int, int]:
    """table → the pairing's version, for a grid that sends ``expected_version``."""
    with reading(db) as tx:
        return results_repo.pairing_versions(tx, round_row(tx, tournament_id, round_number)["id"])

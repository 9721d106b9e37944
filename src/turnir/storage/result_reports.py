"""The statements on players' result reports (``result_reports``, сообщения о результате).

A report is bound to one pairing row and to the two players it had when the report was made
(``a``, ``b``, the reporter ``player``). Every read here returns only the reports still *bound*:
same pairing row, same player A, same player B. So a report can never count for a different
match: an undone round deletes its pairings and, by ``ON DELETE CASCADE``, their reports; a
swap that puts someone else at the table leaves the old reports unbound (and
``discard_reports`` deletes them in the same transaction).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, delete, insert, or_, select

from turnir.domain.results import MatchResult
from turnir.errors import InvariantError
from turnir.storage.mappers import result_columns, result_from_row
from turnir.storage.tables import audit_log, pairings, rounds
from turnir.storage.tables_accounts import result_reports

_BOUND = and_(result_reports.c.pairing_id == pairings.c.id,
              result_reports.c.a == pairings.c.a, result_reports.c.b == pairings.c.b)
"""A report counts only for the pairing row it was made for, with the same two players."""


def _result(row: Mapping[Any, Any]) -> MatchResult:
    found = result_from_row(row)
    if found is None:  # pragma: no cover - the columns are NOT NULL
        raise InvariantError("a result report without a result")
    return found


def save_report(conn: Connection, *, tournament_id: int, pairing_id: int, a: int, b: int,
                player: int, account_id: int, result: MatchResult, at: datetime) -> None:
    """Store ``player``'s report (``result`` from A's side), replacing their earlier one; any
    report of the pairing that no longer belongs to its players goes too."""
    if player not in (a, b):
        raise InvariantError(f"#{player} does not play in the pairing {a}-{b}")
    conn.execute(delete(result_reports).where(
        result_reports.c.pairing_id == pairing_id,
        or_(result_reports.c.player == player, result_reports.c.a != a,
            result_reports.c.b != b)))
    conn.execute(insert(result_reports).values(
        pairing_id=pairing_id, tournament_id=tournament_id, a=a, b=b, player=player,
        account_id=account_id, at=at, **result_columns(result)))


def pairing_reports(conn: Connection, pairing_id: int) -> dict[int, MatchResult]:
    """Player number → what they reported (from A's side), for the reports still bound."""
    rows = conn.execute(
        select(result_reports).join(pairings, _BOUND)
        .where(result_reports.c.pairing_id == pairing_id)
    ).mappings()
    return {row["player"]: _result(row) for row in rows}


def open_round_reports(conn: Connection, tournament_id: int, round_number: int, *,
                       settled: bool = False) -> dict[int, dict[str, MatchResult]]:
    """table → side (``a``/``b``) → the result reported (from A's side), for the bound reports
    of the round's matches that have no result yet (a recorded result settles its reports);
    ``settled``: those of the matches with a result too (the judges' grid shows who reported
    and who confirmed)."""
    found: dict[int, dict[str, MatchResult]] = {}
    query = (select(result_reports, pairings.c.table_no).join(pairings, _BOUND)
             .join(rounds, rounds.c.id == pairings.c.round_id)
             .where(rounds.c.tournament_id == tournament_id, rounds.c.number == round_number))
    rows = conn.execute(query if settled else query.where(pairings.c.outcome.is_(None))
                        ).mappings()
    for row in rows:
        side = "a" if row["player"] == row["a"] else "b"
        found.setdefault(row["table_no"], {})[side] = _result(row)
    return found


def discard_reports(conn: Connection, pairing_ids: Iterable[int]) -> int:
    """Delete every report of these pairings (their players changed); returns how many."""
    ids = sorted(set(pairing_ids))
    if not ids:
        return 0
    done = conn.execute(delete(result_reports).where(result_reports.c.pairing_id.in_(ids)))
    return int(done.rowcount)


def _latest_comments(conn: Connection, tournament_id: int, round_number: int,
                     table: int | None) -> dict[int, dict[int, str]]:
    """table → player number → the comment of their latest report there, when it had one."""
    where = (audit_log.c.entity_id.like(f"{round_number}.%") if table is None
             else audit_log.c.entity_id == f"{round_number}.{table}")
    latest: dict[int, dict[int, str]] = {}
    for entity_id, after in conn.execute(
        select(audit_log.c.entity_id, audit_log.c.after)
        .where(audit_log.c.tournament_id == tournament_id, audit_log.c.entity == "pairing",
               audit_log.c.action == "report.submit", where)
        .order_by(audit_log.c.id)
    ):
        number, _, at = str(entity_id).partition(".")
        if after and "player" in after and number == str(round_number) and at.isdigit():
            latest.setdefault(int(at), {})[int(after["player"])] = str(after.get("comment", ""))
    return {at: {player: text for player, text in found.items() if text}
            for at, found in latest.items()}


def report_comments(conn: Connection, tournament_id: int, round_number: int,
                    table: int) -> dict[int, str]:
    """Player number → the comment of their latest report at the table (a dispute's "why"),
    when it had one: read from the report's audit record (``report.submit``), which keeps it.
    The caller shows it only beside a report still bound to the player."""
    return _latest_comments(conn, tournament_id, round_number, table).get(table, {})


def round_report_comments(conn: Connection, tournament_id: int,
                          round_number: int) -> dict[int, dict[int, str]]:
    """table → player number → their latest report's comment, for the whole round in one
    read (the judges' grid); like :func:`report_comments`, shown only beside a bound report."""
    return {table: found for table, found in
            _latest_comments(conn, tournament_id, round_number, None).items() if found}

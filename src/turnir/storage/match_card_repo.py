"""The targeted reads of a player's match card (issue 15, load): the player's entry, the
current round, the player's pairing in it, the opponent's name and the open reports of that
one table. Each is an indexed look-up whose cost does not grow with the tournament (the card
used to load the whole aggregate, every entry and every pairing, to show one table).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, and_, or_, select

from turnir.domain.model import Pairing, PairingKind, Stage
from turnir.domain.results import MatchResult
from turnir.storage.mappers import result_from_row
from turnir.storage.tables import entries, pairings, rounds, stages
from turnir.storage.tables_accounts import result_reports


@dataclass(frozen=True, slots=True)
class CardEntry:
    """The player's entry as the card shows it."""

    name: str
    dropped_after: int | None


@dataclass(frozen=True, slots=True)
class CardRound:
    """The tournament's current round (its highest number)."""

    id: int
    number: int
    stage: Stage


def card_entry(conn: Connection, tournament_id: int, number: int) -> CardEntry | None:
    row = conn.execute(
        select(entries.c.name, entries.c.dropped_after)
        .where(entries.c.tournament_id == tournament_id, entries.c.number == number)
    ).first()
    return None if row is None else CardEntry(row[0], row[1])


def entry_name(conn: Connection, tournament_id: int, number: int) -> str | None:
    return conn.execute(
        select(entries.c.name)
        .where(entries.c.tournament_id == tournament_id, entries.c.number == number)
    ).scalar()


def current_round(conn: Connection, tournament_id: int) -> CardRound | None:
    """The round with the highest number (``Tournament.current_round``), if any."""
    row = conn.execute(
        select(rounds.c.id, rounds.c.number, stages.c.kind)
        .join(stages, stages.c.id == rounds.c.stage_id)
        .where(rounds.c.tournament_id == tournament_id)
        .order_by(rounds.c.number.desc()).limit(1)
    ).first()
    return None if row is None else CardRound(row[0], row[1], Stage(row[2]))


def pairing_of(conn: Connection, round_id: int, number: int) -> Pairing | None:
    """The player's pairing in the round (as player A or B, a bye included), if any."""
    row = conn.execute(
        select(pairings.c.table_no, pairings.c.a, pairings.c.b, pairings.c.kind,
               pairings.c.wins_a, pairings.c.wins_b, pairings.c.draws, pairings.c.outcome,
               pairings.c.ending)
        .where(pairings.c.round_id == round_id,
               or_(pairings.c.a == number, pairings.c.b == number))
        .order_by(pairings.c.position).limit(1)
    ).mappings().first()
    if row is None:
        return None
    return Pairing(table=row["table_no"], a=row["a"], b=row["b"],
                   kind=PairingKind(row["kind"]), result=result_from_row(row))


def table_reports(conn: Connection, round_id: int, table: int) -> dict[str, MatchResult]:
    """Side (``a``/``b``) → the result reported (from A's side) at one table of the round
    while it has no result: the reports bound to its pairing row and its two players, as
    ``result_reports.open_round_reports`` reads them for the whole round."""
    rows = conn.execute(
        select(result_reports.c.player, result_reports.c.wins_a, result_reports.c.wins_b,
               result_reports.c.draws, result_reports.c.outcome, result_reports.c.ending,
               pairings.c.a)
        .join(pairings, and_(result_reports.c.pairing_id == pairings.c.id,
                             result_reports.c.a == pairings.c.a,
                             result_reports.c.b == pairings.c.b))
        .where(pairings.c.round_id == round_id, pairings.c.table_no == table,
               pairings.c.outcome.is_(None))
    ).mappings().all()
    found: dict[str, MatchResult] = {}
    for row in rows:
        result = result_from_row(row)
        if result is not None:
            found["a" if row["player"] == row["a"] else "b"] = result
    return found

"""What the rating book reads of a tournament (J-8, C-2, R-6, J-4): the tournament's own facts,
its entries' people, its head judge and its rating terms (``rating_tournament_terms``).

A repository: it never begins or commits a transaction (the rating services own it, through
``turnir.services.common.changing``/``reading``), and it returns the domain's records or small
frozen records, never rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, RowMapping, insert, select, update

from turnir.domain.model import StaffRole, Status, TournamentFormat
from turnir.domain.ratings import exact_text, parse_exact
from turnir.domain.ratings.terms import RatingTerms, in_kopecks, roubles
from turnir.errors import Term
from turnir.storage.mappers import tournament_row
from turnir.storage.ratings import utc
from turnir.storage.repositories import entry_by_ref
from turnir.storage.tables import entries, judges
from turnir.storage.tables_ratings import rating_terms


@dataclass(frozen=True, slots=True)
class RatedEvent:
    """A tournament at a glance, as the rating book needs it."""

    id: int
    name: str
    format: TournamentFormat
    status: Status
    finished_at: datetime | None
    """When it finished (UTC): the order of R-6; ``None`` while it is not finished."""

    @property
    def finished(self) -> bool:
        return self.status is Status.FINISHED and self.finished_at is not None


def rated_event(conn: Connection, tournament_id: int) -> RatedEvent:
    """The tournament's facts; refused when there is no such tournament."""
    row = tournament_row(conn, tournament_id)
    finished = row["finished_at"]
    return RatedEvent(id=int(row["id"]), name=str(row["name"]),
                      format=TournamentFormat(row["format"]), status=Status(row["status"]),
                      finished_at=None if finished is None else utc(finished))


def entry_people(conn: Connection, tournament_id: int) -> dict[int, int | None]:
    """Per entry number, the person it belongs to (``None``: not linked to a person)."""
    return {int(number): None if person is None else int(person) for number, person in
            conn.execute(select(entries.c.number, entries.c.person_id)
                         .where(entries.c.tournament_id == tournament_id))}


def entry_number(conn: Connection, tournament_id: int, ref: str | int) -> int:
    """An entry's number by number (``12``, ``#12``), exact name or part of a name."""
    return int(entry_by_ref(conn, tournament_id, ref)["number"])


@dataclass(frozen=True, slots=True)
class HeadJudge:
    name: str
    name_key: str
    """The name in the form names are compared in (``turnir.domain.text.name_key``)."""


def head_judge(conn: Connection, tournament_id: int) -> HeadJudge | None:
    """The tournament's head judge, ``None`` when it has none."""
    row = conn.execute(select(judges.c.name, judges.c.name_key).where(
        judges.c.tournament_id == tournament_id,
        judges.c.role == StaffRole.HEAD_JUDGE.value)).first()
    return None if row is None else HeadJudge(str(row[0]), str(row[1]))


# ----- rating terms ------------------------------------------------------------------------


def _terms(event: RatedEvent, row: RowMapping | None) -> RatingTerms:
    if row is None:
        return RatingTerms.defaults(event.id, event.format)
    return RatingTerms(
        tournament_id=event.id, format=event.format, boosters=row["boosters"],
        starter=bool(row["starter"]),
        professional_k=parse_exact(row["professional_k"], Term("the professional K")),
        entry_fee=roubles(row["entry_fee"]), prize_fund=roubles(row["prize_fund"]),
        disqualified_without_prizes=tuple(sorted(row["disqualified_without_prizes"] or ())),
        version=int(row["version"]),
    )


def load_terms(conn: Connection, tournament_id: int) -> RatingTerms:
    """The terms of a tournament (the defaults when never set)."""
    event = rated_event(conn, tournament_id)
    row = conn.execute(select(rating_terms).where(rating_terms.c.tournament_id == tournament_id)
                       ).mappings().first()
    return _terms(event, row)


def save_terms(conn: Connection, terms: RatingTerms, *, at: datetime, actor: str) -> None:
    """Store the terms as the version after ``terms.version`` (0: never stored)."""
    values: dict[str, Any] = {
        "boosters": terms.boosters, "starter": terms.starter,
        "professional_k": exact_text(terms.professional_k),
        "entry_fee": in_kopecks(terms.entry_fee), "prize_fund": in_kopecks(terms.prize_fund),
        "disqualified_without_prizes": list(terms.disqualified_without_prizes),
        "updated_at": at, "updated_by": actor,
    }
    tid = terms.tournament_id
    if terms.version == 0:
        conn.execute(insert(rating_terms).values(tournament_id=tid, version=1, **values))
    else:
        conn.execute(update(rating_terms).where(rating_terms.c.tournament_id == tid)
                     .values(version=terms.version + 1, **values))

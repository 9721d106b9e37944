"""The suspension register, kept by person across tournaments (J-5).

A suspension given in a tournament (``give_penalty`` with ``Penalty.SUSPENSION``, only by the
head judge who is an official representative, at Professional level or above) enters the
register at once, open-ended until the game's coordinator sets its term
(``set_suspension_term``). ``add_suspension`` enters one decided outside the reporter (the
coordinator's own register, a suspension from another system). Registration for an official
tournament checks the register (``services.eligibility``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import Connection, RowMapping, insert, select, update

from turnir.domain.penalties import Text
from turnir.domain.text import clean_ref
from turnir.errors import ConflictError, NotFoundError, UserError
from turnir.services.common import changing
from turnir.storage.database import Database
from turnir.storage.mappers import name_key
from turnir.storage.repositories import check_version
from turnir.storage.tables import people, tournaments
from turnir.storage.tables_penalties import penalties, suspensions


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


_VIEW = (
    select(suspensions, people.c.name.label("person_name"),
           tournaments.c.name.label("tournament_name"), penalties.c.seq.label("penalty_seq"))
    .join(people, people.c.id == suspensions.c.person_id)
    .outerjoin(tournaments, tournaments.c.id == suspensions.c.tournament_id)
    .outerjoin(penalties, penalties.c.id == suspensions.c.penalty_id)
)


def _view(row: RowMapping) -> SuspensionView:
    return SuspensionView(row["id"], row["person_id"], row["person_name"], row["start"],
                          row["until"], Text(row["reason_ru"], row["reason_en"]),
                          row["issued_by"], row["tournament_id"], row["tournament_name"] or "",
                          row["penalty_seq"], row["version"])


def _one(conn: Connection, suspension_id: int) -> SuspensionView:
    row = conn.execute(_VIEW.where(suspensions.c.id == suspension_id)).mappings().first()
    if row is None:
        raise NotFoundError(f"no suspension #{suspension_id} in the register",
                            code="unknown_suspension")
    return _view(row)


def find_person(conn: Connection, ref: int | str) -> RowMapping:
    """A person by id (``12``, ``#12``) or by a name only one person has."""
    text = clean_ref(ref, field="person")
    if isinstance(text, int):
        row = conn.execute(select(people).where(people.c.id == text)).mappings().first()
        if row is None:
            raise NotFoundError(f"no person #{text}", code="unknown_person")
        return row
    found = list(conn.execute(select(people).where(people.c.name_key == name_key(text))
                              .order_by(people.c.id)).mappings())
    if not found:
        raise NotFoundError(f"no person named {text!r}", code="unknown_person")
    if len(found) > 1:
        which = ", ".join(f"#{r['id']} ({r['city'] or 'no city'})" for r in found[:5])
        raise UserError(f"several people are named {text!r}: {which}; give the number",
                        code="ambiguous_person")
    return found[0]


def add_suspension(
    db: Database, *, person: int | str, start: date, reason: str, issued_by: str, actor: str,
    until: date | None = None, reason_en: str | None = None,
) -> SuspensionView:
    """Enter a suspension decided outside a tournament (the coordinator's register)."""
    text = " ".join(reason.split())
    who = " ".join(issued_by.split())
    if not text or not who:
        raise UserError("a suspension needs its reason and who decided it", code="bad_suspension")
    if until is not None and until < start:
        raise UserError("a suspension cannot end before it starts", code="bad_suspension")
    english = " ".join((reason_en or reason).split())
    with changing(db, None, actor) as change:
        conn = change.conn
        found = find_person(conn, person)
        suspension_id = int(conn.execute(insert(suspensions).values(
            person_id=found["id"], start=start, until=until, reason_ru=text[:2000],
            reason_en=english[:2000], issued_by=who[:200], tournament_id=None, penalty_id=None,
            version=1, created_at=change.at, created_by=change.actor,
        ).returning(suspensions.c.id)).scalar_one())
        change.log(None, "suspension.add", "suspension", suspension_id, None, {
            "person_id": found["id"], "person": found["name"], "start": start.isoformat(),
            "until": None if until is None else until.isoformat(), "reason": english,
            "issued_by": who})
        return _one(conn, suspension_id)


def set_suspension_term(
    db: Database, suspension_id: int, *, until: date | None, actor: str,
    expected_version: int | None = None,
) -> SuspensionView:
    """The coordinator sets (or changes) the last day of a suspension (J-5)."""
    with changing(db, None, actor) as change:
        conn = change.conn
        current = _one(conn, suspension_id)
        check_version(conn, current.tournament_id or 0, "suspension", suspension_id,
                      f"suspension #{suspension_id}", expected_version, current.version)
        if until is not None and until < current.start:
            raise UserError("a suspension cannot end before it starts", code="bad_suspension")
        if until == current.until:
            return current
        done = conn.execute(update(suspensions).where(
            suspensions.c.id == suspension_id, suspensions.c.version == current.version
        ).values(until=until, version=current.version + 1))
        if done.rowcount != 1:
            raise ConflictError(f"suspension #{suspension_id} changed meanwhile; try again",
                                code="stale_version")
        change.log(current.tournament_id, "suspension.term", "suspension", suspension_id,
                   {"until": None if current.until is None else current.until.isoformat(),
                    "version": current.version},
                   {"until": None if until is None else until.isoformat(),
                    "version": current.version + 1})
        return _one(conn, suspension_id)


def list_suspensions(db: Database, *, person: int | str | None = None,
                     on: date | None = None) -> list[SuspensionView]:
    """The register (one person's entries when ``person`` is given; only those covering the
    day ``on`` when it is given), oldest first."""
    with db.read() as conn:
        query = _VIEW.order_by(suspensions.c.start, suspensions.c.id)
        if person is not None:
            query = query.where(suspensions.c.person_id == find_person(conn, person)["id"])
        found = [_view(row) for row in conn.execute(query).mappings()]
    return [s for s in found if on is None or s.covers(on)]


def suspensions_in(conn: Connection, tournament_id: int) -> list[SuspensionView]:
    """The register entries given at one tournament."""
    return [_view(row) for row in conn.execute(
        _VIEW.where(suspensions.c.tournament_id == tournament_id).order_by(suspensions.c.id)
    ).mappings()]

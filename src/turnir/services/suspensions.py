"""The suspension register, kept by person across tournaments (J-5).

A suspension given in a tournament (``give_penalty`` with ``Penalty.SUSPENSION``, only by the
head judge who is an official representative, at Professional level or above) enters the
register at once, open-ended until the game's coordinator sets its term
(``set_suspension_term``). ``add_suspension`` enters one decided outside the reporter (the
coordinator's own register, a suspension from another system). Registration for an official
tournament checks the register (``services.eligibility``).
"""

from __future__ import annotations

from datetime import date

from turnir.domain.text import clean_ref, name_key
from turnir.errors import ConflictError, NotFoundError, UserError
from turnir.services.common import Database, Tx, changing, reading
from turnir.storage.penalties_repo import SuspensionView as SuspensionView
from turnir.storage.penalties_repo import (
    insert_suspension,
    set_suspension_until,
    suspension,
    suspension_register,
    suspensions_given_in,
)
from turnir.storage.rating_reads import people_named
from turnir.storage.ratings import PersonRef, people_by_id
from turnir.storage.repositories import check_version


def _one(conn: Tx, suspension_id: int) -> SuspensionView:
    found = suspension(conn, suspension_id)
    if found is None:
        raise NotFoundError("no suspension #{id} in the register", code="unknown_suspension",
                            id=suspension_id)
    return found


def find_person(conn: Tx, ref: int | str) -> PersonRef:
    """A person by id (``12``, ``#12``) or by a name only one person has (exactly: the rating
    pages' ``rating_queries.find_person`` also takes a part of a rated player's name)."""
    text = clean_ref(ref, field="person")
    if isinstance(text, int):
        found = people_by_id(conn, [text])
        if text not in found:
            raise NotFoundError("no person #{id}", code="unknown_person", id=text)
        return found[text]
    ids = people_named(conn, name_key(text))
    if not ids:
        raise NotFoundError("no person named {name!r}", code="unknown_person", name=text)
    if len(ids) > 1:
        several = people_by_id(conn, ids[:5])
        which = ", ".join(f"#{p.id} ({p.city or '—'})" for p in several.values())
        raise UserError("several people are named {name!r}: {which}; give the number",
                        code="ambiguous_person", name=text, which=which)
    return people_by_id(conn, ids)[ids[0]]


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
        suspension_id = insert_suspension(
            conn, person_id=found.id, start=start, until=until, reason_ru=text[:2000],
            reason_en=english[:2000], issued_by=who[:200], tournament_id=None, penalty_id=None,
            created_at=change.at, created_by=change.actor)
        change.log(None, "suspension.add", "suspension", suspension_id, None, {
            "person_id": found.id, "person": found.name, "start": start.isoformat(),
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
        if not set_suspension_until(conn, suspension_id, current.version, until):
            raise ConflictError("suspension #{id} changed meanwhile; try again",
                                code="stale_version", id=suspension_id)
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
    with reading(db) as conn:
        person_id = None if person is None else find_person(conn, person).id
        found = suspension_register(conn, person_id=person_id)
    return [s for s in found if on is None or s.covers(on)]


def suspensions_in(conn: Tx, tournament_id: int) -> list[SuspensionView]:
    """The register entries given at one tournament."""
    return suspensions_given_in(conn, tournament_id)

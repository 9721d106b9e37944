"""The statements about a tournament's players (the ``entries`` rows, their privilege byes and
drops) and what registration checks about them (J-5's register, J-8's head judge playing).
They never commit: the service that calls them owns the transaction.

Finding one entry by number or name, and the people entries belong to, are in
``turnir.storage.repositories`` (``entry_by_ref``, ``person_for``, ``people_for``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import Connection, func, insert, or_, select

from turnir.domain.penalties import Day, Suspension, Text
from turnir.storage.mappers import name_key
from turnir.storage.repositories import bump_version, entry_by_name, entry_by_ref
from turnir.storage.tables import drops, entries, granted_byes, tournaments
from turnir.storage.tables_penalties import suspensions


def day(value: date) -> Day:
    """A calendar day as the domain counts it."""
    return Day(value.toordinal())


@dataclass(frozen=True, slots=True)
class StoredEntry:
    """One player's entry in a tournament (an ``entries`` row)."""

    id: int
    """The row's id (not the player's number)."""
    number: int
    """The player's number in the tournament (the domain ``PlayerId``)."""
    name: str
    city: str
    club: str
    joined_round: int
    dropped_after: int | None
    checked_in: bool
    person_id: int | None
    version: int
    surname: str = ""
    """The surname kept apart (``turnir.domain.names``)."""
    given_name: str = ""


def stored_entry(row: Mapping[Any, Any]) -> StoredEntry:
    """The entry of an ``entries`` row (``repositories.entry_by_ref`` gives rows)."""
    return StoredEntry(id=int(row["id"]), number=int(row["number"]), name=row["name"],
                       city=row["city"], club=row["club"], joined_round=row["joined_round"],
                       dropped_after=row["dropped_after"], checked_in=bool(row["checked_in"]),
                       person_id=row["person_id"], version=int(row["version"]),
                       surname=row["surname"], given_name=row["given_name"])


# ----- reading ---------------------------------------------------------------------------


def entry(conn: Connection, tournament_id: int, ref: str | int) -> StoredEntry:
    """An entry by number (``12``, ``#12``), exact name or unambiguous part of a name
    (``NotFoundError`` otherwise)."""
    return stored_entry(entry_by_ref(conn, tournament_id, ref))


def entry_named(conn: Connection, tournament_id: int, name: str) -> StoredEntry | None:
    """The entry with this name (compared by ``mappers.name_key``), if any."""
    row = entry_by_name(conn, tournament_id, name)
    return None if row is None else stored_entry(row)


def byes_of(conn: Connection, tournament_id: int, number: int) -> list[int]:
    """The rounds of the player's privilege byes."""
    return [r for (r,) in conn.execute(
        select(granted_byes.c.round).where(granted_byes.c.tournament_id == tournament_id,
                                           granted_byes.c.number == number)
    )]


def byes_by_player(conn: Connection, tournament_id: int) -> dict[int, list[int]]:
    """The rounds of every player's privilege byes, by player number."""
    byes: dict[int, list[int]] = {}
    for number, rnd in conn.execute(
        select(granted_byes.c.number, granted_byes.c.round)
        .where(granted_byes.c.tournament_id == tournament_id)
    ):
        byes.setdefault(number, []).append(rnd)
    return byes


def entry_list(conn: Connection, tournament_id: int) -> list[StoredEntry]:
    """Every entry of the tournament, by number."""
    return [stored_entry(row) for row in conn.execute(
        select(entries).where(entries.c.tournament_id == tournament_id)
        .order_by(entries.c.number)
    ).mappings()]


def numbers_by_key(conn: Connection, tournament_id: int) -> dict[str, int]:
    """Every entry's number by the key of its name (``mappers.name_key``)."""
    return {key: number for key, number in conn.execute(
        select(entries.c.name_key, entries.c.number)
        .where(entries.c.tournament_id == tournament_id)
    )}


def person_registered(conn: Connection, tournament_id: int, person_id: int) -> bool:
    """Whether an entry of the tournament belongs to this person."""
    return conn.execute(
        select(entries.c.number).where(entries.c.tournament_id == tournament_id,
                                       entries.c.person_id == person_id)
    ).first() is not None


def tournaments_of_person(conn: Connection, person_id: int, *,
                          status: str) -> list[tuple[int, int]]:
    """(tournament id, entry number) of the person's entries in tournaments of ``status``,
    the newest tournament first (a player's "my match", issue 12)."""
    return [(int(r.tournament_id), int(r.number)) for r in conn.execute(
        select(entries.c.tournament_id, entries.c.number)
        .join(tournaments, tournaments.c.id == entries.c.tournament_id)
        .where(entries.c.person_id == person_id, tournaments.c.status == status)
        .order_by(entries.c.tournament_id.desc(), entries.c.number))]


def count_entries(conn: Connection, tournament_id: int, *, active_only: bool = False,
                  checked_in_only: bool = False) -> int:
    """How many entries the tournament has (still in, or checked in, when asked)."""
    query = select(func.count()).select_from(entries).where(
        entries.c.tournament_id == tournament_id)
    if active_only:
        query = query.where(entries.c.dropped_after.is_(None))
    if checked_in_only:
        query = query.where(entries.c.checked_in.is_(True))
    return int(conn.execute(query).scalar_one())


def absent_entries(conn: Connection, tournament_id: int) -> list[StoredEntry]:
    """The entries still in that did not check in."""
    return [stored_entry(row) for row in conn.execute(
        select(entries).where(entries.c.tournament_id == tournament_id,
                              entries.c.checked_in.is_(False),
                              entries.c.dropped_after.is_(None))
        .order_by(entries.c.number)
    ).mappings()]


def persons_of(conn: Connection, tournament_id: int,
               numbers: Sequence[int]) -> list[tuple[int, str, int]]:
    """(number, name, person id) of those ``numbers`` that belong to a person."""
    return [(int(number), str(name), int(person)) for number, name, person in conn.execute(
        select(entries.c.number, entries.c.name, entries.c.person_id)
        .where(entries.c.tournament_id == tournament_id, entries.c.number.in_(numbers),
               entries.c.person_id.is_not(None))
    )]


def entry_of(conn: Connection, tournament_id: int, *, name: str, person_id: int | None,
             active_only: bool = False) -> tuple[str, int] | None:
    """The (name, number) of an entry of this person or with this name, if any."""
    match = entries.c.name_key == name_key(name)
    if person_id is not None:
        match = or_(match, entries.c.person_id == person_id)
    query = select(entries.c.name, entries.c.number).where(
        entries.c.tournament_id == tournament_id, match)
    if active_only:
        query = query.where(entries.c.dropped_after.is_(None))
    found = conn.execute(query.limit(1)).first()
    return None if found is None else (str(found[0]), int(found[1]))


def suspensions_of(conn: Connection, person_ids: Sequence[int]) -> list[Suspension]:
    """The register entries of these people (J-5), as the domain's records."""
    if not person_ids:
        return []
    rows = conn.execute(select(suspensions).where(suspensions.c.person_id.in_(person_ids)))
    return [
        Suspension(person=str(r.person_id), start=day(r.start),
                   until=None if r.until is None else day(r.until),
                   reason=Text(r.reason_ru, r.reason_en), issued_by=r.issued_by)
        for r in rows
    ]


# ----- writing ---------------------------------------------------------------------------


def last_drop_reason(conn: Connection, tournament_id: int, number: int) -> str | None:
    """Why the entry was last dropped (the newest ``drops`` row), if it ever was."""
    found = conn.execute(
        select(drops.c.reason).where(drops.c.tournament_id == tournament_id,
                                     drops.c.number == number)
        .order_by(drops.c.id.desc()).limit(1)
    ).first()
    return None if found is None else str(found[0])


def store_reinstatement(conn: Connection, entry: StoredEntry) -> None:
    """The dropped entry is in again (its version goes up by one); the ``drops`` row stays as
    the record of the drop, the audit log has the reinstatement."""
    bump_version(conn, entries, entry.id, entry.version, {"dropped_after": None})


def set_checked_in(conn: Connection, entry: StoredEntry, present: bool) -> None:
    """The entry marked present (or not); its version goes up by one."""
    bump_version(conn, entries, entry.id, entry.version, {"checked_in": present})


def store_drop(conn: Connection, tournament_id: int, entry: StoredEntry, after: int | None, *,
               actor: str, at: datetime, reason: str) -> None:
    """The entry dropped after round ``after`` (its version goes up by one), with the record
    of who dropped it and why."""
    bump_version(conn, entries, entry.id, entry.version, {"dropped_after": after})
    conn.execute(insert(drops).values(tournament_id=tournament_id, number=entry.number,
                                      after_round=after, at=at, actor=actor, reason=reason))

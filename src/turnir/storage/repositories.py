"""Repositories: the queries and writes services compose. They never commit or begin a
transaction; the service that calls them owns it (STYLE habit 7).

Optimistic versions: ``bump_version`` updates a row only when its version is still the one the
change was based on; otherwise ``ConflictError`` names who changed it last, from the audit log.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, RowMapping, Table, func, insert, select, update

from turnir.domain.text import NAME_LEN, clean_ref, name_matches
from turnir.errors import ConflictError, NotFoundError, Term, UserError
from turnir.storage.audit import AuditEntry as AuditEntry
from turnir.storage.audit import Change as Change
from turnir.storage.audit import audit_entries as audit_entries
from turnir.storage.audit import last_change
from turnir.storage.mappers import name_key
from turnir.storage.tables import (
    entries,
    idempotency_keys,
    pairings,
    people,
    rounds,
    stages,
    tournaments,
)

# ----- versions (the audit log itself: turnir.storage.audit, importable from here too) ----


def stale_version(conn: Connection, tournament_id: int, entity: str, entity_id: object,
                  what: str, seen: int, current: int) -> ConflictError:
    """The refusal for an update based on version ``seen`` when the record is at ``current``."""
    last = last_change(conn, tournament_id, entity, entity_id)
    thing = _RECORDS.get(what, what)
    if last is None:
        return ConflictError("{what} was changed since you loaded it (version {seen}, now "
                             "{current}); reload and try again", code="stale_version",
                             what=thing, seen=seen, current=current)
    return ConflictError(
        "{what} was changed by {actor} at {at} UTC ({action}) since you loaded it (version "
        "{seen}, now {current}); reload and try again", code="stale_version", what=thing,
        actor=last.actor, at=f"{last.at:%Y-%m-%d %H:%M:%S}", action=last.action, seen=seen,
        current=current,
    )


_RECORDS: dict[str, Term] = {record: record for record in (
    Term("the tournament"), Term("the judging settings"), Term("the tournament's rating terms"),
)}
"""The records ``stale_version`` names in words (``what``), translated with the message."""


def check_version(conn: Connection, tournament_id: int, entity: str, entity_id: object,
                  what: str, expected: int | None, current: int) -> None:
    if expected is not None and expected != current:
        raise stale_version(conn, tournament_id, entity, entity_id, what, expected, current)


def bump_version(conn: Connection, table: Table, row_id: int, version: int,
                 values: dict[str, Any]) -> None:
    """``UPDATE … SET …, version = version + 1 WHERE id = … AND version = …``."""
    done = conn.execute(
        update(table).where(table.c.id == row_id, table.c.version == version)
        .values(version=version + 1, **values)
    )
    if done.rowcount != 1:
        raise ConflictError("{table} #{id} changed meanwhile; try again",
                            code="stale_version", table=table.name, id=row_id)


# ----- tournaments -----------------------------------------------------------------------


def find_tournament_id(conn: Connection, ref: str | int) -> int:
    """A tournament by id (``12``, ``#12``) or by its name (exact, case-insensitive)."""
    text = clean_ref(ref, field="tournament", max_len=NAME_LEN)
    if isinstance(text, int):
        found = conn.execute(select(tournaments.c.id).where(tournaments.c.id == text))
        if found.scalar() is not None:
            return text
    key = name_key(str(text))
    ids = [row[0] for row in conn.execute(
        select(tournaments.c.id, tournaments.c.name).order_by(tournaments.c.id)
    ) if name_key(row[1]) == key]
    if len(ids) == 1:
        return int(ids[0])
    if not ids:
        raise NotFoundError("no tournament {ref!r} (give its number or its name)",
                            code="unknown_tournament", ref=ref)
    raise UserError("several tournaments are named {ref!r}: {numbers}; give the number",
                    code="ambiguous_tournament", ref=ref,
                    numbers=", ".join(f"#{i}" for i in ids))


def last_round_number(conn: Connection, tournament_id: int) -> int:
    found = conn.execute(
        select(func.max(rounds.c.number)).where(rounds.c.tournament_id == tournament_id)
    ).scalar()
    return int(found or 0)


def round_row(conn: Connection, tournament_id: int, number: int) -> RowMapping:
    row = conn.execute(
        select(rounds.c.id, rounds.c.number, rounds.c.version, rounds.c.lot, rounds.c.edits,
               stages.c.kind.label("stage"))
        .join(stages, stages.c.id == rounds.c.stage_id)
        .where(rounds.c.tournament_id == tournament_id, rounds.c.number == number)
    ).mappings().first()
    if row is None:
        raise NotFoundError("there is no round {round} yet", code="unknown_round", round=number)
    return row


def match_row(conn: Connection, round_id: int, round_number: int, table: int) -> RowMapping:
    """The match at ``table`` in a round (not a bye)."""
    row = conn.execute(
        select(pairings)
        .where(pairings.c.round_id == round_id, pairings.c.table_no == table,
               pairings.c.kind == "match")
    ).mappings().first()
    if row is None:
        raise NotFoundError("round {round} has no table {table}", code="unknown_table",
                            round=round_number, table=table)
    return row


# ----- entries and people ----------------------------------------------------------------


def entry_by_ref(conn: Connection, tournament_id: int, ref: str | int) -> RowMapping:
    """An entry by number (``12``, ``#12``), exact name or unambiguous part of a name."""
    text = clean_ref(ref, field="player", max_len=NAME_LEN)
    base = select(entries).where(entries.c.tournament_id == tournament_id)
    if isinstance(text, int):
        row = conn.execute(base.where(entries.c.number == text)).mappings().first()
        if row is None:
            raise NotFoundError("no player #{number} in this tournament",
                                code="unknown_player", number=text)
        return row
    key = name_key(text)
    row = conn.execute(base.where(entries.c.name_key == key)).mappings().first()
    if row is not None:
        return row
    partial = [r for r in conn.execute(base.order_by(entries.c.number)).mappings()
               if name_matches(text, r["name"])]
    if len(partial) == 1:
        return partial[0]
    if not partial:
        raise NotFoundError("no player named {name!r}", code="unknown_player", name=str(ref))
    raise UserError("{name!r} matches several players: {names}", code="ambiguous_player",
                    name=str(ref), names=", ".join(r["name"] for r in partial[:5]))


def entry_by_name(conn: Connection, tournament_id: int, name: str) -> RowMapping | None:
    return conn.execute(
        select(entries).where(entries.c.tournament_id == tournament_id,
                              entries.c.name_key == name_key(name))
    ).mappings().first()


def next_entry_number(conn: Connection, tournament_id: int) -> int:
    found = conn.execute(
        select(func.max(entries.c.number)).where(entries.c.tournament_id == tournament_id)
    ).scalar()
    return int(found or 0) + 1


def person_for(conn: Connection, *, name: str, city: str, club: str, at: datetime,
               person_id: int | None = None) -> int:
    """The person an entry belongs to: the one given, the one person with this name and city,
    or a new one."""
    if person_id is not None:
        if conn.execute(select(people.c.id).where(people.c.id == person_id)).first() is None:
            raise NotFoundError("no person #{person}", code="unknown_person", person=person_id)
        return person_id
    found = conn.execute(
        select(people.c.id).where(people.c.name_key == name_key(name), people.c.city == city)
        .limit(2)
    ).all()
    if len(found) == 1:
        return int(found[0][0])
    new_id = conn.execute(
        insert(people).values(name=name, name_key=name_key(name), city=city, club=club,
                              created_at=at).returning(people.c.id)
    ).scalar_one()
    return int(new_id)


def people_for(conn: Connection, lines: Sequence[tuple[str, str, str]],
               at: datetime) -> list[int]:
    """``person_for`` for many (name, city, club) at once (imports)."""
    keys = {(name_key(name), city) for name, city, _ in lines}
    known: dict[tuple[str, str], list[int]] = {}
    names = sorted({k for k, _ in keys})
    for start in range(0, len(names), 500):
        for pid, key, city in conn.execute(
            select(people.c.id, people.c.name_key, people.c.city)
            .where(people.c.name_key.in_(names[start:start + 500]))
        ):
            known.setdefault((key, city), []).append(pid)
    result: list[int] = []
    for name, city, club in lines:
        found = known.get((name_key(name), city), [])
        if len(found) == 1:
            result.append(found[0])
            continue
        new_id = int(conn.execute(
            insert(people).values(name=name, name_key=name_key(name), city=city, club=club,
                                  created_at=at).returning(people.c.id)
        ).scalar_one())
        known[(name_key(name), city)] = [new_id]
        result.append(new_id)
    return result


# ----- idempotency keys ------------------------------------------------------------------


def stored_answer(conn: Connection, tournament_id: int, key: str, action: str,
                  request: dict[str, Any]) -> dict[str, Any] | None:
    """The answer already given to this key, or ``None``; the key reused for another request
    is refused."""
    row = conn.execute(
        select(idempotency_keys.c.action, idempotency_keys.c.request,
               idempotency_keys.c.response)
        .where(idempotency_keys.c.tournament_id == tournament_id,
               idempotency_keys.c.key == key)
    ).first()
    if row is None:
        return None
    if row[0] != action or row[1] != request:
        raise ConflictError("the request key {key!r} was already used for another request",
                            code="key_reused", key=key)
    response: dict[str, Any] = row[2]
    return response


def store_answer(conn: Connection, tournament_id: int, key: str, action: str,
                 request: dict[str, Any], response: dict[str, Any], at: datetime) -> None:
    conn.execute(insert(idempotency_keys).values(
        tournament_id=tournament_id, key=key, action=action, request=request,
        response=response, at=at,
    ))

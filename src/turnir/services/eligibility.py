"""Who may play (J-5, J-8): the checks registration and the start of round 1 call.

- J-5: a person suspended on the day cannot register for an official tournament (the
  register, ``suspensions``, is kept by person across tournaments). **Decided**: the day is the
  day of registration; a tournament is official from Professional level up unless the
  organizer says otherwise (``penalty settings --official/--unofficial``).
- J-8: the head judge may play only at Amateur level with fewer than 12 participants, the head
  judge counted. The head judge plays when an entry has the head judge's person or name.
  Checked when a player registers (all registered players counted) and when round 1 starts
  (players still in counted).

The checks run inside the registering transaction after the new entries are written, so a
refusal leaves the database unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from sqlalchemy import Connection, func, or_, select

from turnir.domain.penalties import (
    Day,
    Suspension,
    Text,
    check_head_judge_may_play,
    check_may_register,
)
from turnir.errors import UserError
from turnir.services.judging import head_judge, level_of, today
from turnir.storage.mappers import name_key, tournament_row
from turnir.storage.penalty_rows import judging_settings_of
from turnir.storage.tables import entries, judges
from turnir.storage.tables_penalties import suspensions


def day(value: date) -> Day:
    """A calendar day as the domain counts it."""
    return Day(value.toordinal())


def register_of(conn: Connection, person_ids: Sequence[int]) -> list[Suspension]:
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


def check_registration(conn: Connection, tournament_id: int, numbers: Sequence[int], *,
                       on: date | None = None) -> None:
    """Refuse new entries ``numbers`` that J-5 or J-8 forbids (the entries are already
    written in this transaction)."""
    row = tournament_row(conn, tournament_id)
    settings = judging_settings_of(conn, tournament_id, row["rules_level"])
    if settings.official and numbers:
        new = conn.execute(
            select(entries.c.number, entries.c.name, entries.c.person_id)
            .where(entries.c.tournament_id == tournament_id, entries.c.number.in_(numbers),
                   entries.c.person_id.is_not(None))
        ).all()
        register = register_of(conn, sorted({person for _, _, person in new}))
        for _, name, person in new:
            try:
                check_may_register(register, str(person), on=day(on or today()), official=True)
            except UserError as error:
                raise UserError(f"{name}: {error.message}", code=error.code) from None
    participants = conn.execute(
        select(func.count()).select_from(entries).where(entries.c.tournament_id == tournament_id)
    ).scalar_one()
    _check_head_judge(conn, tournament_id, participants=int(participants),
                      when="registering")


def check_head_judge_at_start(conn: Connection, tournament_id: int) -> None:
    """J-8 when round 1 starts: the players still in, the head judge among them."""
    participants = conn.execute(
        select(func.count()).select_from(entries).where(entries.c.tournament_id == tournament_id,
                                                        entries.c.dropped_after.is_(None))
    ).scalar_one()
    _check_head_judge(conn, tournament_id, participants=int(participants),
                      when="starting round 1", active_only=True)


def head_judge_entry(conn: Connection, tournament_id: int, *,
                     active_only: bool = False) -> tuple[str, int] | None:
    """The head judge's own entry as a player (name, number), if they play."""
    head = head_judge(conn, tournament_id)
    if head is None:
        return None
    person = conn.execute(select(judges.c.person_id).where(judges.c.id == head.id)).scalar()
    match = entries.c.name_key == name_key(head.name)
    if person is not None:
        match = or_(match, entries.c.person_id == person)
    query = select(entries.c.name, entries.c.number).where(
        entries.c.tournament_id == tournament_id, match)
    if active_only:
        query = query.where(entries.c.dropped_after.is_(None))
    found = conn.execute(query.limit(1)).first()
    return None if found is None else (found[0], found[1])


def _check_head_judge(conn: Connection, tournament_id: int, *, participants: int, when: str,
                      active_only: bool = False) -> None:
    plays = head_judge_entry(conn, tournament_id, active_only=active_only)
    if plays is None:
        return
    row = tournament_row(conn, tournament_id)
    try:
        check_head_judge_may_play(level=level_of(row), participants=participants)
    except UserError as error:
        raise UserError(f"{when}: {plays[0]} (#{plays[1]}) is the head judge and plays; "
                        f"{error.message}", code=error.code) from None

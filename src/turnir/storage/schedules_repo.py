"""The statements of tournament schedules (``turnir.services.schedules``) on the ``schedules``
and ``scheduled_events`` tables (``turnir.storage.tables_decks``), and of the players' age in
game years (``accounts.game_age``, C-2; ``turnir.services.game_age``). Nothing here commits.

An event is claimed by inserting its row first (``claim_event``): the unique
``(schedule_id, starts_at)`` makes a second run, or a second runner at the same moment, claim
nothing, so no start creates two tournaments.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, RowMapping, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from turnir.storage.repositories import bump_version
from turnir.storage.tables import entries, tournaments
from turnir.storage.tables_accounts import accounts
from turnir.storage.tables_decks import scheduled_events, schedules


def _utc(value: datetime) -> datetime:
    """Stored times are UTC; SQLite gives them back without their zone."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


@dataclass(frozen=True, slots=True)
class StoredSchedule:
    id: int
    name: str
    times: tuple[str, ...]
    time_zone: str
    format_id: int | None
    settings: dict[str, Any]
    min_players: int
    active: bool
    created_at: datetime
    created_by: str
    version: int


@dataclass(frozen=True, slots=True)
class StoredEvent:
    id: int
    schedule_id: int
    starts_at: datetime
    """In UTC."""
    tournament_id: int | None
    state: str
    message: str
    tournament_status: str | None = None


def _schedule(row: RowMapping) -> StoredSchedule:
    return StoredSchedule(
        id=row["id"], name=row["name"], times=tuple(row["times"] or ()),
        time_zone=row["time_zone"], format_id=row["format_id"],
        settings=dict(row["settings"] or {}), min_players=row["min_players"],
        active=bool(row["active"]), created_at=_utc(row["created_at"]),
        created_by=row["created_by"], version=row["version"])


def _event(row: RowMapping) -> StoredEvent:
    return StoredEvent(id=row["id"], schedule_id=row["schedule_id"],
                       starts_at=_utc(row["starts_at"]), tournament_id=row["tournament_id"],
                       state=row["state"], message=row["message"],
                       tournament_status=row.get("status"))


def insert_schedule(conn: Connection, *, name: str, times: list[str], time_zone: str,
                    format_id: int | None, settings: dict[str, Any], min_players: int,
                    active: bool, at: datetime, actor: str) -> int:
    return int(conn.execute(insert(schedules).values(
        name=name, times=times, time_zone=time_zone, format_id=format_id, settings=settings,
        min_players=min_players, active=active, created_at=at, created_by=actor,
    ).returning(schedules.c.id)).scalar_one())


def update_schedule(conn: Connection, schedule_id: int, version: int,
                    values: dict[str, Any]) -> None:
    bump_version(conn, schedules, schedule_id, version, values)


def schedule(conn: Connection, schedule_id: int) -> StoredSchedule | None:
    row = conn.execute(select(schedules).where(schedules.c.id == schedule_id)).mappings().first()
    return None if row is None else _schedule(row)


def schedule_named(conn: Connection, name: str) -> StoredSchedule | None:
    """A schedule by its name (case-insensitive)."""
    for row in conn.execute(select(schedules).order_by(schedules.c.id)).mappings():
        if str(row["name"]).casefold() == name.casefold():
            return _schedule(row)
    return None


def all_schedules(conn: Connection, *, active_only: bool = False) -> list[StoredSchedule]:
    query = select(schedules).order_by(schedules.c.id)
    if active_only:
        query = query.where(schedules.c.active.is_(True))
    return [_schedule(r) for r in conn.execute(query).mappings()]


def claim_event(conn: Connection, schedule_id: int, starts_at: datetime) -> int | None:
    """Insert the event of a start (state "open", no tournament yet) unless it exists; its
    id, or ``None`` when another run claimed it."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    statement = (dialect.insert(scheduled_events)
                 .values(schedule_id=schedule_id, starts_at=_utc(starts_at), state="open",
                         message="")
                 .on_conflict_do_nothing(index_elements=["schedule_id", "starts_at"])
                 .returning(scheduled_events.c.id))
    found = conn.execute(statement).scalar()
    return None if found is None else int(found)


def attach_tournament(conn: Connection, event_id: int, tournament_id: int) -> bool:
    """Give a claimed event its tournament; ``False`` when it already has one."""
    done = conn.execute(update(scheduled_events)
                        .where(scheduled_events.c.id == event_id,
                               scheduled_events.c.tournament_id.is_(None))
                        .values(tournament_id=tournament_id))
    return done.rowcount == 1


def set_event_state(conn: Connection, event_id: int, *, from_state: str, state: str,
                    message: str = "") -> bool:
    """Move an event on (``False`` when another run moved it first)."""
    done = conn.execute(update(scheduled_events)
                        .where(scheduled_events.c.id == event_id,
                               scheduled_events.c.state == from_state)
                        .values(state=state, message=message[:500]))
    return done.rowcount == 1


def _events_query() -> Any:
    return (select(scheduled_events, tournaments.c.status)
            .select_from(scheduled_events.outerjoin(
                tournaments, tournaments.c.id == scheduled_events.c.tournament_id)))


def live_events(conn: Connection) -> list[StoredEvent]:
    """Events still to be started, or started and not finished, oldest start first."""
    query = (_events_query()
             .where(scheduled_events.c.state.in_(("open", "started")))
             .order_by(scheduled_events.c.starts_at, scheduled_events.c.id))
    return [e for e in map(_event, conn.execute(query).mappings())
            if e.state == "open" or e.tournament_status != "finished"]


def events_of(conn: Connection, *, schedule_id: int | None = None,
              since: datetime | None = None, limit: int = 50) -> list[StoredEvent]:
    """Events (of a schedule; starting at or after ``since``), by start."""
    query = _events_query().order_by(scheduled_events.c.starts_at, scheduled_events.c.id)
    if schedule_id is not None:
        query = query.where(scheduled_events.c.schedule_id == schedule_id)
    if since is not None:
        query = query.where(scheduled_events.c.starts_at >= _utc(since))
    return [_event(r) for r in conn.execute(query.limit(limit)).mappings()]


def event_of_tournament(conn: Connection, tournament_id: int) -> StoredEvent | None:
    row = conn.execute(_events_query().where(
        scheduled_events.c.tournament_id == tournament_id)).mappings().first()
    return None if row is None else _event(row)


# ----- age in game years (C-2) -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EntryAge:
    """A new entry and the age its player's account gives (``None``: no account or no age)."""

    number: int
    name: str
    age: int | None
    has_account: bool


def entry_ages(conn: Connection, tournament_id: int, numbers: list[int]) -> list[EntryAge]:
    """The game age of each entry's player: the accounts of the entry's person (the oldest
    age given when a person has several accounts)."""
    rows = conn.execute(
        select(entries.c.number, entries.c.name, accounts.c.id, accounts.c.game_age)
        .select_from(entries.outerjoin(accounts, accounts.c.person_id == entries.c.person_id))
        .where(entries.c.tournament_id == tournament_id, entries.c.number.in_(numbers))
        .order_by(entries.c.number)).all()
    found: dict[int, EntryAge] = {}
    for number, name, account, age in rows:
        old = found.get(number)
        ages = [a for a in (age, None if old is None else old.age) if a is not None]
        found[number] = EntryAge(int(number), str(name), max(ages) if ages else None,
                                 account is not None or (old is not None and old.has_account))
    return list(found.values())


def game_age(conn: Connection, account_id: int) -> int | None:
    value = conn.execute(select(accounts.c.game_age)
                         .where(accounts.c.id == account_id)).scalar()
    return None if value is None else int(value)


def set_game_age(conn: Connection, account_id: int, age: int | None) -> None:
    conn.execute(update(accounts).where(accounts.c.id == account_id)
                 .values(game_age=age, version=accounts.c.version + 1))


def game_ages(conn: Connection) -> dict[int, int]:
    """Every account's game age that is given, by account id."""
    return {int(i): int(a) for i, a in conn.execute(
        select(accounts.c.id, accounts.c.game_age).where(accounts.c.game_age.is_not(None)))}

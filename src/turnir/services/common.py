"""What every use case shares: the write transaction with its lock and audit, and the plain
records services return (the CLI and the web render them; they never see table rows)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from turnir.domain.model import RulesLevel as RulesLevel
from turnir.domain.model import Settings
from turnir.domain.model import Status as Status
from turnir.domain.model import TournamentFormat as TournamentFormat
from turnir.domain.text import NAME_LEN, clean_name
from turnir.errors import ConflictError, UserError
from turnir.storage import tournaments_repo
from turnir.storage.database import Database as Database
from turnir.storage.database import Tx as Tx
from turnir.storage.database import clock_of
from turnir.storage.mappers import settings_from_row, tournament_row
from turnir.storage.repositories import Change


def now_in(tx: Tx) -> datetime:
    """"Now" by the clock of the database ``tx`` belongs to (``Database.clock``; aware, UTC)."""
    return clock_of(tx).now()


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    """A stored tournament at a glance; the API answers with it (``turnir.web.api``)."""

    id: int
    name: str
    format: TournamentFormat
    rules_level: RulesLevel
    status: Status
    settings: Settings
    seed: int
    version: int
    """Changes with every change to the tournament itself, its players or its rounds."""
    created_at: datetime
    """In UTC, like every stored time (read back without its zone)."""
    finished_at: datetime | None
    players: int
    rounds: int


def tournament_info(tx: Tx, tournament_id: int) -> TournamentInfo:
    return info_from_row(tx, tournament_row(tx, tournament_id))


def info_from_row(tx: Tx, row: Mapping[Any, Any]) -> TournamentInfo:
    """The tournament of a row read in ``tx`` (``mappers.tournament_row``), with its counts."""
    held = tournaments_repo.counts(tx, row["id"])
    return TournamentInfo(
        id=row["id"], name=row["name"], format=TournamentFormat(row["format"]),
        rules_level=RulesLevel(row["rules_level"]), status=Status(row["status"]),
        settings=settings_from_row(row), seed=row["seed"], version=row["version"],
        created_at=row["created_at"], finished_at=row["finished_at"], players=held.players,
        rounds=held.rounds,
    )


def check_actor(actor: str) -> str:
    """Who makes a change, as a name (``turnir.domain.text``): stored in every audit record."""
    cleaned = clean_name(actor, field="actor's name", max_len=NAME_LEN, required=False)
    if not cleaned:
        raise UserError("every change needs the name of who makes it", code="no_actor")
    return cleaned


@contextmanager
def changing(db: Database, tournament_id: int | None, actor: str, *,
             lock: bool = True) -> Iterator[Change]:
    """One use case's write transaction: the tournament locked (when given), committed at the
    end of the block, rolled back on any error so the database is left unchanged.

    ``lock=False``: the caller takes the tournament's lock itself
    (``storage.database.lock_tournament``) before anything else reads or writes it (the
    result path, which reads the tournament's row in the statement after the lock)."""
    who = check_actor(actor)
    with db.write(lock=tournament_id if lock else None) as conn:
        yield Change(conn=conn, actor=who, at=db.clock.now(), locked=tournament_id)


@contextmanager
def reading(db: Database) -> Iterator[Tx]:
    """One use case's read transaction: one consistent snapshot, never blocking writers."""
    with db.read() as tx:
        yield tx


def refuse_when_finished(row: Mapping[Any, Any]) -> None:
    if row["status"] == Status.FINISHED:
        raise ConflictError("the tournament {name!r} is finished; nothing can change in it",
                            code="finished", name=row["name"])


def touch_tournament(tx: Tx, row: Mapping[Any, Any], **values: object) -> int:
    """Count a change to the tournament's players or rounds: its version goes up by one."""
    return tournaments_repo.touch(tx, int(row["id"]), int(row["version"]), dict(values))

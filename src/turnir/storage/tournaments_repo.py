"""The statements about a tournament's own row (``tournaments``): finding it, creating it,
counting what it holds, bumping its version, finishing it. They never commit: the service that
calls them owns the transaction (``turnir.services.common.changing``/``reading``).

The row itself is read by ``turnir.storage.mappers.tournament_row`` and found by number or
name with ``turnir.storage.repositories.find_tournament_id``; its settings columns are
mapped to and from ``Settings`` in one place, ``mappers.settings_from_row`` and
``mappers.settings_columns``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, RowMapping, func, insert, select

from turnir.domain.model import RulesLevel, Settings, Status, TournamentFormat
from turnir.storage.mappers import settings_columns
from turnir.storage.repositories import bump_version
from turnir.storage.tables import entries, rounds, tournaments


@dataclass(frozen=True, slots=True)
class Counts:
    """How many players and rounds a tournament has."""

    players: int
    rounds: int


def counts(conn: Connection, tournament_id: int) -> Counts:
    players = conn.execute(
        select(func.count()).select_from(entries).where(entries.c.tournament_id == tournament_id)
    ).scalar_one()
    played = conn.execute(
        select(func.count()).select_from(rounds).where(rounds.c.tournament_id == tournament_id)
    ).scalar_one()
    return Counts(players=int(players), rounds=int(played))


def tournament_rows(conn: Connection, *, status: Status | None = None) -> list[RowMapping]:
    """Every stored tournament's row (of one status, when given), newest first."""
    query = select(tournaments).order_by(tournaments.c.id.desc())
    if status is not None:
        query = query.where(tournaments.c.status == status.value)
    return list(conn.execute(query).mappings())


def insert_tournament(
    conn: Connection, *, name: str, format: TournamentFormat, rules_level: RulesLevel,
    settings: Settings, seed: int, status: Status, undone: Iterable[int], at: datetime,
    actor: str,
) -> int:
    """A new tournament's row (version 1); returns its id."""
    return int(conn.execute(insert(tournaments).values(
        name=name, format=TournamentFormat(format).value,
        rules_level=RulesLevel(rules_level).value, seed=seed, status=Status(status).value,
        undone=list(undone), version=1, created_at=at, created_by=actor,
        **settings_columns(settings),
    ).returning(tournaments.c.id)).scalar_one())


def touch(conn: Connection, tournament_id: int, version: int, values: dict[str, Any]) -> int:
    """Count a change to the tournament (its players, rounds or the row itself): the version
    goes from ``version`` up by one, with ``values`` set; returns the new version."""
    bump_version(conn, tournaments, tournament_id, version, values)
    return version + 1

"""Read-only use cases: standings from the database (T-1..T-9), the audit log."""

from __future__ import annotations

from dataclasses import dataclass

from turnir.domain.standings import Standings
from turnir.domain.tournament import Tournament
from turnir.services.common import TournamentInfo, reading, tournament_info
from turnir.storage.database import Database
from turnir.storage.mappers import load_tournament, tournament_row
from turnir.storage.repositories import AuditEntry, audit_entries


@dataclass(frozen=True, slots=True)
class StandingsView:
    """The standings with what a page or a file shows around them, from one snapshot."""

    info: TournamentInfo
    """The tournament at a glance (its name, status and version)."""
    tournament: Tournament
    """The whole aggregate, for the players' names and the rounds."""
    standings: Standings
    """Every player's place, points and tiebreaks (T-1..T-9)."""


def get_standings(db: Database, tournament_id: int) -> StandingsView:
    """The Swiss standings with every tiebreak, computed from one snapshot of the database."""
    with reading(db) as conn:
        info = tournament_info(conn, tournament_id)
        t = load_tournament(conn, tournament_id)
    return StandingsView(info, t, t.standings())


def audit_log(
    db: Database, tournament_id: int, *, entity: str | None = None, action: str | None = None,
    since_id: int = 0, limit: int | None = None,
) -> list[AuditEntry]:
    """The tournament's audit log, oldest first; ``action`` matches a prefix (``result``)."""
    with reading(db) as conn:
        tournament_row(conn, tournament_id)
        return audit_entries(conn, tournament_id, entity=entity, action=action,
                             since_id=since_id, limit=limit)

"""Where a staff account lands after logging in (issue 12, QA h11 L1): the running
tournaments where the account is on the staff, newest first, with its roles there. It never
commits: the service owns the transaction."""

from __future__ import annotations

from sqlalchemy import Connection, select

from turnir.domain.model import StaffRole, Status
from turnir.storage.tables import judges, tournaments


def running_staff_roles(conn: Connection, account_id: int) -> list[tuple[int, StaffRole]]:
    """(tournament, role) for every staff row of the account in a running tournament, the
    newest tournament first."""
    rows = conn.execute(
        select(judges.c.tournament_id, judges.c.role)
        .join(tournaments, tournaments.c.id == judges.c.tournament_id)
        .where(judges.c.account_id == account_id,
               tournaments.c.status == Status.RUNNING.value)
        .order_by(tournaments.c.created_at.desc(), tournaments.c.id.desc(), judges.c.id))
    return [(int(tid), StaffRole(role)) for tid, role in rows]

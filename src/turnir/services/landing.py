"""Where a staff account lands after logging in (issue 12, QA h11 L1): the tournament it
works at now, the newest running tournament where the account is on the staff; its organizers
manage it, its judges record results (the web picks the page)."""

from __future__ import annotations

from dataclasses import dataclass

from turnir.domain.model import StaffRole
from turnir.services.common import Database, reading
from turnir.storage.staff_landing import running_staff_roles


@dataclass(frozen=True, slots=True)
class StaffLanding:
    """The tournament a staff account works at now and whether it organizes it."""

    tournament_id: int
    organizer: bool


def staff_landing(db: Database, account_id: int | None) -> StaffLanding | None:
    """The newest running tournament where the account is on the staff (``None``: none, or no
    account), with ``organizer`` when one of its roles there is the organizer's."""
    if account_id is None:
        return None
    with reading(db) as tx:
        rows = running_staff_roles(tx, account_id)
    if not rows:
        return None
    newest = rows[0][0]
    return StaffLanding(newest, any(tid == newest and role is StaffRole.ORGANIZER
                                    for tid, role in rows))

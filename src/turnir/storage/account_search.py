"""The accounts an organizer may pick from to give a staff role (``turnir.services.staff_page``):
every active account that is not a player's, with its name and login. They never commit."""

from __future__ import annotations

from sqlalchemy import Connection, select

from turnir.domain.accounts import AccountRole
from turnir.storage.staff_rows import StaffAccount
from turnir.storage.tables_accounts import accounts


def staff_candidates(conn: Connection) -> list[StaffAccount]:
    """Active accounts that are not players', by name then login (a few columns each: a
    server with thousands of accounts reads them in milliseconds; the search itself is
    ``turnir.domain.text.name_matches``, the same as every other name search)."""
    rows = conn.execute(
        select(accounts.c.id, accounts.c.login, accounts.c.name, accounts.c.role,
               accounts.c.active)
        .where(accounts.c.active.is_(True), accounts.c.role != AccountRole.PLAYER.value)
        .order_by(accounts.c.name, accounts.c.login)).all()
    return [StaffAccount(id=int(r.id), login=r.login, name=r.name, role=AccountRole(r.role),
                         active=bool(r.active)) for r in rows]

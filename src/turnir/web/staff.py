"""The visitor's role in one tournament (issue 10 item 1): what the judge-only routes check.

Roles are per tournament: an account is the organizer, the head judge or a floor judge of a
tournament only through a staff row of that tournament linked to it
(``turnir.services.judges``); a player's account is a player everywhere (the services check that
a report is for the player's own match); anyone else is anonymous. The route's allowed roles
are the same sets as before (``ORGANIZER``, ``HEAD``, ``JUDGES`` of ``turnir.web.security``),
now evaluated in the tournament of the URL. The dependencies that check them live in
``turnir.web.deps`` (``OrganizerDep``, ``HeadDep``, ``JudgesDep``, ``StaffDep``).
"""

from __future__ import annotations

from dataclasses import dataclass

from turnir.services.accounts import AccountInfo, AccountRole
from turnir.services.common import Database
from turnir.services.judges import NotStaffError, staff_role
from turnir.web.security import HEAD, JUDGES, ORGANIZER, Forbidden, LoginRequired, Role


@dataclass(frozen=True, slots=True)
class Staff:
    """A visitor as seen by one tournament."""

    tournament_id: int
    account: AccountInfo | None
    role: Role | None
    """In this tournament: organizer, head judge or floor judge (a staff row linked to the
    account), player (a player's account), anonymous; ``None`` for an account with no role
    here."""

    def may(self, allowed: frozenset[Role]) -> bool:
        return self.role is not None and self.role in allowed

    def require(self, allowed: frozenset[Role]) -> AccountInfo:
        """The account when its role here is in ``allowed``; else 401 (anonymous) or 403."""
        if self.account is None:
            raise LoginRequired("log in to do this")
        if self.may(allowed):
            return self.account
        if self.role is None:
            raise NotStaffError("you have no role in tournament #{tournament}; its organizer "
                                "adds you to its staff", tournament=self.tournament_id)
        raise Forbidden("your role in this tournament does not allow this")

    @property
    def actor(self) -> str:
        """The name written to the audit log."""
        if self.account is None:
            raise LoginRequired("log in first")
        return self.account.name

    @property
    def account_id(self) -> int | None:
        """What the services check again (``None`` only for the anonymous)."""
        return None if self.account is None else self.account.id

    @property
    def is_judge(self) -> bool:
        """May see the judges' pages of this tournament (any staff role)."""
        return self.may(JUDGES)

    @property
    def is_head(self) -> bool:
        """Organizer or head judge here: drops, appeals."""
        return self.may(HEAD)

    @property
    def is_organizer(self) -> bool:
        return self.may(ORGANIZER)


def staff_for(db: Database, tournament_id: int, account: AccountInfo | None) -> Staff:
    """The visitor's role in the tournament (``turnir.services.judges.staff_role``); an unknown
    tournament is 404 for a signed-in staff account."""
    if account is None:
        return Staff(tournament_id, None, Role.ANONYMOUS)
    if account.role is AccountRole.PLAYER:
        return Staff(tournament_id, account, Role.PLAYER)
    found = staff_role(db, tournament_id, account.id)
    return Staff(tournament_id, account, None if found is None else Role(found.value))

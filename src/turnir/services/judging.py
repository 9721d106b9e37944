"""Who acts in a judging role (J-5, J-7, J-8): the judge a penalty service acts as, found
among the tournament's judges (``services.judges``), and the domain's view of them.

A penalty is given by a head judge or a floor judge of the tournament; the catalogue and the
judging settings are edited by the organizer or the head judge; appeals, withdrawals and
technical results are the head judge's. The person is named by ``judge=`` (default: the actor);
a name that is not a judge of the tournament is refused with a hint to add them. A web account
(``account_id=``) acts as the staff row linked to it, never by name (issue 10 item 1).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import Connection, RowMapping, select

from turnir.domain.penalties import Judge, JudgeRole, RulesLevel
from turnir.domain.text import NAME_LEN, clean_name
from turnir.errors import UserError
from turnir.services.common import utc_now
from turnir.services.judges import JudgeRole as Role
from turnir.services.judges import NotStaffError
from turnir.storage.mappers import name_key
from turnir.storage.staff_rows import account_rows
from turnir.storage.tables import judges


@dataclass(frozen=True, slots=True)
class ActingJudge:
    """A judge of the tournament acting now."""

    id: int
    """The ``judges`` row."""
    name: str
    role: Role
    official_representative: bool

    @property
    def is_head(self) -> bool:
        return self.role is Role.HEAD_JUDGE

    @property
    def judge(self) -> Judge:
        """The domain's judge (head or floor)."""
        return Judge(self.name, JudgeRole.HEAD if self.is_head else JudgeRole.FLOOR,
                     official_representative=self.official_representative)


def level_of(row: RowMapping) -> RulesLevel:
    """The tournament row's rules level as the domain sees it (J-7)."""
    return RulesLevel(row["rules_level"])


def today() -> date:
    """The day penalties, suspensions and registrations are dated with (UTC)."""
    return utc_now().date()


_PREFERENCE = (Role.HEAD_JUDGE, Role.FLOOR_JUDGE, Role.ORGANIZER)


def _as_acting(row: RowMapping) -> ActingJudge:
    return ActingJudge(row["id"], row["name"], Role(row["role"]),
                       bool(row["official_representative"]))


def roles_of(conn: Connection, tournament_id: int, name: str, *,
             account_id: int | None = None) -> list[ActingJudge]:
    """Every role ``name`` has in the tournament, head judge first; with ``account_id``, the
    roles of the staff rows linked to that web account instead (names do not count)."""
    if account_id is not None:
        rows = account_rows(conn, tournament_id, account_id)
    else:
        rows = list(conn.execute(
            select(judges).where(judges.c.tournament_id == tournament_id,
                                 judges.c.name_key == name_key(clean_name(
                                     name, field="judge's name", max_len=NAME_LEN)))
        ).mappings())
    found = [_as_acting(row) for row in rows]
    return sorted(found, key=lambda j: _PREFERENCE.index(j.role))


def acting_judge(conn: Connection, tournament_id: int, name: str, *, what: str,
                 roles: tuple[Role, ...] = (Role.HEAD_JUDGE, Role.FLOOR_JUDGE),
                 account_id: int | None = None) -> ActingJudge:
    """The judge ``name`` acting in one of ``roles``; refused with the reason otherwise.

    ``account_id``: the web account acting (issue 10 item 1): the judge is the one linked to
    it, and an account with no role in the tournament is ``NotStaffError`` (403). Without it
    (the CLI, the local operator) the judge is found by name."""
    found = roles_of(conn, tournament_id, name, account_id=account_id)
    for acting in found:
        if acting.role in roles:
            return acting
    allowed = " or ".join(r.value.replace("_", " ") for r in roles)
    if account_id is not None and not found:
        raise NotStaffError(f"you have no role in tournament #{tournament_id}; only its "
                            f"{allowed} may {what}")
    if found:
        has = ", ".join(a.role.value.replace("_", " ") for a in found)
        raise UserError(f"{found[0].name} is {has} of this tournament; only the {allowed} may "
                        f"{what}", code="not_allowed")
    raise UserError(f"{' '.join(name.split())!r} is not a judge of this tournament; only the "
                    f"{allowed} may {what} (add them with `turnir judge add`)",
                    code="not_a_judge")


def head_judge(conn: Connection, tournament_id: int) -> ActingJudge | None:
    row = conn.execute(
        select(judges).where(judges.c.tournament_id == tournament_id,
                             judges.c.role == Role.HEAD_JUDGE.value)
    ).mappings().first()
    return None if row is None else _as_acting(row)


def confirming_head_judge(conn: Connection, tournament_id: int, name: str) -> ActingJudge:
    """The head judge named as confirming a deviation (J-7)."""
    head = head_judge(conn, tournament_id)
    if head is None:
        raise UserError("the tournament has no head judge to confirm a deviation (J-7)",
                        code="no_head_judge")
    if name_key(name) != name_key(head.name):
        raise UserError(f"{' '.join(name.split())!r} is not the head judge ({head.name}); only "
                        "the head judge confirms a deviation from the guide (J-7)",
                        code="not_head_judge")
    return head

"""Who acts in a judging role (J-5, J-7, J-8): the judge a penalty service acts as, found
among the tournament's judges (``services.judges``), and the domain's view of them.

A penalty is given by a head judge or a floor judge of the tournament; the catalogue and the
judging settings are edited by the organizer or the head judge; appeals, withdrawals and
technical results are the head judge's. The person is named by ``judge=`` (default: the actor);
a name that is not a judge of the tournament is refused with a hint to add them. A web account
(``account_id=``) acts as the staff row linked to it, never by name (issue 10 item 1).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from turnir.domain.model import RulesLevel
from turnir.domain.model import StaffRole as Role
from turnir.domain.penalties import Judge, JudgeRole
from turnir.domain.text import NAME_LEN, clean_name, name_key
from turnir.errors import Term, UserError
from turnir.services.common import Tx, now_in
from turnir.services.judges import NotStaffError
from turnir.storage.penalties_repo import judges_named, staff_with_role
from turnir.storage.staff_rows import account_rows


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
        return Judge(self.name, JudgeRole.of_staff(self.role),
                     official_representative=self.official_representative)


def level_of(row: Mapping[Any, Any]) -> RulesLevel:
    """The tournament row's rules level as the domain sees it (J-7)."""
    return RulesLevel(row["rules_level"])


def utc_today_in(tx: Tx) -> date:
    """The day penalties, suspensions and registrations are dated with (UTC), by the clock of
    the database of ``tx``."""
    return now_in(tx).date()


_PREFERENCE = (Role.HEAD_JUDGE, Role.FLOOR_JUDGE, Role.ORGANIZER)


def _as_acting(row: Mapping[Any, Any]) -> ActingJudge:
    return ActingJudge(row["id"], row["name"], Role(row["role"]),
                       bool(row["official_representative"]))


def roles_of(conn: Tx, tournament_id: int, name: str, *,
             account_id: int | None = None) -> list[ActingJudge]:
    """Every role ``name`` has in the tournament, head judge first; with ``account_id``, the
    roles of the staff rows linked to that web account instead (names do not count)."""
    if account_id is not None:
        rows = account_rows(conn, tournament_id, account_id)
    else:
        rows = judges_named(conn, tournament_id,
                            clean_name(name, field="judge's name", max_len=NAME_LEN))
    found = [_as_acting(row) for row in rows]
    return sorted(found, key=lambda j: _PREFERENCE.index(j.role))


def acting_judge(conn: Tx, tournament_id: int, name: str, *, what: str,
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
    allowed = _ALLOWED.get(roles) or " or ".join(r.value.replace("_", " ") for r in roles)
    if account_id is not None and not found:
        raise NotStaffError("you have no role in tournament #{tournament}; only its {allowed} "
                            "may {what}", tournament=tournament_id, allowed=allowed, what=what)
    if found:
        has = tuple(a.role for a in found)
        raise UserError("{name} is {roles} of this tournament; only the {allowed} may {what}",
                        code="not_allowed", name=found[0].name,
                        roles=_HAS.get(has) or ", ".join(r.value.replace("_", " ") for r in has),
                        allowed=allowed, what=what)
    raise UserError("{name!r} is not a judge of this tournament; only the {allowed} may {what} "
                    "(an organizer adds judges to the tournament's staff first)",
                    code="not_a_judge", name=" ".join(name.split()), allowed=allowed, what=what)


_ALLOWED: dict[tuple[Role, ...], Term] = {
    (Role.HEAD_JUDGE, Role.FLOOR_JUDGE): Term("head judge or floor judge"),
    (Role.HEAD_JUDGE,): Term("head judge"),
    (Role.ORGANIZER, Role.HEAD_JUDGE): Term("organizer or head judge"),
}
"""Who may act, in words, for the role sets the penalty services ask for."""

_HAS: dict[tuple[Role, ...], Term] = {
    (Role.ORGANIZER,): Term("organizer"),
    (Role.FLOOR_JUDGE,): Term("floor judge"),
    (Role.HEAD_JUDGE,): Term("head judge"),
    (Role.FLOOR_JUDGE, Role.ORGANIZER): Term("floor judge, organizer"),
}
"""The roles a person has who may not act (in ``_PREFERENCE`` order), in words."""


def head_judge(conn: Tx, tournament_id: int) -> ActingJudge | None:
    row = staff_with_role(conn, tournament_id, Role.HEAD_JUDGE.value)
    return None if row is None else _as_acting(row)


def confirming_head_judge(conn: Tx, tournament_id: int, name: str) -> ActingJudge:
    """The head judge named as confirming a deviation (J-7)."""
    head = head_judge(conn, tournament_id)
    if head is None:
        raise UserError("the tournament has no head judge to confirm a deviation (J-7)",
                        code="no_head_judge")
    if name_key(name) != name_key(head.name):
        raise UserError("{name!r} is not the head judge ({head}); only the head judge confirms "
                        "a deviation from the guide (J-7)", code="not_head_judge",
                        name=" ".join(name.split()), head=head.name)
    return head

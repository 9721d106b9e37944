"""The staff of a tournament (судейская коллегия) and their roles (J-5, J-7, J-8; issue 10
item 1): its organizer (организатор), its head judge (главный судья, one per tournament) and its
floor judges (судьи в зале); the official representative flag matters for suspensions (J-5).

**Roles are per tournament.** A web account has rights in a tournament only through a staff row
of that tournament linked to it (``judges.account_id``); the account's own role on the server
(``turnir.services.accounts``) gives none. What each role may do is one of three sets:
``ORGANIZER_ONLY`` (registration, rounds, the clock, finishing, the staff), ``HEAD_OR_ORGANIZER``
(drops, appeals) and ``ANY_STAFF`` (results, corrections, the judges' pages). The creator of a
tournament, when it is created by an account, becomes its organizer.

A service that changes what only staff may change takes ``account_id``: the web account making
the change, refused (``NotStaffError``) unless it has one of the allowed roles in that
tournament. ``None`` is the local operator: the CLI, whose shell access to the database makes it
the administrator. A staff row without an account is a judge named for the record (and for the
CLI, which names its judge); it gives no web account any right.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from turnir.domain.accounts import AccountRole
from turnir.domain.model import StaffRole
from turnir.domain.text import LOGIN_LEN, NAME_LEN, BadTextError, clean_login, clean_name
from turnir.errors import ForbiddenError, NotFoundError, Term, UserError
from turnir.services.common import Tx, changing, reading, touch_tournament
from turnir.storage import staff_rows
from turnir.storage.database import Database
from turnir.storage.mappers import name_key, tournament_row
from turnir.storage.repositories import Change, person_for
from turnir.storage.staff_rows import StaffAccount, StaffMember

JudgeRole = StaffRole
"""The old name of ``StaffRole`` (``turnir.domain.model``), for the callers still using it."""

ORGANIZER_ONLY = frozenset({StaffRole.ORGANIZER})
"""Registration and check-in, pairing and undoing rounds, the round clock, finishing, the staff,
player logins."""
HEAD_OR_ORGANIZER = frozenset({StaffRole.ORGANIZER, StaffRole.HEAD_JUDGE})
"""Dropping players, deciding appeals."""
ANY_STAFF = frozenset(StaffRole)
"""Recording and correcting results, penalties, the judges' pages (grid, printables, penalty list
and report)."""
_RANK = (StaffRole.ORGANIZER, StaffRole.HEAD_JUDGE, StaffRole.FLOOR_JUDGE)
_SPOKEN = {
    frozenset({StaffRole.ORGANIZER}): Term("organizer"),
    frozenset({StaffRole.HEAD_JUDGE}): Term("head judge"),
    frozenset({StaffRole.FLOOR_JUDGE}): Term("floor judge"),
    frozenset({StaffRole.ORGANIZER, StaffRole.HEAD_JUDGE}): Term("organizer or head judge"),
    frozenset({StaffRole.ORGANIZER, StaffRole.FLOOR_JUDGE}): Term("organizer or floor judge"),
    frozenset({StaffRole.HEAD_JUDGE, StaffRole.FLOOR_JUDGE}): Term("head judge or floor judge"),
    frozenset(StaffRole): Term("organizer or head judge or floor judge"),
}
"""A set of roles as words ("only its organizer or head judge may …")."""
_ACTIONS: dict[str, Term] = {action: action for action in (
    Term("register players"), Term("check players in"), Term("drop players"),
    Term("pair rounds"), Term("undo rounds"), Term("finish the tournament"),
    Term("change the staff"), Term("record results"), Term("start the clock"),
    Term("allow or stop the robot"), Term("run the clock"),
)}
"""What ``check_staff`` callers refuse (``what=``), as words to translate."""


class NotStaffError(ForbiddenError):
    """A web account acting in a tournament where it has no (or not the needed) role (403)."""

    code = "not_staff"


@dataclass(frozen=True, slots=True)
class JudgeInfo:
    id: int
    name: str
    role: StaffRole
    official_representative: bool
    person_id: int | None
    version: int
    account_id: int | None = None
    """The web account acting in this role (``None``: named only)."""
    login: str | None = None
    """That account's login."""


def _info(member: StaffMember) -> JudgeInfo:
    return JudgeInfo(id=member.id, name=member.name, role=member.role,
                     official_representative=member.official_representative,
                     person_id=member.person_id, version=member.version,
                     account_id=member.account_id, login=member.login)


def _spoken(roles: Iterable[StaffRole]) -> Term:
    return _SPOKEN[frozenset(roles)]


# ----- what role an account has in a tournament ------------------------------------------


def staff_roles_in(tx: Tx, tournament_id: int, account_id: int) -> list[StaffRole]:
    """Every role the account has in the tournament, the highest first."""
    found = {StaffRole(r) for r in staff_rows.account_roles(tx, tournament_id, account_id)}
    return [r for r in _RANK if r in found]


def staff_role(db: Database, tournament_id: int, account_id: int) -> StaffRole | None:
    """The one answer to "what role does this account have in tournament T": its highest
    (organizer, then head judge, then floor judge; each may do what the next may), or ``None``.
    An unknown tournament is ``NotFoundError``."""
    with reading(db) as tx:
        tournament_row(tx, tournament_id)
        roles = staff_roles_in(tx, tournament_id, account_id)
    return roles[0] if roles else None


def check_staff(tx: Tx, tournament_id: int, account_id: int | None,
                allowed: frozenset[StaffRole], *, what: str) -> None:
    """Refuse the web account ``account_id`` unless it has one of ``allowed`` in the tournament;
    ``None`` (the local operator, the CLI) is never refused. ``what``: the action refused, in
    words (one of ``_ACTIONS``, which translates them)."""
    if account_id is None:
        return
    roles = staff_roles_in(tx, tournament_id, account_id)
    action = _ACTIONS.get(what, what)
    if not roles:
        raise NotStaffError("you have no role in tournament #{tournament}; only its "
                            "{allowed} may {what}", tournament=tournament_id,
                            allowed=_spoken(allowed), what=action)
    if not allowed & set(roles):
        raise NotStaffError("you are {roles} of tournament #{tournament}; only its "
                            "{allowed} may {what}", code="forbidden", roles=_spoken(roles),
                            tournament=tournament_id, allowed=_spoken(allowed), what=action)


# ----- adding and removing staff ---------------------------------------------------------


def account_for_staff(tx: Tx, login: str) -> StaffAccount:
    """The account ``login`` names, when it may be staff: active, not a player's."""
    try:
        key = clean_login(login, field="login", max_len=LOGIN_LEN)
    except BadTextError as error:
        raise UserError("{reason}", code="bad_login", reason=error) from None
    account = staff_rows.account_by_login(tx, key)
    if account is None:
        raise NotFoundError("no account {login!r}", code="unknown_account", login=key)
    if account.role is AccountRole.PLAYER:
        raise UserError("{login!r} is a player's login; a judge needs a login of their own",
                        code="player_account", login=account.login)
    if not account.active:
        raise UserError("the account {login!r} is deactivated", code="inactive_account",
                        login=account.login)
    return account


def _check_free(existing: Sequence[StaffMember], cleaned: str, role: StaffRole,
                account_id: int | None) -> None:
    for judge in existing:
        same_person = (judge.name_key == name_key(cleaned) if account_id is None
                       else judge.account_id == account_id)
        if same_person and judge.role is role:
            raise UserError("{name} is already {role}", code="duplicate_judge",
                            name=judge.name, role=_spoken({role}))
        if role is StaffRole.HEAD_JUDGE and judge.role is StaffRole.HEAD_JUDGE:
            raise UserError("{name} is already the head judge", code="duplicate_judge",
                            name=judge.name)


def add_staff_in(change: Change, tournament_id: int, *, name: str, role: StaffRole,
                 official_representative: bool = False,
                 account: StaffAccount | None = None) -> JudgeInfo:
    """Give a person a role, inside the caller's transaction. With ``account``, the row is
    linked to it; a row of the same name and role without an account is linked instead of
    adding another."""
    conn = change.conn
    cleaned = clean_name(name or (account.name if account is not None else ""),
                         field="judge's name", max_len=NAME_LEN)
    account_id = None if account is None else account.id
    existing = staff_rows.staff_rows(conn, tournament_id)
    login = None if account is None else account.login
    named = next((j for j in existing if account_id is not None and j.account_id is None
                  and j.name_key == name_key(cleaned) and j.role is role), None)
    if named is not None:
        judge_id = named.id
        staff_rows.set_account(conn, judge_id, named.version, account_id)
        change.log(tournament_id, "judge.link", "judge", judge_id, {"account": None},
                   {"account": login, "role": role.value})
    else:
        _check_free(existing, cleaned, role, account_id)
        person = person_for(conn, name=cleaned, city="", club="", at=change.at)
        judge_id = staff_rows.insert_staff(
            conn, tournament_id, name=cleaned, role=role, person_id=person,
            account_id=account_id, official_representative=official_representative)
        change.log(tournament_id, "judge.add", "judge", judge_id, None, {
            "name": cleaned, "role": role.value,
            "official_representative": official_representative,
            **({"account": login} if login is not None else {}),
        })
    found = staff_rows.staff_row(conn, tournament_id, judge_id)
    assert found is not None
    return _info(found)


def add_judge(
    db: Database, tournament_id: int, *, name: str = "", role: StaffRole, actor: str,
    official_representative: bool = False, login: str | None = None,
    account_id: int | None = None,
) -> JudgeInfo:
    """Give a person a role in the tournament; one head judge per tournament (J-8).

    ``login``: the web account that acts in this role (``name`` defaults to its name); without
    it the judge is named only. ``account_id``: the web account making the change, which must
    be the tournament's organizer. Staff can be added after the end too (to read the judges'
    pages; nothing in a finished tournament changes)."""
    role = StaffRole(role)
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        row = tournament_row(conn, tournament_id)
        check_staff(conn, tournament_id, account_id, ORGANIZER_ONLY, what="change the staff")
        account = None if login is None else account_for_staff(conn, login)
        made = add_staff_in(change, tournament_id, name=name, role=role,
                            official_representative=official_representative, account=account)
        touch_tournament(conn, row)
        return made


def remove_staff(db: Database, tournament_id: int, judge_id: int, *, actor: str,
                 account_id: int | None = None) -> JudgeInfo:
    """Take the web account off a staff row: the account loses that role in the tournament;
    the row stays, named, for the record (penalties and reports name their judge). The last
    organizer with a login is kept (add another first)."""
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        row = tournament_row(conn, tournament_id)
        check_staff(conn, tournament_id, account_id, ORGANIZER_ONLY, what="change the staff")
        judge = staff_rows.staff_row(conn, tournament_id, judge_id)
        if judge is None:
            raise NotFoundError("no staff member #{judge} in this tournament",
                                code="unknown_judge", judge=judge_id)
        if judge.account_id is None:
            raise UserError("{name} has no login in this tournament", code="no_login",
                            name=judge.name)
        organizers = [j for j in staff_rows.staff_rows(conn, tournament_id)
                      if j.role is StaffRole.ORGANIZER and j.account_id is not None]
        if judge.role is StaffRole.ORGANIZER and len(organizers) == 1:
            raise UserError("the tournament keeps at least one organizer with a login; add "
                            "another organizer first", code="last_staff_organizer")
        account = staff_rows.account_by_id(conn, judge.account_id)
        staff_rows.set_account(conn, judge_id, judge.version, None)
        touch_tournament(conn, row)
        change.log(tournament_id, "judge.unlink", "judge", judge_id,
                   {"account": account.login if account is not None else None,
                    "role": judge.role.value}, {"account": None})
        found = staff_rows.staff_row(conn, tournament_id, judge_id)
        assert found is not None
        return _info(found)


def list_judges(db: Database, tournament_id: int) -> list[JudgeInfo]:
    """The tournament's staff in the order they were added, with their logins."""
    with reading(db) as tx:
        tournament_row(tx, tournament_id)
        return [_info(member) for member in staff_rows.staff_rows(tx, tournament_id)]

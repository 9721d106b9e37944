"""The staff page of a tournament (issue 12, «Судейская коллегия»): who its organizer, head judge
and floor judges are and what each role may do; finding an account to give a role by its name
or login; a new account made there, given a staff role at once when wanted.

- **What each role may do** (``ABILITIES``) is read from the role sets the services check
  (``turnir.services.judges``: ``ORGANIZER_ONLY``, ``HEAD_OR_ORGANIZER``, ``ANY_STAFF``, and the
  judging roles of ``turnir.services.judging``), so the table cannot say more than the code
  allows.
- **Finding an account** (``search_accounts``): every word of the query in the account's name
  or login, in any order, case and ё/е ignored (as ``turnir.domain.text.name_matches``); at
  most ``SEARCH_LIMIT`` answers, each with the roles it already has here; players' accounts
  left out (they cannot be staff). The accounts are read once (a few columns; thousands take
  milliseconds) and the scan stops once one more than the limit is found.
- **A new account** (``create_account_here``): a player's (the default; it names one of this
  tournament's players) or a judge's or organizer's account, made only by an organizer of the
  site who is an organizer of this tournament; a non-player account may join the staff in the
  same transaction. Both are in the audit log, as when made apart.

Adding and removing staff is not a game change: allowed after the finish too (logged;
``turnir.services.judges.add_judge``).
"""

from __future__ import annotations

from dataclasses import dataclass

from argon2 import PasswordHasher

from turnir.domain.accounts import AccountRole
from turnir.domain.model import StaffRole
from turnir.domain.text import QUERY_LEN, clean_query, search_key, search_words
from turnir.errors import ForbiddenError, UserError
from turnir.services.accounts import AccountInfo, insert_account_in, new_account
from turnir.services.common import Database, TournamentInfo, changing, reading, touch_tournament
from turnir.services.judges import (
    ANY_STAFF,
    HEAD_OR_ORGANIZER,
    ORGANIZER_ONLY,
    JudgeInfo,
    account_for_staff,
    add_staff_in,
    check_staff,
    list_judges,
)
from turnir.services.players import PlayerInfo, list_players_in
from turnir.services.tournaments import find_tournament
from turnir.storage.account_search import staff_candidates
from turnir.storage.accounts_repo import account_by_id
from turnir.storage.mappers import tournament_row
from turnir.storage.staff_rows import staff_rows

SEARCH_LIMIT = 20
"""The most accounts one search shows (type more of the name to narrow it)."""

JUDGING = frozenset({StaffRole.HEAD_JUDGE, StaffRole.FLOOR_JUDGE})
"""Who gives penalties and decides claims after time-out (``services.judging.acting_judge``)."""
HEAD_ONLY = frozenset({StaffRole.HEAD_JUDGE})
"""Appeals, technical results (S-8), submitting to the rating (J-8)."""


@dataclass(frozen=True, slots=True)
class Ability:
    """One line of the roles table: what may be done, and by which roles."""

    key: str
    """What it is (the page words it by this key)."""
    roles: frozenset[StaffRole]


ABILITIES = (
    Ability("players", ORGANIZER_ONLY),
    Ability("rounds", ORGANIZER_ONLY),
    Ability("results", ANY_STAFF),
    Ability("drops", HEAD_OR_ORGANIZER),
    Ability("penalties", JUDGING),
    Ability("claims", JUDGING),
    Ability("appeals", HEAD_ONLY),
    Ability("technical", HEAD_ONLY),
    Ability("catalogue", HEAD_OR_ORGANIZER),
    Ability("rating_terms", HEAD_OR_ORGANIZER),
    Ability("rating_submit", HEAD_ONLY),
    Ability("staff", ORGANIZER_ONLY),
)
"""What each role may do, as the services check it (the module docstring)."""


@dataclass(frozen=True, slots=True)
class StaffPage:
    info: TournamentInfo
    staff: list[JudgeInfo]
    """The staff rows in the order they were added (a row without login: named only)."""
    players: list[PlayerInfo]
    """The tournament's players (a new player's account names one of them)."""


def staff_page(db: Database, tournament_id: int) -> StaffPage:
    info = find_tournament(db, tournament_id)
    staff = list_judges(db, tournament_id)
    with reading(db) as tx:
        players = list_players_in(tx, tournament_id)
    return StaffPage(info, staff, players)


@dataclass(frozen=True, slots=True)
class Candidate:
    """An account that may be given a staff role."""

    login: str
    name: str
    role: AccountRole
    """Its role on the server (organizer, head judge or floor judge)."""
    roles_here: tuple[StaffRole, ...] = ()
    """The roles it already has in this tournament."""


@dataclass(frozen=True, slots=True)
class FoundAccounts:
    query: str
    accounts: list[Candidate]
    """At most ``SEARCH_LIMIT``, by name."""
    more: bool
    """More accounts matched than are shown."""


def search_accounts(db: Database, tournament_id: int, query: str, *,
                    limit: int = SEARCH_LIMIT) -> FoundAccounts:
    """The active non-player accounts whose name and login hold every word of ``query``
    (``turnir.domain.text.name_matches``; nothing for an empty query), with the roles each
    already has in the tournament. The scan stops at the first ``limit + 1`` matches."""
    wanted = clean_query(query, field="search", max_len=QUERY_LEN)
    if not wanted:
        return FoundAccounts("", [], False)
    words = search_words(wanted)
    with reading(db) as tx:
        tournament_row(tx, tournament_id)
        rows = staff_candidates(tx)
        here = staff_rows(tx, tournament_id)
    matched = []
    for row in rows:
        key = search_key(f"{row.name} {row.login}")
        if all(word in key for word in words):
            matched.append(row)
            if len(matched) > limit:
                break
    roles = {r.login: tuple(m.role for m in here if m.account_id == r.id) for r in matched}
    return FoundAccounts(wanted, [Candidate(r.login, r.name, r.role, roles[r.login])
                                  for r in matched[:limit]], len(matched) > limit)


def _person_of(db: Database, tournament_id: int, role: AccountRole,
               player: int | None, staff_role: StaffRole | None) -> int | None:
    """The person a new account plays as: one of the tournament's players for a player's
    account (which cannot be staff); none for any other."""
    if role is not AccountRole.PLAYER:
        if player is not None:
            raise UserError("only a player's account names a player; leave the player empty "
                            "for a judge's or organizer's account", code="bad_player")
        return None
    if staff_role is not None:
        raise UserError("a player's account cannot be on the staff; make the account a "
                        "judge's or an organizer's", code="player_account")
    if player is None:
        raise UserError("choose the player whose account this is", code="no_person")
    with reading(db) as tx:
        tournament_row(tx, tournament_id)
        found = next((p for p in list_players_in(tx, tournament_id) if p.number == player),
                     None)
    if found is None or found.person_id is None:
        raise UserError("no player #{number} in this tournament", code="unknown_player",
                        number=player)
    return found.person_id


def create_account_here(
    db: Database, tournament_id: int, *, login: str, name: str, password: str,
    role: AccountRole | None = AccountRole.PLAYER, player: int | None = None,
    staff_role: StaffRole | None = None, actor: str, account_id: int,
    hasher: PasswordHasher | None = None,
) -> tuple[AccountInfo, JudgeInfo | None]:
    """A new account made from the staff page, and its staff row when ``staff_role`` is given
    (one transaction: both or neither). ``role`` None: the site role that goes with
    ``staff_role`` (a player's account when not on the staff). ``account_id``: who makes it,
    an organizer of the site and of this tournament."""
    if role is None:
        role = AccountRole.PLAYER if staff_role is None else AccountRole(staff_role.value)
    person = _person_of(db, tournament_id, AccountRole(role), player, staff_role)
    new = new_account(login=login, name=name, password=password, role=role,
                      person_id=person, hasher=hasher)
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        row = tournament_row(conn, tournament_id)
        check_staff(conn, tournament_id, account_id, ORGANIZER_ONLY, what="change the staff")
        if AccountRole(account_by_id(conn, account_id).role) is not AccountRole.ORGANIZER:
            raise ForbiddenError("only an organizer's account makes new accounts",
                                 code="forbidden")
        made = insert_account_in(change, new)
        judge = None
        if staff_role is not None:
            judge = add_staff_in(change, tournament_id, name=made.name, role=staff_role,
                                 account=account_for_staff(conn, made.login))
            touch_tournament(conn, row)
        return made, judge

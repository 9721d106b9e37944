"""A player enters an online tournament themselves (issue 13; C-2; ``docs/schedule.md``).

The daily starter constructed events (``services.schedules``) are created online and left in
registration; a player's account enters its own person from the tournament's page (or the
API) instead of asking the organizer:

- :func:`enter_myself`: the account must be a player's; the tournament must be online
  (``services.deck_formats``: ``tournament_decks.online``) and in registration; the person must
  not be entered yet. The entry is then made by the one registration path
  (``services.players.register_in``), so every eligibility check applies as when the organizer
  registers: J-5 (suspended), J-8 (the head judge plays) and C-2 (an online starter event takes
  only characters under 18 game years, the age the account gives: ``services.game_age``).
  A player's account names its person from its creation (``services.accounts``); an account
  naming none is given a new person of its name, linked to it in the same transaction.
- :func:`my_entry`: what the tournament's page offers a signed-in player before round 1: the
  button while the tournament is online and in registration, or the entry already made.

Leaving is the player's existing path (``services.player_match.leave_tournament``).
"""

from __future__ import annotations

from dataclasses import dataclass

from turnir.domain.accounts import AccountRole
from turnir.errors import ConflictError, ForbiddenError
from turnir.services.accounts import AccountInfo
from turnir.services.common import Database, Status, Tx, changing, reading
from turnir.services.deck_formats import tournament_format_in
from turnir.services.game_age import STARTER_AGE
from turnir.services.players import PlayerInfo, TypedName, register_in
from turnir.services.reports import player_numbers
from turnir.storage import players_repo, schedules_repo, self_entry_repo
from turnir.storage.mappers import tournament_row
from turnir.storage.ratings import new_person
from turnir.storage.repositories import Change

SELF_ENTRY = {"self_entry": True}
"""The audit record's mark of an entry the player made themselves."""


@dataclass(frozen=True, slots=True)
class MyEntry:
    """What the tournament's page shows a signed-in player about entering it."""

    tournament_id: int
    can_enter: bool
    """Online, in registration, not entered yet: the «Записаться на турнир» button."""
    number: int | None
    """The player's entry, when entered."""
    left: bool
    """Entered, then left (dropped)."""
    decks: bool
    """The tournament has a deck format: the player's deck page exists."""
    starter: bool
    """Online starter constructed: only characters under ``age_limit`` game years (C-2)."""
    game_age: int | None
    """The account's age in game years, as given (``None``: not given)."""
    age_limit: int = STARTER_AGE


def _refuse_not_a_player(account: AccountInfo) -> None:
    if account.role is not AccountRole.PLAYER:
        raise ForbiddenError("only a player's account enters a tournament itself; ask the "
                             "tournament's organizer", code="not_a_player")


def _refuse_entered(tx: Tx, tournament_id: int, person_id: int | None) -> None:
    numbers = player_numbers(tx, tournament_id, person_id)
    if numbers:
        raise ConflictError("you are already registered in this tournament as #{number}",
                            code="already_entered", number=numbers[0])


def _refuse_closed(tx: Tx, tournament_id: int, status: str) -> None:
    info = tournament_format_in(tx, tournament_id)
    if info is None or not info.online:
        raise ForbiddenError("players enter only an online tournament themselves; the "
                             "organizer registers the players of this one", code="not_online")
    if status != Status.REGISTRATION:
        raise ConflictError("registration for this tournament is closed",
                            code="registration_closed")


def _person_of(change: Change, account: AccountInfo) -> self_entry_repo.StoredPerson:
    """The person the account plays as; a new one of the account's name, linked to it, when
    it names none."""
    conn = change.conn
    person_id = self_entry_repo.account_person(conn, account.id)
    if person_id is None:
        # a new person, never a namesake's: an account linked to someone else's person could
        # report their matches
        person_id = new_person(conn, name=account.name, city="", club="", at=change.at)
        self_entry_repo.link_person(conn, account.id, person_id)
        change.log(None, "account.person", "account", account.id, {"person_id": None},
                   {"person_id": person_id, "login": account.login})
    found = self_entry_repo.person(conn, person_id)
    assert found is not None  # a foreign key
    return found


def enter_myself(db: Database, tournament_id: int, *, account: AccountInfo) -> PlayerInfo:
    """The player's account enters its person into an online tournament in registration
    (the checks in the module's text); the new entry."""
    _refuse_not_a_player(account)
    with changing(db, tournament_id, account.name) as change:
        conn = change.conn
        row = tournament_row(conn, tournament_id)
        _refuse_entered(conn, tournament_id, self_entry_repo.account_person(conn, account.id))
        _refuse_closed(conn, tournament_id, row["status"])
        person = _person_of(change, account)
        return register_in(change, tournament_id, row, TypedName(name=person.name),
                           city=person.city, club=person.club, person_id=person.id,
                           how=SELF_ENTRY)


def my_entry(db: Database, tournament_id: int, account: AccountInfo | None) -> MyEntry | None:
    """What the tournament's page offers ``account`` in registration: ``None`` for anyone but
    a player's account, after round 1, and for a player when the tournament takes no
    self-entry and they are not in it."""
    if account is None or account.role is not AccountRole.PLAYER:
        return None
    with reading(db) as tx:
        row = tournament_row(tx, tournament_id)
        info = tournament_format_in(tx, tournament_id)
        numbers = player_numbers(tx, tournament_id, account.person_id)
        online = info is not None and info.online
        if row["status"] != Status.REGISTRATION or not (numbers or online):
            return None  # once it runs, the page shows the player's match card
        entry = players_repo.entry(tx, tournament_id, numbers[0]) if numbers else None
        return MyEntry(
            tournament_id=tournament_id, can_enter=not numbers, number=numbers[0] if numbers
            else None, left=entry is not None and entry.dropped_after is not None,
            decks=info is not None, starter=online and info is not None and info.starter,
            game_age=schedules_repo.game_age(tx, account.id))

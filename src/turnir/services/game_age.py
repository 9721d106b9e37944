"""A player's age in game years and the entry check of online starter constructed (C-2).

- C-2: starter constructed played online is for characters under 18 game years. An online
  player's account says its character's age (``accounts.game_age``): the player sets it on
  their profile (``/me``), a site organizer on the accounts page.
- The entry check: entering a player into an online starter constructed tournament (its
  format is a starter format and it is played online: ``services.deck_formats``) is refused
  when the player's account gives an age of 18 or more, or no age (no account, or an account
  without an age). A tabletop (not online) starter event does not check. It runs in the
  registering transaction after the entries are written (``services.eligibility``), so a
  refusal leaves the database unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence

from turnir.errors import ForbiddenError, NotFoundError, UserError
from turnir.services.common import Database, Tx, changing, reading
from turnir.services.deck_formats import tournament_format_in
from turnir.storage import schedules_repo
from turnir.storage.accounts_repo import account_by_id, account_by_login

STARTER_AGE = 18
"""C-2: online starter constructed is for characters *under* this many game years."""
MAX_GAME_AGE = 1000


def check_game_age(age: int | None) -> int | None:
    """An age in game years: a whole number from 0 to 1000, or ``None`` (not given)."""
    if age is None:
        return None
    if isinstance(age, bool) or not isinstance(age, int) or not 0 <= age <= MAX_GAME_AGE:
        raise UserError("the age in game years is a whole number from 0 to {most}",
                        code="bad_game_age", most=MAX_GAME_AGE)
    return age


def parse_game_age(text: str) -> int | None:
    """An age typed in a form ("" for none)."""
    cleaned = text.strip()
    if not cleaned:
        return None
    if len(cleaned) > 4 or not cleaned.isdecimal() or not cleaned.isascii() or int(
            cleaned) > MAX_GAME_AGE:
        raise UserError("the character's age in game years is a whole number from 0 to "
                        "{most}, not {text!r}", code="bad_game_age", most=MAX_GAME_AGE,
                        text=cleaned[:20])
    return check_game_age(int(cleaned))


def check_entry_ages(tx: Tx, tournament_id: int, numbers: Sequence[int]) -> None:
    """Refuse new entries ``numbers`` of an online starter constructed tournament whose
    player is not under 18 game years or gives no age (C-2)."""
    if not numbers:
        return
    info = tournament_format_in(tx, tournament_id)
    if info is None or not info.starter or not info.online:
        return
    for entry in schedules_repo.entry_ages(tx, tournament_id, list(numbers)):
        if entry.age is None:
            raise UserError(
                "{name}: online starter constructed is for characters under {limit} game "
                "years (C-2), and the player's account gives no age in game years",
                code="game_age", name=entry.name, limit=STARTER_AGE)
        if entry.age >= STARTER_AGE:
            raise UserError(
                "{name}: online starter constructed is for characters under {limit} game "
                "years (C-2); the character is {age}", code="game_age", name=entry.name,
                limit=STARTER_AGE, age=entry.age)


def game_age_of(db: Database, account_id: int) -> int | None:
    with reading(db) as tx:
        return schedules_repo.game_age(tx, account_id)


def game_ages(db: Database) -> dict[int, int]:
    """Every account's age in game years that is given, by account id."""
    with reading(db) as tx:
        return schedules_repo.game_ages(tx)


def _set(db: Database, account_id: int | None, login: str | None, age: int | None, *,
         actor: str, by: int | None) -> int | None:
    checked = check_game_age(age)
    with changing(db, None, actor) as change:
        conn = change.conn
        if by is not None and login is not None and account_by_id(conn, by).role != "organizer":
            raise ForbiddenError("only a site organizer sets another account's age in game "
                                 "years", code="forbidden")
        account = (account_by_login(conn, login.strip().casefold()) if login is not None
                   else account_by_id(conn, account_id or 0))
        if account is None:
            raise NotFoundError("no account {login!r}", code="unknown_account",
                                login=(login or "")[:100])
        old = schedules_repo.game_age(conn, account.id)
        if old != checked:
            schedules_repo.set_game_age(conn, account.id, checked)
            change.log(None, "account.game_age", "account", account.id, {"game_age": old},
                       {"game_age": checked, "login": account.login})
        return checked


def set_own_game_age(db: Database, account_id: int, age: int | None, *,
                     actor: str) -> int | None:
    """The player sets their own character's age in game years (``None``: not given)."""
    return _set(db, account_id, None, age, actor=actor, by=None)


def set_game_age(db: Database, login: str, age: int | None, *, actor: str,
                 account_id: int | None = None) -> int | None:
    """A site organizer (``account_id``; ``None``: the local operator) sets an account's age in
    game years."""
    return _set(db, None, login, age, actor=actor, by=account_id)

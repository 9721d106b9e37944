"""Editing constructed formats (issue 13, C-1, C-2): site organizers (account role organizer;
``account_id`` ``None``: the local operator, the CLI) create and edit formats, give ban lists
for a day and the starter decks of a starter format. Every change is in the audit log
(``format.create``, ``format.edit``, ``format.ban_list``, ``format.ban_list_delete``,
``format.starter_deck``, ``format.starter_deck_delete``) and bumps the format's version
(``expected_version``: the version the change was based on; another one is refused).

- A format's name is unique by its key (case, ё/е, spaces: ``turnir.domain.cards.card_key``);
  its editions are chosen from the card catalogue's (none: every edition).
- A ban list is for a day (Moscow, ``turnir.services.deck_formats.RULES_ZONE``): every name
  must be a card of the catalogue (every unknown name is refused at once, with the closest
  names); the list of a day is replaced by giving it again, but not once it has taken effect
  (a tournament may have used it: give a list for a later day instead). Only a list that has
  not taken effect yet may be deleted.
- A starter deck (C-2) is a legal deck of the format (every card in the catalogue, the size and
  copy limits); only a starter format has them. A format's starter flag cannot change while a
  tournament uses it (its rating terms follow the format, C-2).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date

from turnir.domain.accounts import AccountRole
from turnir.domain.cards import MAX_NAME, CardCatalogue, card_key
from turnir.domain.decks import DeckFormat, DeckLine, DeckList, DeckProblem, check_deck, parse_deck
from turnir.domain.text import clean_name
from turnir.errors import ConflictError, ForbiddenError, Term, UserError
from turnir.services.cards import card_catalogue
from turnir.services.common import Database, Tx, changing, reading
from turnir.services.deck_formats import (
    FormatInfo,
    domain_format,
    moscow_day,
    moscow_today,
    stored_format,
)
from turnir.storage import formats_repo as repo
from turnir.storage.accounts_repo import account_by_id
from turnir.storage.formats_repo import StoredFormat
from turnir.storage.repositories import Change

NAME_MAX = 100
"""The longest format or starter deck name."""
MAX_EDITIONS = 100
MAX_BANNED = 500
"""The most cards one ban list may name."""
MAX_STARTER_DECKS = 50


@dataclass(frozen=True, slots=True)
class FormatLimits:
    """A format's deck size and copy limits (C-1 by default)."""

    min_cards: int = 30
    max_cards: int = 50
    max_copies: int = 3
    max_horde_copies: int = 5


class UnknownCardsError(UserError):
    """Names that are no card of the catalogue, each with the closest names."""

    code = "unknown_cards"

    def __init__(self, unknown: Sequence[tuple[str, tuple[str, ...]]]) -> None:
        self.unknown = tuple(unknown)
        self.names = tuple(_unknown_card(name, close) for name, close in self.unknown)
        super().__init__("no such cards in the catalogue: {cards}",
                         cards="; ".join(n.message for n in self.names))

    def translated(self, gettext: Callable[[str], str]) -> str:
        """Each name quoted as the reader's language quotes it («…» in Russian)."""
        return gettext(self.template).format(
            cards="; ".join(n.translated(gettext) for n in self.names))


def _unknown_card(name: str, close: tuple[str, ...]) -> UserError:
    if close:
        return UserError("{card!r} → {close}", code="unknown_card", card=name,
                         close=", ".join(close))
    return UserError("{card!r}", code="unknown_card", card=name)


class DeckProblemsError(UserError):
    """A starter deck that is not a legal deck of its format: every problem."""

    code = "bad_starter_deck"

    def __init__(self, name: str, problems: Sequence[DeckProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("the starter deck {name!r} is not a legal deck (problems: "
                         "{count}); the first: {first}", name=name, count=len(self.problems),
                         first=self.problems[0].error)


def check_site_organizer(tx: Tx, account_id: int | None) -> None:
    """Refuse a web account that is not a site organizer (``None``: the local operator)."""
    if account_id is None:
        return
    if AccountRole(account_by_id(tx, account_id).role) is not AccountRole.ORGANIZER:
        raise ForbiddenError("only a site organizer changes formats", code="forbidden")


def parse_day(text: str | date) -> date:
    """A day given as YYYY-MM-DD."""
    if isinstance(text, date):
        return text
    try:
        return date.fromisoformat(text.strip()[:20])
    except ValueError:
        raise UserError("{text!r} is not a day (YYYY-MM-DD)", code="bad_date",
                        text=text.strip()[:40]) from None


def card_names(text: str) -> list[str]:
    """Card names from a text: one a line (or separated by ";"); blank lines and lines starting
    with ``#`` are skipped."""
    names = [part.strip() for line in text.splitlines() if not line.strip().startswith("#")
             for part in line.split(";")]
    return [name for name in names if name]


def find_format(db: Database, ref: str | int) -> int:
    """A format's id, by its number or its name (compared by key)."""
    text = str(ref).strip().removeprefix("#")
    with reading(db) as tx:
        if text.isdigit():
            return stored_format(tx, int(text)).id
        found = repo.format_by_key(tx, card_key(text[:NAME_MAX]))
    if found is None:
        raise UserError("no format {name!r}", code="unknown_format", name=text[:NAME_MAX])
    return found.id


def _name(name: str) -> tuple[str, str]:
    cleaned = clean_name(name, field=Term("the format's name"), max_len=NAME_MAX)
    return cleaned, card_key(cleaned)


def _editions(chosen: Iterable[str], catalogue: CardCatalogue) -> list[str]:
    known = {card_key(e): e for e in catalogue.editions()}
    found: list[str] = []
    for edition in chosen:
        if not edition.strip():
            continue
        match = known.get(card_key(edition[:MAX_NAME]))
        if match is None:
            raise UserError("no edition {edition!r} in the card catalogue (it has: {known})",
                            code="unknown_edition", edition=edition.strip()[:MAX_NAME],
                            known=", ".join(known.values()) or Term("none"))
        if match not in found:
            found.append(match)
    if len(found) > MAX_EDITIONS:
        raise UserError("a format allows at most {limit} editions", code="bad_format",
                        limit=MAX_EDITIONS)
    return found


def _limits(limits: FormatLimits) -> FormatLimits:
    if not 1 <= limits.min_cards <= limits.max_cards <= 200:
        raise UserError("a deck has {low}-{high} cards: the least must be 1 or more and the most "
                        "at most 200 and not below it", code="bad_format",
                        low=limits.min_cards, high=limits.max_cards)
    if not 1 <= limits.max_copies <= limits.max_horde_copies <= 99:
        raise UserError("at most {copies} copies of a card and {horde} of a card with Horde: "
                        "1-99, and Horde not below the others", code="bad_format",
                        copies=limits.max_copies, horde=limits.max_horde_copies)
    return limits


def _locked_format(change: Change, format_id: int, expected: int | None,
                   values: dict[str, object] | None = None) -> StoredFormat:
    """The format before the change, its version checked and bumped (every edit counts;
    ``values``: the columns the edit sets)."""
    found = stored_format(change.conn, format_id)
    if expected is not None and expected != found.version:
        raise ConflictError("the format {name!r} was changed since you loaded it (version "
                            "{seen}, now {current}); reload and try again",
                            code="stale_version", name=found.name, seen=expected,
                            current=found.version)
    if not repo.update_format(change.conn, format_id, found.version, dict(values or {})):
        raise ConflictError("the format {name!r} was changed meanwhile; try again",
                            code="stale_version", name=found.name)
    return found


def _format_json(stored: StoredFormat) -> dict[str, object]:
    return {"name": stored.name, "editions": list(stored.editions),
            "min_cards": stored.min_cards, "max_cards": stored.max_cards,
            "max_copies": stored.max_copies, "max_horde_copies": stored.max_horde_copies,
            "starter": stored.starter}


def _checked_values(db: Database, account_id: int | None, name: str,
                    editions: Sequence[str], starter: bool, limits: FormatLimits
                    ) -> dict[str, object]:
    """A format's columns from what was given, every value checked (the account first)."""
    with reading(db) as tx:
        check_site_organizer(tx, account_id)
    shown, key = _name(name)
    checked = _limits(limits)
    return {"name": shown, "name_key": key, "editions": _editions(editions, card_catalogue(db)),
            "starter": bool(starter), "min_cards": checked.min_cards,
            "max_cards": checked.max_cards, "max_copies": checked.max_copies,
            "max_horde_copies": checked.max_horde_copies}


def create_format(db: Database, *, actor: str, account_id: int | None, name: str,
                  editions: Sequence[str] = (), starter: bool = False,
                  limits: FormatLimits = FormatLimits()) -> FormatInfo:
    """A new format (a site organizer's)."""
    values = _checked_values(db, account_id, name, editions, starter, limits)
    shown, key = str(values["name"]), str(values["name_key"])
    with changing(db, None, actor) as change:
        check_site_organizer(change.conn, account_id)
        if repo.format_by_key(change.conn, key) is not None:
            raise ConflictError("there is a format named {name!r} already",
                                code="duplicate_format", name=shown)
        format_id = repo.insert_format(change.conn, values, at=change.at, by=change.actor)
        change.log(None, "format.create", "deck_format", format_id, None,
                   _format_json(stored_format(change.conn, format_id)))
        return FormatInfo(id=format_id, name=shown, starter=bool(starter))


def edit_format(db: Database, format_id: int, *, actor: str, account_id: int | None,
                name: str, editions: Sequence[str], starter: bool, limits: FormatLimits,
                expected_version: int | None = None) -> FormatInfo:
    """Change a format's name, editions, starter flag and limits (a site organizer's)."""
    values = _checked_values(db, account_id, name, editions, starter, limits)
    shown, key = str(values["name"]), str(values["name_key"])
    with changing(db, None, actor) as change:
        conn = change.conn
        check_site_organizer(conn, account_id)
        old = stored_format(conn, format_id)
        same = repo.format_by_key(conn, key)
        if same is not None and same.id != format_id:
            raise ConflictError("there is a format named {name!r} already",
                                code="duplicate_format", name=shown)
        using = repo.tournaments_with_format(conn, format_id)
        if bool(starter) != old.starter and using:
            raise ConflictError("the format {name!r} is used by tournaments ({count}); its "
                                "starter flag cannot change (their rating terms follow it, "
                                "C-2)", code="format_in_use", name=old.name, count=len(using))
        old = _locked_format(change, format_id, expected_version, values)
        new = stored_format(conn, format_id)
        change.log(None, "format.edit", "deck_format", format_id, _format_json(old),
                   _format_json(new))
        return FormatInfo(id=format_id, name=new.name, starter=new.starter)


def _banned(names: Sequence[str], catalogue: CardCatalogue) -> list[str]:
    """The catalogue's names of the cards (each once), or every unknown name refused."""
    if len(names) > MAX_BANNED:
        raise UserError("a ban list names at most {limit} cards", code="bad_ban_list",
                        limit=MAX_BANNED)
    found: dict[str, str] = {}
    unknown: list[tuple[str, tuple[str, ...]]] = []
    for name in names:
        text = " ".join(name.split())[:MAX_NAME]
        card = catalogue.find(text) if text else None
        if card is None:
            if text:
                unknown.append((text, tuple(s.name for s in catalogue.suggest(text))))
            continue
        found.setdefault(card.key, card.name)
    if unknown:
        raise UnknownCardsError(unknown)
    return list(found.values())


def set_ban_list(db: Database, format_id: int, *, actor: str, account_id: int | None,
                 effective: date | str, cards: Sequence[str],
                 expected_version: int | None = None) -> date:
    """The format's ban list from ``effective`` on (a site organizer's); its day."""
    with reading(db) as tx:
        check_site_organizer(tx, account_id)
    day = parse_day(effective)
    names = _banned(cards, card_catalogue(db))
    with changing(db, None, actor) as change:
        check_site_organizer(change.conn, account_id)
        fmt = _locked_format(change, format_id, expected_version)
        current = [b for b in repo.ban_lists_of(change.conn, [format_id]) if b.effective == day]
        if current and day <= moscow_day(change.at):
            raise ConflictError("the ban list of {day} of {name!r} has taken effect and no "
                                "longer changes; give a list for a later day",
                                code="ban_list_in_force", day=day.isoformat(), name=fmt.name)
        old = repo.put_ban_list(change.conn, format_id, day, names, at=change.at,
                                by=change.actor)
        change.log(None, "format.ban_list", "deck_format", format_id,
                   None if old is None else {"effective": day.isoformat(),
                                             "cards": list(old.cards)},
                   {"effective": day.isoformat(), "cards": names})
        return day


def delete_ban_list(db: Database, format_id: int, *, actor: str, account_id: int | None,
                    effective: date | str, expected_version: int | None = None) -> None:
    """Delete a ban list that has not taken effect yet (a site organizer's)."""
    day = parse_day(effective)
    with changing(db, None, actor) as change:
        check_site_organizer(change.conn, account_id)
        fmt = _locked_format(change, format_id, expected_version)
        if day <= moscow_day(change.at):
            raise ConflictError("the ban list of {day} of {name!r} has taken effect and no "
                                "longer changes; give a list for a later day",
                                code="ban_list_in_force", day=day.isoformat(), name=fmt.name)
        old = repo.delete_ban_list(change.conn, format_id, day)
        if old is None:
            raise UserError("the format {name!r} has no ban list of {day}",
                            code="unknown_ban_list", name=fmt.name, day=day.isoformat())
        change.log(None, "format.ban_list_delete", "deck_format", format_id,
                   {"effective": day.isoformat(), "cards": list(old.cards)}, None)


def _starter_deck(name: str, text: str, fmt: DeckFormat, catalogue: CardCatalogue,
                  day: date) -> DeckList:
    """The deck of ``text`` with the catalogue's names, or every problem refused."""
    deck, syntax = parse_deck(text)
    legal = replace(fmt, starter=False, ban_lists=(), starter_decks=())
    check = check_deck(deck, catalogue, legal, on=day, syntax=syntax)
    if not check.ok:
        raise DeckProblemsError(name, check.problems)
    lines = []
    for line in deck.lines:
        card = catalogue.find(line.name, line.edition)
        lines.append(DeckLine(count=line.count, name=card.name if card else line.name,
                              edition=line.edition))
    return DeckList(tuple(lines))


def set_starter_deck(db: Database, format_id: int, *, actor: str, account_id: int | None,
                     name: str, text: str, expected_version: int | None = None) -> DeckList:
    """Add a starter deck to a starter format, or replace its deck of that name (C-2)."""
    with reading(db) as tx:
        check_site_organizer(tx, account_id)
        stored = stored_format(tx, format_id)
        fmt = domain_format(stored, [], repo.starter_decks_of(tx, [format_id]))
    shown = clean_name(name, field=Term("the starter deck's name"), max_len=NAME_MAX)
    deck = _starter_deck(shown, text, fmt, card_catalogue(db), moscow_today(db.clock))
    with changing(db, None, actor) as change:
        conn = change.conn
        check_site_organizer(conn, account_id)
        found = _locked_format(change, format_id, expected_version)
        if not found.starter:
            raise UserError("the format {name!r} is not a starter format; only a starter "
                            "format has starter decks (C-2)", code="not_starter_format",
                            name=found.name)
        others = [s for s in repo.starter_decks_of(conn, [format_id])
                  if card_key(s.name) != card_key(shown)]
        if len(others) >= MAX_STARTER_DECKS:
            raise UserError("a format has at most {limit} starter decks",
                            code="bad_starter_deck", limit=MAX_STARTER_DECKS)
        old = repo.put_starter_deck(conn, format_id, shown, card_key(shown), deck)
        change.log(None, "format.starter_deck", "deck_format", format_id,
                   None if old is None else {"deck": old.name, "lines": old.deck.to_json()},
                   {"deck": shown, "lines": deck.to_json()})
        return deck


def delete_starter_deck(db: Database, format_id: int, *, actor: str, account_id: int | None,
                        name: str, expected_version: int | None = None) -> None:
    """Remove a starter deck from its format (a site organizer's)."""
    with changing(db, None, actor) as change:
        check_site_organizer(change.conn, account_id)
        found = _locked_format(change, format_id, expected_version)
        old = repo.delete_starter_deck(change.conn, format_id, card_key(name[:NAME_MAX]))
        if old is None:
            raise UserError("the format {name!r} has no starter deck {deck!r}",
                            code="unknown_starter_deck", name=found.name, deck=name[:NAME_MAX])
        change.log(None, "format.starter_deck_delete", "deck_format", format_id,
                   {"deck": old.name, "lines": old.deck.to_json()}, None)

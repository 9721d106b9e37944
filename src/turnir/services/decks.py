"""The players' decks of a constructed tournament (регистрация колод, C-1, C-2): registering a
deck list, checking it, showing it, and the lock when round 1 is paired.

- :func:`check_deck_text`: a list checked against a format with no tournament (a player
  preparing a deck: ``turnir deck check``, the public check page and ``POST /api/v1/deck-check``),
  with the format's ban list in force today.
- :func:`register_deck`: a deck registered (or replaced) for an entry. **Who may, when:** the
  player whose entry it is (a player account linked to the entry's person), until round 1 is
  paired; then the deck is *locked* and a player's change is refused ("ask a judge"). The
  tournament's judges (head judge, floor judge) and its organizer may register or change any
  deck at any time; after round 1 their change is logged as a judge's (``deck.judge_change``
  with the lines before and after). Anyone else is refused; a finished tournament refuses
  every change. The local operator (``account_id=None``: the CLI) acts as staff. A deck that
  breaks a rule is stored all the same, marked not valid, so the player sees its problems and
  fixes them. Only a tournament whose format is set (``turnir.services.deck_formats``) takes
  decks; the check uses that format and the ban list in force on the tournament's rules day
  (the day round 1 was paired, else its planned start, else today).
- :func:`deck_view`: one deck with its problems, for its player and the tournament's staff.
- :func:`list_decks`: every entry and its deck (or none), for the staff.
- :func:`decks_locked`, :func:`deck_in`, :func:`decks_in`: readers inside another service's
  transaction (deck checks, the technical result, publication).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any

from turnir.domain.cards import CardCatalogue
from turnir.domain.decks import (
    MAX_LINES as MAX_LINES,
)
from turnir.domain.decks import (
    MAX_TEXT as MAX_TEXT,
)
from turnir.domain.decks import (
    DeckCheck,
    DeckFormat,
    DeckLine,
    DeckList,
    DeckProblem,
    check_deck,
    parse_deck,
)
from turnir.domain.draft.plan import DraftPlan
from turnir.domain.draft.pool_deck import check_typed_deck
from turnir.domain.model import Status
from turnir.domain.text import REASON_LEN, clean_text
from turnir.errors import ConflictError, ForbiddenError, NotFoundError, Term, UserError
from turnir.i18n import error_text
from turnir.services.cards import card_catalogue
from turnir.services.common import Database, Tx, changing, reading, refuse_when_finished
from turnir.services.deck_formats import (
    FormatInfo,
    deck_format,
    format_choices,
    moscow_today,
    moscow_today_in,
    tournament_format_in,
)
from turnir.services.draft_setup import plan_in
from turnir.services.format_edits import find_format
from turnir.services.judges import staff_roles_in
from turnir.services.reports import player_numbers
from turnir.storage import accounts_repo, decks_repo, live_draft_repo, players_repo
from turnir.storage.audit import last_change
from turnir.storage.decks_repo import DeckValues, StoredDeck
from turnir.storage.mappers import tournament_row
from turnir.storage.players_repo import StoredEntry
from turnir.storage.repositories import check_version, last_round_number


@dataclass(frozen=True)
class DeckView:
    """One entry's deck as its player or a judge sees it."""

    tournament_id: int
    number: int
    """The entry's number in the tournament."""
    player: str
    registered: bool
    """A deck is registered for the entry (otherwise the lists below are empty)."""
    lines: tuple[DeckLine, ...]
    text: str
    """The list as it was given (pasted, uploaded or built)."""
    check: DeckCheck | None
    """The deck checked now, against the tournament's format (``None``: no deck)."""
    total: int
    valid: bool
    """Registered and no problem found."""
    locked: bool
    """Round 1 is paired: only a judge changes the deck now."""
    finished: bool
    can_change: bool
    """The account asking may change the deck now."""
    staff: bool
    """The account asking is the tournament's staff (or the local operator)."""
    format_name: str
    updated_at: datetime | None
    updated_by: str
    version: int
    """0 when no deck is registered (``expected_version`` of a first registration)."""
    judge_change: bool = False
    """The last change was a judge's after the lock (``deck.judge_change``): the player's page
    says so, with ``updated_by``, ``updated_at`` and the judge's ``reason``."""
    reason: str = ""
    from_pool: bool = False
    """A live draft's deck (issue 14): built from the player's pool on the draft pool page
    (``services.draft_decks``), never typed here."""

    @property
    def problems(self) -> tuple[DeckProblem, ...]:
        return self.check.problems if self.check is not None else ()


@dataclass(frozen=True, slots=True)
class DeckSummary:
    """An entry in the staff's list of decks."""

    number: int
    player: str
    dropped: bool
    registered: bool
    total: int
    valid: bool
    problems: int
    """How many problems the check finds now."""
    updated_at: datetime | None
    updated_by: str


@dataclass(frozen=True, slots=True)
class _Context:
    """What a deck of the tournament is checked against."""

    fmt: DeckFormat
    day: date
    draft: DraftPlan | None = None
    """A draft tournament's plan (issue 14): its decks are checked by D-6 and D-1, not C-1."""


DRAFT_DECKS = "Драфт"
"""The name a draft tournament's decks show for their format."""


def _context(tx: Tx, tournament_id: int) -> _Context:
    info = tournament_format_in(tx, tournament_id)
    if info is None:
        plan = plan_in(tx, tournament_id)
        if plan is not None:
            return _Context(fmt=DeckFormat(name=DRAFT_DECKS), day=moscow_today_in(tx), draft=plan)
        raise UserError("tournament #{tournament} has no deck format; its organizer sets the "
                        "format before decks are registered", code="no_deck_format",
                        tournament=tournament_id)
    return _Context(fmt=info.format, day=info.rules_day)


def canonical_lines(deck: DeckList, catalogue: CardCatalogue) -> DeckList:
    """The deck with every card the catalogue knows under the catalogue's name (and a given
    edition as the catalogue prints it, when the card is printed there): «Kультист» typed with
    a Latin K is stored and shown as «Культист». An unknown name is kept as typed."""
    lines = []
    for line in deck.lines:
        printings = catalogue.printings(line.name)
        if not printings:
            lines.append(line)
            continue
        exact = catalogue.find(line.name, line.edition) if line.edition is not None else None
        lines.append(replace(line, name=printings[0].name,
                             edition=exact.edition if exact is not None else line.edition))
    return DeckList(tuple(lines))


def _checked(text: str, catalogue: CardCatalogue, fmt: DeckFormat,
             day: date, draft: DraftPlan | None = None) -> tuple[DeckList, DeckCheck]:
    parsed, syntax = parse_deck(text)
    deck = canonical_lines(parsed, catalogue)
    if draft is not None:
        return deck, check_typed_deck(deck, catalogue, draft, syntax=syntax)
    return deck, check_deck(deck, catalogue, fmt, on=day, syntax=syntax)


def check_deck_text(db: Database, *, text: str, format_id: int,
                    on: date | None = None) -> DeckCheck:
    """Every problem of the list ``text`` in the format ``format_id``, with the ban list in
    force ``on`` (default: today in Moscow); no tournament, nothing stored."""
    fmt = deck_format(db, format_id)
    return _checked(text, card_catalogue(db), fmt, on or moscow_today(db.clock))[1]


def problem_record(problem: DeckProblem, locale: str) -> dict[str, Any]:
    """A problem as JSON (the API, ``turnir deck … --json``), its message in ``locale``."""
    return {"kind": problem.kind.value, "rule": problem.rule, "card": problem.card,
            "line": problem.line, "message": error_text(problem.error, locale),
            "suggestions": list(problem.suggestions)}


def format_named(db: Database, name: str) -> FormatInfo:
    """The format called ``name`` (``format_edits.find_format``: its name compared by key, or
    its number); an unknown one is refused naming the formats there are."""
    choices = format_choices(db)
    try:
        format_id = find_format(db, name)
    except UserError:
        raise NotFoundError("no deck format {name!r}; the formats are: {names}",
                            code="unknown_format", name=name.strip()[:100],
                            names=", ".join(f.name for f in choices) or Term("none")) from None
    return next(f for f in choices if f.id == format_id)


# ----- who may see and change a deck -----------------------------------------------------


def _is_staff(tx: Tx, tournament_id: int, account_id: int | None) -> bool:
    return account_id is None or bool(staff_roles_in(tx, tournament_id, account_id))


def _own_entry(tx: Tx, tournament_id: int, number: int, account_id: int) -> bool:
    account = accounts_repo.account_by_id(tx, account_id)
    return number in player_numbers(tx, tournament_id, account.person_id)


def _refuse_stranger(tx: Tx, tournament_id: int, number: int, account_id: int | None) -> bool:
    """Whether the account is staff; refused unless it is staff or the entry's player."""
    if _is_staff(tx, tournament_id, account_id):
        return True
    assert account_id is not None
    if _own_entry(tx, tournament_id, number, account_id):
        return False
    raise ForbiddenError("only player #{number} and the judges of tournament #{tournament} "
                         "may see or change this deck", code="not_your_deck", number=number,
                         tournament=tournament_id)


def deck_access(tx: Tx, tournament_id: int, number: int, account_id: int | None) -> bool:
    """Whether the account is the tournament's staff; refused unless it is staff or entry
    ``number``'s player (a draft's pool deck too, ``services.draft_decks``)."""
    return _refuse_stranger(tx, tournament_id, number, account_id)


def takes_decks_in(tx: Tx, tournament_id: int) -> str | None:
    """The name of what the tournament's decks are checked against: its format, or «Драфт»
    for a draft with a plan (issue 14); ``None``: it takes no decks."""
    info = tournament_format_in(tx, tournament_id)
    if info is not None:
        return info.format.name
    return DRAFT_DECKS if plan_in(tx, tournament_id) is not None else None


def takes_decks(db: Database, tournament_id: int) -> bool:
    """Whether the tournament takes decks (a deck format, or a draft's plan)."""
    with reading(db) as tx:
        return takes_decks_in(tx, tournament_id) is not None


def decks_locked(tx: Tx, tournament_id: int) -> bool:
    """The tournament's decks are locked: round 1 is paired (a change is a judge's now)."""
    return last_round_number(tx, tournament_id) >= 1


# ----- registering -----------------------------------------------------------------------


def _logged(deck: DeckList | StoredDeck | None, valid: bool = False,
            reason: str = "") -> dict[str, Any] | None:
    if deck is None:
        return None
    if isinstance(deck, StoredDeck):
        return {"lines": deck.lines, "total": deck.total, "valid": deck.valid}
    logged: dict[str, Any] = {"lines": deck.to_json(), "total": deck.total, "valid": valid}
    if reason:
        logged["reason"] = reason
    return logged


def plays_in(db: Database, tournament_id: int, person_id: int | None) -> bool:
    """Whether the person has an entry in the tournament (the tab «My deck» is theirs)."""
    if person_id is None:
        return False
    with reading(db) as tx:
        return bool(player_numbers(tx, tournament_id, person_id))


def register_deck(db: Database, tournament_id: int, number: int | str, *, text: str,
                  actor: str, account_id: int | None,
                  expected_version: int | None = None, reason: str = "") -> DeckView:
    """Register or replace the deck of entry ``number`` (or the player's name, for the CLI);
    the deck is stored even with problems (``valid`` false). See the module docstring for who
    may and when. ``expected_version``: the deck's version the change was based on (0: no deck
    yet); a deck changed meanwhile is refused. ``reason``: a judge's words on why (at most
    500 characters), kept in the change's audit record."""
    catalogue = card_catalogue(db)
    reason = clean_text(reason, field="reason", max_len=REASON_LEN)
    parse_deck(text)  # too long a text is refused before anything is locked
    with changing(db, tournament_id, actor) as change:
        tx = change.conn
        row = tournament_row(tx, tournament_id)
        refuse_when_finished(row)
        entry = players_repo.entry(tx, tournament_id, number)
        staff = _refuse_stranger(tx, tournament_id, entry.number, account_id)
        context = _context(tx, tournament_id)
        if context.draft is not None and live_draft_repo.drafts_of(tx, tournament_id):
            raise ConflictError("this draft was live: the deck is built from the player's "
                                "pool on the draft pool page", code="pool_deck")
        locked = decks_locked(tx, tournament_id)
        if locked and not staff:
            raise ConflictError("the deck is locked: round 1 is paired; ask a judge",
                                code="deck_locked")
        before = decks_repo.deck_row(tx, tournament_id, entry.number)
        check_version(tx, tournament_id, "deck", entry.number, Term("the deck"),
                      expected_version, before.version if before else 0)
        deck, check = _checked(text, catalogue, context.fmt, context.day, context.draft)
        values = DeckValues(lines=deck.to_json(), source=text, total=deck.total,
                            valid=check.ok, at=change.at, by=change.actor)
        version = decks_repo.save_deck(tx, tournament_id, entry.number, values, before=before)
        change.log(tournament_id, "deck.judge_change" if locked else "deck.register", "deck",
                   entry.number, _logged(before), _logged(deck, check.ok, reason))
        stored = StoredDeck(tournament_id=tournament_id, number=entry.number,
                            lines=values.lines, source=text, total=deck.total, valid=check.ok,
                            updated_at=change.at, updated_by=change.actor, version=version)
    return _view(tournament_id, entry, stored, context, catalogue, locked=locked,
                 staff=staff, finished=False, judged=(locked, reason))


# ----- reading ---------------------------------------------------------------------------


def _stored_check(stored: StoredDeck, catalogue: CardCatalogue,
                  context: _Context) -> tuple[DeckList, DeckCheck]:
    text = stored.source or DeckList.from_json(stored.lines).text()
    return _checked(text, catalogue, context.fmt, context.day, context.draft)


def _judged(tx: Tx, tournament_id: int, number: int) -> tuple[bool, str]:
    """Whether the deck's last change was a judge's after the lock, and the judge's reason."""
    last = last_change(tx, tournament_id, "deck", number)
    if last is None or last.action != "deck.judge_change":
        return False, ""
    return True, str((last.after or {}).get("reason") or "")


def _view(tournament_id: int, entry: StoredEntry, stored: StoredDeck | None, context: _Context,
          catalogue: CardCatalogue, *, locked: bool, staff: bool, finished: bool,
          judged: tuple[bool, str] = (False, "")) -> DeckView:
    can_change = not finished and (staff or not locked)
    if stored is None:
        return DeckView(tournament_id=tournament_id, number=entry.number, player=entry.name,
                        registered=False, lines=(), text="", check=None, total=0, valid=False,
                        locked=locked, finished=finished, can_change=can_change, staff=staff,
                        format_name=context.fmt.name, updated_at=None, updated_by="",
                        version=0)
    deck, check = _stored_check(stored, catalogue, context)
    return DeckView(tournament_id=tournament_id, number=entry.number,
                    player=entry.name, registered=True, lines=deck.lines,
                    text=stored.source or deck.text(), check=check, total=deck.total,
                    valid=check.ok, locked=locked, finished=finished, can_change=can_change,
                    staff=staff, format_name=context.fmt.name, updated_at=stored.updated_at,
                    updated_by=stored.updated_by, version=stored.version,
                    judge_change=judged[0], reason=judged[1])


def deck_view(db: Database, tournament_id: int, number: int | str, *,
              account_id: int | None) -> DeckView:
    """The deck of entry ``number`` (registered or not) with its problems checked now; for the
    entry's player and the tournament's staff only."""
    catalogue = card_catalogue(db)
    with reading(db) as tx:
        row = tournament_row(tx, tournament_id)
        entry = players_repo.entry(tx, tournament_id, number)
        staff = _refuse_stranger(tx, tournament_id, entry.number, account_id)
        context = _context(tx, tournament_id)
        locked = decks_locked(tx, tournament_id)
        stored = decks_repo.deck_row(tx, tournament_id, entry.number)
        judged = _judged(tx, tournament_id, entry.number) if stored is not None else (False, "")
        pool = context.draft is not None and bool(live_draft_repo.drafts_of(tx, tournament_id))
    view = _view(tournament_id, entry, stored, context, catalogue, locked=locked, staff=staff,
                 finished=row["status"] == Status.FINISHED, judged=judged)
    return replace(view, from_pool=True, can_change=False) if pool else view


def list_decks(db: Database, tournament_id: int, *,
               account_id: int | None) -> list[DeckSummary]:
    """Every entry of the tournament with its deck or none, by number; the staff only."""
    catalogue = card_catalogue(db)
    with reading(db) as tx:
        tournament_row(tx, tournament_id)
        if not _is_staff(tx, tournament_id, account_id):
            raise ForbiddenError("only the judges and the organizer of tournament "
                                 "#{tournament} see its decks", code="not_staff",
                                 tournament=tournament_id)
        context = _context(tx, tournament_id)
        entries = players_repo.entry_list(tx, tournament_id)
        stored = decks_repo.deck_rows(tx, tournament_id)
    summaries = []
    for entry in entries:
        deck = stored.get(entry.number)
        check = _stored_check(deck, catalogue, context)[1] if deck is not None else None
        summaries.append(DeckSummary(
            number=entry.number, player=entry.name, dropped=entry.dropped_after is not None,
            registered=deck is not None, total=check.total if check else 0,
            valid=bool(check and check.ok), problems=len(check.problems) if check else 0,
            updated_at=deck.updated_at if deck else None,
            updated_by=deck.updated_by if deck else ""))
    return summaries


def deck_in(tx: Tx, tournament_id: int, number: int) -> DeckList | None:
    """The entry's registered deck, read in the caller's transaction."""
    stored = decks_repo.deck_row(tx, tournament_id, number)
    return None if stored is None else DeckList.from_json(stored.lines)


def decks_in(tx: Tx, tournament_id: int) -> dict[int, DeckList]:
    """Every registered deck of the tournament by entry number, in the caller's transaction."""
    return {number: DeckList.from_json(stored.lines)
            for number, stored in decks_repo.deck_rows(tx, tournament_id).items()}

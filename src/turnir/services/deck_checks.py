"""Deck checks in a round (проверки колод; issue 13, the judges' tools): drawn by lot from the
tournament's recorded seed (``turnir.domain.deck_lots``), or a player a judge chooses, and each
marked done with the judge's note.

- :func:`draw_deck_checks`: N decks drawn by lot among the players at a table in the current
  round who were not checked in it yet; the lot (seed, round, the draw's number in the round)
  is stored with each check, so the same draw can be made again and gives the same decks.
  Audit: ``deck.check_draw``.
- :func:`add_deck_check`: a player the judge chooses (``by_lot`` false). Audit:
  ``deck.check_add``.
- :func:`finish_deck_check`: a check marked done, with a note. Audit: ``deck.check_done``.
- :func:`deck_checks_page`, :func:`list_deck_checks`: what was drawn, for the staff.
- :func:`decks_page`: every player's deck status for the staff (``services.decks.list_decks``
  with the tournament's format); :func:`deck_count`: one deck sorted for counting at the table
  (``turnir.domain.decks.counting_order``: element, cost, type), grouped by element.

**Who may:** the tournament's staff (organizer, head judge, floor judges); the local operator
(``account_id=None``: the CLI) too. A finished tournament refuses every change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from itertools import groupby

from turnir.domain.cards import Card, card_key
from turnir.domain.deck_lots import MAX_DRAW, candidates, draw_by_lot
from turnir.domain.decks import ProblemKind, counting_order
from turnir.domain.model import Status
from turnir.domain.text import clean_text
from turnir.domain.tournament import Tournament
from turnir.errors import ConflictError, ForbiddenError, NotFoundError, Term, UserError
from turnir.services.common import Database, Tx, changing, reading, refuse_when_finished
from turnir.services.decks import (
    DeckSummary,
    DeckView,
    deck_view,
    decks_in,
    decks_locked,
    list_decks,
    takes_decks_in,
)
from turnir.services.judges import ANY_STAFF, check_staff
from turnir.storage import deck_checks_repo, players_repo
from turnir.storage.deck_checks_repo import StoredCheck
from turnir.storage.mappers import load_tournament, tournament_row
from turnir.storage.repositories import Change

_LOT = re.compile(r"-?[0-9]+/deck-checks/round/([0-9]{1,9})/draw/([0-9]{1,9})")
MAX_NOTE = 500
"""The longest note on a check (the column's length)."""
CHECK_DECKS = Term("check decks")
SEE_DECKS = Term("see the decks")


@dataclass(frozen=True, slots=True)
class DeckCheckView:
    """One deck check as the staff see it."""

    id: int
    round: int
    number: int
    player: str
    table: int | None
    """The player's table in that round (``None``: not at a table)."""
    by_lot: bool
    lot: str
    drawn_at: datetime
    drawn_by: str
    done: bool
    note: str
    has_deck: bool
    """A deck is registered for the player (the count view has something to show)."""

    @property
    def lot_parts(self) -> tuple[int, int] | None:
        """The lot's round and draw number, to show it in words (see :func:`lot_parts`)."""
        return lot_parts(self.lot) if self.by_lot else None


def lot_parts(lot: str) -> tuple[int, int] | None:
    """The round and the draw's number in a lot ``"{seed}/deck-checks/round/{r}/draw/{d}"``
    (``turnir.domain.deck_lots.lot_text``); ``None`` for a text of another shape. The stored
    lot stays the technical text: this only reads it back for people."""
    found = _LOT.fullmatch(lot)
    return None if found is None else (int(found[1]), int(found[2]))


@dataclass(frozen=True, slots=True)
class Seat:
    """A player at a table in the round."""

    number: int
    player: str
    table: int


@dataclass(frozen=True)
class DeckChecksPage:
    """The deck checks of a tournament and who may be drawn in its current round."""

    tournament_id: int
    round: int | None
    """The current round (``None`` before round 1)."""
    finished: bool
    checks: list[DeckCheckView]
    """Every check, the current round's first, as drawn."""
    left: list[Seat]
    """The players at a table in the current round not checked in it yet."""
    max_draw: int = MAX_DRAW


def _seats(t: Tournament, round_number: int) -> dict[int, Seat]:
    """The players at a table in the round (a bye is not at a table), by number."""
    rnd = next((r for r in t.rounds if r.number == round_number), None)
    if rnd is None:
        raise NotFoundError("there is no round {round} yet", code="unknown_round",
                            round=round_number)
    names = {p.id: p.name for p in t.players}
    return {number: Seat(number, names.get(number, f"#{number}"), line.table)
            for line in rnd.pairings if line.b is not None for number in line.players}


def _current_round(t: Tournament, asked: int | None) -> int:
    current = t.current_round
    if current is None:
        raise ConflictError("no round is paired yet: decks are checked during a round",
                            code="no_round")
    if asked is not None and asked != current.number:
        raise ConflictError("deck checks are drawn in the current round ({current}), not in "
                            "round {round}", code="not_current_round", current=current.number,
                            round=asked)
    return current.number


def _views(tx: Tx, tournament_id: int, t: Tournament,
           checks: list[StoredCheck]) -> list[DeckCheckView]:
    names = {p.id: p.name for p in t.players}
    decks = set(decks_in(tx, tournament_id)) if checks else set()
    tables: dict[int, dict[int, int]] = {}
    found = []
    for check in checks:
        if check.round not in tables:
            tables[check.round] = {n: s.table for n, s in _seats(t, check.round).items()} \
                if any(r.number == check.round for r in t.rounds) else {}
        found.append(DeckCheckView(
            id=check.id, round=check.round, number=check.number,
            player=names.get(check.number, f"#{check.number}"),
            table=tables[check.round].get(check.number), by_lot=check.by_lot, lot=check.lot,
            drawn_at=check.drawn_at, drawn_by=check.drawn_by, done=check.done,
            note=check.note, has_deck=check.number in decks))
    return found


def _log(change: Change, tournament_id: int, action: str, check: StoredCheck,
         before: StoredCheck | None = None) -> None:
    change.log(tournament_id, action, "deck_check", check.id,
               None if before is None else before.to_json(), check.to_json())


def _opened(change: Change, tournament_id: int, account_id: int | None) -> Tournament:
    """The tournament, once the account may check decks there and it is not finished."""
    tx = change.conn
    row = tournament_row(tx, tournament_id)
    check_staff(tx, tournament_id, account_id, ANY_STAFF, what=CHECK_DECKS)
    refuse_when_finished(row)
    return load_tournament(tx, tournament_id)


def draw_deck_checks(db: Database, tournament_id: int, *, count: int, actor: str,
                     account_id: int | None, round_number: int | None = None
                     ) -> list[DeckCheckView]:
    """``count`` decks drawn by lot in the current round (``round_number``, when given, must
    be it) among the players at a table not checked in it yet; all of them when fewer are
    left. The same tournament, round and draw number always draw the same decks."""
    with changing(db, tournament_id, actor) as change:
        t = _opened(change, tournament_id, account_id)
        number = _current_round(t, round_number)
        tx = change.conn
        done = [c.number for c in deck_checks_repo.checks_of(tx, tournament_id, number)]
        pool = candidates(_seats(t, number), done)
        draw = draw_by_lot(pool, count, seed=t.seed, round_number=number,
                           draw=deck_checks_repo.draws_made(tx, tournament_id, number) + 1)
        added = [deck_checks_repo.add_check(tx, tournament_id, round_number=number,
                                            number=player, by_lot=True, lot=draw.lot,
                                            at=change.at, by=change.actor)
                 for player in draw.numbers]
        for check in added:
            _log(change, tournament_id, "deck.check_draw", check)
        return _views(tx, tournament_id, t, added)


def add_deck_check(db: Database, tournament_id: int, player: int | str, *, actor: str,
                   account_id: int | None, round_number: int | None = None) -> DeckCheckView:
    """A check of the player a judge chooses (number or name) in the current round."""
    with changing(db, tournament_id, actor) as change:
        t = _opened(change, tournament_id, account_id)
        number = _current_round(t, round_number)
        tx = change.conn
        entry = players_repo.entry(tx, tournament_id, player)
        if entry.number not in _seats(t, number):
            raise UserError("{name} does not play at a table in round {round}",
                            code="not_at_a_table", name=entry.name, round=number)
        if any(c.number == entry.number
               for c in deck_checks_repo.checks_of(tx, tournament_id, number)):
            raise ConflictError("the deck of {name} is already checked in round {round}",
                                code="already_checked", name=entry.name, round=number)
        check = deck_checks_repo.add_check(tx, tournament_id, round_number=number,
                                           number=entry.number, by_lot=False, lot="",
                                           at=change.at, by=change.actor)
        _log(change, tournament_id, "deck.check_add", check)
        return _views(tx, tournament_id, t, [check])[0]


def finish_deck_check(db: Database, tournament_id: int, check_id: int, *, note: str,
                      actor: str, account_id: int | None) -> DeckCheckView:
    """The check marked done with the judge's note (what was found; may be empty). Done
    again, only its note changes."""
    cleaned = clean_text(note, field="note", max_len=MAX_NOTE, multiline=False)
    with changing(db, tournament_id, actor) as change:
        t = _opened(change, tournament_id, account_id)
        tx = change.conn
        before = deck_checks_repo.check_by_id(tx, tournament_id, check_id)
        if before is None:
            raise NotFoundError("there is no deck check #{check} in this tournament",
                                code="unknown_deck_check", check=check_id)
        if before.done and before.note == cleaned:
            return _views(tx, tournament_id, t, [before])[0]
        after = deck_checks_repo.finish_check(tx, before, note=cleaned)
        _log(change, tournament_id, "deck.check_done", after, before)
        return _views(tx, tournament_id, t, [after])[0]


def list_deck_checks(db: Database, tournament_id: int, *, account_id: int | None,
                     round_number: int | None = None) -> list[DeckCheckView]:
    """The tournament's checks (of one round when given), by round, as drawn; staff only."""
    with reading(db) as tx:
        tournament_row(tx, tournament_id)
        check_staff(tx, tournament_id, account_id, ANY_STAFF, what=CHECK_DECKS)
        t = load_tournament(tx, tournament_id)
        stored = deck_checks_repo.checks_of(tx, tournament_id, round_number)
        return _views(tx, tournament_id, t, stored)


def deck_checks_page(db: Database, tournament_id: int, *,
                     account_id: int | None) -> DeckChecksPage:
    """Every check (the current round's first) and who is left to draw in the current round."""
    with reading(db) as tx:
        row = tournament_row(tx, tournament_id)
        check_staff(tx, tournament_id, account_id, ANY_STAFF, what=CHECK_DECKS)
        t = load_tournament(tx, tournament_id)
        checks = _views(tx, tournament_id, t, deck_checks_repo.checks_of(tx, tournament_id))
    current = t.current_round.number if t.current_round is not None else None
    left: list[Seat] = []
    if current is not None:
        seats = _seats(t, current)
        done = {c.number for c in checks if c.round == current}
        left = sorted((seats[n] for n in candidates(seats, done)),
                      key=lambda s: (s.table, s.number))
    checks.sort(key=lambda c: (c.round != current, -c.round, c.id))
    return DeckChecksPage(tournament_id=tournament_id, round=current,
                          finished=row["status"] == Status.FINISHED, checks=checks, left=left)


# ----- the decks list and the counting view --------------------------------------------------


@dataclass(frozen=True)
class DecksPage:
    """Every player's deck at a glance, for the staff."""

    tournament_id: int
    format_name: str | None
    """The tournament's format (``None``: not set, so no deck can be registered yet)."""
    decks: list[DeckSummary]
    locked: bool
    """Round 1 is paired: a change is a judge's now."""


def decks_page(db: Database, tournament_id: int, *, account_id: int | None) -> DecksPage:
    """Every entry with its deck's status (none, legal, N problems), for the staff only."""
    with reading(db) as tx:
        tournament_row(tx, tournament_id)
        check_staff(tx, tournament_id, account_id, ANY_STAFF, what=SEE_DECKS)
        name = takes_decks_in(tx, tournament_id)  # a format, or a draft (issue 14)
        locked = decks_locked(tx, tournament_id)
    if name is None:
        return DecksPage(tournament_id, None, [], locked)
    return DecksPage(tournament_id, name,
                     list_decks(db, tournament_id, account_id=account_id), locked)


@dataclass(frozen=True, slots=True)
class CountGroup:
    """The cards of one element, in counting order, and how many they are."""

    element: str
    cards: tuple[tuple[Card, int], ...]

    @property
    def total(self) -> int:
        return sum(count for _, count in self.cards)


@dataclass(frozen=True)
class DeckCount:
    """A deck laid out for a judge's count at the table."""

    deck: DeckView
    groups: tuple[CountGroup, ...]
    unknown: tuple[tuple[str, int], ...]
    """Names not in the catalogue, with their copies (counted too, outside the groups)."""

    @property
    def total(self) -> int:
        return self.deck.total


def _unknown_lines(deck: DeckView) -> tuple[tuple[str, int], ...]:
    counts = {line.line: line.count for line in deck.lines}
    return tuple((p.card or "?", counts.get(p.line or 0, 0)) for p in deck.problems
                 if p.kind is ProblemKind.UNKNOWN_CARD)


def deck_count(db: Database, tournament_id: int, number: int | str, *,
               account_id: int | None) -> DeckCount:
    """Player ``number``'s deck sorted for counting (element, cost, type), grouped by element;
    for the tournament's staff only (the player sees their deck on its own page)."""
    with reading(db) as tx:
        tournament_row(tx, tournament_id)
        check_staff(tx, tournament_id, account_id, ANY_STAFF, what=CHECK_DECKS)
    deck = deck_view(db, tournament_id, number, account_id=account_id)
    if not deck.staff:
        raise ForbiddenError("only the judges and the organizer of tournament #{tournament} "
                             "count its decks", code="not_staff", tournament=tournament_id)
    groups: list[CountGroup] = []
    if deck.check is not None:
        for element, cards in groupby(counting_order(deck.check),
                                      key=lambda item: card_key(item[0].element)):
            listed = tuple(cards)
            groups.append(CountGroup(listed[0][0].element or element, listed))
    return DeckCount(deck=deck, groups=tuple(groups), unknown=_unknown_lines(deck))

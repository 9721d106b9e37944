"""Deck lists and their check (C-1, C-2): what a player registers for a constructed tournament.

Terms (Russian in brackets):

- *deck list* (список колоды, декслист): lines "3 Название карты", with or without the edition
  ("3 Название [Выпуск]", "3 Название (Выпуск)", "3x Название", "Название x3", or the CSV/tab
  form "3;Название;Выпуск"); a line without a count is one copy; blank lines, lines starting
  with ``#`` or ``//`` and headings ending in ":" ("Существа:") are skipped;
- *format* (формат): a name, the allowed editions (none listed: every edition), the deck size
  (30-50, C-1), the copy limits (3, and 5 for a card with Орда, C-1) and its *ban lists*
  (списки запрещённых карт), each with the day it takes effect; a tournament uses the list in
  force on its start day (``DeckFormat.ban_list_on``);
- *starter format* (стартерный констрактед, C-2): only the format's *starter decks* (стартовые
  колоды) are accepted, card for card;
- *problem* (ошибка в колоде): one broken rule, naming the card and the rule; the check reports
  every problem at once, in the order of the list (a card's line), then the deck's size.

Reprints are one card: copies are counted by card name over every line and edition.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from functools import cached_property
from typing import Any

from turnir.domain.cards import MAX_NAME, Card, CardCatalogue, card_key
from turnir.errors import Term, UserError

MAX_LINES = 300
"""The most lines a pasted list may have (a 50-card deck needs at most 50)."""
MAX_COUNT = 99
"""The most copies one line may ask for."""
MAX_TEXT = 20_000
"""The longest pasted list, in characters."""


class ProblemKind(StrEnum):
    """What is wrong with a deck."""

    SYNTAX = "syntax"
    """A line that is not "count name"."""
    UNKNOWN_CARD = "unknown_card"
    """No card of that name in the catalogue."""
    WRONG_EDITION = "wrong_edition"
    """The card is not printed in the edition the line names."""
    EDITION_NOT_ALLOWED = "edition_not_allowed"
    """No printing of the card is in an edition the format allows."""
    BANNED = "banned"
    """The card is on the ban list in force (C-1)."""
    COPIES = "copies"
    """More than 3 copies (C-1)."""
    HORDE_COPIES = "horde_copies"
    """More than 5 copies of a card with Орда (C-1)."""
    SIZE = "size"
    """Fewer than 30 or more than 50 cards (C-1)."""
    NOT_STARTER = "not_starter"
    """Not one of the starter decks of a starter format (C-2)."""


@dataclass(frozen=True, slots=True)
class DeckLine:
    """One line of a deck list."""

    count: int
    name: str
    edition: str | None = None
    line: int = 0
    """Its line number in the pasted text (1-based; 0 when built in code)."""

    def to_json(self) -> dict[str, Any]:
        return {"count": self.count, "name": self.name, "edition": self.edition}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], line: int = 0) -> DeckLine:
        edition = data.get("edition")
        return cls(count=int(data["count"]), name=str(data["name"]),
                   edition=None if edition in (None, "") else str(edition), line=line)


@dataclass(frozen=True, slots=True)
class DeckList:
    """A deck as the player gave it: its lines, in order."""

    lines: tuple[DeckLine, ...]

    @property
    def total(self) -> int:
        return sum(line.count for line in self.lines)

    def to_json(self) -> list[dict[str, Any]]:
        return [line.to_json() for line in self.lines]

    @classmethod
    def from_json(cls, data: Iterable[Mapping[str, Any]]) -> DeckList:
        return cls(tuple(DeckLine.from_json(item, number)
                         for number, item in enumerate(data, start=1)))

    def text(self) -> str:
        """The list as text that ``parse_deck`` reads back to the same lines."""
        return "\n".join(f"{line.count} {line.name}" + (f" [{line.edition}]" if line.edition
                                                         else "") for line in self.lines)


@dataclass(frozen=True, slots=True)
class DeckProblem:
    """One thing wrong with a deck: the rule, the card (if any) and a message to translate."""

    kind: ProblemKind
    rule: str
    """The rule broken: "C-1", "C-2", or "" for a line that could not be read."""
    error: UserError
    """The message, translated where it is shown (names the card and the rule)."""
    card: str | None = None
    line: int | None = None
    suggestions: tuple[str, ...] = ()
    """Close catalogue names, for an unknown card."""


_COUNT_FIRST = re.compile(r"^(\d{1,4})\s*(?:[xхXХ×*](?=\s))?\s*(?P<rest>\S.*)$")
_COUNT_LAST = re.compile(r"^(?P<rest>.+?)\s+[xхX×*]\s*(\d{1,4})$")
_EDITION = re.compile(r"^(?P<name>.+?)\s*[\[(](?P<edition>[^\[\]()]+)[\])]$")


_HEADINGS = frozenset(card_key(word) for word in (
    "количество", "кол-во", "кол.", "копии", "копий", "шт", "шт.", "название", "карта", "имя",
    "выпуск", "издание", "сет", "count", "qty", "quantity", "copies", "name", "card", "edition",
    "set", "#", "n", "№"))
"""The words of a file's heading row («Название;Количество»), skipped."""


def _is_heading(text: str) -> bool:
    cells = [card_key(cell) for cell in re.split(r"[;\t]", text) if cell.strip()]
    return bool(cells) and ("\t" in text or ";" in text) and all(c in _HEADINGS for c in cells)


def _split_cells(cells: list[str]) -> tuple[int, str, str | None] | None:
    """(count, name, edition) of a row "3;Name[;Edition]" or "Name;3[;Edition]"."""
    while cells and not cells[-1]:
        cells.pop()
    if len(cells) >= 2 and cells[0].isdigit() and cells[1]:
        return int(cells[0]), cells[1], (cells[2] or None) if len(cells) > 2 else None
    if len(cells) >= 2 and cells[1].isdigit() and cells[0]:
        return int(cells[1]), cells[0], (cells[2] or None) if len(cells) > 2 else None
    return None


def _split_line(raw: str) -> tuple[int, str, str | None] | None:
    """(count, name, edition) of a line, ``None`` if it is not a card line."""
    text = raw.strip()
    if ";" in text or "\t" in text:
        return _split_cells([cell.strip() for cell in re.split(r"[;\t]", text)])
    count = 1
    match = _COUNT_FIRST.match(text)
    if match:
        count, text = int(match.group(1)), match.group("rest").strip()
    else:
        last = _COUNT_LAST.match(text)
        if last:
            count, text = int(last.group(2)), last.group("rest").strip()
    edition = None
    named = _EDITION.match(text)
    if named:
        text, edition = named.group("name").strip(), named.group("edition").strip()
    return (count, text, edition) if text else None


def _skipped(text: str) -> bool:
    return not text or text.startswith(("#", "//")) or (text.endswith(":") and
                                                       not text[0].isdigit()) \
        or _is_heading(text)


def parse_deck(text: str) -> tuple[DeckList, list[DeckProblem]]:
    """The lines of a pasted list, and a problem for each line that cannot be read."""
    if len(text) > MAX_TEXT:
        raise UserError("the deck list is longer than {limit} characters", code="bad_deck",
                        limit=MAX_TEXT)
    lines: list[DeckLine] = []
    problems: list[DeckProblem] = []
    read = [(number, stripped) for number, stripped in enumerate(
        (raw.strip() for raw in text.splitlines()), start=1) if not _skipped(stripped)]
    if len(read) > MAX_LINES:
        raise UserError("the deck list has more than {limit} lines", code="bad_deck",
                        limit=MAX_LINES)
    for number, stripped in read:
        parsed = _split_line(stripped)
        if parsed is None or not 1 <= parsed[0] <= MAX_COUNT or len(parsed[1]) > MAX_NAME \
                or len(parsed[2] or "") > MAX_NAME:
            problems.append(DeckProblem(
                kind=ProblemKind.SYNTAX, rule="", line=number, error=UserError(
                    "line {line}: {text!r} is not \"count card name\" (a count of 1-{limit})",
                    code="deck_syntax", line=number, text=stripped[:80], limit=MAX_COUNT)))
            continue
        lines.append(DeckLine(count=parsed[0], name=parsed[1], edition=parsed[2], line=number))
    return DeckList(tuple(lines)), problems


@dataclass(frozen=True, slots=True)
class BanList:
    """A format's list of banned cards, in force from ``effective`` (C-1)."""

    effective: date
    cards: tuple[str, ...]
    """The banned cards' names, as the organizer gave them."""

    @property
    def keys(self) -> frozenset[str]:
        return frozenset(card_key(name) for name in self.cards)


@dataclass(frozen=True, slots=True)
class StarterDeck:
    """One of a starter format's decks (C-2)."""

    name: str
    deck: DeckList


@dataclass(frozen=True)
class DeckFormat:
    """A constructed format: editions, deck size, copy limits and ban lists (C-1, C-2)."""

    name: str
    editions: tuple[str, ...] = ()
    """The allowed editions; empty: every edition in the catalogue."""
    ban_lists: tuple[BanList, ...] = ()
    min_cards: int = 30
    max_cards: int = 50
    max_copies: int = 3
    max_horde_copies: int = 5
    starter: bool = False
    """A starter format: only ``starter_decks`` are accepted (C-2)."""
    starter_decks: tuple[StarterDeck, ...] = field(default=())

    def ban_list_on(self, day: date) -> BanList | None:
        """The ban list in force on ``day``: the latest that took effect on or before it."""
        in_force = [ban for ban in self.ban_lists if ban.effective <= day]
        return max(in_force, key=lambda ban: ban.effective) if in_force else None

    def allows_edition(self, edition: str) -> bool:
        return not self.editions or card_key(edition) in self._edition_keys

    @cached_property
    def _edition_keys(self) -> frozenset[str]:
        return frozenset(card_key(e) for e in self.editions)


@dataclass(frozen=True)
class DeckCheck:
    """The result of checking a deck: every problem, and the cards found with their counts."""

    problems: tuple[DeckProblem, ...]
    cards: tuple[tuple[Card, int], ...]
    """Each card found, once, with its copies over all its lines, in the list's order."""
    total: int
    """Cards in the deck (lines that could be read)."""

    @property
    def ok(self) -> bool:
        return not self.problems


def _resolve(line: DeckLine, catalogue: CardCatalogue, fmt: DeckFormat,
             problems: list[DeckProblem]) -> Card | None:
    printings = catalogue.printings(line.name)
    if not printings:
        suggestions = tuple(s.name for s in catalogue.suggest(line.name))
        problems.append(DeckProblem(
            kind=ProblemKind.UNKNOWN_CARD, rule="C-1", card=line.name, line=line.line,
            suggestions=suggestions, error=UserError(
                "line {line}: no card {card!r} in the catalogue", code="unknown_card",
                line=line.line, card=line.name)))
        return None
    card = printings[0]
    if line.edition is not None:
        exact = catalogue.find(line.name, line.edition)
        if exact is None:
            problems.append(DeckProblem(
                kind=ProblemKind.WRONG_EDITION, rule="C-1", card=card.name, line=line.line,
                suggestions=tuple(dict.fromkeys(c.edition for c in printings)),
                error=UserError("line {line}: the card {card!r} is not printed in the edition "
                                "{edition!r}", code="wrong_edition", line=line.line,
                                card=card.name, edition=line.edition)))
            return card
        printings = (exact,)
        card = exact
    allowed = [c for c in printings if fmt.allows_edition(c.edition)]
    if not allowed:
        problems.append(DeckProblem(
            kind=ProblemKind.EDITION_NOT_ALLOWED, rule="C-1", card=card.name, line=line.line,
            error=UserError("line {line}: the card {card!r} ({edition}) is not in an edition "
                            "the format {format!r} allows", code="edition_not_allowed",
                            line=line.line, card=card.name, edition=card.edition,
                            format=fmt.name)))
        return card
    return allowed[0]


def _copy_problems(counts: Mapping[str, tuple[Card, int, int]], fmt: DeckFormat,
                   banned: frozenset[str]) -> list[tuple[int, DeckProblem]]:
    found: list[tuple[int, DeckProblem]] = []
    for card, count, line in counts.values():
        if card.key in banned or any(card_key(a) in banned for a in card.aliases):
            found.append((line, DeckProblem(
                kind=ProblemKind.BANNED, rule="C-1", card=card.name, line=line, error=UserError(
                    "the card {card!r} is banned in the format {format!r} (C-1)",
                    code="banned_card", card=card.name, format=fmt.name))))
        limit, kind = ((fmt.max_horde_copies, ProblemKind.HORDE_COPIES) if card.horde
                       else (fmt.max_copies, ProblemKind.COPIES))
        if count > limit:
            error = (UserError("{count} copies of {card!r}: at most {limit} of a card with "
                               "Horde (C-1)", code="too_many_copies", count=count,
                               card=card.name, limit=limit) if card.horde else
                     UserError("{count} copies of {card!r}: at most {limit} of a card (C-1)",
                               code="too_many_copies", count=count, card=card.name,
                               limit=limit))
            found.append((line, DeckProblem(kind=kind, rule="C-1", card=card.name, line=line,
                                            error=error)))
    return found


def deck_counts(deck: DeckList) -> dict[str, int]:
    """Copies by card key (reprints and editions together)."""
    counts: dict[str, int] = {}
    for line in deck.lines:
        counts[card_key(line.name)] = counts.get(card_key(line.name), 0) + line.count
    return counts


def _starter_problem(deck: DeckList, catalogue: CardCatalogue,
                     fmt: DeckFormat) -> DeckProblem | None:
    def canonical(lines: DeckList) -> dict[str, int]:
        counts: dict[str, int] = {}
        for line in lines.lines:
            card = catalogue.find(line.name)
            key = card.key if card is not None else card_key(line.name)
            counts[key] = counts.get(key, 0) + line.count
        return counts

    mine = canonical(deck)
    if any(canonical(starter.deck) == mine for starter in fmt.starter_decks):
        return None
    names = ", ".join(starter.name for starter in fmt.starter_decks)
    return DeckProblem(kind=ProblemKind.NOT_STARTER, rule="C-2", error=UserError(
        "the format {format!r} accepts only its starter decks ({names}); this deck is none of "
        "them (C-2)", code="not_starter", format=fmt.name, names=names or Term("none")))


def check_deck(deck: DeckList, catalogue: CardCatalogue, fmt: DeckFormat, *, on: date,
               syntax: Sequence[DeckProblem] = ()) -> DeckCheck:
    """Every problem of ``deck`` in ``fmt`` with the ban list in force ``on`` (C-1, C-2).

    ``syntax`` are the problems ``parse_deck`` found; they come first, in line order."""
    problems: list[tuple[int, DeckProblem]] = [(p.line or 0, p) for p in syntax]
    counts: dict[str, tuple[Card, int, int]] = {}
    for line in deck.lines:
        found: list[DeckProblem] = []
        card = _resolve(line, catalogue, fmt, found)
        problems.extend((line.line, p) for p in found)
        if card is not None:
            before = counts.get(card.key)
            counts[card.key] = ((before[0], before[1] + line.count, before[2]) if before
                                else (card, line.count, line.line))
    ban = fmt.ban_list_on(on)
    problems.extend(_copy_problems(counts, fmt, ban.keys if ban else frozenset()))
    problems.sort(key=lambda item: item[0])
    ordered = [p for _, p in problems]
    total = deck.total
    if not fmt.min_cards <= total <= fmt.max_cards:
        ordered.append(DeckProblem(kind=ProblemKind.SIZE, rule="C-1", error=UserError(
            "the deck has {total} cards; a deck has {low}-{high} (C-1)", code="deck_size",
            total=total, low=fmt.min_cards, high=fmt.max_cards)))
    if fmt.starter:
        starter = _starter_problem(deck, catalogue, fmt)
        if starter is not None:
            ordered.append(starter)
    return DeckCheck(problems=tuple(ordered), total=total,
                     cards=tuple((card, count) for card, count, _ in counts.values()))


def counting_order(check: DeckCheck) -> list[tuple[Card, int]]:
    """The deck's cards sorted for a deck check by a judge: element, cost, type, name."""
    return sorted(check.cards, key=lambda item: (card_key(item[0].element), item[0].cost,
                                                 card_key(item[0].type), item[0].key))


def crystal_total(cards: Iterable[tuple[Card, int]]) -> int:
    """The crystals of the cards a player controls, for the technical result (S-8): each
    card's cost times its copies; a gold crystal counts as a silver one."""
    return sum(card.counted_cost * count for card, count in cards)

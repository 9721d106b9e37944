"""The metagame of a finished constructed tournament (метагейм, issue 13): which elements the
decks played and which cards were played most, from the registered decks and the final places.

Terms (Russian in brackets):

- a deck's *elements* (стихии колоды): the element or elements with the most cards in it
  (copies counted); neutral cards (нейтральные) do not count unless every card of the deck is
  neutral; a card the catalogue does not know has no element. Two elements with as many cards
  each are both the deck's (a "Горы + Леса" deck);
- the *element share* (доля стихий): for each such element or pair, how many decks, their share
  of all decks and the best final place among them;
- the *most played cards* (самые популярные карты): each card of the catalogue by the number of
  decks that play it, then its copies over all decks, then its name; the first 20.

Pure: the callers read the decks and places (``turnir.services.deck_publication``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from turnir.domain.cards import Card, CardCatalogue, card_key
from turnir.domain.decks import DeckList

NEUTRAL_KEYS = frozenset(card_key(word) for word in (
    "нейтральная", "нейтральный", "нейтральные", "нейтральное", "нейтрал", "neutral"))
"""The element names of neutral cards, as card keys."""
MOST_PLAYED = 20
"""How many cards the most played list shows."""


@dataclass(frozen=True, slots=True)
class DeckCards:
    """One deck of the tournament: its player's final place and its cards with their copies."""

    number: int
    """The entry's number."""
    place: int | None
    """The final place (``None``: not ranked, e.g. a no-show)."""
    cards: tuple[tuple[str, str, int], ...]
    """(the card's name as the catalogue prints it, its element, copies); a card the catalogue
    does not know: the name as written and element ""."""
    unknown: frozenset[str] = frozenset()
    """The card keys of the names the catalogue does not know (not in the most played list: a
    misspelling of an unpublished deck is nobody's business)."""


@dataclass(frozen=True, slots=True)
class ElementShare:
    """An element (or a tie of elements) and the decks whose main element it is."""

    elements: tuple[str, ...]
    """One element, or the tied elements in name order; ``()``: no element known."""
    decks: int
    share: float
    """Of all decks, 0-1."""
    best_place: int | None


@dataclass(frozen=True, slots=True)
class PlayedCard:
    """A card and how much it was played."""

    name: str
    element: str
    decks: int
    """How many decks play it."""
    copies: int
    """Its copies over all decks."""
    share: float
    """Of all decks, 0-1."""


@dataclass(frozen=True, slots=True)
class Metagame:
    decks: int
    elements: tuple[ElementShare, ...]
    """The most played first (then the best place, then the names)."""
    cards: tuple[PlayedCard, ...]
    """The most played cards, at most ``MOST_PLAYED``."""


def deck_cards(number: int, place: int | None, deck: DeckList,
               catalogue: CardCatalogue) -> DeckCards:
    """The deck's cards as the catalogue names them, reprints and spellings together, in the
    list's order."""
    shown: dict[str, tuple[str, str]] = {}
    copies: dict[str, int] = {}
    unknown: set[str] = set()
    for line in deck.lines:
        card: Card | None = catalogue.find(line.name)
        name, element = (card.name, card.element) if card is not None else (line.name.strip(),
                                                                             "")
        key = card_key(name)
        if card is None:
            unknown.add(key)
        shown.setdefault(key, (name, element))
        copies[key] = copies.get(key, 0) + line.count
    return DeckCards(number=number, place=place, cards=tuple(
        (name, element, copies[key]) for key, (name, element) in shown.items()),
        unknown=frozenset(unknown))


def is_neutral(element: str) -> bool:
    return card_key(element) in NEUTRAL_KEYS


def deck_elements(deck: DeckCards) -> tuple[str, ...]:
    """The deck's main element(s): most cards, neutral ones only when every card is neutral."""
    counted: dict[str, tuple[str, int]] = {}
    neutral: dict[str, tuple[str, int]] = {}
    for _, element, count in deck.cards:
        if not element.strip():
            continue
        into = neutral if is_neutral(element) else counted
        key = card_key(element)
        shown, before = into.get(key, (element.strip(), 0))
        into[key] = (shown, before + count)
    pool = counted or neutral
    if not pool:
        return ()
    most = max(count for _, count in pool.values())
    return tuple(sorted((shown for shown, count in pool.values() if count == most),
                        key=card_key))


def _best(places: Iterable[int | None]) -> int | None:
    known = [place for place in places if place is not None]
    return min(known) if known else None


def element_shares(decks: Sequence[DeckCards]) -> tuple[ElementShare, ...]:
    groups: dict[tuple[str, ...], list[DeckCards]] = {}
    for deck in decks:
        groups.setdefault(deck_elements(deck), []).append(deck)
    total = len(decks)
    shares = [ElementShare(elements=elements, decks=len(group), share=len(group) / total,
                           best_place=_best(d.place for d in group))
              for elements, group in groups.items()]
    shares.sort(key=lambda s: (-s.decks, s.best_place if s.best_place is not None else 1 << 30,
                               not s.elements, [card_key(e) for e in s.elements]))
    return tuple(shares)


def most_played(decks: Sequence[DeckCards], limit: int = MOST_PLAYED) -> tuple[PlayedCard, ...]:
    shown: dict[str, tuple[str, str]] = {}
    in_decks: dict[str, int] = {}
    copies: dict[str, int] = {}
    for deck in decks:
        for name, element, count in deck.cards:
            key = card_key(name)
            if key in deck.unknown:
                continue
            shown.setdefault(key, (name, element))
            in_decks[key] = in_decks.get(key, 0) + 1
            copies[key] = copies.get(key, 0) + count
    total = len(decks)
    cards = [PlayedCard(name=name, element=element, decks=in_decks[key], copies=copies[key],
                        share=in_decks[key] / total) for key, (name, element) in shown.items()]
    cards.sort(key=lambda c: (-c.decks, -c.copies, card_key(c.name)))
    return tuple(cards[:limit])


def metagame_of(decks: Sequence[DeckCards], limit: int = MOST_PLAYED) -> Metagame:
    """The element shares and the most played cards of ``decks``."""
    if not decks:
        return Metagame(decks=0, elements=(), cards=())
    return Metagame(decks=len(decks), elements=element_shares(decks),
                    cards=most_played(decks, limit))

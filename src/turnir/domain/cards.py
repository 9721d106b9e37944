"""The card catalogue (каталог карт): the cards a deck is checked against (C-1, C-2, S-8).

Terms (Russian in brackets):

- *card* (карта): a name, the *edition* (выпуск, сет) it is printed in and its number there, a
  rarity, an element (стихия), a cost in crystals and the crystal kind (gold/silver: золотой
  или серебряный кристалл), a type (существо, артефакт, …), features (особенности, Орда among
  them), uniqueness (уникальность) and aliases (the English name, old spellings);
- *reprint*: the same name in several editions is one card for the copy limits of C-1; a
  format allows a card when any of its editions is allowed;
- *horde* (Орда): the feature that lifts the copy limit from 3 to 5 (C-1);
- *card key* (ключ карты): what names are compared by: case-folded, ё read as е, every run of
  whitespace one space (none around a dash), dashes and quotes unified, and the Latin letters
  that look like Cyrillic ones (a, c, e, o, p, x, y, k, m, t, b, h) read as those, so
  "Гоблин-cапёр" typed with a Latin "c" finds "Гоблин-сапер";
- *suggestion* (похожее название): when a name is not found, the closest names in the
  catalogue by edit similarity (rapidfuzz), best first.

The catalogue is an immutable value: ``CardCatalogue(cards)`` indexes the names and aliases once;
lookups are dictionary reads, suggestions one vectorised similarity pass.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache

from rapidfuzz import fuzz, process

from turnir.errors import Term, UserError


class Crystal(StrEnum):
    """The kind of crystal a card costs (S-8: gold counts as silver when crystals are counted)."""

    GOLD = "gold"
    """Золотой кристалл."""
    SILVER = "silver"
    """Серебряный кристалл."""


_LOOK_ALIKES = str.maketrans({
    "a": "а", "c": "с", "e": "е", "o": "о", "p": "р", "x": "х", "y": "у", "k": "к", "m": "м",
    "t": "т", "b": "в", "h": "н", "ё": "е", "ѐ": "е",
    "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "―": "-", "−": "-",
    "«": '"', "»": '"', "„": '"', "“": '"', "”": '"', "’": "'", "‘": "'", "`": "'",
})
"""Latin letters read as the Cyrillic letters they look like (after case folding; "b" and "h"
are the capitals В and Н folded), ё as е, dashes and quotes unified."""

_SPACES = re.compile(r"\s+")
_DASH_SPACES = re.compile(r" ?- ?")

MAX_NAME = 200
"""The longest card name, edition or alias (a column length)."""


@lru_cache(maxsize=1 << 16)
def card_key(value: str) -> str:
    """What card names are compared by (see the module docstring). Cached: a deck check keys
    the same few thousand names again and again."""
    text = unicodedata.normalize("NFKC", value).casefold().translate(_LOOK_ALIKES)
    return _DASH_SPACES.sub("-", _SPACES.sub(" ", text)).strip()


HORDE_KEYS = frozenset(card_key(word) for word in ("Орда", "Horde"))
"""The feature that allows 5 copies instead of 3 (C-1), as card keys (the Latin "Horde" has
look-alike letters too, so it is keyed like any name)."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the catalogue, as printed in one edition."""

    name: str
    """The card's name (название), as printed."""
    edition: str
    """The edition (выпуск) it is printed in."""
    number: str = ""
    """Its number in the edition ("" when unknown)."""
    rarity: str = ""
    """Rarity (редкость): частая, необычная, редкая, ультраредкая, … as the catalogue says."""
    element: str = ""
    """Element (стихия): степи, горы, леса, болота, тьма, нейтральная, …"""
    cost: int = 0
    """Its cost in crystals (стоимость), 0 or more."""
    crystal: Crystal = Crystal.SILVER
    """The kind of crystal it costs."""
    type: str = ""
    """Type (тип): существо, артефакт, местность, …"""
    features: tuple[str, ...] = ()
    """Features (особенности), Орда among them."""
    unique: bool = False
    """A unique card (уникальная)."""
    aliases: tuple[str, ...] = ()
    """Other names it is known by: the English name, old spellings."""

    @property
    def key(self) -> str:
        return card_key(self.name)

    @property
    def horde(self) -> bool:
        """The card has the Орда feature: up to 5 copies (C-1)."""
        return any(card_key(feature) in HORDE_KEYS for feature in self.features)

    @property
    def counted_cost(self) -> int:
        """Its crystals for the technical result (S-8): gold counts as silver, so the cost."""
        return self.cost


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A catalogue name close to a name that was not found."""

    name: str
    score: float
    """Similarity 0-100."""


@dataclass(frozen=True)
class CardCatalogue:
    """The cards, indexed by name key and alias key. Build it once; it does not change."""

    cards: tuple[Card, ...]
    _by_key: dict[str, tuple[Card, ...]] = field(init=False, repr=False, compare=False)
    _keys: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _narrow: dict[int, str] = field(init=False, repr=False, compare=False)
    _match_keys: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _sorted_keys: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _printings: dict[str, tuple[Card, ...]] = field(init=False, repr=False, compare=False)

    def __init__(self, cards: Iterable[Card]) -> None:
        ordered = tuple(cards)
        index: dict[str, list[Card]] = {}
        shown: dict[str, str] = {}
        for card in ordered:
            for key in dict.fromkeys(card_key(name) for name in (card.name, *card.aliases)):
                if key:  # an alias with the name's own key indexes the card once
                    index.setdefault(key, []).append(card)
                    shown.setdefault(key, card.name)
        object.__setattr__(self, "cards", ordered)
        object.__setattr__(self, "_by_key", {k: tuple(v) for k, v in index.items()})
        object.__setattr__(self, "_keys", tuple(index))
        object.__setattr__(self, "_names", tuple(shown[k] for k in index))
        narrow = _narrowing(index)
        object.__setattr__(self, "_narrow", narrow)
        object.__setattr__(self, "_match_keys", tuple(k.translate(narrow) for k in index))
        object.__setattr__(self, "_sorted_keys",
                           tuple(_sorted_words(k).translate(narrow) for k in index))
        object.__setattr__(self, "_printings", {k: self._printings_of(k) for k in index})

    def __len__(self) -> int:
        return len(self.cards)

    def printings(self, name: str) -> tuple[Card, ...]:
        """Every printing of the card called ``name`` (or an alias of it), ``()`` if unknown."""
        return self._printings.get(card_key(name), ())

    def _printings_of(self, key: str) -> tuple[Card, ...]:
        found = self._by_key[key]
        canonical = found[0].key
        return tuple(card for card in self._by_key.get(canonical, found)
                     if card.key == canonical) or found

    def find(self, name: str, edition: str | None = None) -> Card | None:
        """The card called ``name``; in ``edition`` when given (``None`` if not printed there)."""
        printings = self.printings(name)
        if edition is None or not printings:
            return printings[0] if printings else None
        wanted = card_key(edition)
        return next((card for card in printings if card_key(card.edition) == wanted), None)

    def editions(self) -> tuple[str, ...]:
        """Every edition named in the catalogue, in first-seen order."""
        return tuple(dict.fromkeys(card.edition for card in self.cards))

    def suggest(self, name: str, *, limit: int = 3, cutoff: float = 66.0) -> list[Suggestion]:
        """The closest names to ``name``, best first (at most ``limit``, similarity ≥ cutoff).

        The candidates are the closest keys by plain edit similarity, as typed and with the
        words sorted (two fast passes over the catalogue, its letters narrowed to one byte
        each), then scored by ``WRatio`` (which also forgives word order and partial names but
        is slow over thousands of names)."""
        key = card_key(name)
        if not key or not self._keys:
            return []
        wanted = max(limit * 4, 12)
        candidates: dict[int, None] = {}
        passes = [(key.translate(self._narrow), self._match_keys)]
        if " " in key:  # one word needs no word order
            passes.append((_sorted_words(key).translate(self._narrow), self._sorted_keys))
        for query, choices in passes:
            for _, _, index in process.extract(query, choices, scorer=fuzz.ratio,
                                               limit=wanted, processor=None):
                candidates.setdefault(index)
        scored = sorted(((fuzz.WRatio(key, self._keys[index], processor=None), index)
                         for index in candidates), key=lambda item: -item[0])
        seen: dict[str, float] = {}
        for score, index in scored:
            if score >= cutoff:
                seen.setdefault(self._names[index], float(score))
        best = sorted(seen.items(), key=lambda item: (-item[1], item[0]))[:limit]
        return [Suggestion(name=shown, score=score) for shown, score in best]

    def search(self, query: str, *, limit: int = 20) -> list[Card]:
        """Cards whose name or alias holds every word of ``query`` (then the closest names)."""
        words = card_key(query).split()
        if not words:
            return []
        hits = [self._by_key[key][0] for key in self._keys if all(w in key for w in words)]
        unique = list({card.key: card for card in hits}.values())
        unique.sort(key=lambda card: (not card.key.startswith(words[0]), card.key))
        if len(unique) < limit:
            for suggestion in self.suggest(query, limit=limit - len(unique), cutoff=70.0):
                card = self.find(suggestion.name)
                if card is not None and card.key not in {c.key for c in unique}:
                    unique.append(card)
        return unique[:limit]


def _sorted_words(key: str) -> str:
    return " ".join(sorted(key.split()))


_UNMATCHED = "\U0010ffff"


def _narrowing(keys: Iterable[str]) -> dict[int, str]:
    """A translation of the keys' letters to code points below 256 (rapidfuzz compares such
    strings about three times faster; edit similarity only asks which letters are equal, so
    the scores do not change). A letter 127-255 that no key has reads as one no key has;
    ``{}`` (no change) when the keys have more than 128 letters beyond ASCII."""
    wide = sorted({ch for key in keys for ch in key if ord(ch) > 126})
    if len(wide) > 128:
        return {}
    table = dict.fromkeys(range(127, 256), _UNMATCHED)
    table.update({ord(ch): chr(128 + number) for number, ch in enumerate(wide)})
    return table


def check_card(card: Card) -> Card:
    """``card`` when its fields are in bounds, else a ``UserError`` naming the field."""
    for label, value in ((Term("the card's name"), card.name), (Term("edition"), card.edition)):
        if not value.strip():
            raise UserError("a card has no {field}", code="bad_card", field=label)
    for value in (card.name, card.edition, card.number, card.rarity, card.element, card.type,
                  *card.features, *card.aliases):
        if len(value) > MAX_NAME:
            raise UserError("the card {name!r}: a value is longer than {limit} characters",
                            code="bad_card", name=card.name[:60], limit=MAX_NAME)
    if not 0 <= card.cost <= 99:
        raise UserError("the card {name!r} costs {cost}, which is not 0-99 crystals",
                        code="bad_card", name=card.name, cost=card.cost)
    return card


def catalogue_of(cards: Sequence[Card]) -> CardCatalogue:
    """A catalogue of the checked ``cards``; a card name printed twice in one edition is
    refused."""
    seen: set[tuple[str, str]] = set()
    for card in cards:
        check_card(card)
        pair = (card.key, card_key(card.edition))
        if pair in seen:
            raise UserError("the card {name!r} is listed twice in the edition {edition!r}",
                            code="bad_card", name=card.name, edition=card.edition)
        seen.add(pair)
    return CardCatalogue(cards)

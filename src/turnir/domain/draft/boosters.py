"""Boosters (бустеры) for the live draft: templates by rarity, drawing from the catalogue, the
automatic pick, and the judge's replacement check (D-1, D-4, D-7).

Terms (Russian in brackets):

- *draft card* (карта драфта): one physical card of one draft table, with an id (``uid``) unique
  within that table (``"b3c07"``: the 7th card of booster 3), so two copies of the same card
  are told apart in picks, pools and the log (D-1: no limit on copies);
- *booster template* (шаблон бустера): named *slots*, each "``count`` cards of one of these
  rarities", and the editions (выпуски) the cards come from (none named = every edition);
  the template's *size* is the sum of its slots (7 or 12, D-4);
- *drawing* (раздача бустера): each slot takes ``count`` different cards of its rarities from
  the catalogue (with repeats only when the catalogue has fewer), in an order fixed by the
  catalogue's content (not by how it was loaded) and the passed ``random.Random``; so a draft
  replays exactly from its recorded seed;
- *automatic pick* (автоматический выбор): what the engine takes for a player whose time ran
  out, who is away or who dropped — the rarest card (``RARITY_ORDER``: ультраредкая, редкая,
  необычная, частая, then any other rarity), ties to the first card in the booster's order;
  no randomness, so the pick log can be checked by hand;
- *replacement* (замена, D-7): a wrong-edition or promo card is replaced by the judge with a
  card of the same rarity from one of the draft's editions.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from turnir.domain.cards import Card, CardCatalogue, card_key
from turnir.errors import UserError

BOOSTER_SIZES = (7, 12)
"""The booster sizes a draft uses (D-4)."""

RARITY_ORDER = ("ультраредкая", "редкая", "необычная", "частая")
"""Rarities of the sample catalogue, rarest first: the automatic pick takes the rarest card;
a rarity not named here ranks after частая."""

COMMON, UNCOMMON, RARE, ULTRA = reversed(RARITY_ORDER)

MAX_TEMPLATE_NAME = 100
MAX_SLOTS = 12
MAX_EDITIONS = 20
MAX_RARITIES = 8
MAX_TEXT = 200

_RANK = {card_key(rarity): index for index, rarity in enumerate(RARITY_ORDER)}


@dataclass(frozen=True, slots=True)
class DraftCard:
    """One card in a draft table's boosters and pools."""

    uid: str
    """Unique within the draft table: ``"b<booster>c<position>"``."""
    name: str
    """The card's name, as the catalogue prints it."""
    edition: str
    """The edition it is printed in."""
    rarity: str
    """Its rarity (частая, необычная, редкая, ультраредкая, …)."""

    def to_json(self) -> list[str]:
        return [self.uid, self.name, self.edition, self.rarity]

    @staticmethod
    def from_json(data: Sequence[str]) -> DraftCard:
        uid, name, edition, rarity = data
        return DraftCard(str(uid), str(name), str(edition), str(rarity))


@dataclass(frozen=True, slots=True)
class Slot:
    """``count`` cards, each of one of ``rarities``."""

    rarities: tuple[str, ...]
    count: int

    def to_json(self) -> dict[str, object]:
        return {"rarities": list(self.rarities), "count": self.count}


@dataclass(frozen=True, slots=True)
class BoosterTemplate:
    """What one booster holds: slots by rarity, from the named editions (none = all)."""

    name: str
    editions: tuple[str, ...]
    slots: tuple[Slot, ...]

    @property
    def size(self) -> int:
        """Cards in one booster."""
        return sum(slot.count for slot in self.slots)

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "editions": list(self.editions),
                "slots": [slot.to_json() for slot in self.slots]}

    @staticmethod
    def from_json(data: Mapping[str, object]) -> BoosterTemplate:
        """The template of ``to_json`` (or typed by a site organizer); bounded and checked."""
        if not isinstance(data, Mapping):
            raise UserError("a booster template must be an object", code="bad_template")
        name = _text(data.get("name", ""), MAX_TEMPLATE_NAME)
        editions = _texts(data.get("editions", []), MAX_EDITIONS)
        slots_data = data.get("slots")
        if not isinstance(slots_data, list) or not 1 <= len(slots_data) <= MAX_SLOTS:
            raise UserError("a booster template needs 1 to {most} slots", code="bad_template",
                            most=MAX_SLOTS)
        slots = []
        for item in slots_data:
            if not isinstance(item, Mapping):
                raise UserError("a booster template must be an object", code="bad_template")
            count = item.get("count")
            if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 12:
                raise UserError("a slot holds 1 to 12 cards", code="bad_template")
            rarities = _texts(item.get("rarities", []), MAX_RARITIES)
            if not rarities:
                raise UserError("a slot names at least one rarity", code="bad_template")
            slots.append(Slot(rarities, count))
        return BoosterTemplate(name, editions, tuple(slots))


def _text(value: object, most: int) -> str:
    if not isinstance(value, str) or len(value.strip()) > most:
        raise UserError("a booster template's texts are at most {most} characters",
                        code="bad_template", most=most)
    return value.strip()


def _texts(value: object, most: int) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > most:
        raise UserError("a booster template lists at most {most} values", code="bad_template",
                        most=most)
    texts = tuple(dict.fromkeys(_text(item, MAX_TEXT) for item in value))
    return tuple(text for text in texts if text)


def default_template(size: int, editions: Sequence[str] = ()) -> BoosterTemplate:
    """The shipped templates: 12 cards = 8 частая, 3 необычная, 1 редкая or ультраредкая;
    7 cards = 4 частая, 2 необычная, 1 редкая or ультраредкая."""
    if size == 12:
        commons, uncommons = 8, 3
    elif size == 7:
        commons, uncommons = 4, 2
    else:
        raise UserError("a booster has 7 or 12 cards, not {size}", code="bad_template",
                        size=size)
    return BoosterTemplate(f"{size}", tuple(editions), (
        Slot((COMMON,), commons), Slot((UNCOMMON,), uncommons), Slot((RARE, ULTRA), 1)))


def _candidates(template: BoosterTemplate, catalogue: CardCatalogue) -> list[list[Card]]:
    """Per slot, the catalogue's cards it may take, in an order fixed by their content."""
    editions = {card_key(edition) for edition in template.editions}
    found: list[list[Card]] = []
    for slot in template.slots:
        rarities = {card_key(rarity) for rarity in slot.rarities}
        cards = [card for card in catalogue.cards if card_key(card.rarity) in rarities
                 and (not editions or card_key(card.edition) in editions)]
        cards.sort(key=lambda card: (card.edition, card.number, card.name))
        found.append(cards)
    return found


def check_template(template: BoosterTemplate, catalogue: CardCatalogue) -> None:
    """Refuse a template the catalogue cannot fill or whose size is not a booster's (D-4)."""
    if template.size not in BOOSTER_SIZES:
        raise UserError("a booster has 7 or 12 cards, not {size}", code="bad_template",
                        size=template.size)
    for slot, cards in zip(template.slots, _candidates(template, catalogue), strict=True):
        if not cards:
            raise UserError("the catalogue has no card of rarity {rarity} for the template "
                            "{name!r}", code="bad_template", rarity=" / ".join(slot.rarities),
                            name=template.name)


def draw_booster(template: BoosterTemplate, catalogue: CardCatalogue, rng: random.Random, *,
                 prefix: str) -> tuple[DraftCard, ...]:
    """One booster by ``template``; card ids are ``prefix`` + ``"c01"``, ``"c02"``, …"""
    check_template(template, catalogue)
    drawn: list[Card] = []
    for slot, cards in zip(template.slots, _candidates(template, catalogue), strict=True):
        if len(cards) >= slot.count:
            drawn.extend(rng.sample(cards, slot.count))
        else:
            drawn.extend(rng.choices(cards, k=slot.count))
    return tuple(DraftCard(f"{prefix}c{index:02d}", card.name, card.edition, card.rarity)
                 for index, card in enumerate(drawn, start=1))


def rarity_rank(rarity: str) -> int:
    """0 for the rarest (ультраредкая); rarities not in ``RARITY_ORDER`` come last."""
    return _RANK.get(card_key(rarity), len(RARITY_ORDER))


def autopick(cards: Sequence[DraftCard]) -> DraftCard:
    """The automatic pick: the rarest card, ties to the first in the booster's order."""
    if not cards:
        raise ValueError("an automatic pick needs a card")
    best = cards[0]
    best_rank = rarity_rank(best.rarity)
    for card in cards[1:]:
        rank = rarity_rank(card.rarity)
        if rank < best_rank:
            best, best_rank = card, rank
    return best


def check_replacement(old: DraftCard, new: Card, editions: Sequence[str]) -> None:
    """D-7: the replacement has the replaced card's rarity and one of the draft's editions
    (any edition when the draft names none)."""
    if card_key(new.rarity) != card_key(old.rarity):
        raise UserError("a replacement must have the same rarity ({rarity}), not {new}",
                        code="bad_replacement", rarity=old.rarity, new=new.rarity or "—")
    allowed = {card_key(edition) for edition in editions}
    if allowed and card_key(new.edition) not in allowed:
        raise UserError("a replacement must come from the draft's editions ({editions}), "
                        "not {edition}", code="bad_replacement",
                        editions=", ".join(editions), edition=new.edition)

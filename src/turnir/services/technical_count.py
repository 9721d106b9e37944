"""The crystal count of a technical result from the cards each player controls (S-8; issue 13,
the judges' tools).

When time is up and both players can still win, a judge lists the cards each player controls,
one per line with an optional count ("2 Название", the deck list's syntax:
``turnir.domain.decks.parse_deck``), or picks them from the catalogue's search. The cards are
looked up in the catalogue (case, ё/е, spaces and Latin look-alikes ignored), their costs summed
(``turnir.domain.decks.crystal_total``: a gold crystal counts as a silver one), names not found
listed with the closest catalogue names, and the outcome proposed by the tournament's threshold
(``turnir.domain.penalties.technical.technical_winner``). Nothing is stored here: the totals go
into the technical result form, which only the head judge confirms
(``turnir.services.game_rulings.record_technical_result``).

**Who may:** the tournament's staff (any judge counts; the head judge records); the local
operator (``account_id=None``) too.
"""

from __future__ import annotations

from dataclasses import dataclass

from turnir.domain.cards import Card, CardCatalogue, Crystal
from turnir.domain.decks import DeckProblem, crystal_total, parse_deck
from turnir.domain.games import Side
from turnir.domain.penalties import CrystalCount
from turnir.domain.penalties.technical import technical_winner
from turnir.errors import Term, UserError
from turnir.services.cards import card_catalogue, search_cards
from turnir.services.common import Database, reading
from turnir.services.judges import ANY_STAFF, check_staff
from turnir.storage.mappers import tournament_row
from turnir.storage.penalty_rows import judging_settings_of

MAX_CARDS_TEXT = 5_000
"""The longest list of one player's cards, in characters (a board holds a few dozen)."""
COUNT_CRYSTALS = Term("count crystals")


@dataclass(frozen=True, slots=True)
class UnknownCard:
    """A name that is not in the catalogue, with the closest names."""

    name: str
    line: int
    count: int
    suggestions: tuple[str, ...]


@dataclass(frozen=True)
class PlayerCrystals:
    """The cards one player controls and their crystals (S-8)."""

    cards: tuple[tuple[Card, int], ...]
    """Each card found, once, with its copies, in the order listed."""
    unknown: tuple[UnknownCard, ...]
    problems: tuple[DeckProblem, ...]
    """Lines that could not be read."""

    @property
    def total(self) -> int:
        """The crystals counted (a gold crystal counts as a silver one)."""
        return crystal_total(self.cards)

    @property
    def gold(self) -> int:
        """The part of the total paid in gold crystals."""
        return sum(card.counted_cost * n for card, n in self.cards if card.crystal is Crystal.GOLD)

    @property
    def silver(self) -> int:
        return self.total - self.gold

    @property
    def crystals(self) -> CrystalCount:
        """The count as the technical result form takes it."""
        return CrystalCount(silver=self.silver, gold=self.gold)

    @property
    def complete(self) -> bool:
        """Every line was read and every card found."""
        return not self.unknown and not self.problems


@dataclass(frozen=True)
class CardCrystalCount:
    """Both players' counts and the outcome they give by the tournament's threshold (S-8)."""

    a: PlayerCrystals
    b: PlayerCrystals
    margin: int
    """The crystal difference a technical win needs in this tournament."""
    winner: Side | None
    """The proposed outcome: the player ahead by at least ``margin``; ``None``: a draw."""

    @property
    def complete(self) -> bool:
        return self.a.complete and self.b.complete


def player_crystals(text: str, catalogue: CardCatalogue) -> PlayerCrystals:
    """One player's cards read from ``text`` ("2 Название" a line) and looked up."""
    if len(text) > MAX_CARDS_TEXT:
        raise UserError("a player's list of cards is longer than {limit} characters",
                        code="bad_cards", limit=MAX_CARDS_TEXT)
    listed, problems = parse_deck(text)
    found: dict[str, tuple[Card, int]] = {}
    unknown: list[UnknownCard] = []
    for line in listed.lines:
        card = catalogue.find(line.name, line.edition) or catalogue.find(line.name)
        if card is None:
            unknown.append(UnknownCard(line.name, line.line, line.count,
                                       tuple(s.name for s in catalogue.suggest(line.name))))
            continue
        before = found.get(card.key)
        found[card.key] = (before[0], before[1] + line.count) if before else (card, line.count)
    return PlayerCrystals(cards=tuple(found.values()), unknown=tuple(unknown),
                          problems=tuple(problems))


def count_crystals(db: Database, *, cards_a: str, cards_b: str, tournament_id: int,
                   account_id: int | None = None) -> CardCrystalCount:
    """Both players' crystals from the cards they control, and the outcome the tournament's
    threshold gives (S-8); nothing is stored."""
    with reading(db) as tx:
        row = tournament_row(tx, tournament_id)
        check_staff(tx, tournament_id, account_id, ANY_STAFF, what=COUNT_CRYSTALS)
        margin = judging_settings_of(tx, tournament_id, row["rules_level"]).technical_margin
    catalogue = card_catalogue(db)
    a, b = player_crystals(cards_a, catalogue), player_crystals(cards_b, catalogue)
    return CardCrystalCount(a=a, b=b, margin=margin,
                            winner=technical_winner(a.total, b.total, margin=margin))


def with_card(text: str, name: str) -> str:
    """The list ``text`` with one more copy of ``name`` (a card picked from the search):
    a line "1 name" added at its end."""
    kept = text.rstrip()
    line = f"1 {' '.join(name.split())}"
    return f"{kept}\n{line}" if kept else line


@dataclass(frozen=True)
class CrystalPicker:
    """The card picker of the rulings page after one of its buttons."""

    cards_a: str
    cards_b: str
    """Each player's list as it is now (with a picked card added)."""
    count: CardCrystalCount | None
    """Both counts (``None`` while both lists are empty)."""
    query: str
    found: list[Card]
    """The search's cards (empty without a query)."""


def crystal_picker(db: Database, tournament_id: int, *, account_id: int | None, cards_a: str,
                   cards_b: str, query: str = "", add: tuple[Side, str] | None = None
                   ) -> CrystalPicker:
    """The picker's state: ``add`` puts one copy of a card on a player's list, ``query``
    searches the catalogue, and both lists are counted (S-8)."""
    if add is not None:
        side, name = add
        if side is Side.A:
            cards_a = with_card(cards_a, name)
        else:
            cards_b = with_card(cards_b, name)
    count = count_crystals(db, cards_a=cards_a, cards_b=cards_b, tournament_id=tournament_id,
                           account_id=account_id)
    empty = not cards_a.strip() and not cards_b.strip()
    return CrystalPicker(cards_a=cards_a, cards_b=cards_b, count=None if empty else count,
                         query=query.strip(), found=search_cards(db, query) if query.strip()
                         else [])

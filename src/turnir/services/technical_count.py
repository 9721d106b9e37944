"""The crystal count of a technical result from the cards each player controls (S-8; issue 13,
the judges' tools).

When time is up and both players can still win, a judge lists the cards each player controls,
one per line with an optional count ("2 Название", the deck list's syntax:
``turnir.domain.decks.parse_deck``), or picks them from the catalogue's search. The cards are
looked up in the catalogue (case, ё/е, spaces and Latin look-alikes ignored), their costs summed
(``turnir.domain.decks.crystal_total``: a gold crystal counts as a silver one), names not found
listed with the closest catalogue names, and the outcome proposed by the tournament's threshold
(``turnir.domain.penalties.technical.technical_winner``) — only once every line was read and
every card found (``CardCrystalCount.proposed``): a count with a card missing proposes nothing.
Nothing is stored here: the totals go into the technical result form, which only the head judge
confirms (``turnir.services.game_rulings.record_technical_result``).

With the round and table, each player's count is compared with their registered deck
(``turnir.services.decks.deck_in``; names compared by ``turnir.domain.cards.card_key`` through
the catalogue, so an alias or another printing is the same card): a card counted that the deck
does not hold, or more copies than it holds, is still counted but flagged (``NotInDeck``). A
player with no registered deck is not compared.

**Who may:** the tournament's staff (any judge counts; the head judge records); the local
operator (``account_id=None``) too.
"""

from __future__ import annotations

from dataclasses import dataclass

from turnir.domain.cards import Card, CardCatalogue, Crystal, card_key
from turnir.domain.decks import DeckList, DeckProblem, crystal_total, parse_deck
from turnir.domain.games import Side
from turnir.domain.penalties import CrystalCount
from turnir.domain.penalties.technical import technical_winner
from turnir.errors import Term, UserError
from turnir.services.cards import card_catalogue, search_cards
from turnir.services.common import Database, Tx, reading
from turnir.services.decks import deck_in
from turnir.services.judges import ANY_STAFF, check_staff
from turnir.storage.mappers import tournament_row
from turnir.storage.penalty_rows import judging_settings_of
from turnir.storage.repositories import match_row, round_row

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


@dataclass(frozen=True, slots=True)
class NotInDeck:
    """A card counted for a player beyond what their registered deck holds."""

    card: Card
    counted: int
    in_deck: int
    """The copies the registered deck holds (0: none)."""


@dataclass(frozen=True)
class PlayerCrystals:
    """The cards one player controls and their crystals (S-8)."""

    cards: tuple[tuple[Card, int], ...]
    """Each card found, once, with its copies, in the order listed."""
    unknown: tuple[UnknownCard, ...]
    problems: tuple[DeckProblem, ...]
    """Lines that could not be read."""
    not_in_deck: tuple[NotInDeck, ...] = ()
    """Cards counted that the player's registered deck does not hold (or fewer copies)."""
    has_deck: bool = False
    """The player's registered deck was compared."""

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

    def beyond_deck(self, card: Card) -> NotInDeck | None:
        """How ``card`` goes beyond the registered deck (``None``: it does not)."""
        return next((x for x in self.not_in_deck if x.card.key == card.key), None)

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

    @property
    def proposed(self) -> bool:
        """An outcome is proposed: every card of both lists counted (``winner`` is only a
        proposal then; with a card unknown or a line unread the totals are incomplete)."""
        return self.complete


def deck_copies(deck: DeckList, catalogue: CardCatalogue) -> dict[str, int]:
    """The copies of each card of a registered deck by the card's key (an alias or a name typed
    with look-alike letters read as the catalogue's card; a name not in it by its own key)."""
    copies: dict[str, int] = {}
    for line in deck.lines:
        card = catalogue.find(line.name, line.edition) or catalogue.find(line.name)
        key = card.key if card is not None else card_key(line.name)
        copies[key] = copies.get(key, 0) + line.count
    return copies


def _beyond_deck(cards: tuple[tuple[Card, int], ...],
                 copies: dict[str, int]) -> tuple[NotInDeck, ...]:
    return tuple(NotInDeck(card, n, copies.get(card.key, 0)) for card, n in cards
                 if n > copies.get(card.key, 0))


def player_crystals(text: str, catalogue: CardCatalogue,
                    deck: DeckList | None = None) -> PlayerCrystals:
    """One player's cards read from ``text`` ("2 Название" a line) and looked up; with the
    player's registered ``deck``, the cards it does not hold flagged."""
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
    cards = tuple(found.values())
    return PlayerCrystals(
        cards=cards, unknown=tuple(unknown), problems=tuple(problems),
        not_in_deck=() if deck is None else _beyond_deck(cards, deck_copies(deck, catalogue)),
        has_deck=deck is not None)


def _table_decks(tx: Tx, tournament_id: int, round_number: int | None,
                 table: int | None) -> tuple[DeckList | None, DeckList | None]:
    """The registered decks of the two players at ``table`` in the round (``None``: no deck,
    or no table given)."""
    if round_number is None or table is None:
        return None, None
    line = match_row(tx, round_row(tx, tournament_id, round_number)["id"], round_number, table)
    return deck_in(tx, tournament_id, line["a"]), deck_in(tx, tournament_id, line["b"])


def count_crystals(db: Database, *, cards_a: str, cards_b: str, tournament_id: int,
                   account_id: int | None = None, round_number: int | None = None,
                   table: int | None = None) -> CardCrystalCount:
    """Both players' crystals from the cards they control, and the outcome the tournament's
    threshold gives (S-8); with ``round_number`` and ``table``, each count compared with the
    player's registered deck. Nothing is stored."""
    with reading(db) as tx:
        row = tournament_row(tx, tournament_id)
        check_staff(tx, tournament_id, account_id, ANY_STAFF, what=COUNT_CRYSTALS)
        margin = judging_settings_of(tx, tournament_id, row["rules_level"]).technical_margin
        deck_a, deck_b = _table_decks(tx, tournament_id, round_number, table)
    catalogue = card_catalogue(db)
    a, b = player_crystals(cards_a, catalogue, deck_a), player_crystals(cards_b, catalogue, deck_b)
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
                   cards_b: str, query: str = "", add: tuple[Side, str] | None = None,
                   round_number: int | None = None, table: int | None = None
                   ) -> CrystalPicker:
    """The picker's state: ``add`` puts one copy of a card on a player's list, ``query``
    searches the catalogue, and both lists are counted (S-8), against the registered decks of
    the players at ``table`` in ``round_number`` when given."""
    if add is not None:
        side, name = add
        if side is Side.A:
            cards_a = with_card(cards_a, name)
        else:
            cards_b = with_card(cards_b, name)
    count = count_crystals(db, cards_a=cards_a, cards_b=cards_b, tournament_id=tournament_id,
                           account_id=account_id, round_number=round_number, table=table)
    empty = not cards_a.strip() and not cards_b.strip()
    return CrystalPicker(cards_a=cards_a, cards_b=cards_b, count=None if empty else count,
                         query=query.strip(), found=search_cards(db, query) if query.strip()
                         else [])

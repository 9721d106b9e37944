"""The metagame of a tournament (issue 13, ``turnir.domain.metagame``): a deck's element is the
element with most cards (neutral cards only when all are neutral, ties give both), the element
shares with the best place, the most played cards by decks then copies, the first 20."""

from __future__ import annotations

import pytest

from turnir.domain.cards import Card, catalogue_of
from turnir.domain.decks import parse_deck
from turnir.domain.metagame import (
    MOST_PLAYED,
    DeckCards,
    deck_cards,
    deck_elements,
    metagame_of,
    most_played,
)


def deck(*cards: tuple[str, str, int], place: int | None = 1, number: int = 1) -> DeckCards:
    return DeckCards(number=number, place=place, cards=cards)


@pytest.mark.parametrize(("cards", "elements"), [
    ((("А", "Горы", 20), ("Б", "Леса", 10)), ("Горы",)),
    ((("А", "Горы", 10), ("Б", "Леса", 10)), ("Горы", "Леса")),           # a tie: both
    ((("А", "Леса", 10), ("Б", "Горы", 10), ("В", "Тьма", 3)), ("Горы", "Леса")),
    ((("А", "Нейтральная", 25), ("Б", "Леса", 5)), ("Леса",)),           # neutral not counted
    ((("А", "нейтральная", 20), ("Б", "Нейтральный", 10)), ("нейтральная",)),  # all neutral
    ((("А", "Горы", 4), ("Б", "горы", 4), ("В", "Леса", 7)), ("Горы",)),  # one element
    ((("А", "", 30),), ()),                                                # nothing known
    ((), ()),
])
def test_a_deck_s_elements(cards: tuple[tuple[str, str, int], ...],
                           elements: tuple[str, ...]) -> None:
    assert deck_elements(deck(*cards)) == elements


def test_deck_cards_counts_reprints_and_spellings_together() -> None:
    catalogue = catalogue_of([
        Card("Гоблин-сапёр", "А", element="Горы", features=("Орда",)),
        Card("Гоблин-сапёр", "Б", element="Горы", features=("Орда",)),
        Card("Лесной страж", "А", element="Леса", aliases=("Forest Guard",)),
    ])
    lines, _ = parse_deck("3 Гоблин-сапёр [А]\n2 гоблин-сапер (Б)\n2 Forest Guard\n"
                          "1 Лесной страж\n2 Неизвестная карта\n1 неизвестная  карта")
    cards = deck_cards(7, 2, lines, catalogue)
    assert (cards.number, cards.place) == (7, 2)
    assert cards.cards == (("Гоблин-сапёр", "Горы", 5), ("Лесной страж", "Леса", 3),
                           ("Неизвестная карта", "", 3))
    assert deck_elements(cards) == ("Горы",)
    assert cards.unknown == {"неизвестная карта"}
    assert [c.name for c in most_played([cards])] == ["Гоблин-сапёр", "Лесной страж"]


def test_element_shares_with_the_best_place() -> None:
    decks = [deck(("А", "Горы", 30), place=4, number=1),
             deck(("Б", "Леса", 30), place=1, number=2),
             deck(("А", "Горы", 30), place=2, number=3),
             deck(("А", "Горы", 15), ("Б", "Леса", 15), place=3, number=4),
             deck(("В", "Тьма", 30), place=None, number=5)]
    game = metagame_of(decks)
    assert game.decks == 5
    assert [(s.elements, s.decks, s.best_place) for s in game.elements] == [
        (("Горы",), 2, 2), (("Леса",), 1, 1), (("Горы", "Леса"), 1, 3), (("Тьма",), 1, None)]
    assert [s.share for s in game.elements] == [0.4, 0.2, 0.2, 0.2]
    assert sum(s.share for s in game.elements) == pytest.approx(1.0)


def test_most_played_by_decks_then_copies_then_name() -> None:
    decks = [deck(("Вепрь", "Леса", 3), ("Ангел", "Свет", 1), ("Бес", "Тьма", 3), number=1),
             deck(("Вепрь", "Леса", 1), ("Ангел", "Свет", 3), number=2),
             deck(("Бес", "Тьма", 2), ("Гном", "Горы", 3), ("Ангел", "Свет", 2), number=3)]
    cards = most_played(decks)
    assert [(c.name, c.decks, c.copies) for c in cards] == [
        ("Ангел", 3, 6), ("Бес", 2, 5), ("Вепрь", 2, 4), ("Гном", 1, 3)]
    assert cards[0].share == 1.0 and cards[0].element == "Свет"
    assert cards[3].share == pytest.approx(1 / 3)


def test_most_played_shows_the_first_20() -> None:
    many = deck(*((f"Карта {n:02d}", "Горы", n % 3 + 1) for n in range(30)))
    cards = metagame_of([many]).cards
    assert len(cards) == MOST_PLAYED == 20
    assert [c.copies for c in cards[:10]] == [3] * 10
    assert cards[0].name == "Карта 02"


def test_no_decks_no_metagame() -> None:
    game = metagame_of([])
    assert (game.decks, game.elements, game.cards) == (0, (), ())

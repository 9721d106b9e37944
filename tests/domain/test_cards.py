"""The card catalogue (issue 13): card keys, lookups that forgive how a name is typed, and the
suggestions for a name that is not found (C-1: a deck names its cards), the S-8 crystal cost."""

from __future__ import annotations

import pytest

from turnir.domain.cards import (
    MAX_NAME,
    Card,
    CardCatalogue,
    Crystal,
    card_key,
    catalogue_of,
    check_card,
)
from turnir.errors import UserError
from turnir.i18n import error_text

SAPPER = Card("Гоблин-сапёр", "Война стихий", number="12", element="горы", cost=3,
              type="существо", features=("Орда",))
SAPPER_REPRINT = Card("Гоблин-сапёр", "Лесные тени", number="40", element="горы", cost=3,
                      type="существо", features=("Орда",))
HUNTER = Card("Ледовый охотник", "Война стихий", element="степи", cost=5, crystal=Crystal.GOLD,
              type="существо", aliases=("Ice Hunter", "Ледяной охотник"))
CRUSHER = Card("Костедробитель", "Лесные тени", element="тьма", cost=4, type="существо")
HOBGOBLIN = Card("Хобгоблин", "Лесные тени", element="нейтральная", cost=2, type="существо")
ELF = Card("Эльфийский лучник", "Лесные тени", element="леса", cost=4, type="существо")
ELF_MAGE = Card("Эльфийский маг", "Лесные тени", element="леса", cost=5, type="существо")


@pytest.fixture()
def catalogue() -> CardCatalogue:
    return catalogue_of([SAPPER, SAPPER_REPRINT, HUNTER, CRUSHER, HOBGOBLIN, ELF, ELF_MAGE])


@pytest.mark.parametrize("typed", [
    "Гоблин-сапёр",                # as printed
    "гоблин-сапер",                # case, ё as е
    "ГОБЛИН-САПЁР",
    "  Гоблин-сапёр  ",            # spaces around
    "Гоблин - сапёр",              # spaces around the dash
    "Гоблин\u00a0-\tсапёр",         # other whitespace
    "Гоблин—сапёр",                # an em dash
    "Гоблин–сапёр",                # an en dash
    "Гоблин-cапёр",                # a Latin c
    "Гoблин-сaпeр",                # Latin o, a, e
    "ГOБЛИH-CAПEP",                # Latin capitals O, H, C, A, E, P
])
def test_rule_C1_a_card_is_found_however_its_name_is_typed(catalogue: CardCatalogue,
                                                           typed: str) -> None:
    card = catalogue.find(typed)
    assert card is not None and card.name == "Гоблин-сапёр"


def test_rule_C1_card_key_reads_look_alikes_quotes_and_spaces() -> None:
    assert card_key("  Ёжик   в\tТУМАНЕ ") == "ежик в тумане"
    assert card_key("«Кузнец»") == card_key('"кузнец"') == card_key("“Кузнец”")
    assert card_key("Kpacный") == card_key("Красный")  # K, p, c Latin
    assert card_key("Страж — хранитель") == card_key("страж-хранитель")
    assert card_key("ＡＢＣ") == card_key("abc")  # full-width letters (NFKC)


def test_rule_C1_aliases_find_the_card(catalogue: CardCatalogue) -> None:
    for typed in ("Ice Hunter", "ice  hunter", "ледяной охотник"):
        card = catalogue.find(typed)
        assert card is not None and card.name == "Ледовый охотник"
    assert [c.name for c in catalogue.printings("ICE HUNTER")] == ["Ледовый охотник"]


def test_rule_C1_reprints_are_one_card_with_several_printings(catalogue: CardCatalogue) -> None:
    assert [c.edition for c in catalogue.printings("гоблин-сапер")] == ["Война стихий",
                                                                        "Лесные тени"]
    found = catalogue.find("Гоблин-сапёр", "лесные  тени")
    assert found is not None and found.number == "40"
    assert catalogue.find("Гоблин-сапёр", "Другой выпуск") is None
    assert catalogue.find("Нет такой карты") is None
    assert catalogue.printings("Нет такой карты") == ()
    assert catalogue.editions() == ("Война стихий", "Лесные тени")
    assert len(catalogue) == 7


@pytest.mark.parametrize(("typed", "expected"), [
    ("Костедробитль", "Костедробитель"),     # a letter missing
    ("Костедробиетль", "Костедробитель"),    # two letters swapped
    ("Ледовй охотник", "Ледовый охотник"),
    ("ледовый ахотник", "Ледовый охотник"),  # а for о
    ("Гоблин сапер", "Гоблин-сапёр"),        # a space for the dash
    ("Гоблинсапер", "Гоблин-сапёр"),
    ("Хобгоблен", "Хобгоблин"),
    ("Ice Huntr", "Ледовый охотник"),        # a misspelled alias suggests the card's name
])
def test_rule_C1_a_misspelled_name_suggests_the_card_first(catalogue: CardCatalogue,
                                                           typed: str, expected: str) -> None:
    assert catalogue.find(typed) is None
    suggestions = catalogue.suggest(typed)
    assert suggestions and suggestions[0].name == expected


def test_rule_C1_suggestions_are_best_first_distinct_and_limited(
        catalogue: CardCatalogue) -> None:
    suggestions = catalogue.suggest("Эльфийский мак", limit=2)
    assert [s.name for s in suggestions] == ["Эльфийский маг", "Эльфийский лучник"]
    assert suggestions[0].score > suggestions[1].score
    suggestions = catalogue.suggest("Эльфиский лучнк", limit=5)
    names = [s.name for s in suggestions]
    assert names[0] == "Эльфийский лучник"
    assert "Эльфийский маг" in names
    assert len(names) == len(set(names)) <= 5
    scores = [s.score for s in suggestions]
    assert scores == sorted(scores, reverse=True)
    assert all(s.score >= 60 for s in suggestions)
    # A reprint is suggested once, and an alias is suggested under the card's own name.
    assert [s.name for s in catalogue.suggest("Гоблин-сапор", limit=3)].count(
        "Гоблин-сапёр") == 1
    assert all(s.name != "Ice Hunter" for s in catalogue.suggest("Ice Huntr"))


def test_rule_C1_nothing_close_suggests_nothing(catalogue: CardCatalogue) -> None:
    assert catalogue.suggest("zzzzqqqq") == []
    assert catalogue.suggest("   ") == []
    assert CardCatalogue([]).suggest("Гоблин") == []


def test_search_finds_every_word_then_close_names(catalogue: CardCatalogue) -> None:
    assert [c.name for c in catalogue.search("эльф")] == ["Эльфийский лучник",
                                                         "Эльфийский маг"]
    assert [c.name for c in catalogue.search("маг эльф")] == ["Эльфийский маг"]
    assert [c.name for c in catalogue.search("гоблин")] == ["Гоблин-сапёр", "Хобгоблин"]
    assert catalogue.search("Костедробитль")[0].name == "Костедробитель"
    assert catalogue.search("") == []
    assert len(catalogue.search("и", limit=2)) == 2


def test_rule_C1_horde_is_a_feature_in_any_spelling() -> None:
    assert SAPPER.horde
    assert Card("A", "B", features=("ОРДА",)).horde
    assert Card("A", "B", features=("Horde",)).horde
    assert Card("A", "B", features=("Opдa",)).horde  # Latin O, a
    assert not Card("A", "B", features=("Ордалия", "Полёт")).horde
    assert not HUNTER.horde


def test_rule_S8_a_gold_crystal_counts_as_a_silver_one() -> None:
    assert HUNTER.crystal is Crystal.GOLD
    assert HUNTER.counted_cost == 5
    assert SAPPER.counted_cost == 3


def test_catalogue_of_refuses_a_card_twice_in_one_edition() -> None:
    twice = Card("гоблин-сапер", "ВОЙНА СТИХИЙ")
    with pytest.raises(UserError, match="listed twice in the edition") as caught:
        catalogue_of([SAPPER, twice])
    assert error_text(caught.value, "ru") == \
        "карта «гоблин-сапер» указана дважды в выпуске «ВОЙНА СТИХИЙ»"


@pytest.mark.parametrize(("card", "english", "russian"), [
    (Card(" ", "Выпуск"), "a card has no the card's name",
     "у карты не заполнено поле «название»"),
    (Card("Имя", ""), "a card has no edition", "у карты не заполнено поле «выпуск»"),
    (Card("Имя", "Выпуск", cost=100), "the card 'Имя' costs 100, which is not 0-99 crystals",
     "карта «Имя» стоит 100, а стоимость карты — от 0 до 99 кристаллов"),
    (Card("Имя", "Выпуск", cost=-1), "the card 'Имя' costs -1, which is not 0-99 crystals",
     "карта «Имя» стоит -1, а стоимость карты — от 0 до 99 кристаллов"),
    (Card("Имя", "Выпуск", aliases=("я" * (MAX_NAME + 1),)),
     "the card 'Имя': a value is longer than 200 characters",
     "карта «Имя»: одно из значений длиннее 200 символов"),
])
def test_a_card_out_of_bounds_is_refused_in_both_languages(card: Card, english: str,
                                                           russian: str) -> None:
    with pytest.raises(UserError) as caught:
        check_card(card)
    assert caught.value.code == "bad_card"
    assert error_text(caught.value, "en") == english
    assert error_text(caught.value, "ru") == russian


def test_a_card_in_bounds_passes() -> None:
    edge = Card("я" * MAX_NAME, "Выпуск", cost=99)
    assert check_card(edge) is edge
    assert check_card(Card("Имя", "Выпуск", cost=0)).cost == 0


def test_suggestions_do_not_depend_on_the_narrowed_letters() -> None:
    """The fast pass compares letters narrowed to one byte; a letter no card has (é, a CJK
    letter) still counts as a difference, and a catalogue of many scripts is compared as is."""
    plain = catalogue_of([HOBGOBLIN, CRUSHER, Card("Café", "Выпуск")])
    assert plain.suggest("Cafë")[0].name == "Café"  # ë is in no key: one letter differs
    assert plain.suggest("Хобгоблинé")[0].name == "Хобгоблин"
    assert plain.suggest("Хобгоблин語")[0].name == "Хобгоблин"
    many = [Card(f"Карта {chr(0x4E00 + n)}{chr(0x4E00 + n + 200)}", "Выпуск") for n in range(80)]
    wide = catalogue_of([HOBGOBLIN, *many])
    assert wide.suggest("Хобгоблен")[0].name == "Хобгоблин"
    assert wide.suggest(f"Карта {chr(0x4E00 + 7)}")[0].name.startswith(f"Карта {chr(0x4E07)}")

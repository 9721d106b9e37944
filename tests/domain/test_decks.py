"""Deck lists and their check (issue 13): C-1 (30-50 cards, no banned card by the ban list in
force on the day, 3 copies, 5 with Орда, reprints together, the format's editions), C-2 (only
the starter decks), every problem reported at once in line order, in Russian and English."""

from __future__ import annotations

from datetime import date

import pytest

from turnir.domain.cards import Card, CardCatalogue, Crystal, catalogue_of
from turnir.domain.decks import (
    MAX_LINES,
    MAX_TEXT,
    BanList,
    DeckCheck,
    DeckFormat,
    DeckLine,
    DeckList,
    ProblemKind,
    StarterDeck,
    check_deck,
    counting_order,
    crystal_total,
    parse_deck,
)
from turnir.errors import UserError
from turnir.i18n import error_text

OLD, NEW = "Война стихий", "Лесные тени"
CARDS = [
    Card("Гоблин-сапёр", OLD, element="горы", cost=3, type="существо", features=("Орда",)),
    Card("Гоблин-сапёр", NEW, element="горы", cost=3, type="существо", features=("Орда",)),
    Card("Ледовый охотник", OLD, element="степи", cost=5, crystal=Crystal.GOLD,
         type="существо", aliases=("Ice Hunter",)),
    Card("Костедробитель", NEW, element="тьма", cost=4, type="существо"),
    Card("Хобгоблин", NEW, element="нейтральная", cost=2, type="существо"),
    Card("Древний курган", OLD, element="нейтральная", cost=0, type="местность"),
    Card("Меч судьбы", OLD, element="горы", cost=2, type="артефакт"),
    Card("Орк-берсерк", NEW, element="горы", cost=3, type="существо"),
    Card("Болотник", NEW, element="болота", cost=3, type="существо"),
    Card("Лесной страж", NEW, element="леса", cost=6, type="существо"),
    Card("Степной всадник", NEW, element="степи", cost=4, type="существо"),
    Card("Тёмный жрец", OLD, element="тьма", cost=5, type="существо"),
    Card("Туманный змей", NEW, element="болота", cost=4, type="существо"),
    Card("Скальный тролль", NEW, element="горы", cost=7, crystal=Crystal.GOLD,
         type="существо"),
]
BAN_DAY = date(2026, 6, 1)
FORMAT = DeckFormat(name="Стандарт", ban_lists=(
    BanList(effective=date(2026, 1, 1), cards=("Тёмный жрец",)),
    BanList(effective=BAN_DAY, cards=("Костедробитель", "Ice Hunter")),
))
DAY = date(2026, 7, 1)


@pytest.fixture(scope="module")
def catalogue() -> CardCatalogue:
    return catalogue_of(CARDS)


def legal_text(*extra: str) -> str:
    """A legal 30-card deck of cards no list bans, then ``extra`` lines."""
    return "\n".join(["3 Хобгоблин", "3 Древний курган", "3 Меч судьбы", "3 Орк-берсерк",
                      "3 Болотник", "3 Лесной страж", "3 Степной всадник", "3 Туманный змей",
                      "3 Скальный тролль", "3 Гоблин-сапёр", *extra])


def check(catalogue: CardCatalogue, text: str, fmt: DeckFormat = FORMAT,
          on: date = DAY) -> DeckCheck:
    deck, syntax = parse_deck(text)
    return check_deck(deck, catalogue, fmt, on=on, syntax=syntax)


def kinds(result: DeckCheck) -> list[ProblemKind]:
    return [p.kind for p in result.problems]


def test_rule_C1_a_legal_deck_has_no_problems(catalogue: CardCatalogue) -> None:
    result = check(catalogue, legal_text())
    assert result.ok and result.problems == ()
    assert result.total == 30
    assert [(card.name, count) for card, count in result.cards][:2] == [("Хобгоблин", 3),
                                                                        ("Древний курган", 3)]


@pytest.mark.parametrize(("extra", "total", "problems"), [
    ((), 30, []),
    (("2 Гоблин-сапёр", "3 Ледовый охотник"), 35, [ProblemKind.BANNED]),  # banned on DAY
    (("2 Гоблин-сапёр", "18 Нет такой"), 50, [ProblemKind.UNKNOWN_CARD]),
    (("2 Гоблин-сапёр", "19 Нет такой"), 51, [ProblemKind.UNKNOWN_CARD, ProblemKind.SIZE]),
])
def test_rule_C1_every_line_counts_towards_the_size(catalogue: CardCatalogue,
                                                    extra: tuple[str, ...], total: int,
                                                    problems: list[ProblemKind]) -> None:
    result = check(catalogue, legal_text(*extra))
    assert result.total == total
    assert kinds(result) == problems


def _deck_of(total: int) -> str:
    """``total`` cards of legal cards, at most 3 of each (5 of the Орда card)."""
    names = ["Хобгоблин", "Древний курган", "Меч судьбы", "Орк-берсерк", "Болотник",
             "Лесной страж", "Степной всадник", "Туманный змей", "Скальный тролль"]
    lines, left = ["5 Гоблин-сапёр"], total - 5
    for name in names:
        take = min(3, left)
        if take:
            lines.append(f"{take} {name}")
        left -= take
    assert left == 0
    return "\n".join(lines)


@pytest.mark.parametrize(("total", "ok"), [(29, False), (30, True), (32, True), (28, False)])
def test_rule_C1_deck_size_bounds(catalogue: CardCatalogue, total: int, ok: bool) -> None:
    result = check(catalogue, _deck_of(total))
    assert result.total == total
    assert result.ok is ok
    if not ok:
        assert kinds(result) == [ProblemKind.SIZE]
        problem = result.problems[0]
        assert problem.rule == "C-1" and problem.card is None
        assert error_text(problem.error, "en") == \
            f"the deck has {total} cards; a deck has 30-50 (C-1)"
        assert error_text(problem.error, "ru") == \
            f"карт в колоде: {total}, а в колоде должно быть от 30 до 50 карт (C-1)"


def test_rule_C1_the_upper_size_bound(catalogue: CardCatalogue) -> None:
    small = DeckFormat(name="Малый", min_cards=30, max_cards=32)
    assert check(catalogue, _deck_of(32), small).ok
    result = check(catalogue, _deck_of(32), DeckFormat(name="Малый", max_cards=31))
    assert kinds(result) == [ProblemKind.SIZE]
    assert "a deck has 30-31" in result.problems[0].error.message


@pytest.mark.parametrize(("on", "banned"), [
    (date(2025, 12, 31), []),                             # before any list
    (date(2026, 1, 1), ["Тёмный жрец"]),                  # the first list, on its day
    (date(2026, 5, 31), ["Тёмный жрец"]),                 # the day before the second
    (BAN_DAY, ["Ледовый охотник", "Костедробитель"]),     # the second replaces the first
    (date(2027, 1, 1), ["Ледовый охотник", "Костедробитель"]),
])
def test_rule_C1_banned_cards_by_the_list_in_force_on_the_day(catalogue: CardCatalogue,
                                                              on: date,
                                                              banned: list[str]) -> None:
    text = "\n".join(["2 Ледовый охотник", "1 Тёмный жрец", "1 Костедробитель",
                      _deck_of(30).replace("5 Гоблин-сапёр", "1 Гоблин-сапёр")])
    result = check(catalogue, text, on=on)
    assert result.total == 30
    found = [p.card for p in result.problems if p.kind is ProblemKind.BANNED]
    assert found == banned
    assert all(p.rule == "C-1" for p in result.problems)


def test_rule_C1_ban_list_on_picks_the_latest_in_force() -> None:
    assert FORMAT.ban_list_on(date(2025, 1, 1)) is None
    first = FORMAT.ban_list_on(date(2026, 3, 3))
    assert first is not None and first.cards == ("Тёмный жрец",)
    unordered = DeckFormat(name="X", ban_lists=tuple(reversed(FORMAT.ban_lists)))
    latest = unordered.ban_list_on(DAY)
    assert latest is not None and latest.effective == BAN_DAY


def test_rule_C1_a_banned_card_message_in_both_languages(catalogue: CardCatalogue) -> None:
    result = check(catalogue, legal_text("1 костедробитель"))
    (problem,) = result.problems
    assert problem.kind is ProblemKind.BANNED
    assert problem.card == "Костедробитель" and problem.line == 11
    assert error_text(problem.error, "en") == \
        "the card 'Костедробитель' is banned in the format 'Стандарт' (C-1)"
    assert error_text(problem.error, "ru") == \
        "карта «Костедробитель» запрещена в формате «Стандарт» (C-1)"


def test_rule_C1_a_card_banned_by_its_alias_or_named_by_its_alias(
        catalogue: CardCatalogue) -> None:
    by_name = check(catalogue, legal_text("1 Ледовый охотник"))
    by_alias = check(catalogue, legal_text("1 ice hunter"))
    for result in (by_name, by_alias):
        assert [(p.kind, p.card) for p in result.problems] == [
            (ProblemKind.BANNED, "Ледовый охотник")]


def test_rule_C1_at_most_3_copies(catalogue: CardCatalogue) -> None:
    assert check(catalogue, legal_text()).ok
    result = check(catalogue, legal_text().replace("3 Болотник", "4 Болотник"))
    (problem,) = result.problems
    assert problem.kind is ProblemKind.COPIES and problem.card == "Болотник"
    assert problem.line == 5 and problem.rule == "C-1"
    assert error_text(problem.error, "en") == \
        "4 copies of 'Болотник': at most 3 of a card (C-1)"
    assert error_text(problem.error, "ru") == \
        "копий карты «Болотник» в колоде: 4, а одной карты можно взять не больше 3 (C-1)"


@pytest.mark.parametrize(("copies", "ok"), [(3, True), (4, True), (5, True), (6, False)])
def test_rule_C1_at_most_5_copies_of_a_horde_card(catalogue: CardCatalogue, copies: int,
                                                  ok: bool) -> None:
    text = legal_text().replace("3 Гоблин-сапёр", f"{copies} Гоблин-сапёр")
    result = check(catalogue, text)
    assert result.ok is ok
    if not ok:
        (problem,) = result.problems
        assert problem.kind is ProblemKind.HORDE_COPIES and problem.card == "Гоблин-сапёр"
        assert error_text(problem.error, "en") == \
            "6 copies of 'Гоблин-сапёр': at most 5 of a card with Horde (C-1)"
        assert error_text(problem.error, "ru") == (
            "копий карты «Гоблин-сапёр» в колоде: 6, а карты с особенностью «Орда» можно "
            "взять не больше 5 (C-1)")


def test_rule_C1_reprints_and_spellings_are_counted_together(catalogue: CardCatalogue) -> None:
    text = legal_text().replace("3 Болотник", "2 Болотник") + "\n2 болотник"
    result = check(catalogue, text)
    (problem,) = result.problems
    assert problem.kind is ProblemKind.COPIES and "4 copies" in problem.error.message
    assert problem.line == 5  # the card's first line
    horde = legal_text().replace("3 Гоблин-сапёр", f"3 Гоблин-сапёр [{OLD}]") + \
        f"\n2 гоблин - сапер ({NEW})\n1 Гоблин-cапёр"
    result = check(catalogue, horde.replace("3 Хобгоблин\n", ""))
    assert [p.kind for p in result.problems] == [ProblemKind.HORDE_COPIES]
    assert "6 copies" in result.problems[0].error.message
    assert dict((c.name, n) for c, n in result.cards)["Гоблин-сапёр"] == 6


def test_rule_C1_editions_the_line_names(catalogue: CardCatalogue) -> None:
    assert check(catalogue, legal_text().replace("3 Болотник", f"3 Болотник [{NEW}]")).ok
    result = check(catalogue, legal_text().replace("3 Болотник", f"3 Болотник [{OLD}]"))
    (problem,) = result.problems
    assert problem.kind is ProblemKind.WRONG_EDITION and problem.line == 5
    assert problem.suggestions == (NEW,)  # the editions it is printed in
    assert error_text(problem.error, "ru") == \
        f"строка 5: карта «Болотник» не выходила в выпуске «{OLD}»"
    assert result.total == 30  # still counted


def test_rule_C1_editions_the_format_allows(catalogue: CardCatalogue) -> None:
    only_new = DeckFormat(name="Новые", editions=(NEW,))
    # The reprint in an allowed edition makes the card legal.
    reprint = legal_text().replace("3 Меч судьбы", "3 Костедробитель").replace(
        "3 Древний курган\n", "")  # Гоблин-сапёр is printed in both
    assert check(catalogue, reprint, DeckFormat(name="Новые", editions=(NEW,),
                                                min_cards=27)).ok
    result = check(catalogue, legal_text(), only_new)
    assert [(p.kind, p.card, p.line) for p in result.problems] == [
        (ProblemKind.EDITION_NOT_ALLOWED, "Древний курган", 2),
        (ProblemKind.EDITION_NOT_ALLOWED, "Меч судьбы", 3)]
    assert error_text(result.problems[0].error, "ru") == (
        f"строка 2: карта «Древний курган» ({OLD}) не выходила ни в одном выпуске, "
        "разрешённом в формате «Новые»")
    # Naming the old printing of a reprint in a format without it is refused too.
    named = check(catalogue, legal_text().replace("3 Гоблин-сапёр", f"3 Гоблин-сапёр ({OLD})"),
                  DeckFormat(name="Новые", editions=("лесные тени",)))
    assert [(p.kind, p.card) for p in named.problems][-1] == (
        ProblemKind.EDITION_NOT_ALLOWED, "Гоблин-сапёр")


def test_rule_C1_an_unknown_card_with_suggestions(catalogue: CardCatalogue) -> None:
    result = check(catalogue, legal_text().replace("3 Болотник", "3 Болотнек"))
    (problem,) = result.problems
    assert problem.kind is ProblemKind.UNKNOWN_CARD and problem.card == "Болотнек"
    assert problem.suggestions[0] == "Болотник"
    assert problem.line == 5
    assert error_text(problem.error, "en") == "line 5: no card 'Болотнек' in the catalogue"
    assert error_text(problem.error, "ru") == "строка 5: в каталоге нет карты «Болотнек»"
    assert result.total == 30  # counted towards the size, so the size is not a second problem


def test_rule_C1_several_problems_are_reported_together_in_line_order(
        catalogue: CardCatalogue) -> None:
    text = "\n".join([
        "# my deck",
        "4 Болотник",                 # 2: 4 copies
        "2 Костедробитель",           # 3: banned
        "3 Болотнек",                 # 4: unknown
        "ноль;Хобгоблин",             # 5: syntax
        f"1 Орк-берсерк [{OLD}]",     # 6: wrong edition
        "6 Гоблин-сапёр",             # 7: 6 of an Орда card
        "1 Ледовый охотник",          # 8: banned (by its alias)
    ])
    result = check(catalogue, text)
    assert [(p.line, p.kind) for p in result.problems] == [
        (2, ProblemKind.COPIES), (3, ProblemKind.BANNED), (4, ProblemKind.UNKNOWN_CARD),
        (5, ProblemKind.SYNTAX), (6, ProblemKind.WRONG_EDITION),
        (7, ProblemKind.HORDE_COPIES), (8, ProblemKind.BANNED), (None, ProblemKind.SIZE)]
    assert result.total == 17
    russian = [error_text(p.error, "ru") for p in result.problems]
    assert russian[-1] == "карт в колоде: 17, а в колоде должно быть от 30 до 50 карт (C-1)"
    assert russian[3] == ("строка 5: «ноль;Хобгоблин» — не запись вида «количество название "
                          "карты» (количество — от 1 до 99)")
    assert all(p.rule == "C-1" for p in result.problems if p.kind is not ProblemKind.SYNTAX)


STARTERS = DeckFormat(name="Стартеры", starter=True, starter_decks=(
    StarterDeck("Горы", parse_deck(legal_text())[0]),
    StarterDeck("Болота", parse_deck(legal_text().replace("3 Меч судьбы", "3 Тёмный жрец"))[0]),
))


def test_rule_C2_a_starter_deck_is_accepted_in_any_order_and_spelling(
        catalogue: CardCatalogue) -> None:
    shuffled = "\n".join(reversed(legal_text().split("\n"))).replace("Гоблин-сапёр",
                                                                       "гоблин-сапер")
    assert check(catalogue, shuffled, STARTERS).ok
    split = legal_text().replace("3 Болотник", "1 Болотник\n2 болотник")
    assert check(catalogue, split, STARTERS).ok


def test_rule_C2_a_deck_that_is_not_a_starter_deck_is_refused(
        catalogue: CardCatalogue) -> None:
    changed = legal_text().replace("3 Болотник", "2 Болотник\n1 Тёмный жрец")
    result = check(catalogue, changed, STARTERS)
    (problem,) = result.problems
    assert problem.kind is ProblemKind.NOT_STARTER and problem.rule == "C-2"
    assert error_text(problem.error, "en") == (
        "the format 'Стартеры' accepts only its starter decks (Горы, Болота); this deck is "
        "none of them (C-2)")
    assert error_text(problem.error, "ru") == (
        "в формате «Стартеры» можно играть только его стартовыми колодами (Горы, Болота); эта "
        "колода не совпадает ни с одной из них (C-2)")
    empty = DeckFormat(name="Пусто", starter=True)
    (none,) = check(catalogue, legal_text(), empty).problems
    assert error_text(none.error, "ru").startswith(
        "в формате «Пусто» можно играть только его стартовыми колодами (нет)")


def test_rule_C2_a_short_deck_in_a_starter_format_has_both_problems(
        catalogue: CardCatalogue) -> None:
    result = check(catalogue, "3 Хобгоблин", STARTERS)
    assert kinds(result) == [ProblemKind.SIZE, ProblemKind.NOT_STARTER]


@pytest.mark.parametrize(("line", "count", "name", "edition"), [
    ("3 Гоблин-сапёр", 3, "Гоблин-сапёр", None),
    ("3x Гоблин-сапёр", 3, "Гоблин-сапёр", None),
    ("3х Гоблин-сапёр", 3, "Гоблин-сапёр", None),  # a Cyrillic х
    ("3 x Гоблин-сапёр", 3, "Гоблин-сапёр", None),
    ("3 × Гоблин-сапёр", 3, "Гоблин-сапёр", None),
    ("3* Гоблин-сапёр", 3, "Гоблин-сапёр", None),
    ("Гоблин-сапёр x3", 3, "Гоблин-сапёр", None),
    ("Гоблин-сапёр х 3", 3, "Гоблин-сапёр", None),
    ("Гоблин-сапёр *2", 2, "Гоблин-сапёр", None),
    ("Гоблин-сапёр", 1, "Гоблин-сапёр", None),
    ("  2   Гоблин-сапёр  ", 2, "Гоблин-сапёр", None),
    ("3 Гоблин-сапёр [Война стихий]", 3, "Гоблин-сапёр", "Война стихий"),
    ("3 Гоблин-сапёр (Война стихий)", 3, "Гоблин-сапёр", "Война стихий"),
    ("3x Гоблин-сапёр [Война стихий]", 3, "Гоблин-сапёр", "Война стихий"),
    ("3;Гоблин-сапёр;Война стихий", 3, "Гоблин-сапёр", "Война стихий"),
    ("3 ; Гоблин-сапёр ; ", 3, "Гоблин-сапёр", None),
    ("3;Гоблин-сапёр", 3, "Гоблин-сапёр", None),
    ("3\tГоблин-сапёр\tВойна стихий", 3, "Гоблин-сапёр", "Война стихий"),
    ("99 Гоблин-сапёр", 99, "Гоблин-сапёр", None),
])
def test_every_accepted_line_form(line: str, count: int, name: str,
                                  edition: str | None) -> None:
    deck, problems = parse_deck(f"# comment\n{line}")
    assert problems == []
    assert deck.lines == (DeckLine(count=count, name=name, edition=edition, line=2),)


def test_skipped_lines() -> None:
    deck, problems = parse_deck("\n  \n# comment\n// also\nСущества:\nАртефакты :\n"
                                "2 Хобгоблин\n\n")
    assert problems == []
    assert deck.lines == (DeckLine(count=2, name="Хобгоблин", line=7),)
    assert parse_deck("") == (DeckList(()), [])


@pytest.mark.parametrize("line", ["0 Хобгоблин", "100 Хобгоблин", "3;", ";Хобгоблин",
                                  "три;Хобгоблин", "3;;Война", "1000 Хобгоблин",
                                  f"3 {'я' * 201}", f"3 Хобгоблин [{'я' * 201}]"])
def test_syntax_problems(line: str) -> None:
    deck, problems = parse_deck(f"2 Болотник\n{line}\n1 Хобгоблин")
    assert [x.name for x in deck.lines] == ["Болотник", "Хобгоблин"]
    (problem,) = problems
    assert problem.kind is ProblemKind.SYNTAX and problem.line == 2 and problem.rule == ""
    assert problem.error.code == "deck_syntax"
    assert error_text(problem.error, "ru").startswith("строка 2: «")
    assert len(problem.error.message) < 200  # the line is cut in the message


def test_the_list_text_reads_back_to_the_same_lines() -> None:
    deck, _ = parse_deck("3 Гоблин-сапёр [Война стихий]\n2x Болотник\nХобгоблин x1")
    again, problems = parse_deck(deck.text())
    assert problems == [] and again == deck
    assert DeckList.from_json(deck.to_json()) == deck
    assert deck.total == 6


def test_the_list_is_bounded() -> None:
    with pytest.raises(UserError, match="longer than 20000 characters") as caught:
        parse_deck("я" * (MAX_TEXT + 1))
    assert error_text(caught.value, "ru") == "список колоды длиннее 20000 символов"
    assert parse_deck("\n".join(["1 Хобгоблин"] * MAX_LINES))[0].total == MAX_LINES
    with pytest.raises(UserError, match="more than 300 lines") as caught:
        parse_deck("\n".join(["1 Хобгоблин"] * (MAX_LINES + 1)))
    assert error_text(caught.value, "ru") == "в списке колоды больше 300 строк"
    # comments and headings do not count
    parse_deck("\n".join(["1 Хобгоблин"] * MAX_LINES + ["# comment"] * 10))


def test_counting_order_is_element_cost_type_name(catalogue: CardCatalogue) -> None:
    result = check(catalogue, legal_text())
    order = [(card.element, card.cost, card.type, card.name)
             for card, _ in counting_order(result)]
    assert order == [
        ("болота", 3, "существо", "Болотник"),
        ("болота", 4, "существо", "Туманный змей"),
        ("горы", 2, "артефакт", "Меч судьбы"),
        ("горы", 3, "существо", "Гоблин-сапёр"),
        ("горы", 3, "существо", "Орк-берсерк"),
        ("горы", 7, "существо", "Скальный тролль"),
        ("леса", 6, "существо", "Лесной страж"),
        ("нейтральная", 0, "местность", "Древний курган"),
        ("нейтральная", 2, "существо", "Хобгоблин"),
        ("степи", 4, "существо", "Степной всадник"),
    ]
    assert sum(count for _, count in counting_order(result)) == 30


def test_rule_S8_crystal_total_counts_gold_as_silver(catalogue: CardCatalogue) -> None:
    hunter, troll, sapper = (catalogue.find(n) for n in ("Ледовый охотник", "Скальный тролль",
                                                         "Гоблин-сапёр"))
    assert hunter is not None and troll is not None and sapper is not None
    assert hunter.crystal is Crystal.GOLD and troll.crystal is Crystal.GOLD
    assert crystal_total([(hunter, 1), (troll, 2), (sapper, 3)]) == 5 + 14 + 9
    assert crystal_total([]) == 0
    result = check(catalogue, legal_text())
    assert crystal_total(result.cards) == 3 * (2 + 0 + 2 + 3 + 3 + 6 + 4 + 4 + 7 + 3)


def test_a_spreadsheet_list_with_a_heading_row_and_the_count_after_the_name() -> None:
    # QA: a file saved from a spreadsheet ("Название;Количество", "Упырь;3") was refused line by
    # line; the heading is skipped and the count may follow the name.
    deck, problems = parse_deck("Название;Количество;Выпуск\nУпырь;3\n2;Голем;Образец\n"
                                "Name\tCount\nДух\t1\t\n")
    assert problems == []
    assert [(line.count, line.name, line.edition) for line in deck.lines] == [
        (3, "Упырь", None), (2, "Голем", "Образец"), (1, "Дух", None)]
    assert [line.line for line in deck.lines] == [2, 3, 5]

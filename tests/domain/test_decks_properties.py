"""Properties of the deck check (issue 13 proof, C-1): over random catalogues, ban lists and
decks, ``check_deck`` accepts a deck exactly when a simple independent oracle says it keeps
C-1, and its problems name every banned and over-limit card, in English and in Russian."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from turnir.domain.cards import Card, CardCatalogue
from turnir.domain.decks import BanList, DeckFormat, ProblemKind, check_deck, parse_deck
from turnir.i18n import error_text

LETTERS = "абвгдежзийклмнопрстуфхцчшщыэюя"
START = date(2026, 1, 1)


@dataclass(frozen=True)
class World:
    """A catalogue, a format with ban lists, a day, and a deck as (name, count, spelling)."""

    cards: tuple[Card, ...]
    fmt: DeckFormat
    day: date
    lines: tuple[tuple[str, int, str], ...]


SPELLINGS = {
    "as printed": lambda name: name,
    "upper": str.upper,
    "spaced": lambda name: f"  {name}  ",
    "title": str.title,
}


@st.composite
def worlds(draw: st.DrawFn) -> World:
    names = draw(st.lists(st.text(LETTERS, min_size=3, max_size=10), min_size=30, max_size=45,
                          unique=True))
    cards = tuple(Card(name=name.capitalize(), edition=draw(st.sampled_from(["А", "Б"])),
                       cost=draw(st.integers(0, 9)),
                       features=("Орда",) if draw(st.booleans()) else ())
                  for name in names)
    ban_lists = tuple(
        BanList(effective=START + timedelta(days=offset),
                cards=tuple(draw(st.lists(st.sampled_from([c.name for c in cards]),
                                          max_size=2, unique=True))))
        for offset in draw(st.lists(st.integers(0, 60), max_size=3, unique=True)))
    fmt = DeckFormat(name="Случайный", ban_lists=ban_lists)
    day = START + timedelta(days=draw(st.integers(-5, 70)))
    # Lines of 1-3 copies over the cards in a random order until a random size near 30-50
    # is reached, so about half the decks keep C-1; sometimes a card again (a second line of
    # it, another spelling) or 4-7 copies.
    order = draw(st.permutations(cards))
    target = draw(st.integers(26, 54))
    lines: list[tuple[str, int, str]] = []
    while sum(count for _, count, _ in lines) < target:
        again = draw(st.integers(0, 14)) == 0
        card = draw(st.sampled_from(cards)) if again else order[len(lines) % len(order)]
        many = draw(st.integers(0, 19)) == 0
        count = draw(st.integers(4, 7) if many else st.integers(1, 3))
        lines.append((card.name, count, draw(st.sampled_from(sorted(SPELLINGS)))))
    return World(cards, fmt, day, tuple(lines))


def oracle(world: World) -> tuple[bool, set[str]]:
    """Whether the deck keeps C-1, and the cards that break it (banned or too many copies),
    by counting directly: no card keys, no catalogue index."""
    copies: dict[str, int] = {}
    for name, count, _ in world.lines:
        copies[name] = copies.get(name, 0) + count
    in_force = [ban for ban in world.fmt.ban_lists if ban.effective <= world.day]
    banned = set(max(in_force, key=lambda ban: ban.effective).cards) if in_force else set()
    horde = {card.name for card in world.cards if card.features}
    offending = {name for name, count in copies.items()
                 if name in banned or count > (5 if name in horde else 3)}
    size_ok = 30 <= sum(copies.values()) <= 50
    return size_ok and not offending, offending


def deck_text(world: World) -> str:
    return "\n".join(f"{count} {SPELLINGS[spelling](name)}"
                     for name, count, spelling in world.lines)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(worlds())
def test_rule_C1_validation_accepts_a_deck_exactly_when_it_keeps_c1(world: World) -> None:
    deck, syntax = parse_deck(deck_text(world))
    assert syntax == []
    result = check_deck(deck, CardCatalogue(world.cards), world.fmt, on=world.day,
                        syntax=syntax)
    legal, offending = oracle(world)
    assert result.ok is legal
    if not legal:
        assert result.problems
    named = {p.card for p in result.problems
             if p.kind in (ProblemKind.BANNED, ProblemKind.COPIES, ProblemKind.HORDE_COPIES)}
    assert named == offending


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(worlds())
def test_rule_C1_the_messages_name_every_offending_card(world: World) -> None:
    deck, syntax = parse_deck(deck_text(world))
    result = check_deck(deck, CardCatalogue(world.cards), world.fmt, on=world.day,
                        syntax=syntax)
    _, offending = oracle(world)
    for name in offending:
        about = [p for p in result.problems if p.card == name]
        assert about, name
        for locale in ("ru", "en"):
            assert any(name in error_text(p.error, locale) for p in about), (name, locale)
    for problem in result.problems:
        assert problem.rule == "C-1"
        if problem.card is not None:
            assert problem.card in error_text(problem.error, "ru")

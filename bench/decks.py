"""Bench: deck checks against a 5,000-card catalogue (issue 13, C-1).

Builds a synthetic catalogue of 5,000 cards (seeded random Cyrillic names of one to three
words, two editions, an Орда card in twelve, aliases for some) and 2,000 pasted 40-card deck
lists (the line forms players paste: "3 Name", "3x Name [Edition]", "Name x2", "2;Name;Edition",
spelled with other case, ё as е, a Latin look-alike letter; one deck in ten has a misspelled
card and one in ten a banned one), then:

- ``validate_2000_decks_s``: the wall time of ``parse_deck`` + ``check_deck`` over all 2,000
  texts, the median of five runs (target: at most 1 s), with the CPU time beside it (the
  machine may be shared);
- ``lookup_p95_ms``: the 95th percentile over 1,000 misspelled names of one
  ``CardCatalogue.suggest`` call (each timed three times, the fastest kept; the single-shot
  p95 is printed too), target at most 5 ms, beside a plain-Python baseline of the same lookup
  in the same run: ``difflib.get_close_matches`` over the same card keys, timed the same way
  (on fewer names: it is slow); both report how often their first suggestion is the card meant.

Run: ``.venv/bin/python bench/decks.py``. The last line printed is one JSON object.
"""

from __future__ import annotations

import difflib
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import date

from turnir.domain.cards import Card, CardCatalogue, Crystal, card_key, catalogue_of
from turnir.domain.decks import BanList, DeckFormat, check_deck, parse_deck

CARDS = 5_000
DECKS = 2_000
DECK_SIZE = 40
LOOKUPS = 1_000
BASELINE_LOOKUPS = 100
RUNS = 5
REPEATS = 3
"""Each lookup is timed this many times and its fastest kept (as ``timeit`` does): what other
processes on a shared machine add is left out, the spread over the names is kept."""
VALIDATE_LIMIT_S = 1.0
LOOKUP_LIMIT_MS = 5.0
SEED = 20261301

LETTERS = "абвгдежзийклмнопрстуфхцчшщыьэюя"
VOWELS = "аеиоуыэюя"
CONSONANTS = "бвгджзклмнпрстфхцчшщ"
EDITIONS = ("Война стихий", "Лесные тени", "Кузня богов", "Путь героя")
ELEMENTS = ("степи", "горы", "леса", "болота", "тьма", "нейтральная")
TYPES = ("существо", "артефакт", "местность", "событие")
LOOK_ALIKES = {"а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "х": "x"}


def word(rng: random.Random) -> str:
    syllables = rng.randint(2, 4)
    return "".join(rng.choice(CONSONANTS) + rng.choice(VOWELS) for _ in range(syllables))


def build_catalogue(rng: random.Random) -> list[Card]:
    names: dict[str, str] = {}
    while len(names) < CARDS:
        name = " ".join(word(rng) for _ in range(rng.choice((1, 2, 2, 2, 3)))).capitalize()
        names.setdefault(card_key(name), name)
    cards: list[Card] = []
    for number, name in enumerate(names.values(), start=1):
        editions = rng.sample(EDITIONS, 2 if rng.random() < 0.15 else 1)  # some reprints
        for edition in editions:
            cards.append(Card(
                name=name, edition=edition, number=str(number), element=rng.choice(ELEMENTS),
                cost=rng.randint(0, 9), type=rng.choice(TYPES),
                crystal=Crystal.GOLD if rng.random() < 0.2 else Crystal.SILVER,
                features=("Орда",) if number % 12 == 0 else (),
                aliases=(f"Card {number}",) if rng.random() < 0.1 else ()))
    return cards


def misspell(rng: random.Random, name: str) -> str:
    """One typo: a letter dropped, doubled, swapped with the next, or replaced."""
    letters = list(name)
    spot = rng.randrange(1, len(letters) - 1)
    kind = rng.randrange(4)
    if kind == 0:
        del letters[spot]
    elif kind == 1:
        letters.insert(spot, letters[spot])
    elif kind == 2:
        letters[spot], letters[spot + 1] = letters[spot + 1], letters[spot]
    else:
        letters[spot] = rng.choice(LETTERS)
    return "".join(letters)


def respell(rng: random.Random, name: str) -> str:
    """The same name as a player may type it (the check must find it)."""
    roll = rng.random()
    if roll < 0.15:
        return name.upper()
    if roll < 0.3:
        return name.lower().replace("е", "ё", 1)
    if roll < 0.4:
        return "".join(LOOK_ALIKES.get(ch, ch) if i == 1 else ch for i, ch in enumerate(name))
    return name


def deck_text(rng: random.Random, allowed: list[Card], horde: list[Card], banned: list[Card],
              number: int) -> str:
    """A 40-card list of distinct cards (one Орда card at 5, the rest at 2-3 copies)."""
    chosen = rng.sample(allowed, 20)
    plan = [(rng.choice(horde), 5)]
    left = DECK_SIZE - 5
    for card in chosen:
        if left == 0:
            break
        count = min(left, rng.randint(2, 3))
        plan.append((card, count))
        left -= count
    if number % 10 == 3:  # a banned card
        plan[-1] = (rng.choice(banned), plan[-1][1])
    lines = [f"# deck {number}", "Существа:"]
    for index, (card, count) in enumerate(plan):
        name = respell(rng, card.name)
        if number % 10 == 7 and index == 3:  # a misspelled card
            name = misspell(rng, card.name)
        form = rng.randrange(5)
        lines.append((f"{count} {name}", f"{count}x {name} [{card.edition}]",
                      f"{name} x{count}", f"{count};{name};{card.edition}",
                      f"{count} {name} ({card.edition})")[form])
    return "\n".join(lines)


def validate_all(catalogue: CardCatalogue, fmt: DeckFormat, texts: list[str]) -> list[int]:
    problems = []
    for text in texts:
        deck, syntax = parse_deck(text)
        problems.append(len(check_deck(deck, catalogue, fmt, on=date(2026, 12, 1),
                                       syntax=syntax).problems))
    return problems


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def time_lookups(lookup: Callable[[str], list[str]], queries: list[tuple[str, str]],
                 repeats: int = REPEATS) -> tuple[list[float], list[float], float]:
    """Each name's fastest and first call in milliseconds, and the share whose first
    suggestion is the card meant."""
    best: list[float] = []
    first: list[float] = []
    right = 0
    for typed, meant in queries:
        calls = []
        for _ in range(repeats):
            start = time.perf_counter()
            found = lookup(typed)
            calls.append((time.perf_counter() - start) * 1000)
        best.append(min(calls))
        first.append(calls[0])
        right += bool(found) and card_key(found[0]) == card_key(meant)
    return best, first, right / len(queries)


def main() -> None:
    rng = random.Random(SEED)
    start = time.perf_counter()
    cards = build_catalogue(rng)
    catalogue = catalogue_of(cards)
    build_s = time.perf_counter() - start
    names = list(dict.fromkeys(card.name for card in cards))
    banned = rng.sample(names, 40)
    fmt = DeckFormat(name="Бенч", editions=EDITIONS,
                     ban_lists=(BanList(effective=date(2026, 1, 1), cards=tuple(banned)),))
    first = [catalogue.printings(name)[0] for name in names]
    banned_names = set(banned)
    allowed = [card for card in first if card.name not in banned_names]
    horde = [card for card in allowed if card.features]
    plain = [card for card in allowed if not card.features]
    banned_cards = [card for card in first if card.name in banned_names]
    texts = [deck_text(rng, plain, horde, banned_cards, number) for number in range(DECKS)]

    load_before = os.getloadavg()[0]
    runs: list[float] = []
    cpu_runs: list[float] = []
    problems: list[int] = []
    for _ in range(RUNS):
        start, cpu_start = time.perf_counter(), time.process_time()
        problems = validate_all(catalogue, fmt, texts)
        runs.append(time.perf_counter() - start)
        cpu_runs.append(time.process_time() - cpu_start)
    validate_s = statistics.median(runs)
    with_problems = sum(1 for count in problems if count)

    queries = [(misspell(rng, name), name) for name in rng.sample(names, LOOKUPS)]
    catalogue.suggest(queries[0][0])  # warm up
    lookup_ms, lookup_once_ms, lookup_right = time_lookups(
        lambda typed: [s.name for s in catalogue.suggest(typed)], queries)
    keys = list(catalogue._keys)  # the same keys the catalogue matches against
    shown = dict(zip(keys, catalogue._names, strict=True))
    baseline_ms, _, baseline_right = time_lookups(
        lambda typed: [shown[key] for key in difflib.get_close_matches(
            card_key(typed), keys, n=3, cutoff=0.6)], queries[:BASELINE_LOOKUPS])
    lookup_p95 = percentile(lookup_ms, 0.95)
    baseline_p95 = percentile(baseline_ms, 0.95)

    print(f"decks bench: {len(names)} card names ({len(cards)} printings), {DECKS} decks of "
          f"{DECK_SIZE} cards, {sum(len(t.splitlines()) for t in texts)} lines")
    print(f"python {platform.python_version()} on {platform.machine()}; "
          f"load average before the runs: {load_before:.2f}; catalogue built in {build_s:.3f} s")
    print(f"{'run':>6} {'wall s':>9} {'cpu s':>9}")
    for number, (seconds, cpu) in enumerate(zip(runs, cpu_runs, strict=True), start=1):
        print(f"{number:>6} {seconds:>9.4f} {cpu:>9.4f}")
    print(f"{'median':>6} {validate_s:>9.4f}  (limit {VALIDATE_LIMIT_S} s); decks with "
          f"problems: {with_problems} (a misspelled or banned card in one deck in ten each)")
    print(f"suggest (rapidfuzz): p50 {statistics.median(lookup_ms):.3f} ms, p95 "
          f"{lookup_p95:.3f} ms (limit {LOOKUP_LIMIT_MS} ms; single shot p95 "
          f"{percentile(lookup_once_ms, 0.95):.3f} ms), first right "
          f"{lookup_right:.1%} of {len(queries)}")
    print(f"baseline (difflib):  p50 {statistics.median(baseline_ms):.3f} ms, p95 "
          f"{baseline_p95:.3f} ms, first right {baseline_right:.1%} of {BASELINE_LOOKUPS}; "
          f"rapidfuzz is {baseline_p95 / lookup_p95:.0f}x faster at p95")
    figures = {
        "card_names": len(names),
        "printings": len(cards),
        "decks": DECKS,
        "deck_size": DECK_SIZE,
        "decks_with_problems": with_problems,
        "validate_runs_s": [round(t, 4) for t in runs],
        "validate_cpu_runs_s": [round(t, 4) for t in cpu_runs],
        "validate_median_s": round(validate_s, 4),
        "validate_cpu_median_s": round(statistics.median(cpu_runs), 4),
        "lookups": len(queries),
        "lookup_p50_ms": round(statistics.median(lookup_ms), 3),
        "lookup_p95_ms": round(lookup_p95, 3),
        "lookup_single_shot_p95_ms": round(percentile(lookup_once_ms, 0.95), 3),
        "lookup_first_right": round(lookup_right, 4),
        "baseline_lookups": BASELINE_LOOKUPS,
        "baseline_difflib_p50_ms": round(statistics.median(baseline_ms), 3),
        "baseline_difflib_p95_ms": round(baseline_p95, 3),
        "baseline_first_right": round(baseline_right, 4),
        "load_average": round(load_before, 2),
        "python": platform.python_version(),
    }
    targets = {
        "validate_2000_decks_s": {"value": round(validate_s, 4), "limit": VALIDATE_LIMIT_S,
                                  "better": "lower"},
        "lookup_p95_ms": {"value": round(lookup_p95, 3), "limit": LOOKUP_LIMIT_MS,
                          "better": "lower"},
    }
    print(json.dumps({"bench": "decks", "figures": figures, "targets": targets}))
    sys.stdout.flush()


if __name__ == "__main__":
    main()

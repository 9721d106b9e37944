"""A simulated tournament for demonstrations, benchmarks and tests.

``simulate_results`` plays a round with random match results where the stronger player (a
hidden strength drawn from the seed) wins more often, with some drawn games and matches.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rich.console import Console

from turnir.domain.model import Player, Settings, Stage
from turnir.domain.results import MatchResult
from turnir.domain.tournament import (
    Phase,
    Tournament,
    new_tournament,
    pair_next_round,
    record_result,
)

FIRST_NAMES = (
    "Алексей", "Мария", "Иван", "Ольга", "Дмитрий", "Анна", "Сергей", "Елена", "Никита",
    "Татьяна", "Павел", "Ксения", "Андрей", "Наталья", "Михаил", "Юлия", "Егор", "Дарья",
    "Артём", "Светлана", "Кирилл", "Полина", "Роман", "Вера",
)
LAST_NAMES = (
    "Смирнов", "Иванов", "Кузнецов", "Попов", "Соколов", "Лебедев", "Козлов", "Новиков",
    "Морозов", "Петров", "Волков", "Соловьёв", "Васильев", "Зайцев", "Павлов", "Семёнов",
    "Голубев", "Виноградов", "Богданов", "Воробьёв", "Фёдоров", "Михайлов", "Беляев", "Тарасов",
)
FEMININE = {"Мария", "Ольга", "Анна", "Елена", "Татьяна", "Ксения", "Наталья", "Юлия",
            "Дарья", "Светлана", "Полина", "Вера"}
CITIES = ("Москва", "Санкт-Петербург", "Екатеринбург", "Новосибирск", "Казань", "Минск")


def demo_names(count: int, rng: random.Random) -> list[str]:
    """``count`` distinct Russian names."""
    names: list[str] = []
    seen: set[str] = set()
    while len(names) < count:
        first = rng.choice(FIRST_NAMES)
        last = rng.choice(LAST_NAMES)
        if first in FEMININE:
            last = last[:-1] + "ва" if last.endswith("в") else last + "а"
        name = f"{first} {last}"
        if name in seen:
            name = f"{name} {len(names) + 1}"
        seen.add(name)
        names.append(name)
    return names


def demo_tournament(players: int, seed: int, *, rounds: int | None = None,
                    top: int | None = None) -> Tournament:
    rng = random.Random(seed)
    roster = [
        Player(id=i, name=n, city=rng.choice(CITIES))
        for i, n in enumerate(demo_names(players, rng), start=1)
    ]
    top_size = top if top is not None else min(8, 1 << (players.bit_length() - 2))
    return new_tournament(
        f"Демо-турнир на {players} игроков", roster,
        settings=Settings(swiss_rounds=rounds, top_size=top_size), seed=seed,
    )


def random_result(rng: random.Random, strength_a: float, strength_b: float, *,
                  best_of: int, elimination: bool) -> MatchResult:
    """A plausible best-of result; drawn matches only outside the top."""
    if not elimination and rng.random() < 0.08:
        return MatchResult.played(1, 1) if best_of > 1 else MatchResult.played(0, 0, 1)
    p_a = strength_a / (strength_a + strength_b)
    needed = best_of // 2 + 1
    wins_a = wins_b = 0
    while wins_a < needed and wins_b < needed:
        if rng.random() < p_a:
            wins_a += 1
        else:
            wins_b += 1
    return MatchResult.played(wins_a, wins_b)


def simulate_results(t: Tournament, rng: random.Random,
                     strength: dict[int, float]) -> Tournament:
    """Record a random result for every open match of the current round."""
    rnd = t.current_round
    assert rnd is not None
    top = rnd.stage is Stage.TOP
    best_of = t.settings.top_best_of if top else t.settings.best_of
    for line in rnd.pairings:
        if line.b is None or line.result is not None:
            continue
        result = random_result(rng, strength[line.a], strength[line.b], best_of=best_of,
                               elimination=top)
        t = record_result(t, rnd.number, line.table, result)
    return t


def strengths(players: Sequence[Player], rng: random.Random) -> dict[int, float]:
    return {p.id: rng.uniform(0.5, 2.0) for p in players}


def simulate_demo(console: Console, *, players: int, seed: int) -> Tournament:
    """Run and print a whole simulated tournament (``turnir demo``)."""
    from turnir.cli import render

    t = demo_tournament(players, seed)
    rng = random.Random(f"{seed}/demo-results")
    strength = strengths(t.players, rng)
    console.print(f"[bold]{t.name}[/]: {len(t.players)} players, "
                  f"{t.swiss_rounds_planned} Swiss rounds, top {t.settings.top_size}, "
                  f"seed {t.seed}\n")
    while t.phase is not Phase.FINISHED:
        t = pair_next_round(t)
        rnd = t.current_round
        assert rnd is not None
        t = simulate_results(t, rng, strength)
        console.print(render.pairings_table(t, t.round(rnd.number)))
        if rnd.stage is Stage.SWISS:
            console.print(render.standings_table(t))
    console.print(render.final_table(t))
    return t

"""One-line builders for domain tests (STYLE habit 9)."""

from __future__ import annotations

from collections.abc import Iterable

from turnir.domain.model import Pairing, PairingKind, Player, Round, Settings, Stage
from turnir.domain.results import parse_result
from turnir.domain.tournament import Tournament, new_tournament


def players(*names: str) -> list[Player]:
    return [Player(id=i, name=n) for i, n in enumerate(names, start=1)]


def tournament(count: int, *, rounds: int | None = None, top: int = 0, seed: int = 7,
               byes: dict[int, Iterable[int]] | None = None) -> Tournament:
    grants = byes or {}
    roster = [Player(id=i, name=f"Player {i:03d}", granted_byes=frozenset(grants.get(i, ())))
              for i in range(1, count + 1)]
    return new_tournament("Test", roster, settings=Settings(swiss_rounds=rounds, top_size=top),
                          seed=seed)


def m(table: int, a: int, b: int, score: str | None = None) -> Pairing:
    """A match line: ``m(1, 3, 4, "2-1")``."""
    return Pairing(table, a, b, PairingKind.MATCH, parse_result(score) if score else None)


def bye(a: int, *, privilege: bool = False) -> Pairing:
    return Pairing(0, a, None, PairingKind.PRIVILEGE_BYE if privilege else PairingKind.BYE)


def rnd(number: int, *lines: Pairing, stage: Stage = Stage.SWISS) -> Round:
    return Round(number, stage, tuple(lines), lot=f"test/{number}")

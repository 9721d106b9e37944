"""Where the robot's decisions are kept: the ``DecisionStore`` protocol and an in-memory one.

A decision's id is ``"<game id>/<stage>"``, so storing the same decision twice is harmless
(idempotent) and two different decisions for one moment are refused. The database store
implementing the same protocol is ``turnir.services.robot_store.DatabaseRobotStore``.
"""

from __future__ import annotations

import threading
from typing import Protocol

from turnir.errors import ConflictError
from turnir.robot.decision import Decision


class DecisionStore(Protocol):
    """Keeps decisions in the order they were made."""

    def add(self, decision: Decision) -> None:
        """Store a decision; the same decision again is a no-op, a different one with the same
        id raises ``ConflictError``."""
        ...

    def for_game(self, game_id: str) -> list[Decision]:
        """A game's decisions, oldest first."""
        ...

    def since(self, position: int = 0) -> list[Decision]:
        """Every decision from the ``position``-th on (0 = all), oldest first."""
        ...


def decision_exists(decision: Decision) -> ConflictError:
    """The refusal of a decision whose id is already kept with other content."""
    return ConflictError("decision {decision} is already recorded differently",
                         code="decision_exists", decision=decision.id)


class InMemoryDecisionStore:
    """Decisions in a list; thread-safe."""

    def __init__(self) -> None:
        self._decisions: list[Decision] = []
        self._by_id: dict[str, Decision] = {}
        self._by_game: dict[str, list[Decision]] = {}
        self._lock = threading.Lock()

    def add(self, decision: Decision) -> None:
        with self._lock:
            known = self._by_id.get(decision.id)
            if known is not None:
                if known != decision:
                    raise decision_exists(decision)
                return
            self._by_id[decision.id] = decision
            self._decisions.append(decision)
            self._by_game.setdefault(decision.game_id, []).append(decision)

    def for_game(self, game_id: str) -> list[Decision]:
        with self._lock:
            return list(self._by_game.get(game_id, ()))

    def since(self, position: int = 0) -> list[Decision]:
        with self._lock:
            return self._decisions[max(position, 0):]

    def __len__(self) -> int:
        with self._lock:
            return len(self._decisions)

"""The roles of a web account (``turnir.services.accounts``): defined here, in the domain, so
the CLI can offer them as choices without importing the services (issue 11: a lazy CLI)."""

from __future__ import annotations

from enum import StrEnum


class AccountRole(StrEnum):
    ORGANIZER = "organizer"
    HEAD_JUDGE = "head_judge"
    FLOOR_JUDGE = "floor_judge"
    PLAYER = "player"

    @property
    def is_judge(self) -> bool:
        """May record, decide and correct results (organizers may too)."""
        return self is not AccountRole.PLAYER

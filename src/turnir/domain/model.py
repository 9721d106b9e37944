"""The tournament aggregate's records: players, settings, rounds and pairings (P-1, P-7, S-5).

Terms (Russian in brackets):

- *Swiss part* (отборочная часть, швейцарская система) and *top* (ТОП, олимпийская система):
  the two stages of a tournament (P-1).
- *round* (тур): every active player gets one pairing: a match at a numbered table or a bye.
- *bye* (автопобеда): an unrequested bye, given to the lowest eligible player when the number
  of players is odd, at most once per tournament (S-5); a *privilege bye* is granted by the
  organizer for given rounds and does not use up the once-only bye.
- *drop* (выход из турнира): the player is no longer paired and keeps the results (P-7).
- *late entry* (позднее присоединение): the player joins before a later round, with 0 points or
  with privilege byes for the rounds already played (P-7).

All records are frozen; transitions in ``turnir.domain.tournament`` return new copies.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from turnir.domain.ordered import OrderedEnum
from turnir.domain.results import MatchOutcome, MatchResult, PointsTable
from turnir.errors import NotFoundError

PlayerId = int
"""A player's number in the tournament (1, 2, …)."""


class Stage(StrEnum):
    """The two stages of a tournament (P-1)."""

    SWISS = "swiss"
    TOP = "top"


class TournamentFormat(StrEnum):
    """The kind of event (001, 004)."""

    SWISS = "swiss"
    DRAFT = "draft"
    CONSTRUCTED = "constructed"


class Status(StrEnum):
    """Where a stored tournament is: before round 1, running, or closed by the organizer.

    The stored state the organizer moves; ``turnir.domain.tournament.Phase`` is where the
    rounds are (Swiss, top, all played), computed from them."""

    REGISTRATION = "registration"
    RUNNING = "running"
    FINISHED = "finished"


class RulesLevel(OrderedEnum, StrEnum):
    """The rules level of a tournament (J-7); members compare Amateur < Professional < Highest."""

    AMATEUR = "amateur"
    """Любительский уровень: the guide is a recommendation; the head judge may play (J-8)."""
    PROFESSIONAL = "professional"
    """Профессиональный уровень: the guide is binding; deviations need the head judge (J-7)."""
    HIGHEST = "highest"
    """Высший уровень: as Professional."""

    @property
    def rank(self) -> int:
        return self._place()

    @property
    def guide_binding(self) -> bool:
        """The penalty guide is binding from Professional up (J-7)."""
        return self >= RulesLevel.PROFESSIONAL



class StaffRole(StrEnum):
    """A person's role on a tournament's staff (J-8): what they may do in that tournament."""

    ORGANIZER = "organizer"
    HEAD_JUDGE = "head_judge"
    FLOOR_JUDGE = "floor_judge"


class PairingKind(StrEnum):
    """What a line of a round is."""

    MATCH = "match"
    """Two players at a table."""
    BYE = "bye"
    """An unrequested bye to the lowest eligible player (S-5), once per tournament."""
    PRIVILEGE_BYE = "privilege_bye"
    """A bye granted by the organizer for this round (S-5, P-7 late entry)."""


@dataclass(frozen=True, slots=True)
class Player:
    """A participant of one tournament."""

    id: PlayerId
    """Number in this tournament, unique, positive."""
    name: str
    """Full name as it appears on pairings; unique within the tournament."""
    city: str = ""
    club: str = ""
    granted_byes: frozenset[int] = frozenset()
    """Rounds for which the organizer granted a privilege bye (S-5)."""
    joined_round: int = 1
    """The first round this player can be paired in (late entry, P-7)."""
    dropped_after: int | None = None
    """The last round this player took part in, when they dropped (P-7) or were disqualified."""
    surname: str = field(default="", compare=False)
    """The surname kept apart, for lists in surname order (``turnir.domain.names``); empty:
    read from ``name``. Not part of the player's identity (two loads compare equal)."""
    given_name: str = field(default="", compare=False)
    """The given name kept apart (empty: read from ``name``)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Per-tournament settings, every **Decided** rule a setting with its default."""

    points: PointsTable = field(default_factory=PointsTable)
    """Match points (S-7)."""
    best_of: int = 3
    """Games in a Swiss match: 1, 3 or 5 (S-7)."""
    top_best_of: int = 3
    """Games in a top (elimination) match."""
    swiss_rounds: int | None = None
    """Number of Swiss rounds; ``None`` means ceil(log2 N) when the first round starts (P-4)."""
    top_size: int = 0
    """Players in the top: 0 (no top) or a power of two, at least 2 (P-5)."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """One line of a round: a match at a table, or a bye (``b`` is ``None``)."""

    table: int
    """Table number, 1 is the top table; 0 for a bye."""
    a: PlayerId
    b: PlayerId | None
    kind: PairingKind = PairingKind.MATCH
    result: MatchResult | None = None

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return (self.a,) if self.b is None else (self.a, self.b)

    @property
    def is_bye(self) -> bool:
        return self.b is None

    @property
    def finished(self) -> bool:
        """A bye is finished at once; a match when its result is in."""
        return self.b is None or self.result is not None

    def points(self, table: PointsTable) -> dict[PlayerId, int]:
        """Match points this line gives (0 for an unfinished match)."""
        if self.b is None:
            return {self.a: table.bye}
        if self.result is None:
            return {self.a: 0, self.b: 0}
        pa, pb = table.of(self.result.outcome)
        return {self.a: pa, self.b: pb}

    def winner(self) -> PlayerId | None:
        """The match winner, or ``None`` for a draw, a double loss or no result yet."""
        if self.b is None:
            return self.a
        if self.result is None:
            return None
        if self.result.outcome is MatchOutcome.A_WINS:
            return self.a
        if self.result.outcome is MatchOutcome.B_WINS:
            return self.b
        return None


@dataclass(frozen=True, slots=True)
class Round:
    """One round of the Swiss part or of the top."""

    number: int
    """1, 2, … across the whole tournament (top rounds continue the numbering)."""
    stage: Stage
    pairings: tuple[Pairing, ...]
    lot: str
    """The recorded seed string this round's pairing was drawn with (P-3 e)."""
    edits: tuple[str, ...] = ()
    """Manual pairing edits made by a judge, in order (P-7)."""

    @property
    def finished(self) -> bool:
        return all(p.finished for p in self.pairings)

    @property
    def has_results(self) -> bool:
        return any(p.b is not None and p.result is not None for p in self.pairings)

    def pairing_at(self, table: int) -> Pairing:
        for p in self.pairings:
            if p.table == table and p.b is not None:
                return p
        raise NotFoundError("round {round} has no table {table}", code="unknown_table",
                            round=self.number, table=table)

    def pairing_of(self, player: PlayerId) -> Pairing | None:
        for p in self.pairings:
            if player in p.players:
                return p
        return None

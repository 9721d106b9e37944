"""Judges, the moment a penalty is given, penalty records and the T-6 counts (J-3, J-7, T-6).

Terms (Russian in brackets):

- *head judge* (главный судья турнира) and *floor judge* (судья, член судейской бригады): the
  head judge keeps the record of all penalties, confirms deviations from the guide at
  Professional level and above (J-7), decides appeals against floor judges (J-8) and alone
  records technical results (S-8). An *official representative* (официальный представитель
  издателя, «Мир Хобби») may issue a suspension (J-5).
- *moment* (момент выдачи): a penalty is given during a game, between two games of a match, or
  between matches; the moment decides which result a loss goes to (J-3).
- *penalty record* (запись о пенальти): one penalty given to one player, with its reason, the
  penalty the guide prescribes, and the explanation shown to the player (J-7).
- *penalty points* (штрафные очки): **Decided** (the guide never defines them, 000 §10.10 only
  compares them after the penalty losses and before the warnings): the sum, over a player's
  active penalties, of a weight per penalty, by default its place on the ladder counting from
  the warning: remark 0 (a remark has no consequences for the player's career), warning 1, game
  loss 2, match loss 3, disqualification 4, disqualification without prizes 5, suspension 6.
  Attached penalties are not weighed again. The weights are a setting (``PenaltyPoints``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import KW_ONLY, dataclass
from enum import Enum

from turnir.domain.model import PlayerId, StaffRole
from turnir.domain.penalties.catalogue import ACCUMULATION
from turnir.domain.penalties.ladder import Penalty, Text, effects
from turnir.domain.standings import PenaltyCounts
from turnir.errors import InvariantError, UserError


class JudgeRole(Enum):
    """The judging rank a penalty, an appeal or a ruling is recorded with (000 §11): the head
    judge or a floor judge. Not the same as ``turnir.domain.model.StaffRole``, which says who a
    person is on a tournament's staff (the organizer too, who never judges) and what they may
    do there; ``of_staff`` maps the two judging staff roles onto these ranks. The values are
    the ones stored with a penalty (``penalties.judge_kind``)."""

    HEAD = "head"
    """Главный судья турнира."""
    FLOOR = "floor"
    """Судья (член судейской бригады)."""

    @staticmethod
    def of_staff(role: StaffRole) -> JudgeRole:
        """The judging rank of a judge on the staff (a head judge or a floor judge)."""
        if role is StaffRole.HEAD_JUDGE:
            return JudgeRole.HEAD
        if role is StaffRole.FLOOR_JUDGE:
            return JudgeRole.FLOOR
        raise InvariantError(f"the {role.value} is not a judge")


@dataclass(frozen=True, slots=True)
class Judge:
    """The judge who gives, confirms or decides something."""

    name: str
    """The judge's name as recorded in the report."""
    role: JudgeRole
    """Head judge or floor judge of this tournament."""
    _: KW_ONLY
    official_representative: bool = False
    """An official representative of the publisher: may issue a suspension (J-5)."""

    @property
    def is_head(self) -> bool:
        return self.role is JudgeRole.HEAD


class Moment(Enum):
    """When a penalty is given, relative to the player's games (J-3)."""

    DURING_GAME = "during_game"
    """During game ``game`` of the match in round ``round``."""
    BETWEEN_GAMES = "between_games"
    """After game ``game`` of the match in round ``round``, before the next game of it."""
    BETWEEN_MATCHES = "between_matches"
    """After the player's match in round ``round`` (0: before the first round)."""


@dataclass(frozen=True, slots=True)
class GivenAt:
    """The moment a penalty is given (J-3)."""

    round: int
    """The round of the match it is given in or after (0 before the first round)."""
    moment: Moment
    """During a game, between games, or between matches."""
    game: int = 0
    """The game it is given during or after (1, 2, …); 0 between matches."""

    def __post_init__(self) -> None:
        if self.moment is Moment.BETWEEN_MATCHES:
            if self.round < 0 or self.game != 0:
                raise UserError(
                    "between matches: give the last round played (0 before the first) and no "
                    "game",
                    code="bad_moment",
                )
        elif self.round < 1 or self.game < 1:
            raise UserError(
                "during or between games: give the round (1, 2, …) and the game (1, 2, …)",
                code="bad_moment",
            )

    @staticmethod
    def during_game(round: int, game: int) -> GivenAt:
        return GivenAt(round, Moment.DURING_GAME, game)

    @staticmethod
    def between_games(round: int, after_game: int) -> GivenAt:
        return GivenAt(round, Moment.BETWEEN_GAMES, after_game)

    @staticmethod
    def between_matches(after_round: int) -> GivenAt:
        return GivenAt(after_round, Moment.BETWEEN_MATCHES)

    @property
    def text(self) -> Text:
        match self.moment:
            case Moment.DURING_GAME:
                return Text(f"тур {self.round}, партия {self.game}",
                            f"round {self.round}, game {self.game}")
            case Moment.BETWEEN_GAMES:
                return Text(f"тур {self.round}, после партии {self.game}",
                            f"round {self.round}, after game {self.game}")
            case Moment.BETWEEN_MATCHES:
                return Text(f"после тура {self.round}", f"after round {self.round}")


class PenaltyStatus(Enum):
    """Whether a penalty still counts."""

    ACTIVE = "active"
    WITHDRAWN = "withdrawn"
    """Withdrawn on appeal (снято): counts for nothing, neither in T-6 nor in escalation."""


@dataclass(frozen=True, slots=True)
class PenaltyRecord:
    """One penalty given to one player (J-1..J-7); build it with ``give_penalty``."""

    id: int
    """Sequence number within the tournament (assigned by the caller, unique, increasing)."""
    player: PlayerId
    """The penalised player."""
    reason: str
    """The infraction code from the catalogue, or ``accumulation`` for an automatic penalty."""
    penalty: Penalty
    """The penalty actually given (its attached penalties follow from it, J-2)."""
    given_at: GivenAt
    """When it was given; decides where its loss lands (J-3)."""
    guide_penalty: Penalty
    """What the guide prescribes: the default at the rules level, escalated (J-6)."""
    explanation: Text
    """Why, in words shown to the player (J-7)."""
    _: KW_ONLY
    judge: Judge | None = None
    """Who gave it; ``None`` for an automatic penalty (J-6, accumulation)."""
    confirmed_by_head_judge: bool = False
    """The head judge confirmed a deviation from the guide (J-7)."""
    deferred: bool = False
    """A loss moved by the judge to the next game or match because this one nearly ended (J-3)."""
    sources: tuple[int, ...] = ()
    """For an automatic penalty: the ids of the three penalties it adds up (J-6)."""
    note: str = ""
    """The judge's free text (what happened)."""
    status: PenaltyStatus = PenaltyStatus.ACTIVE
    """Active, or withdrawn on appeal."""

    @property
    def deviation(self) -> bool:
        """The penalty given differs from the one the guide prescribes (J-7)."""
        return self.penalty is not self.guide_penalty

    @property
    def automatic(self) -> bool:
        """Given automatically at the end of a match for three of one strength (J-6)."""
        return self.reason == ACCUMULATION

    @property
    def active(self) -> bool:
        return self.status is PenaltyStatus.ACTIVE

    @property
    def effects(self) -> tuple[Penalty, ...]:
        """The penalty and its attached penalties (J-2)."""
        return effects(self.penalty)


@dataclass(frozen=True, slots=True)
class PenaltyPoints:
    """**Decided** weights of the penalty points (штрафные очки) T-6 compares."""

    remark: int = 0
    """A remark has no consequences for the player's career: 0 by default."""
    warning: int = 1
    game_loss: int = 2
    match_loss: int = 3
    disqualification: int = 4
    disqualification_without_prizes: int = 5
    suspension: int = 6
    """The other weights: the place on the ladder counting from the warning."""

    def __post_init__(self) -> None:
        if min(self.remark, self.warning, self.game_loss, self.match_loss,
               self.disqualification, self.disqualification_without_prizes,
               self.suspension) < 0:
            raise UserError("penalty point weights cannot be negative", code="bad_penalty_points")

    def of(self, penalty: Penalty) -> int:
        """The weight of one penalty."""
        match penalty:
            case Penalty.REMARK:
                return self.remark
            case Penalty.WARNING:
                return self.warning
            case Penalty.GAME_LOSS:
                return self.game_loss
            case Penalty.MATCH_LOSS:
                return self.match_loss
            case Penalty.DISQUALIFICATION:
                return self.disqualification
            case Penalty.DISQUALIFICATION_WITHOUT_PRIZES:
                return self.disqualification_without_prizes
            case Penalty.SUSPENSION:
                return self.suspension

    def as_list(self) -> list[int]:
        """The weights in ladder order, remark first (as stored, and as the CLI shows them)."""
        return [self.of(p) for p in Penalty]

    @classmethod
    def from_list(cls, values: Sequence[int]) -> PenaltyPoints:
        """The weights from ``as_list``."""
        return cls(*values)


DEFAULT_PENALTY_POINTS = PenaltyPoints()


def penalty_counts(
    records: Iterable[PenaltyRecord], *, points: PenaltyPoints = DEFAULT_PENALTY_POINTS
) -> PenaltyCounts:
    """One player's penalties as T-6 compares them; withdrawn penalties count for nothing.

    Penalty losses count every game loss and match loss given, attached ones included (a
    disqualification brings a match loss, J-2), whether or not a result has taken them yet;
    warnings likewise count the attached ones; penalty points weigh each penalty once.
    """
    match_losses = game_losses = penalty_points = warnings = 0
    player: PlayerId | None = None
    for record in records:
        if player is not None and record.player != player:
            raise InvariantError("penalty_counts is for one player's records")
        player = record.player
        if not record.active:
            continue
        penalty_points += points.of(record.penalty)
        for effect in record.effects:
            match_losses += effect is Penalty.MATCH_LOSS
            game_losses += effect is Penalty.GAME_LOSS
            warnings += effect is Penalty.WARNING
    return PenaltyCounts(
        match_losses=match_losses,
        game_losses=game_losses,
        penalty_points=penalty_points,
        warnings=warnings,
    )


def penalty_counts_by_player(
    records: Iterable[PenaltyRecord], *, points: PenaltyPoints = DEFAULT_PENALTY_POINTS
) -> dict[PlayerId, PenaltyCounts]:
    """``penalty_counts`` for every player with a record: the ``Tournament.penalties`` input."""
    by_player: dict[PlayerId, list[PenaltyRecord]] = {}
    for record in records:
        by_player.setdefault(record.player, []).append(record)
    return {
        player: penalty_counts(own, points=points) for player, own in sorted(by_player.items())
    }

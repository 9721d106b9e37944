"""Tiebreaks of the Swiss standings (rules T-1..T-7 with the decisions of T-9; 000 §10.8, §10.10).

Players are ranked by match points, then by these criteria in order; the first difference
decides (000 §10.10):

- T-1 *quality of wins* (качество побед): the sum of the current points of the opponents the
  player beat. Higher is better.
- T-2 *quality of losses* (качество поражений): the sum of the current points of the opponents
  the player lost to. Higher is better.
- T-3 *quality of games* (качество игры; Buchholz): the sum of the current points of all the
  opponents the player played, draws included. Higher is better.
- T-4 *second-order quality* (качество игр второго порядка): the sum of the quality of games of
  all the opponents played; each bye (автопобеда) adds the player's own quality of games
  (000 §10.8). Higher is better.
- T-5 *head-to-head* (итог личной встречи): see below.
- T-6 *penalties* (пенальти): fewer is better, strongest first: penalty losses compared as
  (match losses, game losses), then penalty points (штрафные очки), then warnings
  (предупреждения); the first difference decides.
- T-7 *lot* (жребий): the lower lot number ranks higher; lots come from the tournament's recorded
  seed (``turnir.domain.standings.ranking.lot_numbers``).

Terms: *current points* (текущие очки) are the points over the rounds given, byes included; a
*bye* (автопобеда) is a pairing of kind ``BYE`` or ``PRIVILEGE_BYE`` (S-5); a *double loss*
(двойное поражение) gives both players a match loss; a *tie group* (группа равенства) is a set
of players equal on points and T-1..T-4; the *mini-table* (мини-таблица) is the points the
players of a group earned in their matches against each other.

Decided (T-9), as implemented here:

- A bye adds 0 to T-1..T-3 (and its points to the player's own points, S-5).
- An opponent's points include their byes; a dropped or disqualified opponent counts with the
  points they finished with, which are their current points.
- An opponent met twice counts once per match (sums run over matches, not distinct opponents).
- An unfinished match (no result yet) counts for nothing: not played, not an opponent.
- A double loss counts as a loss for both: neither beat the other, each *lost to* the other
  (T-2), and each played the other (T-3, T-4).
- Head-to-head applies to a tie group only when every two of its players met (for two players:
  they met). The group is ranked by mini-table points; players equal there form sub-groups, and
  the rule is applied again to every sub-group that is smaller than the group it came from (the
  mini-table then counts only the matches inside the sub-group). For two players this means a
  decisive meeting (or more points over several meetings) decides; a drawn meeting, a double
  loss, a win each, or no meeting passes them on. Whatever head-to-head leaves tied goes to
  T-6, then to T-7.

Each criterion is a small registered class (``METRICS``) with its key, rule ID, names and
abbreviations in Russian and English and a one-line explanation, for column headers and
tooltips. The ranking itself is in ``ranking.py``; this module holds the ``Sheet`` (the
players' records the criteria read) and the criteria.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar, TypeVar

from turnir.domain.model import PairingKind, PlayerId, Round, Stage
from turnir.domain.results import MatchOutcome, PointsTable
from turnir.errors import InvariantError

SortKey = int | tuple[int, ...]
"""A per-player sort key of one criterion; the smaller key ranks higher."""


@dataclass(frozen=True, slots=True)
class PenaltyCounts:
    """A player's penalties in the tournament, as far as T-6 compares them (пенальти)."""

    match_losses: int = 0
    """Match losses given as penalties (поражения в матче по пенальти)."""
    game_losses: int = 0
    """Game losses given as penalties (поражения в партии по пенальти)."""
    penalty_points: int = 0
    """Penalty points (штрафные очки)."""
    warnings: int = 0
    """Warnings (предупреждения)."""

    def __post_init__(self) -> None:
        if min(self.match_losses, self.game_losses, self.penalty_points, self.warnings) < 0:
            raise InvariantError(f"penalty counts cannot be negative: {self}")

    @property
    def sort_key(self) -> tuple[int, int, int, int]:
        """T-6 and T-9: (match losses, game losses), then penalty points, then warnings."""
        return (self.match_losses, self.game_losses, self.penalty_points, self.warnings)


NO_PENALTIES = PenaltyCounts()
"""The penalties of a player who has none."""


class TieBreak(StrEnum):
    """The ranking criteria in the order they apply: points, then T-1..T-7 (000 §10.10)."""

    POINTS = "points"
    QUALITY_OF_WINS = "quality_of_wins"
    QUALITY_OF_LOSSES = "quality_of_losses"
    QUALITY_OF_GAMES = "quality_of_games"
    SECOND_ORDER_QUALITY = "second_order_quality"
    HEAD_TO_HEAD = "head_to_head"
    PENALTIES = "penalties"
    LOT = "lot"

    @property
    def metric(self) -> Metric:
        """The registered class that computes this criterion."""
        return METRICS[self]

    @property
    def rule(self) -> str:
        """The rule ID, e.g. ``T-1`` (``S-7`` for points)."""
        return self.metric.rule

    @property
    def name_en(self) -> str:
        """The human name in English, e.g. "Quality of wins" (not the enum's ``name``)."""
        return self.metric.name_en

    @property
    def name_ru(self) -> str:
        """The human name in Russian, e.g. «Качество побед»."""
        return self.metric.name_ru

    @property
    def label_en(self) -> str:
        """The same as ``name_en``: the label for a column header or a "decided by" cell."""
        return self.metric.name_en

    @property
    def label_ru(self) -> str:
        """The same as ``name_ru``."""
        return self.metric.name_ru

    @property
    def abbr_en(self) -> str:
        return self.metric.abbr_en

    @property
    def abbr_ru(self) -> str:
        return self.metric.abbr_ru

    @property
    def explanation_en(self) -> str:
        return self.metric.explanation_en

    @property
    def explanation_ru(self) -> str:
        return self.metric.explanation_ru


@dataclass(frozen=True, slots=True, eq=False)
class Sheet:
    """The players' records that the criteria read, indexed by position (0..n-1).

    Position ``i`` is the ``i``-th smallest player id, so nothing depends on input order.
    Finished matches are kept as parallel columns (``match_a``, ``match_b``,
    ``match_outcome``), one entry per match, so an opponent met twice counts twice (T-9).
    Everything is built once by ``Sheet.build`` and never changed afterwards; derived values
    (``column``) are computed on first use and kept.
    """

    players: Sequence[PlayerId]
    """Player ids, ascending."""
    index: Mapping[PlayerId, int]
    """Player id → position."""
    table: PointsTable
    """The points table the event uses (S-7)."""
    points: Sequence[int]
    """Current points, byes included (S-5, S-7)."""
    wins: Sequence[int]
    draws: Sequence[int]
    losses: Sequence[int]
    """Finished matches won, drawn and lost (a double loss is a loss); byes not included."""
    byes: Sequence[int]
    """Byes of both kinds (S-5)."""
    match_a: Sequence[int]
    match_b: Sequence[int]
    """Positions of the two players of each finished match."""
    match_outcome: Sequence[MatchOutcome]
    """The outcome of each finished match, from ``match_a``'s side."""
    penalties: Sequence[PenaltyCounts]
    lots: Sequence[int]
    """Lot numbers (T-7); unique."""
    _columns: dict[TieBreak, Sequence[int]] = field(default_factory=dict, init=False, repr=False)

    def __len__(self) -> int:
        return len(self.players)

    def column(self, key: TieBreak) -> Sequence[int]:
        """The values of a scoring criterion (points, T-1..T-4) for every player, computed once."""
        cached = self._columns.get(key)
        if cached is None:
            metric = METRICS[key]
            if not isinstance(metric, ScoreMetric):
                raise InvariantError(f"{key} is not a scoring criterion")
            cached = self._columns[key] = metric.scores(self)
        return cached

    def meetings(self, among: Set[int]) -> dict[tuple[int, int], tuple[int, int]]:
        """For each two players of ``among`` (positions) who met, ``(i, j)`` with ``i < j``: the
        points each of them earned in their matches against the other, summed over rematches."""
        gain = self.table.by_outcome()
        meetings: dict[tuple[int, int], tuple[int, int]] = {}
        for a, b, outcome in zip(self.match_a, self.match_b, self.match_outcome, strict=True):
            if a not in among or b not in among:
                continue
            got_a, got_b = gain[outcome]
            if a > b:
                a, b, got_a, got_b = b, a, got_b, got_a
            before = meetings.get((a, b))
            if before is not None:
                got_a, got_b = before[0] + got_a, before[1] + got_b
            meetings[a, b] = (got_a, got_b)
        return meetings

    @staticmethod
    def build(
        players: Iterable[PlayerId],
        rounds: Iterable[Round],
        points: PointsTable,
        *,
        lot: Mapping[PlayerId, int],
        penalties: Mapping[PlayerId, PenaltyCounts],
    ) -> Sheet:
        """Collect the records of ``players`` from the Swiss ``rounds`` (top rounds are skipped).

        Raises ``InvariantError`` when the data is inconsistent: a player twice in ``players`` or
        in one round, a player in a round but not in ``players``, a round number twice, a bye
        with an opponent or a match without one, a listed player without a lot number, or two
        listed players with the same lot number. Lots and penalties of other players are
        ignored (standings of one draft table, T-8).
        """
        listed = list(players)
        ids = sorted(set(listed))
        if len(ids) != len(listed):
            raise InvariantError("a player is listed twice")
        index = {pid: i for i, pid in enumerate(ids)}
        n = len(ids)
        byes, match_a, match_b, match_outcome = _swiss_lines(rounds, index)
        bye, gain = points.bye, points.by_outcome()
        pts = [bye * count for count in byes]
        wins = [0] * n
        draws = [0] * n
        losses = [0] * n
        a_wins, b_wins, drawn = MatchOutcome.A_WINS, MatchOutcome.B_WINS, MatchOutcome.DRAW
        for a, b, outcome in zip(match_a, match_b, match_outcome, strict=True):
            got_a, got_b = gain[outcome]
            pts[a] += got_a
            pts[b] += got_b
            if outcome is a_wins:
                wins[a] += 1
                losses[b] += 1
            elif outcome is b_wins:
                wins[b] += 1
                losses[a] += 1
            elif outcome is drawn:
                draws[a] += 1
                draws[b] += 1
            else:  # double loss
                losses[a] += 1
                losses[b] += 1
        return Sheet(
            players=tuple(ids),
            index=index,
            table=points,
            points=pts,
            wins=wins,
            draws=draws,
            losses=losses,
            byes=byes,
            match_a=match_a,
            match_b=match_b,
            match_outcome=match_outcome,
            penalties=[penalties.get(pid, NO_PENALTIES) for pid in ids],
            lots=_lots(ids, lot),
        )


def _swiss_lines(
    rounds: Iterable[Round], index: Mapping[PlayerId, int]
) -> tuple[list[int], list[int], list[int], list[MatchOutcome]]:
    """The byes of every player (by position) and the finished matches of the Swiss rounds
    (positions of A and B, the outcome), checking each round's lines (``Sheet.build``)."""
    byes = [0] * len(index)
    match_a: list[int] = []
    match_b: list[int] = []
    match_outcome: list[MatchOutcome] = []
    match_kind = PairingKind.MATCH
    position = index.get
    numbers: set[int] = set()
    seen_in = [0] * len(index)  # the last round (counted from 1) each player was seen in
    for rnd in rounds:
        if rnd.stage is not Stage.SWISS:
            continue
        if rnd.number in numbers:
            raise InvariantError(f"Swiss round {rnd.number} is given twice")
        numbers.add(rnd.number)
        now = len(numbers)
        for pairing in rnd.pairings:
            a = position(pairing.a, -1)
            if a < 0 or seen_in[a] == now:
                raise _stray(rnd.number, pairing.a, a)
            seen_in[a] = now
            if pairing.b is None:
                if pairing.kind is match_kind:
                    raise InvariantError(f"round {rnd.number}: a match without an opponent")
                byes[a] += 1
                continue
            if pairing.kind is not match_kind:
                raise InvariantError(f"round {rnd.number}: a bye with an opponent")
            b = position(pairing.b, -1)
            if b < 0 or seen_in[b] == now:
                raise _stray(rnd.number, pairing.b, b)
            seen_in[b] = now
            if pairing.result is not None:  # unfinished: counts for nothing
                match_a.append(a)
                match_b.append(b)
                match_outcome.append(pairing.result.outcome)
    return byes, match_a, match_b, match_outcome


def _lots(ids: Sequence[PlayerId], lot: Mapping[PlayerId, int]) -> list[int]:
    """The lot numbers of ``ids`` in order; every player has one and no two share one."""
    missing = [pid for pid in ids if pid not in lot]
    if missing:
        raise InvariantError(f"players without a lot number: {missing[:10]}")
    lots = [lot[pid] for pid in ids]
    if len(set(lots)) != len(ids):
        raise InvariantError("two players have the same lot number")
    return lots


def _stray(number: int, player: PlayerId, position: int) -> InvariantError:
    if position < 0:
        return InvariantError(f"round {number}: player {player} is not in the standings")
    return InvariantError(f"round {number}: player {player} is paired twice")


class Metric(ABC):
    """A ranking criterion: a registered class with its key, rule, names and explanation."""

    key: ClassVar[TieBreak]
    rule: ClassVar[str]
    name_en: ClassVar[str]
    name_ru: ClassVar[str]
    abbr_en: ClassVar[str]
    abbr_ru: ClassVar[str]
    explanation_en: ClassVar[str]
    explanation_ru: ClassVar[str]


class KeyedMetric(Metric):
    """A criterion that gives every player a sort key; the smaller key ranks higher."""

    @abstractmethod
    def sort_keys(self, sheet: Sheet) -> Sequence[SortKey]:
        """The key of every player, by position."""


class ScoreMetric(KeyedMetric):
    """A criterion that gives every player a number shown in the table; higher ranks higher."""

    @abstractmethod
    def scores(self, sheet: Sheet) -> Sequence[int]:
        """The value of every player, by position (read it through ``Sheet.column``)."""

    def sort_keys(self, sheet: Sheet) -> Sequence[SortKey]:
        return [-value for value in sheet.column(self.key)]


class GroupMetric(Metric):
    """A criterion that compares the players of a tied group with each other (head-to-head)."""

    @abstractmethod
    def split(self, sheet: Sheet, groups: Sequence[Sequence[int]]) -> list[list[list[int]]]:
        """Split each tied group (positions) into sub-groups, best first; ties stay together."""


METRICS: dict[TieBreak, Metric] = {}
"""The registry: every criterion by its key."""

_M = TypeVar("_M", bound=type[Metric])


def register(cls: _M) -> _M:
    """Class decorator: add one instance of ``cls`` to ``METRICS`` under its key."""
    if cls.key in METRICS:
        raise InvariantError(f"criterion {cls.key} is registered twice")
    METRICS[cls.key] = cls()
    return cls


_A_WINS, _B_WINS, _DRAW = MatchOutcome.A_WINS, MatchOutcome.B_WINS, MatchOutcome.DRAW


@register
class Points(ScoreMetric):
    key = TieBreak.POINTS
    rule = "S-7"
    name_en = "Points"
    name_ru = "Очки"
    abbr_en = "Pts"
    abbr_ru = "О"
    explanation_en = "Match points: win, draw, loss and bye from the points table."
    explanation_ru = "Очки за матчи: победа, ничья, поражение и автопобеда по таблице очков."

    def scores(self, sheet: Sheet) -> Sequence[int]:
        return sheet.points


@register
class QualityOfWins(ScoreMetric):
    key = TieBreak.QUALITY_OF_WINS
    rule = "T-1"
    name_en = "Quality of wins"
    name_ru = "Качество побед"
    abbr_en = "QW"
    abbr_ru = "КП"
    explanation_en = "Sum of the current points of the opponents the player beat."
    explanation_ru = "Сумма очков, набранных оппонентами, которых игрок выиграл."

    def scores(self, sheet: Sheet) -> Sequence[int]:
        points = sheet.points
        quality = [0] * len(sheet)
        for a, b, outcome in zip(sheet.match_a, sheet.match_b, sheet.match_outcome, strict=True):
            if outcome is _A_WINS:
                quality[a] += points[b]
            elif outcome is _B_WINS:
                quality[b] += points[a]
        return quality


@register
class QualityOfLosses(ScoreMetric):
    key = TieBreak.QUALITY_OF_LOSSES
    rule = "T-2"
    name_en = "Quality of losses"
    name_ru = "Качество поражений"
    abbr_en = "QL"
    abbr_ru = "КПр"
    explanation_en = "Sum of the current points of the opponents the player lost to."
    explanation_ru = "Сумма очков, набранных оппонентами, которым игрок проиграл."

    def scores(self, sheet: Sheet) -> Sequence[int]:
        points = sheet.points
        quality = [0] * len(sheet)
        for a, b, outcome in zip(sheet.match_a, sheet.match_b, sheet.match_outcome, strict=True):
            if outcome is _A_WINS:
                quality[b] += points[a]
            elif outcome is _B_WINS:
                quality[a] += points[b]
            elif outcome is not _DRAW:  # a double loss: each lost to the other (T-9)
                quality[a] += points[b]
                quality[b] += points[a]
        return quality


@register
class QualityOfGames(ScoreMetric):
    key = TieBreak.QUALITY_OF_GAMES
    rule = "T-3"
    name_en = "Quality of games"
    name_ru = "Качество игры"
    abbr_en = "QG"
    abbr_ru = "КИ"
    explanation_en = "Sum of the current points of all the opponents played (Buchholz)."
    explanation_ru = "Сумма очков, набранных оппонентами, с которыми игрок играл."

    def scores(self, sheet: Sheet) -> Sequence[int]:
        points = sheet.points
        quality = [0] * len(sheet)
        for a, b in zip(sheet.match_a, sheet.match_b, strict=True):
            quality[a] += points[b]
            quality[b] += points[a]
        return quality


@register
class SecondOrderQuality(ScoreMetric):
    key = TieBreak.SECOND_ORDER_QUALITY
    rule = "T-4"
    name_en = "Second-order quality"
    name_ru = "Качество игр второго порядка"
    abbr_en = "QG2"
    abbr_ru = "КИ2"
    explanation_en = (
        "Sum of the quality of games of all the opponents played; a bye adds the player's own."
    )
    explanation_ru = (
        "Сумма качеств игр оппонентов, с которыми игрок играл; автопобеда добавляет собственное."
    )

    def scores(self, sheet: Sheet) -> Sequence[int]:
        quality = sheet.column(TieBreak.QUALITY_OF_GAMES)
        second = [byes * own for byes, own in zip(sheet.byes, quality, strict=True)]
        for a, b in zip(sheet.match_a, sheet.match_b, strict=True):
            second[a] += quality[b]
            second[b] += quality[a]
        return second


@register
class HeadToHead(GroupMetric):
    key = TieBreak.HEAD_TO_HEAD
    rule = "T-5"
    name_en = "Head-to-head"
    name_ru = "Личная встреча"
    abbr_en = "H2H"
    abbr_ru = "ЛВ"
    explanation_en = "Points in the matches among the tied players, when every two of them met."
    explanation_ru = "Очки в матчах между равными игроками, если все они встречались друг с другом."

    def split(self, sheet: Sheet, groups: Sequence[Sequence[int]]) -> list[list[list[int]]]:
        played = [
            w + d + lost for w, d, lost in zip(sheet.wins, sheet.draws, sheet.losses, strict=True)
        ]
        # Someone who played fewer than (group size - 1) matches cannot have met all the others.
        candidates = [
            sorted(group)
            for group in groups
            if len(group) > 1 and all(played[p] >= len(group) - 1 for p in group)
        ]
        meetings = sheet.meetings({p for group in candidates for p in group})
        return [self._split(meetings, sorted(group)) for group in groups]

    def _split(
        self, meetings: Mapping[tuple[int, int], tuple[int, int]], members: list[int]
    ) -> list[list[int]]:
        """``members`` ascending; the mini-table counts only matches among them."""
        if len(members) < 2:
            return [members]
        mini = dict.fromkeys(members, 0)
        for k, low in enumerate(members):
            for high in members[k + 1 :]:
                met = meetings.get((low, high))
                if met is None:
                    return [members]  # not every two of them met: head-to-head does not apply
                mini[low] += met[0]
                mini[high] += met[1]
        levels = sorted(set(mini.values()), reverse=True)
        if len(levels) == 1:
            return [members]
        parts: list[list[int]] = []
        for level in levels:
            parts.extend(self._split(meetings, [p for p in members if mini[p] == level]))
        return parts


@register
class Penalties(KeyedMetric):
    key = TieBreak.PENALTIES
    rule = "T-6"
    name_en = "Penalties"
    name_ru = "Пенальти"
    abbr_en = "Pen"
    abbr_ru = "Пен"
    explanation_en = (
        "Fewer penalties: match and game losses first, then penalty points, then warnings."
    )
    explanation_ru = (
        "Меньше пенальти: сначала поражения в матчах и партиях, потом штрафные очки, "
        "потом предупреждения."
    )

    def sort_keys(self, sheet: Sheet) -> Sequence[SortKey]:
        return [counts.sort_key for counts in sheet.penalties]


@register
class Lot(KeyedMetric):
    key = TieBreak.LOT
    rule = "T-7"
    name_en = "Lot"
    name_ru = "Жребий"
    abbr_en = "Lot"
    abbr_ru = "Жр"
    explanation_en = (
        "A random draw from the tournament's recorded seed; the lower number ranks higher."
    )
    explanation_ru = "Жребий по записанному зерну турнира; меньший номер выше."

    def sort_keys(self, sheet: Sheet) -> Sequence[SortKey]:
        return sheet.lots


RANKING_ORDER: tuple[TieBreak, ...] = tuple(TieBreak)
"""The order the criteria apply in: points, T-1, T-2, T-3, T-4, T-5, T-6, T-7."""

if set(METRICS) != set(RANKING_ORDER):
    raise InvariantError("every criterion must be registered exactly once")

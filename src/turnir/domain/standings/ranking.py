"""The Swiss standings: a total order of the players by points and tiebreaks (T-1..T-7, T-9).

Terms (Russian in brackets):

- *standings* (турнирная таблица, турнирный рейтинг): every player once, with a unique place
  1..n; no two players share a place, because the lot (T-7) always decides in the end.
- *place* (место): the row number, 1 is the best.
- *decided by* (решающий показатель): for each row but the last, the first criterion (points,
  then T-1..T-7, see ``TieBreak``) that put this row above the next one; the UI shows it as the
  reason a tie was broken ("head-to-head", "lot").
- *lot number* (номер жребия): a player's position in a random draw from the tournament's
  recorded seed (T-7, T-9); ``lot_numbers`` draws it reproducibly.

The ranking refines one group of all players criterion by criterion: a run of keyed criteria
(points and T-1..T-4, later T-6 and T-7) sorts each group with one tuple key and splits it where
the keys differ; head-to-head (T-5) splits each group that is still tied as ``HeadToHead``
describes. The rules for each criterion and the project's decisions (T-9) are in
``tiebreaks.py``. Nothing depends on the order of the players, rounds or pairings given.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import pairwise
from types import MappingProxyType

from turnir.domain.model import PlayerId, Round
from turnir.domain.results import PointsTable
from turnir.domain.standings.tiebreaks import (
    METRICS,
    RANKING_ORDER,
    GroupMetric,
    KeyedMetric,
    PenaltyCounts,
    Sheet,
    SortKey,
    TieBreak,
)
from turnir.errors import InvariantError, NotFoundError

_Splitter = Callable[[list[list[int]]], list[tuple[list[list[int]], list[TieBreak]]]]
"""Splits each tied group (positions) into ordered parts and names the reason between each two
parts."""


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings."""

    place: int
    """1, 2, …; unique, the standings are a total order."""
    player: PlayerId
    points: int
    """Match points, byes included (S-5, S-7)."""
    quality_of_wins: int
    """T-1, качество побед."""
    quality_of_losses: int
    """T-2, качество поражений."""
    quality_of_games: int
    """T-3, качество игры (Buchholz)."""
    second_order_quality: int
    """T-4, качество игр второго порядка."""
    penalties: PenaltyCounts
    """T-6 input."""
    lot: int
    """The player's lot number; the lower ranks higher (T-7)."""
    matches: int
    """Finished matches against an opponent (``wins + draws + losses``); byes not included."""
    wins: int
    draws: int
    losses: int
    """Match losses, double losses included."""
    byes: int
    """Byes of both kinds (S-5)."""
    decided_by: TieBreak | None
    """The criterion that put this row above the next one; ``None`` for the last row."""


@dataclass(frozen=True, slots=True)
class Standings:
    """The rows in order, best first."""

    rows: tuple[StandingRow, ...]
    _by_player: dict[PlayerId, StandingRow] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_player = {row.player: row for row in self.rows}
        if len(by_player) != len(self.rows):
            raise InvariantError("a player appears twice in the standings")
        for number, row in enumerate(self.rows, start=1):
            if row.place != number:
                raise InvariantError(f"row {number} has place {row.place}")
        object.__setattr__(self, "_by_player", by_player)

    def __len__(self) -> int:
        return len(self.rows)

    def row_of(self, player: PlayerId) -> StandingRow:
        """The row of ``player``; ``NotFoundError`` if they are not in the standings."""
        row = self._by_player.get(player)
        if row is None:
            raise NotFoundError("player {player} is not in the standings", code="unknown_player",
                                player=player)
        return row

    def order(self) -> list[PlayerId]:
        """Player ids, best first."""
        return [row.player for row in self.rows]


def lot_numbers(seed: int | str, players: Iterable[PlayerId]) -> dict[PlayerId, int]:
    """Lot numbers 1..n for ``players`` drawn from the tournament's recorded seed (T-7, T-9).

    The ids are sorted, then shuffled with ``random.Random(f"{seed}/lot")``: the same seed and
    the same set of players always give the same numbers, whatever the input order.
    """
    ids = sorted(set(players))
    random.Random(f"{seed}/lot").shuffle(ids)
    return {player: number for number, player in enumerate(ids, start=1)}


_NO_PENALTIES: Mapping[PlayerId, PenaltyCounts] = MappingProxyType({})


def compute_standings(
    players: Iterable[PlayerId],
    rounds: Iterable[Round],
    points: PointsTable,
    *,
    lot: Mapping[PlayerId, int],
    penalties: Mapping[PlayerId, PenaltyCounts] = _NO_PENALTIES,
) -> Standings:
    """Rank ``players`` over the Swiss ``rounds`` by points and T-1..T-7.

    Top rounds are skipped; unfinished matches count for nothing; byes of both kinds give
    ``points.bye``. Players without a penalty entry have none. A player in ``players`` who is in
    no round gets a row of zeros. ``lot`` must give every player of ``players`` a distinct
    number (``lot_numbers``). Inconsistent data raises ``InvariantError`` (see ``Sheet.build``).
    """
    sheet = Sheet.build(players, rounds, points, lot=lot, penalties=penalties)
    order, reasons = _rank(sheet)
    columns = [
        sheet.column(key)
        for key in (
            TieBreak.POINTS,
            TieBreak.QUALITY_OF_WINS,
            TieBreak.QUALITY_OF_LOSSES,
            TieBreak.QUALITY_OF_GAMES,
            TieBreak.SECOND_ORDER_QUALITY,
        )
    ]
    pts, q_wins, q_losses, q_games, q_second = columns
    ids, wins, draws, losses = sheet.players, sheet.wins, sheet.draws, sheet.losses
    rows = tuple(
        StandingRow(
            place=place,
            player=ids[i],
            points=pts[i],
            quality_of_wins=q_wins[i],
            quality_of_losses=q_losses[i],
            quality_of_games=q_games[i],
            second_order_quality=q_second[i],
            penalties=sheet.penalties[i],
            lot=sheet.lots[i],
            matches=wins[i] + draws[i] + losses[i],
            wins=wins[i],
            draws=draws[i],
            losses=losses[i],
            byes=sheet.byes[i],
            decided_by=reason,
        )
        for place, (i, reason) in enumerate(zip(order, reasons, strict=True), start=1)
    )
    return Standings(rows)


def _rank(sheet: Sheet) -> tuple[list[int], list[TieBreak | None]]:
    """Positions best first, and for each the criterion that put it above the next one."""
    groups: list[list[int]] = [list(range(len(sheet)))] if len(sheet) else []
    between: list[TieBreak] = []  # between[k] separates groups[k] and groups[k + 1]
    step = 0
    while step < len(RANKING_ORDER) and any(len(group) > 1 for group in groups):
        metric = METRICS[RANKING_ORDER[step]]
        split: _Splitter
        if isinstance(metric, GroupMetric):
            step += 1
            split = partial(_split_by_group_metric, sheet, metric)
        else:
            run: list[TieBreak] = []
            columns: list[Sequence[SortKey]] = []
            while step < len(RANKING_ORDER):
                keyed = METRICS[RANKING_ORDER[step]]
                if not isinstance(keyed, KeyedMetric):
                    break
                run.append(keyed.key)
                columns.append(keyed.sort_keys(sheet))
                step += 1
            keys: list[tuple[SortKey, ...]] = list(zip(*columns, strict=True))
            split = partial(_split_by_keys, keys, tuple(run))
        groups, between = _refine(groups, between, split)
    if any(len(group) > 1 for group in groups):
        raise InvariantError("the lot left players tied")
    order = [group[0] for group in groups]
    return order, [*between, None] if order else []


def _refine(
    groups: list[list[int]], between: list[TieBreak], split: _Splitter
) -> tuple[list[list[int]], list[TieBreak]]:
    """Split every group of two or more; keep the reasons between the old groups."""
    split_up = iter(split([group for group in groups if len(group) > 1]))
    new_groups: list[list[int]] = []
    new_between: list[TieBreak] = []
    for number, group in enumerate(groups):
        if number:
            new_between.append(between[number - 1])
        if len(group) == 1:
            new_groups.append(group)
            continue
        parts, reasons = next(split_up)
        new_groups.extend(parts)
        new_between.extend(reasons)
    return new_groups, new_between


def _split_by_keys(
    keys: Sequence[tuple[SortKey, ...]], run: tuple[TieBreak, ...], groups: list[list[int]]
) -> list[tuple[list[list[int]], list[TieBreak]]]:
    """Sort each group by the keys of a run of criteria; split it where the keys differ."""
    result = []
    for group in groups:
        ordered = sorted(group, key=keys.__getitem__)
        parts = [[ordered[0]]]
        reasons: list[TieBreak] = []
        for above, below in pairwise(ordered):
            key_above, key_below = keys[above], keys[below]
            if key_above == key_below:
                parts[-1].append(below)
                continue
            first = 0
            while key_above[first] == key_below[first]:
                first += 1
            reasons.append(run[first])
            parts.append([below])
        result.append((parts, reasons))
    return result


def _split_by_group_metric(
    sheet: Sheet, metric: GroupMetric, groups: list[list[int]]
) -> list[tuple[list[list[int]], list[TieBreak]]]:
    split_up = metric.split(sheet, groups)
    if len(split_up) != len(groups):
        raise InvariantError(f"{metric.key} must split every group it is given")
    result = []
    for group, parts in zip(groups, split_up, strict=True):
        if sorted(p for part in parts for p in part) != sorted(group) or not all(parts):
            raise InvariantError(f"{metric.key} must split a group into non-empty parts")
        result.append((parts, [metric.key] * (len(parts) - 1)))
    return result

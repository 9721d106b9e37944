"""Seating at draft tables and the number of Swiss rounds of a draft (D-1, D-2, D-3, D-5).

Terms (Russian in brackets):

- *draft table* (стол драфта): the players who draft together and then play their Swiss
  rounds among themselves (T-8); tables are numbered 1..T, seats at a table 1..n around it
  (seat n sits next to seat 1; passing directions are in ``turnir.domain.draft.plan``);
- *table counts* (число столов): a power of two, with sizes as equal as possible (differing
  by at most 1) and within the profile's bounds (tabletop 8-16, online 6-12) — D-2;
- *seating by lot* (рассадка жребием): the players are shuffled with the tournament's recorded
  random source and fill the tables in turn (D-2);
- *seating by standings* (рассадка по таблице): for a draft that is a later stage of an event
  the standings are split into T consecutive parts, the top part at table 1; seats within a
  table by lot (D-3).

**Decided:**

- at least 4 players (D-1); fewer players than the profile's smallest table make one table;
- when several table counts are allowed, the default is the smallest (the fewest, biggest
  tables: more players draft together);
- when the players do not divide evenly, the first tables (and in D-3 the upper parts of the
  standings) get the extra player;
- D-5 "most tables have 8 or more" means more than half of them; otherwise 3 rounds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from turnir.domain.draft.plan import DraftProfile
from turnir.domain.model import PlayerId
from turnir.errors import InvariantError, NotFoundError, UserError

MIN_PLAYERS = 4
"""A draft needs at least 4 participants (D-1)."""


def table_counts(players: int, profile: DraftProfile) -> tuple[int, ...]:
    """The allowed numbers of draft tables for ``players`` (D-2), smallest first: powers of two
    whose table sizes fit the profile's bounds; one table when no count fits (fewer players
    than the smallest table). Refuses fewer than 4 players (D-1)."""
    if players < MIN_PLAYERS:
        raise UserError("a draft needs at least {least} players, not {count}",
                        code="too_few_players", least=MIN_PLAYERS, count=players)
    low, high = profile.bounds
    counts = []
    tables = 1
    while tables * low <= players:
        if -(-players // tables) <= high:
            counts.append(tables)
        tables *= 2
    return tuple(counts) or (1,)


def table_sizes(players: int, tables: int) -> tuple[int, ...]:
    """``players`` split into ``tables`` sizes differing by at most 1, the bigger first."""
    size, extra = divmod(players, tables)
    return tuple(size + 1 if index < extra else size for index in range(tables))


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where: ``tables[t - 1][s - 1]`` is the player at seat s of table t."""

    tables: tuple[tuple[PlayerId, ...], ...]

    def __post_init__(self) -> None:
        seen = [player for table in self.tables for player in table]
        if len(seen) != len(set(seen)):
            raise InvariantError("a player has two draft seats")
        if not self.tables or not all(self.tables):
            raise InvariantError("a draft seating has an empty table")

    @property
    def sizes(self) -> tuple[int, ...]:
        """The number of players at each table, table 1 first."""
        return tuple(len(table) for table in self.tables)

    @property
    def mapping(self) -> dict[PlayerId, tuple[int, int]]:
        """Each player's (table, seat), both 1-based."""
        return {player: (number, seat)
                for number, table in enumerate(self.tables, start=1)
                for seat, player in enumerate(table, start=1)}

    def table_of(self, player: PlayerId) -> int:
        """The player's table (1-based)."""
        return self._place(player)[0]

    def seat_of(self, player: PlayerId) -> int:
        """The player's seat at their table (1-based)."""
        return self._place(player)[1]

    def _place(self, player: PlayerId) -> tuple[int, int]:
        for number, table in enumerate(self.tables, start=1):
            if player in table:
                return number, table.index(player) + 1
        raise NotFoundError("player {player} has no draft seat", code="no_draft_seat",
                            player=player)

    @classmethod
    def from_mapping(cls, places: Mapping[PlayerId, tuple[int, int]]) -> Seating:
        """The seating of ``mapping`` (tables 1..T, seats 1..n at each, none missing)."""
        count = max((table for table, _ in places.values()), default=0)
        rows: list[dict[int, PlayerId]] = [{} for _ in range(count)]
        for player, (table, seat) in places.items():
            if table < 1 or seat in rows[table - 1]:
                raise InvariantError(f"draft seat {table}/{seat} is taken twice or wrong")
            rows[table - 1][seat] = player
        for row in rows:
            if sorted(row) != list(range(1, len(row) + 1)):
                raise InvariantError("a draft table's seats are not 1..n")
        return cls(tuple(tuple(row[seat] for seat in sorted(row)) for row in rows))


def _table_count(players: int, profile: DraftProfile, tables: int | None) -> int:
    allowed = table_counts(players, profile)
    if tables is None:
        return allowed[0]
    if tables not in allowed:
        raise UserError("{count} players cannot sit at {tables} draft tables; allowed: {allowed}",
                        code="bad_table_count", count=players, tables=tables,
                        allowed=", ".join(str(value) for value in allowed))
    return tables


def _check_players(players: Sequence[PlayerId]) -> None:
    if len(set(players)) != len(players):
        raise InvariantError("a player is listed twice for the draft seating")


def seat_by_lot(players: Sequence[PlayerId], profile: DraftProfile, rng: random.Random, *,
                tables: int | None = None) -> Seating:
    """Tables and seats by lot (D-2): the players shuffled with ``rng`` fill table 1, then 2,
    ...; sizes differ by at most 1, the first tables bigger; ``tables`` defaults to the
    smallest allowed count."""
    _check_players(players)
    count = _table_count(len(players), profile, tables)
    shuffled = list(players)
    rng.shuffle(shuffled)
    return Seating(_split(shuffled, count))


def seat_by_standings(order: Sequence[PlayerId], profile: DraftProfile, rng: random.Random, *,
                      tables: int | None = None) -> Seating:
    """Tables by standings for a later stage (D-3): ``order`` (best first) split into
    consecutive parts, the top part at table 1, the upper parts one player bigger when the
    players do not divide evenly; seats within each table by lot."""
    _check_players(order)
    count = _table_count(len(order), profile, tables)
    parts = []
    for part in _split(list(order), count):
        seats = list(part)
        rng.shuffle(seats)
        parts.append(tuple(seats))
    return Seating(tuple(parts))


def _split(players: list[PlayerId], tables: int) -> tuple[tuple[PlayerId, ...], ...]:
    parts = []
    start = 0
    for size in table_sizes(len(players), tables):
        parts.append(tuple(players[start:start + size]))
        start += size
    return tuple(parts)


def draft_swiss_rounds(sizes: Sequence[int]) -> int:
    """The Swiss rounds of a draft (D-5): 4 when more than half of the tables have 8 or more
    players, otherwise 3 (so 3 when every table has fewer than 8)."""
    if not sizes:
        raise InvariantError("a draft has at least one table")
    big = sum(1 for size in sizes if size >= 8)
    return 4 if 2 * big > len(sizes) else 3

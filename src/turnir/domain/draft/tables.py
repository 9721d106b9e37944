"""Draft tables inside one tournament: pairing, standings, rounds, top and places (T-8, D-5,
P-4..P-6).

Terms (Russian in brackets):

- *draft table* (стол драфта): the players who drafted together (D-2, D-3), numbered 1..T;
  ``Tournament.tables`` maps each seated player to theirs. Not the *physical table* (стол) a
  match is played at, the ``Pairing.table`` number of a round.
- *table standings* (таблица стола): the standings of one draft table, every tiebreak computed
  among its players only (T-8).
- *merged standings* (общая таблица): every player of the event in one order, for the final
  places and the ratings (P-6).

The rules and the project's decisions (**Decided**):

- Swiss pairing inside each draft table (T-8): each table is paired separately by P-2/P-3 with
  its own lot string ``"<round lot>/table/<n>"``; an odd table gives its own bye (S-5).
  Physical table numbers continue across the draft tables: draft table 1's matches get 1..k,
  table 2's k+1.., and so on; byes have no table (0). A table with a single player to pair
  gives that player the bye.
- A player with no draft table (a late entry after the seating, P-7) joins the smallest table:
  the one with the fewest players, then the lowest number, late players taken in the order of
  their numbers. ``effective_tables`` is this rule; the stored seating is not changed.
- Table standings count the matches between players of that table and their byes; a match
  with a player of another table (an earlier stage of the event, D-3) does not count there.
- Swiss rounds (P-4, D-5): with draft tables and no round count set, ``draft_swiss_rounds`` of
  the sizes of the seated tables (players who took part; late entries do not change it).
- The top (P-5): the same number from every table, ``top_size / T``, at least two, so the top
  has at least ``2T`` players (``check_draft_top``). Seeds go rank-major: the best of every
  table, then every table's second, and so on; within each rank the tables keep one fixed
  order (by their best qualifier in the merged standings). Seeds ``i`` and ``N + 1 - i`` are
  then at tables in positions ``j`` and ``T - 1 - j`` of that order, never the same table,
  because ``T`` is even: the best of one table meets the lowest qualifier of another. Below
  rank 1 the tables are placed so that every section of the bracket that plays down to one
  player holds one qualifier of each table (``_spread_seeds``): with two a table, a table's
  two qualifiers are in opposite halves and meet at the earliest in the final.
- Final places across tables (P-6): the top by elimination, then everyone else by the merged
  standings: points, then the place at one's own table, then the tiebreaks T-1..T-4 as
  computed at one's own table, then the lot (T-7). Between two players of one table the merged
  order is always their table order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from turnir.domain.model import Pairing, PairingKind, PlayerId, Round, Stage
from turnir.domain.pairing import elimination
from turnir.domain.standings import StandingRow, Standings, TieBreak, compute_standings
from turnir.errors import UserError

if TYPE_CHECKING:
    from turnir.domain.tournament import Tournament


def table_numbers(tables: Mapping[PlayerId, int]) -> list[int]:
    """The draft table numbers in use, in order."""
    return sorted(set(tables.values()))


def effective_tables(t: Tournament) -> dict[PlayerId, int]:
    """Every player's draft table, a late player without one at the smallest table (module
    docstring); empty when the tournament has no draft tables."""
    if not t.tables:
        return {}
    known = {p.id for p in t.players}
    placed = {pid: table for pid, table in t.tables.items() if pid in known}
    sizes = {number: 0 for number in table_numbers(t.tables)}
    for table in placed.values():
        sizes[table] += 1
    for player in sorted(p.id for p in t.players if p.id not in placed):
        smallest = min(sizes, key=lambda number: (sizes[number], number))
        placed[player] = smallest
        sizes[smallest] += 1
    return placed


def members(t: Tournament) -> dict[int, list[PlayerId]]:
    """The players of each draft table who took part (no-shows left out), by number."""
    by_table: dict[int, list[PlayerId]] = {n: [] for n in table_numbers(t.tables)}
    tables = effective_tables(t)
    for p in t.players:
        if t.took_part(p):
            by_table[tables[p.id]].append(p.id)
    return by_table


def planned_rounds(t: Tournament) -> int:
    """Swiss rounds of a draft event by D-5 over the seated tables' sizes."""
    from turnir.domain.draft.seating import draft_swiss_rounds

    took_part = {p.id for p in t.players if t.took_part(p)}
    sizes = {number: 0 for number in table_numbers(t.tables)}
    for pid, table in t.tables.items():
        if pid in took_part:
            sizes[table] += 1
    return draft_swiss_rounds([size for size in sizes.values() if size])


def _table_rounds(rounds: Sequence[Round], players: set[PlayerId]) -> list[Round]:
    """The Swiss rounds cut to the lines of one table (both players at it, or a bye)."""
    return [
        replace(r, pairings=tuple(
            p for p in r.pairings
            if p.a in players and (p.b is None or p.b in players)
        ))
        for r in rounds
        if r.stage is Stage.SWISS
    ]


def table_standings(t: Tournament) -> dict[int, Standings]:
    """The standings of each draft table, every tiebreak within the table (T-8)."""
    lot = t.lot()
    swiss = t.swiss_rounds
    result: dict[int, Standings] = {}
    for number, players in members(t).items():
        result[number] = compute_standings(
            players, _table_rounds(swiss, set(players)), t.settings.points, lot=lot,
            penalties=t.penalties,
        )
    return result


def _merge_key(row: StandingRow) -> tuple[int, ...]:
    return (-row.points, row.place, -row.quality_of_wins, -row.quality_of_losses,
            -row.quality_of_games, -row.second_order_quality, row.lot)


_VALUES: tuple[tuple[TieBreak, Callable[[StandingRow], int]], ...] = (
    (TieBreak.QUALITY_OF_WINS, lambda r: r.quality_of_wins),
    (TieBreak.QUALITY_OF_LOSSES, lambda r: r.quality_of_losses),
    (TieBreak.QUALITY_OF_GAMES, lambda r: r.quality_of_games),
    (TieBreak.SECOND_ORDER_QUALITY, lambda r: r.second_order_quality),
)


def _merge_reason(upper: tuple[int, StandingRow], lower: tuple[int, StandingRow]
                  ) -> TieBreak | None:
    """Why ``upper`` ranks above ``lower`` in the merged order, as far as one criterion says
    it: points; between two players of one table, the table's own reason; at equal places of
    two tables, the first tiebreak that differs, else the lot; ``None`` when the place at one's
    table decided (no criterion of its own)."""
    (table_a, a), (table_b, b) = upper, lower
    if a.points != b.points:
        return TieBreak.POINTS
    if table_a == table_b:
        return a.decided_by
    if a.place != b.place:
        return None
    for key, value in _VALUES:
        if value(a) != value(b):
            return key
    return TieBreak.LOT


def merge_standings(per_table: Mapping[int, Standings]) -> Standings:
    """One order over all draft tables (P-6, module docstring); each row keeps the values
    computed at its own table, with its place in the merged order."""
    rows = sorted(((number, row) for number, s in per_table.items() for row in s.rows),
                  key=lambda item: _merge_key(item[1]))
    merged = []
    for place, item in enumerate(rows, start=1):
        reason = _merge_reason(item, rows[place]) if place < len(rows) else None
        merged.append(replace(item[1], place=place, decided_by=reason))
    return Standings(tuple(merged))


def pair_tables(t: Tournament, number: int, lot: str) -> Round:
    """Round ``number`` paired inside each draft table (T-8, module docstring)."""
    from turnir.domain.pairing.swiss import pair_swiss
    from turnir.domain.tournament import swiss_entrants

    entrants, privileged = swiss_entrants(t, number)
    if len(entrants) < 2:
        raise UserError(
            "round {round} needs at least two active players; active players: {count}",
            code="too_few_players", round=number, count=len(entrants),
        )
    tables = effective_tables(t)
    lines: list[Pairing] = []
    byes: list[Pairing] = []
    for table in table_numbers(t.tables):
        at_table = [e for e in entrants if tables[e.player] == table]
        if len(at_table) == 1:
            byes.append(Pairing(0, at_table[0].player, None, PairingKind.BYE))
            continue
        if not at_table:
            continue
        result = pair_swiss(at_table, random.Random(f"{lot}/table/{table}"))
        lines.extend(Pairing(len(lines) + 1, a, b) for a, b in result.pairs)
        if result.bye is not None:
            byes.append(Pairing(0, result.bye, None, PairingKind.BYE))
    privilege = [Pairing(0, pid, None, PairingKind.PRIVILEGE_BYE) for pid in sorted(privileged)]
    return Round(number, Stage.SWISS, (*lines, *byes, *privilege), lot)


def check_draft_top(top_size: int, *, tables: int) -> None:
    """A draft top takes the same number from every table, at least two (P-5)."""
    if top_size == 0 or tables < 2:
        return
    if top_size % tables or top_size // tables < 2:
        raise UserError(
            "a draft top takes the same number of players from each of the {tables} tables, "
            "at least two (P-5): the top needs {least}, {double}, … players, not {size}",
            code="bad_top_size", tables=tables, least=2 * tables, double=4 * tables,
            size=top_size,
        )


def top_qualifiers(t: Tournament) -> list[PlayerId]:
    """The top's players in seed order (P-5, module docstring)."""
    size = t.settings.top_size
    numbers = table_numbers(t.tables)
    check_draft_top(size, tables=len(numbers))
    each = size // len(numbers)
    nxt = len(t.swiss_rounds) + 1
    per_table = table_standings(t)
    chosen: dict[int, list[PlayerId]] = {}
    for table in numbers:
        still_in = [pid for pid in per_table[table].order() if t.is_active(t.player(pid), nxt)]
        if len(still_in) < each:
            raise UserError(
                "a top of {size} takes {each} players from each draft table; table {table} "
                "has {count} still in the tournament",
                code="too_few_players", size=size, each=each, table=table,
                count=len(still_in),
            )
        chosen[table] = still_in[:each]
    place = {pid: i for i, pid in enumerate(merge_standings(per_table).order())}
    fixed = sorted(numbers, key=lambda table: place[chosen[table][0]])
    plain = [chosen[table][rank] for rank in range(each) for table in fixed]
    if each == 1:
        return plain
    return _spread_seeds(chosen, fixed, place, each) or plain


def _spread_seeds(chosen: Mapping[int, list[PlayerId]], fixed: Sequence[int],
                  place: Mapping[PlayerId, int], each: int) -> list[PlayerId] | None:
    """Rank-major seeds with each table's qualifiers in different sections of the bracket
    (P-5, **Decided**): the bracket of ``N`` splits into ``each`` sections of ``N / each``
    players that meet only among themselves until the last ``each`` remain; every section holds
    one qualifier of every table, so two players of one table meet at the earliest when
    ``each`` players are left (in the final for two a table) and a first-round match is always
    across tables. Rank 1 keeps the tables' fixed order; at each lower rank the tables are tried
    in the order of their qualifier of that rank in the merged standings (the strongest takes
    the lowest free seed that keeps the sections apart). ``None`` if the search gives up (it
    never does for the sizes tried in the tests; the plain rank-major order is then used)."""
    tables = len(fixed)
    size = tables * each
    section_of = {seed: position * each // size
                  for position, seed in enumerate(elimination.bracket_seeds(size))}
    used: dict[int, set[int]] = {table: {section_of[r + 1]} for r, table in enumerate(fixed)}
    def strength_at(rank: int) -> list[int]:
        return sorted(fixed, key=lambda table: place[chosen[table][rank]])

    prefs = [strength_at(rank) for rank in range(each)]
    seeds: list[int] = list(fixed)
    budget = [20_000]

    def place_from(index: int) -> bool:
        if index == size:
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        rank, section = index // tables, section_of[index + 1]
        taken = set(seeds[rank * tables:index])
        for table in prefs[rank]:
            if table in taken or section in used[table]:
                continue
            seeds.append(table)
            used[table].add(section)
            if place_from(index + 1):
                return True
            seeds.pop()
            used[table].discard(section)
        return False

    if not place_from(tables):
        return None
    return [chosen[table][i // tables] for i, table in enumerate(seeds)]


def table_places(t: Tournament, merged: Standings) -> dict[PlayerId, tuple[int, int]]:
    """Each ranked player's draft table and place at it, read off the merged standings (the
    merged order keeps every table's order, so the n-th of a table there is its n-th)."""
    tables = effective_tables(t)
    counted: dict[int, int] = {}
    places: dict[PlayerId, tuple[int, int]] = {}
    for pid in merged.order():
        table = tables.get(pid)
        if table is not None:
            counted[table] = counted.get(table, 0) + 1
            places[pid] = (table, counted[table])
    return places


def seats_of(tables: Mapping[PlayerId, int]) -> dict[PlayerId, tuple[int, int]]:
    """Seats for draft tables known without their seats (a tournament file keeps only the
    tables): at each table the players by number take seats 1, 2, …"""
    seats: dict[PlayerId, tuple[int, int]] = {}
    taken: dict[int, int] = {}
    for pid in sorted(tables):
        taken[tables[pid]] = taken.get(tables[pid], 0) + 1
        seats[pid] = (tables[pid], taken[tables[pid]])
    return seats

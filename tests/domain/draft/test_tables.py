"""Draft tables in the tournament aggregate: T-8 pairing and standings, D-5 rounds, the P-5 top
across tables and P-6 final places (``turnir.domain.draft.tables``)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from turnir.domain.draft import tables as draft_tables
from turnir.domain.model import PairingKind, Player, Settings, Stage
from turnir.domain.pairing import elimination
from turnir.domain.pairing.swiss import pair_swiss
from turnir.domain.results import parse_result
from turnir.domain.tournament import (
    Phase,
    Tournament,
    add_late_player,
    drop_player,
    new_tournament,
    pair_next_round,
    record_result,
    round_lot,
    swiss_entrants,
)
from turnir.errors import UserError


def draft_event(sizes: tuple[int, ...], *, top: int = 0, rounds: int | None = None,
                seed: int = 11) -> Tournament:
    """Players 1..N seated on tables of ``sizes`` in number order."""
    count = sum(sizes)
    roster = [Player(id=i, name=f"Player {i:03d}") for i in range(1, count + 1)]
    t = new_tournament("Draft", roster, settings=Settings(swiss_rounds=rounds, top_size=top),
                       seed=seed)
    seats: dict[int, int] = {}
    pid = 1
    for table, size in enumerate(sizes, start=1):
        for _ in range(size):
            seats[pid] = table
            pid += 1
    return replace(t, tables=seats)


def play(t: Tournament) -> Tournament:
    """Pair the next round and finish it: the lower number wins 2-0, every third match 2-1."""
    t = pair_next_round(t)
    current = t.rounds[-1]
    for p in current.pairings:
        if p.b is not None:
            score = "2-1" if (p.a + p.b) % 3 == 0 else "2-0"
            a_wins = p.a < p.b
            t = record_result(t, current.number, p.table,
                              parse_result(score if a_wins else score[::-1]))
    return t


def test_t8_swiss_pairs_only_inside_each_draft_table() -> None:
    t = draft_event((9, 8, 8, 8))
    for _ in range(4):
        t = play(t)
        current = t.rounds[-1]
        matches = [p for p in current.pairings if p.b is not None]
        assert all(t.tables[p.a] == t.tables[p.b] for p in matches)
        # physical tables continue across draft tables: table 1's matches first
        assert [p.table for p in matches] == list(range(1, 17))
        assert [t.tables[p.a] for p in matches] == sorted(t.tables[p.a] for p in matches)
        byes = [p for p in current.pairings if p.b is None]
        assert [(t.tables[p.a], p.kind) for p in byes] == [(1, PairingKind.BYE)]


def test_t8_each_table_paired_with_its_own_lot_from_the_round_lot() -> None:
    t = play(draft_event((8, 8)))
    paired = pair_next_round(t).rounds[-1]
    entrants, _ = swiss_entrants(t, 2)
    lot = round_lot(t, 2)
    assert paired.lot == lot
    second = [e for e in entrants if t.tables[e.player] == 2]
    expected = pair_swiss(second, random.Random(f"{lot}/table/2")).pairs
    assert [(p.a, p.b) for p in paired.pairings if p.table > 4] == list(expected)


def test_t8_standings_and_tiebreaks_computed_within_each_table() -> None:
    t = draft_event((8, 8))
    for _ in range(3):
        t = play(t)
    per_table = t.table_standings()
    assert sorted(per_table) == [1, 2]
    for table, standings in per_table.items():
        players = [pid for pid, n in t.tables.items() if n == table]
        assert sorted(standings.order()) == players
        # the same as a tournament of that table alone, with the same lot numbers
        alone = replace(t, tables={})
        rows = {r.player: r for r in alone.standings().rows}
        for row in standings.rows:
            assert row.points == rows[row.player].points
        opponents = {pid: t.opponents(pid) for pid in players}
        assert all(set(o) <= set(players) for o in opponents.values())
        points = {r.player: r.points for r in standings.rows}
        for row in standings.rows:
            assert row.quality_of_games == sum(points[o] for o in opponents[row.player])
        assert [r.place for r in standings.rows] == list(range(1, 9))


def test_p6_merged_standings_keep_each_table_order_and_rank_by_points_then_place() -> None:
    t = draft_event((9, 8, 8, 8))
    for _ in range(2):
        t = play(t)
    per_table = t.table_standings()
    merged = t.standings()
    assert len(merged) == 33
    table_place = {r.player: (n, r.place) for n, s in per_table.items() for r in s.rows}
    for table, standings in per_table.items():
        assert [pid for pid in merged.order() if t.tables[pid] == table] == standings.order()
    keys = [(-r.points, table_place[r.player][1]) for r in merged.rows]
    assert keys == sorted(keys)
    row = merged.rows[0]
    own = per_table[t.tables[row.player]].row_of(row.player)
    assert (row.quality_of_wins, row.quality_of_games) == (own.quality_of_wins,
                                                           own.quality_of_games)


def test_d5_rounds_planned_from_the_table_sizes_unless_set() -> None:
    assert draft_event((9, 8, 8, 8)).swiss_rounds_planned == 4
    assert draft_event((7, 7)).swiss_rounds_planned == 3
    assert draft_event((8, 7, 7, 7)).swiss_rounds_planned == 3
    assert draft_event((8,)).swiss_rounds_planned == 4
    assert draft_event((9, 8, 8, 8), rounds=2).swiss_rounds_planned == 2
    # a one-field event keeps ceil(log2 N)
    assert replace(draft_event((8, 8)), tables={}).swiss_rounds_planned == 4


def test_p5_draft_top_takes_at_least_two_from_every_table() -> None:
    draft_tables.check_draft_top(8, tables=4)
    draft_tables.check_draft_top(0, tables=4)
    draft_tables.check_draft_top(2, tables=1)
    with pytest.raises(UserError, match="at least two"):
        draft_tables.check_draft_top(4, tables=4)
    with pytest.raises(UserError, match="at least two"):
        draft_tables.check_draft_top(2, tables=2)


@pytest.mark.parametrize(("tables", "each"), [(2, 2), (2, 4), (4, 2), (4, 4), (8, 2), (8, 4)])
def test_p5_seed_i_and_n_plus_1_minus_i_never_from_one_table(tables: int, each: int) -> None:
    t = draft_event((8,) * tables, top=tables * each, rounds=3, seed=tables * 10 + each)
    for _ in range(3):
        t = play(t)
    seeds = draft_tables.top_qualifiers(t)
    assert len(seeds) == tables * each
    per_table = t.table_standings()
    for table in range(1, tables + 1):
        from_table = [pid for pid in seeds if t.tables[pid] == table]
        assert from_table == per_table[table].order()[:each]
    for a, b in elimination.first_top_round(seeds):
        assert t.tables[a] != t.tables[b]
    n = len(seeds)
    for i in range(n):
        assert t.tables[seeds[i]] != t.tables[seeds[n - 1 - i]]
    # rank-major: the first T seeds are the tables' winners
    assert {t.tables[pid] for pid in seeds[:tables]} == set(range(1, tables + 1))


@pytest.mark.parametrize(("tables", "each"), [(2, 2), (2, 4), (4, 2), (4, 4), (8, 2), (2, 8)])
def test_p5_two_players_of_one_table_meet_only_when_each_are_left(tables: int,
                                                                  each: int) -> None:
    """Two a table: the two qualifiers of a table are in opposite halves (they can meet only
    in the final, never in a semifinal rematch of their Swiss game); in general each section
    of the bracket that plays down to one player holds one qualifier of every table."""
    t = draft_event((8,) * tables, top=tables * each, rounds=3, seed=tables * 7 + each)
    for _ in range(3):
        t = play(t)
    seeds = draft_tables.top_qualifiers(t)
    order = elimination.bracket_seeds(len(seeds))
    section = len(seeds) // each
    for start in range(0, len(seeds), section):
        block = [seeds[seed - 1] for seed in order[start:start + section]]
        assert sorted(t.tables[pid] for pid in block) == list(range(1, tables + 1))
    # the strongest second-placed qualifier still gets the best seed its section allows
    assert {t.tables[pid] for pid in seeds[tables:2 * tables]} == set(range(1, tables + 1))


def test_p5_top_refused_when_a_table_has_too_few_still_in() -> None:
    t = draft_event((4, 4), top=4, rounds=1)
    t = play(t)
    for pid in (1, 2, 3):
        t = drop_player(t, pid)
    with pytest.raises(UserError, match="table 1 has 1"):
        pair_next_round(t)


def test_p6_final_places_top_by_elimination_then_merged_standings() -> None:
    t = draft_event((9, 8, 8, 8), top=8)
    while t.phase is not Phase.FINISHED:
        t = play(t)
    assert len(t.swiss_rounds) == 4
    assert len(t.top_rounds) == 3
    places = t.final_places()
    assert len(places) == 33
    top_players = {pid for p in t.top_rounds[0].pairings for pid in p.players}
    assert set(places[:8]) == top_players
    final = t.top_rounds[-1].pairings[0]
    assert places[0] == final.winner()
    rest = [pid for pid in t.standings().order() if pid not in top_players]
    assert places[8:] == rest
    first = t.top_rounds[0]
    assert first.stage is Stage.TOP
    assert all(t.tables[p.a] != t.tables[p.b] for p in first.pairings)
    counts = {n: sum(1 for pid in top_players if t.tables[pid] == n) for n in range(1, 5)}
    assert counts == {1: 2, 2: 2, 3: 2, 4: 2}


def test_p7_late_entry_joins_the_smallest_draft_table() -> None:
    t = play(draft_event((9, 8, 8)))
    t = add_late_player(t, "Late One")
    t = add_late_player(t, "Late Two")
    placed = draft_tables.effective_tables(t)
    assert placed[26] == 2 and placed[27] == 3
    t = pair_next_round(t)
    late = t.rounds[-1].pairing_of(26)
    assert late is not None and late.b is not None and placed[late.b] == 2
    assert sorted(t.table_standings()[2].order()) == [*range(10, 18), 26]


def test_t8_drops_and_no_shows_leave_their_table() -> None:
    t = draft_event((8, 8))
    t = drop_player(t, 1)  # before round 1: a no-show
    t = play(t)
    assert 1 not in t.table_standings()[1].order()
    byes = [p.a for p in t.rounds[-1].pairings if p.b is None]
    assert len(byes) == 1 and t.tables[byes[0]] == 1

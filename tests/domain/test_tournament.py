"""The tournament aggregate: rounds, byes, drops, late entry, undo, manual edits, the top
(P-1..P-7, S-3, S-5, S-6)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.domain.builders import tournament
from turnir.demo import simulate_results, strengths
from turnir.domain.model import PairingKind, Stage
from turnir.domain.pairing.swiss import pair_swiss_global
from turnir.domain.results import parse_result
from turnir.domain.tournament import (
    Phase,
    Tournament,
    add_late_player,
    drop_player,
    pair_next_round,
    record_result,
    repair_last_round,
    swap_players,
    swiss_entrants,
    undo_last_round,
)
from turnir.errors import ConflictError, NotFoundError, UserError


def play_round(t: Tournament, seed: int = 1) -> Tournament:
    t = pair_next_round(t)
    rng = random.Random(seed)
    return simulate_results(t, rng, strengths(t.players, random.Random(0)))


def play(t: Tournament, rounds: int) -> Tournament:
    for i in range(rounds):
        t = play_round(t, seed=i)
    return t


def test_rule_P4_default_rounds_ceil_log2() -> None:
    assert tournament(8).swiss_rounds_planned == 3
    assert tournament(9).swiss_rounds_planned == 4
    assert tournament(33).swiss_rounds_planned == 6
    assert tournament(8, rounds=5).swiss_rounds_planned == 5


def test_rule_P2_every_active_player_once_per_round() -> None:
    t = play(tournament(15, rounds=4), 4)
    for r in t.rounds:
        seen = Counter(pid for line in r.pairings for pid in line.players)
        assert set(seen) == {p.id for p in t.players}
        assert max(seen.values()) == 1


def test_rule_P2_no_rematch_in_swiss() -> None:
    t = play(tournament(16, rounds=4), 4)
    pairs = [frozenset(line.players) for r in t.rounds for line in r.pairings if line.b]
    assert len(pairs) == len(set(pairs))


def test_rule_S5_bye_once_and_to_lowest() -> None:
    t = play(tournament(9, rounds=4), 4)
    byes = [line.a for r in t.rounds for line in r.pairings if line.kind is PairingKind.BYE]
    assert len(byes) == 4
    assert len(set(byes)) == 4


def test_rule_S5_privilege_byes_do_not_use_up_the_bye() -> None:
    t = tournament(9, rounds=3, byes={1: [1, 2]})
    t = play_round(t)
    first = t.rounds[0]
    assert first.pairing_of(1) is not None
    line = first.pairing_of(1)
    assert line is not None and line.kind is PairingKind.PRIVILEGE_BYE
    # 8 others are paired without an unrequested bye
    assert not [p for p in first.pairings if p.kind is PairingKind.BYE]
    assert t.standings().row_of(1).points == 3


def test_rule_P7_drop_keeps_results_and_is_not_paired() -> None:
    t = play(tournament(8, rounds=3), 1)
    points = t.standings().row_of(3).points
    t = drop_player(t, 3)
    t = pair_next_round(t)
    rnd = t.current_round
    assert rnd is not None and rnd.pairing_of(3) is None
    assert t.standings().row_of(3).points == points
    with pytest.raises(ConflictError):
        drop_player(t, 3)


def test_rule_P7_late_entry_with_and_without_byes() -> None:
    t = play(tournament(8, rounds=4), 2)
    t = add_late_player(t, "Опоздавший Игрок")
    late = t.players[-1]
    assert late.joined_round == 3
    assert t.standings().row_of(late.id).points == 0
    t = add_late_player(t, "С автопобедами", byes_for_missed_rounds=True)
    with_byes = t.players[-1]
    assert t.standings().row_of(with_byes.id).points == 6
    t = pair_next_round(t)
    rnd = t.current_round
    assert rnd is not None
    assert rnd.pairing_of(late.id) is not None and rnd.pairing_of(with_byes.id) is not None
    with pytest.raises(UserError, match="already"):
        add_late_player(t, "опоздавший игрок")


def test_rule_P7_undo_only_without_results() -> None:
    t = pair_next_round(tournament(8, rounds=3))
    undone = undo_last_round(t)
    assert undone.rounds == ()
    assert undone.undone == (1,)
    t = record_result(t, 1, 1, parse_result("2-0"))
    with pytest.raises(ConflictError, match="already has results"):
        undo_last_round(t)


def test_rule_P7_repair_draws_a_new_lot() -> None:
    t = pair_next_round(tournament(16, rounds=3))
    again = repair_last_round(t)
    assert again.rounds[0].lot != t.rounds[0].lot
    assert again.rounds[0].pairings != t.rounds[0].pairings


def test_rule_P3e_pairing_is_reproducible_from_the_seed() -> None:
    a = pair_next_round(tournament(16, seed=5))
    b = pair_next_round(tournament(16, seed=5))
    c = pair_next_round(tournament(16, seed=6))
    assert a.rounds == b.rounds
    assert a.rounds[0].pairings != c.rounds[0].pairings


def test_rule_P7_manual_swap_is_logged_and_refuses_rematch() -> None:
    t = play(tournament(8, rounds=3), 1)
    t = pair_next_round(t)
    rnd = t.current_round
    assert rnd is not None
    first, second = rnd.pairings[0], rnd.pairings[1]
    assert first.b is not None and second.b is not None
    met_before = {frozenset(p.players) for p in t.rounds[0].pairings}
    assert frozenset((first.a, second.a)) not in met_before  # points differ after round 1
    swapped = swap_players(t, rnd.number, first.b, second.a, note="table 1 wheelchair access")
    new_round = swapped.rounds[-1]
    assert new_round.edits == (f"swap #{first.b} and #{second.a}: table 1 wheelchair access",)
    assert new_round.pairings[0].players == (first.a, second.a)
    # forcing a rematch of a round-1 pairing by hand is refused
    old = t.rounds[0].pairings[0]
    assert old.b is not None
    line = rnd.pairing_of(old.a)
    assert line is not None
    partner = line.b if line.a == old.a else line.a
    assert partner is not None
    with pytest.raises(UserError, match="rematch"):
        swap_players(t, rnd.number, partner, old.b)


def test_rule_S6_result_correction_is_explicit() -> None:
    t = pair_next_round(tournament(4, rounds=2))
    t = record_result(t, 1, 1, parse_result("2-1"))
    assert record_result(t, 1, 1, parse_result("2-1")) == t  # repeating is safe
    with pytest.raises(ConflictError, match="correction"):
        record_result(t, 1, 1, parse_result("0-2"))
    corrected = record_result(t, 1, 1, parse_result("0-2"), correction=True)
    line = corrected.round(1).pairing_at(1)
    assert line.result == parse_result("0-2")


def test_results_for_unknown_places_are_refused() -> None:
    t = pair_next_round(tournament(5, rounds=2))
    with pytest.raises(NotFoundError):
        record_result(t, 2, 1, parse_result("2-0"))
    with pytest.raises(NotFoundError):
        record_result(t, 1, 9, parse_result("2-0"))
    with pytest.raises(ConflictError, match="not finished"):
        pair_next_round(t)


def test_rule_P1_swiss_then_top_then_final_places() -> None:
    t = tournament(16, rounds=4, top=4)
    t = play(t, 4)
    assert t.phase is Phase.SWISS
    seeds = t.standings().order()[:4]
    t = pair_next_round(t)
    top = t.current_round
    assert top is not None and top.stage is Stage.TOP
    assert [line.players for line in top.pairings] == [
        (seeds[0], seeds[3]), (seeds[1], seeds[2])
    ]
    with pytest.raises(UserError, match="S-3"):
        record_result(t, top.number, 1, parse_result("1-1"))
    t = simulate_results(t, random.Random(3), strengths(t.players, random.Random(0)))
    t = play_round(t, seed=9)
    assert t.phase is Phase.FINISHED
    places = t.final_places()
    final = t.rounds[-1].pairings[0]
    assert places[0] == final.winner()
    assert set(places[:4]) == set(seeds)
    assert places[4:] == [p for p in t.standings().order() if p not in seeds]
    with pytest.raises(ConflictError, match="finished"):
        pair_next_round(t)


def test_rule_P5_dropped_player_does_not_enter_top() -> None:
    t = play(tournament(8, rounds=3, top=4), 3)
    leader = t.standings().order()[0]
    t = drop_player(t, leader)
    t = pair_next_round(t)
    rnd = t.current_round
    assert rnd is not None and rnd.pairing_of(leader) is None


def test_no_round_with_fewer_than_two_players() -> None:
    t = tournament(3, rounds=2)
    t = drop_player(drop_player(t, 1), 2)
    with pytest.raises(UserError, match="at least two"):
        pair_next_round(t)


def test_late_entry_refused_in_top() -> None:
    t = play(tournament(8, rounds=1, top=2), 1)
    t = pair_next_round(t)
    with pytest.raises(ConflictError):
        add_late_player(t, "Too Late")
    assert t.phase is Phase.TOP


# ----- properties over whole random events ---------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    count=st.integers(4, 14),
    rounds=st.integers(1, 5),
    seed=st.integers(0, 10_000),
    drops=st.lists(st.integers(1, 14), max_size=3),
    late=st.booleans(),
)
def test_rule_P2_P3_S5_properties_over_random_events(
    count: int, rounds: int, seed: int, drops: list[int], late: bool
) -> None:
    """Every active player once a round; rematches only when unavoidable (same count as the
    global optimum); an unrequested bye only to an eligible player when one can take it."""
    t = tournament(count, rounds=rounds, seed=seed)
    rng = random.Random(seed)
    strength = strengths(t.players, random.Random(seed))
    for number in range(1, rounds + 1):
        if number == 2:
            for pid in drops:
                if pid <= count and t.player(pid).dropped_after is None:
                    t = drop_player(t, pid)
            if late:
                t = add_late_player(t, "Late Comer", byes_for_missed_rounds=True)
                strength[t.players[-1].id] = 1.0
        entrants, _ = swiss_entrants(t, number)
        if len(entrants) < 2:
            return
        t = pair_next_round(t)
        rnd = t.rounds[-1]
        seen = Counter(pid for line in rnd.pairings for pid in line.players)
        active = {p.id for p in t.players if t.is_active(p, number)}
        assert set(seen) == active and max(seen.values()) == 1
        optimum = pair_swiss_global(entrants, random.Random(0)).objective
        met = {e.player: e.opponents for e in entrants}
        rematches = sum(1 for line in rnd.pairings if line.b is not None and line.b in met[line.a])
        assert rematches == optimum.rematches
        eligible = {e.player for e in entrants if e.bye_eligible}
        for line in rnd.pairings:
            if line.kind is PairingKind.BYE and optimum.bye_ineligible == 0:
                assert line.a in eligible
        t = simulate_results(t, rng, strength)
    order = t.standings().order()
    assert sorted(order) == sorted(p.id for p in t.players)

"""The pick/pass engine (D-4, D-8): passing directions, deadlines, automatic picks, the review
between booster rounds, refused stale picks, the exact JSON state; and the failures of today's
draft tools as named tests (a disconnect freezing the table, a missed booster, reconnects
auto-picking everyone, picks missing from the log)."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from turnir.domain.draft.boosters import RARITY_ORDER, DraftCard
from turnir.domain.draft.engine import DraftEngine, PickEntry, PickRefused
from turnir.domain.draft.plan import DraftPlan, DraftProfile

T0 = 1_764_600_000.25


def boosters(n: int, sizes: tuple[int, ...]) -> list[list[tuple[DraftCard, ...]]]:
    """Booster ``(r, s)`` holds cards ``b<id>c<i>``; rarities cycle so the automatic pick
    is not always the first card."""
    rounds = []
    for r, size in enumerate(sizes):
        row = []
        for s in range(n):
            booster = r * n + s + 1
            row.append(tuple(DraftCard(f"b{booster}c{i:02d}", f"Карта {i}", "Образец: Начало",
                                       RARITY_ORDER[(i * 3 + booster) % 4])
                             for i in range(1, size + 1)))
        rounds.append(row)
    return rounds


def plan(*sizes: int, **settings: int) -> DraftPlan:
    return DraftPlan(boosters=sizes or (7, 7), profile=DraftProfile.ONLINE, **settings)  # type: ignore[arg-type]


def table(n: int = 4, *sizes: int, now: float = T0, **settings: int) -> DraftEngine:
    the_plan = plan(*sizes, **settings)
    return DraftEngine.start([100 + s for s in range(1, n + 1)],
                             boosters(n, the_plan.boosters), the_plan, now)


def pick_first(engine: DraftEngine, player: int, now: float) -> PickEntry:
    """The player's first card as their page shows it at ``now``."""
    engine.advance(now)
    view = engine.seat_view(player)
    assert view.booster is not None
    return engine.pick(player, booster=view.booster, cards_left=view.cards_left,
                       card=view.cards[0].uid, now=now)


def state(engine: DraftEngine) -> str:
    return json.dumps(engine.to_json(), ensure_ascii=False, sort_keys=True)


def test_rule_D4_round_one_opens_with_a_deadline_by_the_booster_size() -> None:
    engine = table(4, 12, 7)
    view = engine.seat_view(101)
    assert (view.booster, view.cards_left, view.queue, view.booster_round) == (1, 12, 1, 1)
    assert view.deadline == T0 + engine.plan.pick_timer(12)
    assert engine.next_deadline() == T0 + engine.plan.pick_timer(12)
    assert engine.table_view().waiting_on == (101, 102, 103, 104)


def test_rule_D4_odd_boosters_pass_left_even_boosters_right() -> None:
    engine = table(4, 7, 7, review_seconds=0)
    pick_first(engine, 101, T0 + 1)
    assert engine.seat_view(102).queue == 2  # seat 1 passed left, to seat 2
    assert engine.table_view().rows[1].holding == 2
    engine.advance(T0 + 10_000)  # everyone else times out; round 2 opens, then ends
    by_booster: dict[int, list[int]] = {}
    for entry in engine.log:
        by_booster.setdefault(entry.booster, []).append(entry.seat)
    assert by_booster[1] == [1, 2, 3, 4, 1, 2, 3]
    assert by_booster[5] == [1, 4, 3, 2, 1, 4, 3]  # booster 5 is seat 1's in round 2
    assert engine.done


def test_rule_D4_the_next_booster_opens_after_the_review_exactly() -> None:
    engine = table(4, 7, 7, review_seconds=60)
    engine.advance(T0 + 10_000)  # round 1 ends by timeouts long before
    last_of_round_one = max(e.at for e in engine.log if e.booster_round == 1)
    assert all(e.booster_round == 1 or e.at >= last_of_round_one + 60 for e in engine.log)
    opened = min(e.at for e in engine.log if e.booster_round == 2)
    assert opened == last_of_round_one + 60  # everyone is away by then: picked at the opening

    fresh = table(4, 7, 7, review_seconds=60)
    for k in range(6):  # everyone picks at once; the 7th (last) cards go at once: ends T0 + 6
        for player in (101, 102, 103, 104):
            pick_first(fresh, player, T0 + k + 1)
    view = fresh.seat_view(101)
    assert (view.booster, view.review_until, view.booster_round) == (None, T0 + 66, 1)
    fresh.advance(T0 + 65.9)
    assert fresh.seat_view(101).booster is None
    fresh.advance(T0 + 66)
    view = fresh.seat_view(101)
    assert (view.booster, view.booster_round, view.review_until) == (5, 2, None)
    assert view.deadline == T0 + 66 + fresh.plan.pick_timer(7)


def test_rule_D8_a_timeout_picks_the_rarest_card_at_the_deadline() -> None:
    engine = table(4, 7, 7)
    deadline = engine.seat_view(101).deadline
    assert deadline is not None
    assert engine.advance(deadline - 0.001) == []
    made = engine.advance(deadline + 500)
    first = made[0]
    assert (first.seat, first.reason, first.auto, first.at) == (1, "timeout", True, deadline)
    cards = boosters(4, (7, 7))[0][0]
    rarest = min(range(7), key=lambda i: (RARITY_ORDER.index(cards[i].rarity), i))
    assert first.card == cards[rarest]


def test_advance_once_or_many_times_gives_the_same_state() -> None:
    later = T0 + 3_000
    once = table(5, 12, 7, 7, review_seconds=30)
    once.advance(later)
    steps = table(5, 12, 7, 7, review_seconds=30)
    t = T0
    while t < later:
        steps.advance(t)
        t += 7.3
    steps.advance(later)
    steps.advance(later)
    assert state(once) == state(steps)
    assert once.log == steps.log


def others_pick(engine: DraftEngine, players: tuple[int, ...], now: float) -> None:
    engine.advance(now)
    for player in players:
        if engine.seat_view(player).booster is not None:
            pick_first(engine, player, now)


def test_rule_D8_two_timeouts_make_a_player_away_and_picked_for_at_once() -> None:
    engine = table(4, 7, 7)
    now = T0
    while not engine.done:
        now += 1
        others_pick(engine, (102, 103, 104), now)
    reasons = [e.reason for e in engine.log if e.seat == 1]
    # a booster's last card is no choice: taken at once as "last", not as "away" (D-4)
    assert reasons == ["timeout", "timeout"] + ["away"] * 4 + ["last"] + ["away"] * 6 + ["last"]
    assert engine.seat_view(101).away
    away = [e for e in engine.log if e.reason == "away"]
    assert all(e.at == int(e.at - T0) + T0 for e in away)  # at once, at the others' picks


def test_rule_D8_an_away_player_comes_back_with_resume() -> None:
    engine = table(4, 7, 7)
    now = T0
    while [e.reason for e in engine.log if e.seat == 1].count("timeout") < 2:
        now += 1
        others_pick(engine, (102, 103, 104), now)
    assert engine.seat_view(101).away and engine.seat_view(101).queue == 0
    engine.resume(101, now)
    while engine.seat_view(101).booster is None:  # the next booster waits for seat 1
        now += 1
        others_pick(engine, (102, 103, 104), now)
    view = engine.seat_view(101)
    assert not view.away and view.deadline is not None and view.deadline > now
    assert pick_first(engine, 101, now + 1).reason == "pick"


def test_rule_D8_a_dropped_player_is_picked_for_at_once() -> None:
    engine = table(4, 7, 7)
    made = engine.drop(102, T0 + 5)
    assert [(e.seat, e.reason, e.at) for e in made] == [(2, "dropped", T0 + 5)]
    view = engine.seat_view(102)
    assert view.dropped and view.queue == 0 and len(view.pool) == 1
    pick_first(engine, 101, T0 + 6)  # seat 1 passes left to the dropped seat 2
    assert engine.log[-1].seat == 2 and engine.log[-1].reason == "dropped"
    with pytest.raises(PickRefused):
        engine.pick(102, booster=1, cards_left=6, card="b1c02", now=T0 + 7)


def test_a_disconnect_does_not_freeze_the_table() -> None:
    """Seat 2 disconnects for good and never drops: the draft ends by its deadlines alone."""
    engine = table(6, 7, 7, 7, review_seconds=60)
    now = T0
    while not engine.done:
        now += 1
        engine.advance(now)
        for player in (101, 103, 104, 105, 106):
            view = engine.seat_view(player)
            if view.booster is not None:
                pick_first(engine, player, now)
        assert now < T0 + 3 * (60 + 7 * engine.plan.pick_timer(7))
    assert all(len(pool) == 21 for pool in engine.pools.values())
    assert engine.next_deadline() is None


def test_an_expired_timer_never_makes_a_player_miss_a_booster() -> None:
    engine = table(4, 7, 7)
    deadline = engine.seat_view(103).deadline
    assert deadline is not None
    for player in (101, 102, 104):
        pick_first(engine, player, T0 + 1)
    engine.advance(deadline + 0.5)  # seat 3 timed out on its first booster
    view = engine.seat_view(103)
    assert len(view.pool) == 1 and view.booster == 2  # seat 2's booster waits for it
    pick_first(engine, 103, deadline + 1)  # it picks from the booster passed to it
    assert len(engine.seat_view(103).pool) == 2
    engine.advance(T0 + 10_000)
    assert engine.done
    assert Counter(e.seat for e in engine.log) == {1: 14, 2: 14, 3: 14, 4: 14}


def test_many_reconnects_in_one_second_change_nothing() -> None:
    engine = table(4, 7, 7)
    pick_first(engine, 101, T0 + 1)
    before = state(engine)
    for k in range(200):  # every reconnect is a read (and the page's advance) within 1 s
        engine.advance(T0 + 1 + k / 200)
        engine.seat_view(100 + k % 4 + 1)
        engine.table_view()
        engine = DraftEngine.from_json(json.loads(state(engine)))
    assert state(engine) == before
    assert len(engine.log) == 1 and not any(e.auto for e in engine.log)


def test_picks_are_never_missing_from_the_log_after_a_disconnect() -> None:
    engine = table(4, 7, 7)
    pick_first(engine, 101, T0 + 1)
    stored = state(engine)  # the server stores the state; the player's connection drops
    engine = DraftEngine.from_json(json.loads(stored))
    pick_first(engine, 102, T0 + 2)
    engine.drop(103, T0 + 3)
    engine = DraftEngine.from_json(json.loads(state(engine)))
    engine.advance(T0 + 10_000)
    logged = Counter(e.card.uid for e in engine.log)
    pooled = Counter(card.uid for pool in engine.pools.values() for card in pool)
    assert logged == pooled and set(logged.values()) == {1} and len(logged) == 56
    assert [e.number for e in engine.log] == list(range(1, 57))


def test_a_repeated_late_or_stale_pick_is_refused_and_changes_nothing() -> None:
    engine = table(4, 7, 7)
    entry = pick_first(engine, 101, T0 + 1)
    pick_first(engine, 102, T0 + 1.5)  # seat 2 now holds booster 1 (6 cards)
    deadline = engine.seat_view(102).deadline
    assert deadline == T0 + 1.5 + engine.plan.pick_timer(6)
    cases = [
        (101, 1, 7, entry.card.uid),  # repeated
        (102, 1, 7, "b1c02"),  # made on an old view: the booster has 6 cards now
        (102, 1, 6, entry.card.uid),  # a card no longer in it
        (103, 2, 6, "b2c03"),  # seat 3 holds booster 2 behind its own booster 3
        (999, 1, 6, "b1c02"),  # not at the table
    ]
    for player, booster, left, card in cases:
        before = state(engine)
        with pytest.raises(PickRefused) as refused:
            engine.pick(player, booster=booster, cards_left=left, card=card, now=T0 + 2)
        assert refused.value.code == "stale_pick"
        assert state(engine) == before
    card = engine.seat_view(102).cards[0].uid
    engine.advance(deadline)  # seat 2's time ran out: its pick arrives late
    before = state(engine)
    with pytest.raises(PickRefused):
        engine.pick(102, booster=1, cards_left=6, card=card, now=deadline + 0.1)
    assert state(engine) == before


def test_no_pick_after_the_draft_is_done() -> None:
    engine = table(4, 7)
    engine.advance(T0 + 10_000)
    assert engine.done and engine.next_deadline() is None
    with pytest.raises(PickRefused, match="over"):
        engine.pick(101, booster=1, cards_left=1, card="b1c01", now=T0 + 10_001)
    assert engine.drop(101, T0 + 10_002) == []


def test_the_json_state_round_trips_exactly() -> None:
    engine = table(5, 12, 7)
    pick_first(engine, 101, T0 + 0.1)
    engine.drop(104, T0 + 0.2)
    twin = DraftEngine.from_json(json.loads(state(engine)))
    assert state(twin) == state(engine)
    for later in (T0 + 1, T0 + 99.5, T0 + 150, T0 + 500):
        twin.advance(later)
        engine.advance(later)
        assert twin.table_view() == engine.table_view()
        holding = [row.player for row in engine.table_view().rows if row.holding]
        for player in holding:
            assert twin.seat_view(player) == engine.seat_view(player)
            assert pick_first(twin, player, later) == pick_first(engine, player, later)
        twin = DraftEngine.from_json(json.loads(state(twin)))
    twin.advance(T0 + 5_000)
    engine.advance(T0 + 5_000)
    assert twin.log == engine.log and twin.pools == engine.pools


def test_start_refuses_boosters_that_do_not_fit_the_plan() -> None:
    the_plan = plan(7, 7)
    players = [1, 2, 3, 4]
    with pytest.raises(ValueError):
        DraftEngine.start(players, boosters(4, (7,)), the_plan, T0)
    with pytest.raises(ValueError):
        DraftEngine.start(players, boosters(4, (7, 12))[:1] * 2, plan(7, 7), T0)
    with pytest.raises(ValueError):
        DraftEngine.start(players, boosters(4, (12, 7)), the_plan, T0)
    with pytest.raises(ValueError):
        DraftEngine.start([1, 1, 2, 3], boosters(4, (7, 7)), the_plan, T0)


def test_rule_D4_the_last_card_is_passed_and_taken_at_once() -> None:
    """No one waits a timer for a booster's last card: it goes to the next seat's pool when
    the sixth pick passes it, at that very time, and a pick of it is refused."""
    engine = table(4, 7, 7, review_seconds=60)
    twin = DraftEngine.from_json(json.loads(state(engine)))
    for k in range(6):
        for player in (101, 102, 103, 104):
            pick_first(engine, player, T0 + k + 1)
            pick_first(twin, player, T0 + k + 1)
        twin = DraftEngine.from_json(json.loads(state(twin)))  # stored after every pass
    last = sorted((e for e in engine.log if e.pick == 7), key=lambda e: e.booster)
    assert [(e.booster, e.pick, e.seat, e.reason, e.auto, e.at) for e in last] == [
        (booster, 7, (booster + 1) % 4 + 1, "last", True, T0 + 6) for booster in (1, 2, 3, 4)]
    assert all(len(view.pool) == 7 and view.booster is None and view.queue == 0
               for view in map(engine.seat_view, (101, 102, 103, 104)))
    assert engine.table_view().waiting_on == () and engine.review_until == T0 + 66
    assert state(twin) == state(engine)  # the JSON round trip keeps it exactly
    before = state(engine)
    taken = last[0].card.uid  # booster 1's last card, taken for seat 3
    with pytest.raises(PickRefused) as refused:
        engine.pick(103, booster=1, cards_left=1, card=taken, now=T0 + 6.5)
    assert refused.value.code == "stale_pick" and state(engine) == before


def test_rule_D4_a_last_card_behind_a_slow_players_queue_goes_when_it_reaches_the_front() -> None:
    engine = table(3, 7, away_after=20)
    now = T0
    while not engine.done:  # seat 3 never picks: its boosters pile up
        now += 1
        others_pick(engine, (101, 102), now)
    seat_three = [(e.booster, e.pick, e.reason) for e in engine.log if e.seat == 3]
    assert seat_three[-2:] == [(1, 6, "timeout"), (3, 7, "last")]
    timed_out, last = [e for e in engine.log if e.seat == 3][-2:]
    assert last.at == timed_out.at  # behind booster 1, taken as soon as it is the front
    assert engine.log[-1] == last


# ----- the property: any timing, timeouts, drops, reconnects and stored states -------------

ACTIONS = st.lists(st.tuples(
    st.sampled_from(["pick", "pick", "pick", "stale", "wait", "drop", "read", "store",
                     "resume"]),
    st.integers(min_value=0, max_value=15),  # the seat it concerns
    st.integers(min_value=0, max_value=11),  # the card it takes
    st.sampled_from([0.0, 0.0, 0.5, 3.0, 20.0, 80.0, 200.0]),  # seconds before it
), max_size=120)


Made = list[tuple[int, int, int, str]]
"""The accepted picks: player, booster, cards left, card."""


def act(engine: DraftEngine, action: tuple[str, int, int, float], now: float,
        made: Made) -> DraftEngine:
    kind, seat, choice, _ = action
    player = engine.players[seat % len(engine.players)]
    if kind == "wait":
        engine.advance(now)
    elif kind == "drop":
        engine.drop(player, now)
    elif kind == "resume":
        engine.resume(player, now)
    elif kind == "read":  # a reconnect: reads only
        before = state(engine)
        engine.seat_view(player)
        engine.table_view()
        assert state(engine) == before
    elif kind == "store":
        engine = DraftEngine.from_json(json.loads(state(engine)))
    elif kind == "stale" and made:  # a pick sent again (a double tap, a retry, a reload)
        engine.advance(now)
        before = state(engine)
        again, booster, left, card = made[choice % len(made)]
        with pytest.raises(PickRefused):
            engine.pick(again, booster=booster, cards_left=left, card=card, now=now)
        assert state(engine) == before
    elif kind == "pick":
        engine.advance(now)
        view = engine.seat_view(player)
        if view.booster is not None:
            card = view.cards[choice % view.cards_left].uid
            entry = engine.pick(player, booster=view.booster, cards_left=view.cards_left,
                                card=card, now=now)
            assert (entry.player, entry.card.uid, entry.reason) == (player, card, "pick")
            made.append((player, view.booster, view.cards_left, card))
    return engine


@given(n=st.integers(min_value=2, max_value=9),
       sizes=st.sampled_from([(7,), (12,), (7, 7), (12, 7), (12, 12, 7), (7, 7, 7, 7)]),
       review=st.sampled_from([0, 60]), away_after=st.sampled_from([1, 2, 3]),
       actions=ACTIONS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_property_any_timing_ends_in_whole_pools_and_a_whole_log(
        n: int, sizes: tuple[int, ...], review: int, away_after: int,
        actions: list[tuple[str, int, int, float]]) -> None:
    engine = table(n, *sizes, review_seconds=review, away_after=away_after)
    twin = table(n, *sizes, review_seconds=review, away_after=away_after)
    now = T0
    made: Made = []
    twin_made: Made = []
    for action in actions:
        now += action[3]
        engine = act(engine, action, now, made)
        # the twin is never stored (the state round-trips exactly) and is advanced more often
        # (when advance is called does not matter)
        twin.advance(now - action[3] / 2)
        if action[0] != "store":
            twin = act(twin, action, now, twin_made)
    engine.advance(now + 100_000)
    twin.advance(now + 100_000)
    assert engine.done
    assert state(engine) == state(twin)
    check_finished(engine, made)


def check_finished(engine: DraftEngine, made: Made) -> None:
    n, the_plan = len(engine.players), engine.plan
    every = {card.uid for row in boosters(n, the_plan.boosters) for b in row for card in b}
    pooled = [card.uid for pool in engine.pools.values() for card in pool]
    assert sorted(pooled) == sorted(every)  # every card in exactly one pool
    assert all(len(pool) == the_plan.cards for pool in engine.pools.values())
    log = engine.log
    assert [e.number for e in log] == list(range(1, len(log) + 1))
    assert sorted(e.card.uid for e in log) == sorted(every)  # every pick once in the log
    assert [e.at for e in log] == sorted(e.at for e in log)
    assert [(e.player, e.card.uid) for e in log if e.reason == "pick"] == [
        (player, card) for player, _, _, card in made]  # each accepted pick once
    for player, pool in engine.pools.items():
        assert [e.card for e in log if e.player == player] == list(pool)
    for booster in range(1, n * the_plan.count + 1):
        entries = [e for e in log if e.booster == booster]
        booster_round = (booster - 1) // n + 1
        opener = (booster - 1) % n + 1
        step = the_plan.direction(booster_round).step
        assert [e.seat for e in entries] == [(opener - 1 + step * k) % n + 1
                                             for k in range(len(entries))]  # D-4
        assert [e.pick for e in entries] == list(range(1, the_plan.boosters[
            booster_round - 1] + 1))
        assert {e.booster_round for e in entries} == {booster_round}
        *_, before, last = entries  # D-4: the last card is taken when it reaches the front
        seat_before = max((e.at for e in log if e.seat == last.seat and e.number < last.number),
                          default=before.at)
        assert (last.reason, last.auto, last.at) == ("last", True, max(before.at, seat_before))
    assert all(e.pick == the_plan.boosters[e.booster_round - 1] for e in log
               if e.reason == "last")


def test_log_since_gives_the_new_picks_of_a_stored_table() -> None:
    engine = table(4, 7, 7)
    pick_first(engine, 101, T0 + 1)
    stored = DraftEngine.from_json(json.loads(state(engine)))
    before = stored.log_size
    pick_first(stored, 102, T0 + 2)
    stored.drop(103, T0 + 3)
    assert stored.log_since(before) == stored.log[before:]
    # seat 3 held its own booster and seat 2's: both are picked for it at once
    assert [e.reason for e in stored.log_since(before)] == ["pick", "dropped", "dropped"]
    assert stored.log_since(0) == stored.log and stored.log_size == 4

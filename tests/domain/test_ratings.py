"""Rules R-1..R-7, J-4, C-2: professional and Warlock ratings, replays, the prize fund.

The tables are the hand-worked examples of ``docs/ratings.md``; the properties check the
integer formulas against the textbook formulas in ``Fraction`` and the invariants of R-2/R-3.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from turnir.domain.ratings import (
    Bound,
    Participant,
    PlayerKey,
    PlayerRating,
    RatedFormat,
    RatedTournament,
    RatingBook,
    RatingSettings,
    WarlockFirstTournament,
    apply_tournament,
    award_prizes,
    hundredths,
    preview,
    replay,
    replay_changes,
    replay_from,
    round_half_up,
    split_prize_fund,
    warlock_coefficient,
)
from turnir.errors import ConflictError, InvariantError, UserError

# --- one-line builders ---------------------------------------------------------------------


def tournament(players: Sequence[PlayerKey], *, k: Fraction | int = 1, tid: int | str = 1,
               end: int = 1, fmt: RatedFormat = RatedFormat.CONSTRUCTED,
               dq: Sequence[PlayerKey] = ()) -> RatedTournament:
    """Players listed in place order: ``tournament(["a", "b", "c", "d"])``."""
    return RatedTournament(tid, end, fmt, Fraction(k), tuple(
        Participant(p, place, disqualified_without_prizes=p in dq)
        for place, p in enumerate(players, start=1)))


def book(professional: Sequence[str], warlock: Sequence[str | None] | None = None,
         *, prefix: str = "P") -> RatingBook:
    """Players ``P1``, ``P2``, … with the given ratings."""
    war = warlock if warlock is not None else [None] * len(professional)
    return RatingBook.from_entries(
        PlayerRating(f"{prefix}{i}", Decimal(p), None if w is None else Decimal(w))
        for i, (p, w) in enumerate(zip(professional, war, strict=True), start=1))


def names(count: int) -> list[str]:
    return [f"P{i}" for i in range(1, count + 1)]


def d(value: str) -> Decimal:
    return Decimal(value)


# --- docs/ratings.md, example 1: eight players, K = 1.4, a 4-booster draft -----------------

EIGHT = ["152.40", "118.75", "203.10", "100.00", "137.25", "171.60", "126.90", "101.20"]
EIGHT_WARLOCK = ["250.00", None, "412.50", "100.00", "180.00", None, "305.25", "150.00"]
EIGHT_FORMULA = ["8.19", "7.209", "-0.852", "3.334", "-0.901", "-4.962", "-4.28", "-4.738"]
EIGHT_EXACT = ["163.866", "128.8426", "201.9072", "104.6676", "135.9886", "164.6532",
               "120.908", "94.5668"]
EIGHT_AFTER = ["163.87", "128.84", "201.91", "104.67", "135.99", "164.65", "120.91", "100.00"]
EIGHT_WARLOCK_GAIN = ["11.5038", "14.37975", "2.324", "7.189875", "3.1955", "4.79325",
                      "1.345945945945946", "2.396625"]
EIGHT_WARLOCK_AFTER = ["261.50", "100.00", "414.82", "107.19", "183.20", "100.00", "306.60",
                       "152.40"]


def eight(*, dq: Sequence[str] = (), settings: RatingSettings | None = None) -> list[
        tuple[Decimal, Decimal, Decimal]]:
    report = preview(book(EIGHT, EIGHT_WARLOCK),
                     tournament(names(8), k=Fraction(7, 5), fmt=RatedFormat.DRAFT_4_BOOSTERS,
                                dq=dq),
                     settings=settings or RatingSettings())
    assert report.professional_rt == Fraction("138.9")
    assert report.warlock_rt == Fraction("199.71875")
    assert report.warlock_k == Fraction("1.8")
    return [(c.professional.after, c.warlock.after, c.professional.change)
            for c in report.changes]


def test_rule_R1_eight_player_example() -> None:
    report = preview(book(EIGHT, EIGHT_WARLOCK),
                     tournament(names(8), k=Fraction(7, 5), fmt=RatedFormat.DRAFT_4_BOOSTERS))
    assert report.participants == 8
    assert report.professional_rt == Fraction("138.90")
    for change, formula, exact, after in zip(report.changes, EIGHT_FORMULA, EIGHT_EXACT,
                                             EIGHT_AFTER, strict=True):
        assert change.professional.formula == Fraction(formula)
        assert change.professional.bound is Bound.NONE
        assert change.professional.exact == Fraction(exact)
        assert change.professional.after == d(after)
        assert change.professional.k == Fraction("1.4")
        assert change.professional_rt == Fraction("138.9")
    assert [c.professional.floor_applied for c in report.changes] == [False] * 7 + [True]
    assert [c.professional.change for c in report.changes] == [
        d("11.47"), d("10.09"), d("-1.19"), d("4.67"), d("-1.26"), d("-6.95"), d("-5.99"),
        d("-1.20")]


def test_rule_R1_newcomer_has_100_and_counts_100_in_rt() -> None:
    empty = RatingBook()
    assert empty.professional("nobody") == d("100.00")
    assert empty.warlock("nobody") is None
    report = preview(book(["200", "100"], prefix="X"),
                     tournament(["X1", "new1", "new2", "X2"]))
    assert report.professional_rt == Fraction(500, 4)
    assert report.changes[1].professional.before == d("100.00")


def test_rule_R1_formula_values_sum_to_three_eighths_of_u() -> None:
    # sum of (U + 1 - 2M) is 0 and the Rt - Rs terms cancel: only U/4 + U/8 remain
    report = preview(book(EIGHT), tournament(names(8)))
    assert sum(c.professional.formula for c in report.changes) == Fraction(3 * 8, 8)


# --- example 2: the bounds at each end -----------------------------------------------------

BOUNDS = ["300", "250", "110", "130"]


@pytest.mark.parametrize(
    ("k", "after", "changes"),
    [
        (Fraction(1), ["303.00", "250.00", "110.00", "127.00"], ["3.00", "0.00", "0.00", "-3.00"]),
        (Fraction(7, 5), ["304.20", "250.00", "110.00", "125.80"],
         ["4.20", "0.00", "0.00", "-4.20"]),
    ],
)
def test_rule_R2_bounds_at_each_end_before_k(k: Fraction, after: list[str],
                                            changes: list[str]) -> None:
    report = preview(book(BOUNDS), tournament(names(4), k=k))
    assert report.professional_rt == Fraction("197.5")
    assert [c.professional.formula for c in report.changes] == [
        Fraction("-0.1"), Fraction("-0.6"), Fraction("2.5"), Fraction("-0.3")]
    assert [c.professional.bound for c in report.changes] == [
        Bound.WINNER_AT_LEAST_3, Bound.SECOND_AT_LEAST_0, Bound.SECOND_TO_LAST_AT_MOST_0,
        Bound.LAST_AT_MOST_MINUS_3]
    assert [c.professional.bounded for c in report.changes] == [3, 0, 0, -3]
    assert [c.professional.after for c in report.changes] == [d(a) for a in after]
    assert [c.professional.change for c in report.changes] == [d(c) for c in changes]


def test_rule_R2_winner_gains_at_least_3() -> None:
    change = preview(book(BOUNDS), tournament(names(4))).changes[0].professional
    assert change.formula < 3 and change.bounded == 3 and change.change == d("3.00")


def test_rule_R2_second_never_loses() -> None:
    change = preview(book(BOUNDS), tournament(names(4))).changes[1].professional
    assert change.formula < 0 and change.change == 0


def test_rule_R2_second_to_last_never_gains() -> None:
    change = preview(book(BOUNDS), tournament(names(4))).changes[2].professional
    assert change.formula > 0 and change.change == 0


def test_rule_R2_last_loses_at_least_3() -> None:
    change = preview(book(BOUNDS), tournament(names(4))).changes[3].professional
    assert change.formula > -3 and change.change == d("-3.00")


def test_rule_R2_bound_not_reported_when_formula_already_within() -> None:
    report = preview(book(EIGHT), tournament(names(8)))
    assert {c.professional.bound for c in report.changes} == {Bound.NONE}


# --- example 3: the floor --------------------------------------------------------------------


def test_rule_R3_floor_of_100_even_for_the_last() -> None:
    # the original: the last loses at least 3 "except where the floor (item 5) applies"
    report = preview(book(["300", "250", "110", "101"]), tournament(names(4), k=Fraction(7, 5)))
    last = report.changes[3].professional
    assert last.bound is Bound.LAST_AT_MOST_MINUS_3
    assert last.exact == Fraction("96.8")
    assert last.after == d("100.00") and last.floor_applied
    assert last.change == d("-1.00")


def test_rule_R3_floor_in_the_eight_player_example() -> None:
    assert eight()[7][0] == d("100.00")


# --- example 4: the reset ----------------------------------------------------------------------


def test_rule_R4_disqualification_without_prizes_resets_to_100() -> None:
    plain, reset = eight(), eight(dq=["P5"])
    assert reset[4][0] == d("100.00") and reset[4][2] == d("-37.25")
    # Rt uses the ratings before, so nobody else's change moves
    assert [row for i, row in enumerate(reset) if i != 4] == [
        row for i, row in enumerate(plain) if i != 4]
    # the Warlock rating is not reset by default (a setting, J-4)
    assert reset[4][1] == d("183.20")


def test_rule_J4_reset_even_for_the_winner_and_optionally_warlock() -> None:
    settings = RatingSettings(reset_warlock_on_disqualification=True)
    report = preview(book(EIGHT, EIGHT_WARLOCK),
                     tournament(names(8), dq=["P1"], fmt=RatedFormat.DRAFT_4_BOOSTERS),
                     settings=settings)
    winner = report.changes[0]
    assert winner.professional.after == d("100.00") and winner.professional.reset_applied
    assert winner.warlock.after == d("100.00") and winner.warlock.reset_applied
    assert not winner.professional.floor_applied


# --- example 5: the Warlock rating -----------------------------------------------------------


def test_rule_R5_warlock_gain_and_first_tournament_gives_100() -> None:
    report = preview(book(EIGHT, EIGHT_WARLOCK),
                     tournament(names(8), k=Fraction(7, 5), fmt=RatedFormat.DRAFT_4_BOOSTERS))
    for change, gain, after in zip(report.changes, EIGHT_WARLOCK_GAIN, EIGHT_WARLOCK_AFTER,
                                   strict=True):
        assert abs(change.warlock.gain - Fraction(gain)) < Fraction(1, 10**12)
        assert change.warlock.after == d(after)
        assert change.warlock.k == Fraction("1.8")
    assert report.changes[6].warlock.gain == Fraction(249, 185)
    newcomer = report.changes[1].warlock
    assert newcomer.first_tournament and newcomer.before is None
    assert newcomer.rs == d("100.00") and newcomer.change == d("100.00")


def test_rule_R5_first_tournament_start_at_100_setting() -> None:
    settings = RatingSettings(warlock_first_tournament=WarlockFirstTournament.START_AT_100)
    rows = eight(settings=settings)
    assert rows[1][1] == d("114.38") and rows[5][1] == d("104.79")
    assert [r[1] for i, r in enumerate(rows) if i not in (1, 5)] == [
        d(a) for i, a in enumerate(EIGHT_WARLOCK_AFTER) if i not in (1, 5)]


@pytest.mark.parametrize(
    ("fmt", "size", "k"),
    [
        (RatedFormat.CONSTRUCTED, 40, "1"),
        (RatedFormat.DRAFT_1_BOOSTER, 8, "1.4"),
        (RatedFormat.DRAFT_2_BOOSTERS, 40, "1.4"),
        (RatedFormat.DRAFT_3_BOOSTERS, 8, "1.8"),
        (RatedFormat.DRAFT_3_BOOSTERS, 40, "1.8"),
        (RatedFormat.DRAFT_4_BOOSTERS, 8, "1.8"),
        (RatedFormat.DRAFT_4_BOOSTERS, 31, "1.8"),
        (RatedFormat.DRAFT_4_BOOSTERS, 32, "2"),
        (RatedFormat.DRAFT_4_BOOSTERS, 64, "2"),
    ],
)
def test_rule_R5_warlock_coefficient_by_format(fmt: RatedFormat, size: int, k: str) -> None:
    assert warlock_coefficient(fmt, size, RatingSettings()) == Fraction(k)


def test_rule_R6_many_participants_and_three_boosters_are_settings() -> None:
    settings = RatingSettings(many_participants=16, three_booster_k=Fraction(8, 5))
    assert warlock_coefficient(RatedFormat.DRAFT_4_BOOSTERS, 16, settings) == 2
    assert warlock_coefficient(RatedFormat.DRAFT_4_BOOSTERS, 15, settings) == Fraction(9, 5)
    assert warlock_coefficient(RatedFormat.DRAFT_3_BOOSTERS, 40, settings) == Fraction(8, 5)
    with pytest.raises(UserError, match="R-6"):
        RatingSettings(many_participants=3)
    with pytest.raises(InvariantError):
        RatingSettings(three_booster_k=1.8)  # type: ignore[arg-type]


# --- unrated tournaments and bad input (C-2, R-6) --------------------------------------------


def test_rule_C2_starter_constructed_is_refused() -> None:
    with pytest.raises(UserError, match="C-2") as caught:
        tournament(names(8), fmt=RatedFormat.STARTER_CONSTRUCTED)
    assert caught.value.code == "unrated_tournament"
    with pytest.raises(UserError, match="C-2"):
        warlock_coefficient(RatedFormat.STARTER_CONSTRUCTED, 8, RatingSettings())


def test_rule_R6_fewer_than_4_participants_is_refused() -> None:
    with pytest.raises(UserError, match="at least 4") as caught:
        tournament(names(3))
    assert caught.value.code == "unrated_tournament"


@pytest.mark.parametrize(
    ("places", "code"),
    [([1, 2, 2, 3], "duplicate_place"), ([1, 2, 3, 5], "bad_places"),
     ([0, 1, 2, 3], "bad_places")],
)
def test_rule_R6_places_must_be_a_total_order(places: list[int], code: str) -> None:
    with pytest.raises(UserError) as caught:
        RatedTournament(1, 1, RatedFormat.CONSTRUCTED, Fraction(1), tuple(
            Participant(f"P{i}", place) for i, place in enumerate(places)))
    assert caught.value.code == code


def test_rule_R6_format_given_as_text_is_read() -> None:
    event = RatedTournament(1, 1, "draft_4_boosters",  # type: ignore[arg-type]
                            Fraction(1), tuple(Participant(p, i) for i, p in
                                               enumerate(names(4), start=1)))
    assert event.format is RatedFormat.DRAFT_4_BOOSTERS
    with pytest.raises(UserError, match="unknown format"):
        RatedTournament(1, 1, "sealed", Fraction(1),  # type: ignore[arg-type]
                        event.participants)


def test_rule_R6_a_player_is_listed_once() -> None:
    with pytest.raises(UserError, match="twice"):
        tournament(["a", "b", "a", "c"])


def test_rule_R1_k_is_positive_and_exact() -> None:
    with pytest.raises(UserError, match="positive"):
        tournament(names(4), k=0)
    with pytest.raises(InvariantError):
        RatedTournament(1, 1, RatedFormat.CONSTRUCTED, 1.4,  # type: ignore[arg-type]
                        tuple(Participant(p, i) for i, p in enumerate(names(4), start=1)))


# --- exact arithmetic, stored to 0.01 ----------------------------------------------------


def test_rule_R6_rounded_half_up_to_hundredths() -> None:
    report = preview(book(["150", "130", "120", "100", "103", "120"]), tournament(names(6)))
    third = report.changes[2].professional
    assert report.professional_rt == Fraction("120.5")
    assert third.exact == Fraction("121.025")
    assert third.after == d("121.03")  # ROUND_HALF_UP; half-even would give 121.02
    assert Decimal("121.025").quantize(Decimal("0.01"), ROUND_HALF_UP) == third.after
    assert [c.professional.after for c in report.changes] == [
        d("155.03"), d("133.28"), d("121.03"), d("100.03"), d("100.88"), d("115.03")]


@pytest.mark.parametrize(
    ("num", "den", "rounded"),
    [(5, 2, 3), (-5, 2, -3), (7, 3, 2), (-7, 3, -2), (1, 2, 1), (-1, 2, -1), (0, 5, 0)],
)
def test_rule_R6_round_half_up_away_from_zero(num: int, den: int, rounded: int) -> None:
    assert round_half_up(num, den) == rounded


def test_rule_R6_ratings_are_stored_to_hundredths() -> None:
    assert hundredths(d("123.45")) == 12345 and hundredths("100") == 10000
    with pytest.raises(UserError, match=r"0\.01"):
        hundredths(d("100.001"))
    with pytest.raises(UserError, match="below 100"):
        RatingBook.from_entries([PlayerRating("a", d("99.99"))])
    with pytest.raises(UserError, match="twice"):
        RatingBook.from_entries([PlayerRating("a", d("120")), PlayerRating("a", d("130"))])


def test_rule_R6_export_and_import_round_trip() -> None:
    after, _ = apply_tournament(book(EIGHT, EIGHT_WARLOCK), tournament(names(8)))
    again = RatingBook.from_entries(after.entries())
    assert again.entries() == after.entries()
    assert after.rating("P2").warlock == d("100.00")


# --- order of end, apply, preview, replay, corrections -----------------------------------


def test_rule_R6_preview_does_not_apply_and_equals_apply() -> None:
    start = book(EIGHT)
    shown = preview(start, tournament(names(8)))
    after, report = apply_tournament(start, tournament(names(8)))
    assert shown == report
    assert start.professional("P1") == d("152.40")
    assert after.professional("P1") == report.changes[0].professional.after
    assert after.last_applied == 1 and start.last_applied is None


def test_rule_R6_applied_in_order_of_end_and_never_twice() -> None:
    first = tournament(names(4), tid="a", end=5)
    earlier = tournament(names(4), tid="b", end=3)
    after, _ = apply_tournament(RatingBook(), first)
    with pytest.raises(ConflictError, match="already applied"):
        apply_tournament(after, first)
    with pytest.raises(ConflictError, match="replay"):
        apply_tournament(after, earlier)
    with pytest.raises(ConflictError, match="replay"):
        preview(after, earlier)
    assert replay([first, earlier]) == replay([earlier, first])
    one, _ = apply_tournament(RatingBook(), earlier)
    two, _ = apply_tournament(one, first)
    assert replay([first, earlier]) == two


def test_rule_R6_equal_ends_are_ordered_by_id() -> None:
    a = tournament(["x", "y", "z", "w"], tid=2, end=7)
    b = tournament(["w", "z", "y", "x"], tid=1, end=7)
    one, _ = apply_tournament(RatingBook(), b)
    two, _ = apply_tournament(one, a)
    assert replay([a, b]) == two
    with pytest.raises(UserError, match="twice"):
        replay([a, a])


def test_rule_R6_correction_replays_every_later_tournament() -> None:
    t1 = tournament(["a", "b", "c", "d"], tid=1, end=1)
    t2 = tournament(["e", "b", "f", "c", "x", "y"], tid=2, end=2)
    t3 = tournament(["g", "h", "i", "j"], tid=3, end=3)
    fixed = tournament(["b", "a", "c", "d"], tid=1, end=1)  # the judge swapped 1st and 2nd
    corrected, diffs = replay_from([t1, t2, t3], fixed)
    assert corrected == replay([fixed, t2, t3])
    changed = {diff.player for diff in diffs}
    # e and f: Rt of t2 moved with b's rating; x and y are held by the bounds and the floor
    assert changed == {"a", "b", "e", "f"}
    old = replay([t1, t2, t3])
    for diff in diffs:
        assert diff.old_professional == old.professional(diff.player)
        assert diff.new_professional == corrected.professional(diff.player)
    # docs/ratings.md, example 8
    assert [(diff.player, diff.old_professional, diff.new_professional) for diff in diffs] == [
        ("a", d("104.00"), d("101.50")), ("b", d("105.19"), d("107.58")),
        ("e", d("106.51"), d("106.53")), ("f", d("101.01"), d("101.03"))]
    assert diffs[0].professional_change == d("-2.50")


def test_rule_R6_late_submission_is_inserted_and_replayed() -> None:
    t1 = tournament(["a", "b", "c", "d"], tid=1, end=1)
    t3 = tournament(["a", "b", "c", "d"], tid=3, end=3)
    late = tournament(["d", "c", "b", "a"], tid=2, end=2)
    corrected, diffs = replay_from([t1, t3], late)
    assert corrected == replay([t1, late, t3])
    assert {diff.player for diff in diffs} == {"a", "b", "c", "d"}


def test_rule_R6_replay_changes_reports_every_tournament() -> None:
    t1 = tournament(["a", "b", "c", "d"], tid=1, end=1)
    t2 = tournament(["d", "c", "b", "a"], tid=2, end=2)
    final, reports = replay_changes([t2, t1])
    assert [r.tournament for r in reports] == [1, 2]
    assert reports[1].change_for("a").professional.before == reports[0].change_for(
        "a").professional.after
    assert final == replay([t1, t2])
    with pytest.raises(UserError, match="did not play"):
        reports[0].change_for("zz")


def test_rule_R6_replay_starts_from_an_imported_book() -> None:
    start = book(EIGHT)
    assert replay([tournament(names(8))], start=start) == apply_tournament(
        start, tournament(names(8)))[0]
    assert replay([], start=start) == start


# --- the prize fund ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fund", "winner", "second"),
    [("1000", "700.00", "300.00"), ("1000.05", "700.04", "300.01"), ("0.01", "0.01", "0.00"),
     ("0", "0.00", "0.00"), ("333.33", "233.34", "99.99")],
)
def test_rule_R7_prize_fund_70_30(fund: str, winner: str, second: str) -> None:
    split = split_prize_fund(d(fund))
    assert (split.winner, split.second) == (d(winner), d(second))
    assert split.winner + split.second == d(fund)


def test_rule_R7_prize_withheld_after_disqualification_without_prizes() -> None:
    awards = award_prizes(tournament(names(4), dq=["P1"]), d("1000"))
    assert [(a.player, a.place, a.amount, a.withheld) for a in awards] == [
        ("P1", 1, d("700.00"), True), ("P2", 2, d("300.00"), False)]
    with pytest.raises(UserError, match="kopeck"):
        split_prize_fund(d("10.005"))
    with pytest.raises(UserError, match="kopeck"):
        split_prize_fund(d("-1"))


# --- properties ------------------------------------------------------------------------------

RATED_FORMATS = [f for f in RatedFormat if f is not RatedFormat.STARTER_CONSTRUCTED]
ratings = st.integers(10_000, 60_000).map(lambda h: Decimal(h).scaleb(-2))
coefficients = st.fractions(min_value=Fraction(1, 50), max_value=5, max_denominator=60).filter(
    lambda k: k > 0)
settings_st = st.builds(
    RatingSettings,
    many_participants=st.integers(4, 12),
    warlock_first_tournament=st.sampled_from(list(WarlockFirstTournament)),
    reset_warlock_on_disqualification=st.booleans())


@st.composite
def rated(draw: st.DrawFn) -> tuple[RatingBook, RatedTournament]:
    size = draw(st.integers(4, 12))
    pro = draw(st.lists(ratings, min_size=size, max_size=size))
    war = draw(st.lists(st.none() | ratings, min_size=size, max_size=size))
    dq = draw(st.lists(st.integers(0, 7).map(lambda x: x == 0), min_size=size, max_size=size))
    start = RatingBook.from_entries(PlayerRating(f"P{i}", p, w)
                                    for i, (p, w) in enumerate(zip(pro, war, strict=True)))
    event = RatedTournament(
        draw(st.integers(1, 9)), 0, draw(st.sampled_from(RATED_FORMATS)), draw(coefficients),
        tuple(Participant(f"P{i}", i + 1, disqualified_without_prizes=dq[i])
              for i in range(size)))
    return start, event


def cents(x: Fraction) -> Decimal:
    """The textbook ROUND_HALF_UP of an exact value to 0.01."""
    n = math.floor(abs(x) * 100 + Fraction(1, 2))
    return (Decimal(n) if x >= 0 else -Decimal(n)).scaleb(-2)


def textbook(start: RatingBook, event: RatedTournament, settings: RatingSettings
             ) -> list[tuple[Decimal, Decimal]]:
    """R-1..R-5 written out in ``Fraction``, one line a rule."""
    u = event.size
    rs = [Fraction(start.professional(p)) for p in event.players]
    rt = sum(rs, Fraction(0)) / u
    w_before = [start.warlock(p) for p in event.players]
    ws = [Fraction(100) if w is None else Fraction(w) for w in w_before]
    wt = sum(ws, Fraction(0)) / u
    wk = warlock_coefficient(event.format, u, settings)
    out = []
    for m, (r, w, wb, dq) in enumerate(zip(rs, ws, w_before, event.disqualified, strict=True),
                                       start=1):
        change = u + 1 - 2 * m + (Fraction(u, 4) if m == 1 else 0) + (
            Fraction(u, 8) if m == 2 else 0) + (rt - r) * (u + 4) / 200
        if m == 1:
            change = max(change, Fraction(3))
        elif m == 2:
            change = max(change, Fraction(0))
        elif m == u - 1:
            change = min(change, Fraction(0))
        elif m == u:
            change = min(change, Fraction(-3))
        pro = max(cents(r + change * event.professional_k), Decimal("100.00"))
        if dq:
            pro = Decimal("100.00")
        if wb is None and settings.warlock_first_tournament is WarlockFirstTournament.FIXED_100:
            war = Decimal("100.00")
        else:
            war = cents(w + Fraction(u, m) * wt / w * wk)
        if dq and settings.reset_warlock_on_disqualification:
            war = Decimal("100.00")
        out.append((pro, war))
    return out


@given(rated(), settings_st)
def test_rule_R1_R5_exact_integers_match_the_textbook_formulas(
        case: tuple[RatingBook, RatedTournament], settings: RatingSettings) -> None:
    start, event = case
    report = preview(start, event, settings=settings)
    assert [(c.professional.after, c.warlock.after) for c in report.changes] == textbook(
        start, event, settings)
    for c in report.changes:
        exact = Fraction(c.professional.before) + c.professional.bounded * c.professional.k
        assert c.professional.exact == exact
        assert c.warlock.gain == Fraction(c.participants, c.place) * c.warlock_rt / Fraction(
            c.warlock.rs) * c.warlock.k


@given(rated())
def test_rule_R2_R3_what_holds_at_each_end(case: tuple[RatingBook, RatedTournament]) -> None:
    start, event = case
    report = preview(start, event)
    k = event.professional_k
    for c in report.changes:
        p = c.professional
        assert p.after >= Decimal("100.00")  # nobody below 100
        if c.disqualified_without_prizes:
            assert p.after == Decimal("100.00") and p.reset_applied
            continue
        if c.place == 1:  # the winner never loses: at least +3 x K, rounded
            assert p.bounded >= 3 and p.after >= cents(Fraction(p.before) + 3 * k) > p.before
        elif c.place == 2:
            assert p.bounded >= 0 and p.after >= p.before
        elif c.place == c.participants - 1:
            assert p.bounded <= 0 and p.after <= p.before
        elif c.place == c.participants:  # the last never gains; -3 x K unless the floor
            assert p.bounded <= -3
            assert p.after == max(Decimal("100.00"), cents(Fraction(p.before) + p.bounded * k))
            assert p.after <= max(Decimal("100.00"), cents(Fraction(p.before) - 3 * k))
            assert p.after <= p.before
        assert c.warlock.after > (c.warlock.before or 0) or c.warlock.reset_applied


@given(rated(), st.randoms(use_true_random=False))
def test_rule_R6_participant_order_does_not_matter(case: tuple[RatingBook, RatedTournament],
                                                   rng: random.Random) -> None:
    start, event = case
    shuffled = list(event.participants)
    rng.shuffle(shuffled)
    again = RatedTournament(event.id, event.ended_at, event.format, event.professional_k,
                            tuple(shuffled))
    assert again == event
    assert preview(start, again) == preview(start, event)


POOL = [f"p{i}" for i in range(10)]
KS = [Fraction(1), Fraction(7, 5), Fraction(2), Fraction(1, 3)]


@st.composite
def histories(draw: st.DrawFn) -> list[RatedTournament]:
    count = draw(st.integers(1, 7))
    history = []
    for tid in range(1, count + 1):
        size = draw(st.integers(4, 8))
        players = draw(st.permutations(POOL))[:size]
        dq = draw(st.sets(st.sampled_from(players), max_size=1))
        history.append(tournament(players, tid=tid, end=draw(st.integers(0, 4)), dq=list(dq),
                                  k=draw(st.sampled_from(KS)),
                                  fmt=draw(st.sampled_from(RATED_FORMATS))))
    return history


@given(histories())
def test_rule_R6_replay_equals_applying_one_by_one(history: list[RatedTournament]) -> None:
    current = RatingBook()
    for event in sorted(history, key=lambda t: (t.ended_at, t.id)):
        previous = current
        current, _ = apply_tournament(current, event)
        assert previous is not current
    assert replay(history) == current
    assert replay(reversed(history)) == current
    assert replay_changes(history)[0] == current


@given(histories(), st.data())
def test_rule_R6_replay_from_equals_a_full_replay(history: list[RatedTournament],
                                                 data: st.DataObject) -> None:
    target = data.draw(st.sampled_from(history))
    places = data.draw(st.permutations(list(target.players)))
    fixed = tournament(places, tid=target.id, end=data.draw(st.integers(0, 4)),
                       k=target.professional_k, fmt=target.format)
    corrected, diffs = replay_from(history, fixed)
    new_history = [fixed if t.id == target.id else t for t in history]
    assert corrected == replay(new_history)
    old = replay(history)
    expected = {p for p in POOL if old.rating(p) != corrected.rating(p)}
    assert {diff.player for diff in diffs} == expected

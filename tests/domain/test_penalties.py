"""Rules J-1..J-8 and the T-6 input: the penalty ladder, attachments, carry-over,
disqualification, suspension, escalation, rules levels, appeals (000 §11, Appendix 1)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.domain.builders import tournament
from turnir.domain.model import Stage
from turnir.domain.penalties import (
    ACCUMULATION,
    DEFAULT_CATALOGUE,
    AppealOutcome,
    Carry,
    Catalogue,
    Day,
    GameRecord,
    GivenAt,
    Infraction,
    Judge,
    JudgeRole,
    Moment,
    Penalty,
    PenaltyPoints,
    PenaltyRecord,
    PenaltyStatus,
    RulesLevel,
    Side,
    Slot,
    Suspension,
    Text,
    accumulate,
    active_suspension,
    apply_carries,
    apply_carries_to_result,
    attached,
    carry_of,
    check_head_judge_may_play,
    check_may_register,
    decide_appeal,
    disqualification_effects,
    effects,
    escalate,
    give_penalty,
    head_judge_may_play,
    penalty_counts,
    penalty_counts_by_player,
    pending_carries,
    stale_automatic,
    suspension_entry,
)
from turnir.domain.results import GameReason, MatchEnding, MatchOutcome, MatchResult, parse_result
from turnir.domain.standings import PenaltyCounts
from turnir.domain.tournament import drop_player, pair_next_round, record_result
from turnir.errors import InvariantError, NotFoundError, UserError

P = Penalty
PRO, AMATEUR, HIGHEST = RulesLevel.PROFESSIONAL, RulesLevel.AMATEUR, RulesLevel.HIGHEST
FLOOR = Judge("Судья Петров", JudgeRole.FLOOR)
HEAD = Judge("Главный судья Иванова", JudgeRole.HEAD)
HEAD_REP = Judge("Главный судья Сидоров", JudgeRole.HEAD, official_representative=True)
BETWEEN = GivenAt.between_matches


def give(history: Sequence[PenaltyRecord], reason: str, *, player: int = 1,
         level: RulesLevel = PRO, at: GivenAt | None = None, judge: Judge = FLOOR,
         penalty: Penalty | None = None, confirmed: bool = False,
         deferred: bool = False) -> PenaltyRecord:
    """One-line builder: the next penalty for ``reason`` in ``history``."""
    return give_penalty(
        history, record_id=len(history) + 1, player=player,
        infraction=DEFAULT_CATALOGUE.get(reason), level=level,
        given_at=at or GivenAt.during_game(1, 1), judge=judge, penalty=penalty,
        confirmed_by_head_judge=confirmed, deferred=deferred,
    )


def record(rid: int, penalty: Penalty, reason: str = "slow_play", *, player: int = 1,
           at: GivenAt | None = None, deferred: bool = False) -> PenaltyRecord:
    """A bare record, as if given by a floor judge."""
    return PenaltyRecord(rid, player, reason, penalty, at or BETWEEN(0), penalty,
                         Text("", ""), judge=FLOOR, deferred=deferred)


# ----- J-1, J-2 -----------------------------------------------------------------------------


def test_rule_J1_ladder_weakest_first() -> None:
    assert list(Penalty) == [P.REMARK, P.WARNING, P.GAME_LOSS, P.MATCH_LOSS,
                             P.DISQUALIFICATION, P.DISQUALIFICATION_WITHOUT_PRIZES,
                             P.SUSPENSION]
    assert sorted(reversed(list(Penalty))) == list(Penalty)
    assert P.REMARK < P.WARNING < P.GAME_LOSS < P.MATCH_LOSS < P.DISQUALIFICATION
    assert P.DISQUALIFICATION < P.DISQUALIFICATION_WITHOUT_PRIZES < P.SUSPENSION
    assert max(P.WARNING, P.GAME_LOSS) is P.GAME_LOSS
    assert P.GAME_LOSS.name_text == Text("поражение в партии", "game loss")


def test_rule_J1_escalation_step_stops_at_a_single_disqualification() -> None:
    assert [p.escalated() for p in Penalty] == [
        P.WARNING, P.GAME_LOSS, P.MATCH_LOSS, P.DISQUALIFICATION, P.DISQUALIFICATION,
        P.DISQUALIFICATION_WITHOUT_PRIZES, P.SUSPENSION,
    ]


@pytest.mark.parametrize(
    ("penalty", "expected"),
    [
        (P.REMARK, ()),
        (P.WARNING, ()),
        (P.GAME_LOSS, (P.WARNING,)),
        (P.MATCH_LOSS, (P.WARNING,)),
        (P.DISQUALIFICATION, (P.MATCH_LOSS, P.WARNING)),
        (P.DISQUALIFICATION_WITHOUT_PRIZES, (P.MATCH_LOSS, P.WARNING)),
        (P.SUSPENSION, (P.DISQUALIFICATION_WITHOUT_PRIZES, P.MATCH_LOSS, P.WARNING)),
    ],
)
def test_rule_J2_attached_penalties(penalty: Penalty, expected: tuple[Penalty, ...]) -> None:
    assert attached(penalty) == expected
    assert effects(penalty) == (penalty, *expected)


# ----- J-3 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("penalty", "at", "deferred", "slot"),
    [
        (P.GAME_LOSS, GivenAt.during_game(2, 1), False, Slot(2, 1)),
        (P.GAME_LOSS, GivenAt.during_game(2, 1), True, Slot(2, 2)),
        (P.GAME_LOSS, GivenAt.between_games(2, 1), False, Slot(2, 2)),
        (P.GAME_LOSS, BETWEEN(2), False, Slot(3, 1)),
        (P.MATCH_LOSS, GivenAt.during_game(2, 3), False, Slot(2, 1)),
        (P.MATCH_LOSS, GivenAt.during_game(2, 3), True, Slot(3, 1)),
        (P.MATCH_LOSS, GivenAt.between_games(2, 1), True, Slot(3, 1)),
        (P.MATCH_LOSS, BETWEEN(2), False, Slot(3, 1)),
        (P.DISQUALIFICATION, GivenAt.during_game(2, 2), False, Slot(2, 1)),
        (P.DISQUALIFICATION, BETWEEN(0), False, Slot(1, 1)),
    ],
)
def test_rule_J3_where_a_penalty_loss_lands(penalty: Penalty, at: GivenAt, deferred: bool,
                                            slot: Slot) -> None:
    carry = carry_of(record(1, penalty, at=at, deferred=deferred))
    expected = P.GAME_LOSS if penalty is P.GAME_LOSS else P.MATCH_LOSS
    assert carry == Carry(1, 1, expected, slot)


def test_rule_J3_remarks_warnings_and_withdrawn_penalties_carry_nothing() -> None:
    assert carry_of(record(1, P.REMARK)) is None
    assert carry_of(record(1, P.WARNING)) is None
    withdrawn = replace(record(1, P.GAME_LOSS), status=PenaltyStatus.WITHDRAWN)
    assert carry_of(withdrawn) is None
    assert pending_carries([record(1, P.GAME_LOSS), record(2, P.WARNING), withdrawn],
                           applied={1}) == ()


def test_rule_J3_scenario_game_loss_between_rounds_lands_on_next_matchs_first_game() -> None:
    # Player 1 is given a game loss for tardiness after round 1; in round 2 (best-of-3) they
    # play player 2 and win the two games played at the table: game 1 was a penalty loss.
    history: list[PenaltyRecord] = []
    loss = give(history, "tardiness", at=BETWEEN(1))
    assert loss.penalty is P.GAME_LOSS
    carries = pending_carries([loss])
    applied = apply_carries_to_result(parse_result("2-0"), carries, round=2, a=1, b=2,
                                      best_of=3, elimination=False)
    assert applied.result == MatchResult.played(2, 1)
    assert applied.games[0] == GameRecord(Side.B, GameReason.PENALTY)
    assert applied.applied == (loss.id,)
    # Seen from the other seat (player 1 as B) the same loss goes to player 2's opponent.
    other = apply_carries_to_result(parse_result("1-0"), carries, round=2, a=2, b=1,
                                    best_of=3, elimination=False)
    assert other.result == MatchResult.played(2, 0)


def test_rule_J3_game_loss_is_not_applied_before_its_slot() -> None:
    carries = pending_carries([record(1, P.GAME_LOSS, at=BETWEEN(2))])
    applied = apply_carries_to_result(parse_result("2-1"), carries, round=2, a=1, b=2,
                                      best_of=3, elimination=False)
    assert applied.result == parse_result("2-1")
    assert applied.applied == ()


def test_rule_J3_between_games_and_deferred_game_loss_land_on_the_next_game() -> None:
    # Player 2 won game 1; between games 1 and 2 player 1 gets a game loss: game 2 is lost,
    # and the match is over 0-2.
    between = record(1, P.GAME_LOSS, at=GivenAt.between_games(3, 1))
    played = [GameRecord.win(Side.B, GameReason.LETHAL_DAMAGE)]
    applied = apply_carries(played, pending_carries([between]), round=3, a=1, b=2,
                            best_of=3, elimination=False)
    assert applied.result == MatchResult.played(0, 2)
    assert [g.reason for g in applied.games] == [GameReason.LETHAL_DAMAGE, GameReason.PENALTY]
    # Deferred from a nearly finished game 1 (which player 1 then won): game 2 is lost.
    deferred = record(1, P.GAME_LOSS, at=GivenAt.during_game(3, 1), deferred=True)
    played = [GameRecord.win(Side.A), GameRecord.win(Side.A)]
    applied = apply_carries(played, pending_carries([deferred]), round=3, a=1, b=2,
                            best_of=3, elimination=False)
    assert [g.winner for g in applied.games] == [Side.A, Side.B, Side.A]
    assert applied.result == MatchResult.played(2, 1)


def test_rule_J3_game_loss_given_during_a_game_decides_that_game() -> None:
    # The played games exclude the one ended by the penalty.
    now = record(1, P.GAME_LOSS, player=2, at=GivenAt.during_game(1, 2))
    played = [GameRecord.win(Side.A)]
    applied = apply_carries(played, pending_carries([now]), round=1, a=1, b=2, best_of=3,
                            elimination=False)
    assert [g.winner for g in applied.games] == [Side.A, Side.A]
    with pytest.raises(UserError, match="decided after game 2"):
        apply_carries([*played, GameRecord.win(Side.B)], pending_carries([now]), round=1,
                      a=1, b=2, best_of=3, elimination=False)


def test_rule_J3_game_loss_waits_when_the_match_is_already_decided() -> None:
    late = record(1, P.GAME_LOSS, at=GivenAt.during_game(1, 3), deferred=True)
    played = [GameRecord.win(Side.A), GameRecord.win(Side.B), GameRecord.win(Side.A)]
    applied = apply_carries(played, pending_carries([late]), round=1, a=1, b=2, best_of=3,
                            elimination=False)
    assert applied.result == MatchResult.played(2, 1)
    assert applied.applied == ()
    # ... and lands on the first game of the player's next match.
    nxt = apply_carries_to_result(parse_result("1-0"), pending_carries([late]), round=2,
                                  a=7, b=1, best_of=3, elimination=False)
    assert nxt.result == MatchResult.played(2, 0)


def test_rule_J3_game_loss_waits_past_a_match_without_games() -> None:
    carries = pending_carries([record(1, P.GAME_LOSS, at=BETWEEN(1))])
    applied = apply_carries_to_result(MatchResult.intentional_draw(), carries, round=2, a=1,
                                      b=2, best_of=3, elimination=False)
    assert applied.result == MatchResult.intentional_draw()
    assert applied.applied == ()


def test_rule_J3_two_game_losses_take_two_games_and_both_players_draw_a_shared_game() -> None:
    two = pending_carries([record(1, P.GAME_LOSS, at=BETWEEN(1)),
                           record(2, P.GAME_LOSS, at=BETWEEN(1))])
    applied = apply_carries_to_result(MatchResult.played(0, 0, 0), two, round=2, a=1, b=2,
                                      best_of=3, elimination=False)
    assert applied.result == MatchResult.played(0, 2)
    both = pending_carries([record(1, P.GAME_LOSS, at=BETWEEN(1)),
                            record(2, P.GAME_LOSS, player=2, at=BETWEEN(1))])
    applied = apply_carries_to_result(parse_result("1-0"), both, round=2, a=1, b=2,
                                      best_of=3, elimination=False)
    assert applied.games[0] == GameRecord(None, GameReason.PENALTY)
    assert applied.result == MatchResult.played(1, 0, 1)
    assert applied.applied == (1, 2)


def test_rule_J3_match_loss_between_matches_lands_on_the_next_match() -> None:
    carries = pending_carries([record(1, P.MATCH_LOSS, player=2, at=BETWEEN(1))])
    applied = apply_carries_to_result(parse_result("0-2"), carries, round=2, a=1, b=2,
                                      best_of=3, elimination=False)
    assert applied.result.outcome is MatchOutcome.A_WINS
    assert applied.result.ending is MatchEnding.PENALTY
    assert applied.applied == (1,)
    double = pending_carries([record(1, P.MATCH_LOSS, player=1, at=BETWEEN(1)),
                              record(2, P.MATCH_LOSS, player=2, at=BETWEEN(1))])
    applied = apply_carries((), double, round=2, a=1, b=2, best_of=3, elimination=False)
    assert applied.result.outcome is MatchOutcome.DOUBLE_LOSS


def test_rule_J3_scores_that_cannot_follow_the_penalty_game_are_refused() -> None:
    carries = pending_carries([record(1, P.GAME_LOSS, at=BETWEEN(1))])
    for score in ("0-2", "2-1"):
        with pytest.raises(UserError):
            apply_carries_to_result(parse_result(score), carries, round=2, a=1, b=2,
                                    best_of=3, elimination=False)
    later = pending_carries([record(1, P.GAME_LOSS, at=GivenAt.between_games(2, 1))])
    with pytest.raises(UserError, match="one by one"):
        apply_carries_to_result(parse_result("1-1"), later, round=2, a=1, b=2, best_of=3,
                                elimination=False)


def test_rule_J3_deferral_fits_the_moment() -> None:
    deferred_loss = give([], "tardiness", at=GivenAt.during_game(1, 1), deferred=True)
    assert deferred_loss.deferred
    assert "next game" in deferred_loss.explanation.en
    with pytest.raises(UserError) as info:
        give([], "tardiness", at=BETWEEN(1), deferred=True)
    assert info.value.code == "bad_deferral"
    with pytest.raises(UserError):
        give([], "slow_play", deferred=True)  # a warning is never deferred
    # The original also lets a match loss move to the next match near the end of a round.
    ml = give([], "no_show", at=GivenAt.between_games(1, 2), deferred=True)
    assert carry_of(ml) == Carry(ml.id, 1, P.MATCH_LOSS, Slot(2, 1))


# ----- J-4 ------------------------------------------------------------------------------------


def test_rule_J4_disqualification_effects() -> None:
    plain = disqualification_effects(P.DISQUALIFICATION)
    assert plain is not None
    assert plain.leaves_at_once and plain.keeps_points and plain.prize_eligible
    assert not plain.report_flag and not plain.rating_reset
    harsh = disqualification_effects(P.DISQUALIFICATION_WITHOUT_PRIZES)
    assert harsh is not None
    assert harsh.keeps_points and not harsh.prize_eligible
    assert harsh.report_flag and harsh.rating_reset and not harsh.suspended
    suspension = disqualification_effects(P.SUSPENSION)
    assert suspension is not None and suspension.suspended and suspension.rating_reset
    assert disqualification_effects(P.MATCH_LOSS) is None


def test_rule_J4_scenario_disqualified_player_keeps_points_and_is_no_longer_paired() -> None:
    t = pair_next_round(tournament(6, rounds=3))
    for line in t.rounds[0].pairings:
        t = record_result(t, 1, line.table, parse_result("2-0"))
    dq_player = t.rounds[0].pairings[0].a  # won round 1
    before = t.standings().row_of(dq_player).points
    dq = give([], "cheating", player=dq_player, at=BETWEEN(1))
    assert dq.penalty is P.DISQUALIFICATION_WITHOUT_PRIZES
    effects_ = disqualification_effects(dq.penalty)
    assert effects_ is not None and effects_.leaves_at_once
    t = drop_player(t, dq_player)  # the caller carries out "leaves at once"
    t = replace(t, penalties=penalty_counts_by_player([dq]))
    assert t.standings().row_of(dq_player).points == before == 3
    assert t.standings().row_of(dq_player).penalties == PenaltyCounts(1, 0, 5, 1)
    t = pair_next_round(t)
    assert all(dq_player not in line.players for line in t.rounds[1].pairings)


# ----- J-5 ------------------------------------------------------------------------------------


def test_rule_J5_only_a_head_judge_who_is_an_official_representative_at_pro_level() -> None:
    for judge in (FLOOR, HEAD, replace(FLOOR, official_representative=True)):
        with pytest.raises(UserError) as info:
            give([], "aggressive_behaviour", judge=judge, penalty=P.SUSPENSION, confirmed=True)
        assert info.value.code == "suspension_not_allowed"
    with pytest.raises(UserError, match="Professional"):
        give([], "aggressive_behaviour", level=AMATEUR, judge=HEAD_REP, penalty=P.SUSPENSION)
    for level in (PRO, HIGHEST):
        rec = give([], "aggressive_behaviour", level=level, judge=HEAD_REP,
                   penalty=P.SUSPENSION)
        assert rec.penalty is P.SUSPENSION and rec.deviation and rec.confirmed_by_head_judge


def test_rule_J5_suspension_register_blocks_official_registration() -> None:
    rec = give([], "aggressive_behaviour", judge=HEAD_REP, penalty=P.SUSPENSION)
    start = Day(739_000)
    entry = suspension_entry(rec, person="ru-0042", start=start, until=Day(start + 180),
                             tournament="Кубок города")
    assert entry.issued_by == HEAD_REP.name
    register = [entry]
    with pytest.raises(UserError) as info:
        check_may_register(register, "ru-0042", on=Day(start + 10), official=True)
    assert info.value.code == "suspended"
    check_may_register(register, "ru-0042", on=Day(start + 10), official=False)
    check_may_register(register, "ru-0042", on=Day(start - 1), official=True)
    check_may_register(register, "ru-0042", on=Day(start + 181), official=True)
    check_may_register(register, "ru-0007", on=Day(start + 10), official=True)
    with pytest.raises(UserError):
        check_may_register(register, "ru-0042", on=Day(start + 180), official=True)
    open_ended = replace(entry, until=None)
    assert active_suspension([entry, open_ended], "ru-0042", on=Day(start + 500)) == open_ended
    with pytest.raises(UserError):
        Suspension("x", Day(10), Day(9), Text("", ""), "judge")
    with pytest.raises(UserError):
        suspension_entry(record(1, P.DISQUALIFICATION), person="x", start=start)


# ----- J-6 ------------------------------------------------------------------------------------


def test_rule_J6_scenario_guide_example_swearing_remark_warning_game_loss() -> None:
    history: list[PenaltyRecord] = []
    for expected in (P.REMARK, P.WARNING, P.GAME_LOSS):
        rec = give(history, "unsporting_minor")
        assert rec.penalty is expected
        assert not rec.deviation
        history.append(rec)
    assert history[1].explanation.en == (
        "second offence for unsporting conduct: raised from remark to warning")
    assert history[2].explanation.ru == (
        "третье нарушение по причине «Неспортивное поведение»: повышено с предупреждения до "
        "поражения в партии")


def test_rule_J6_explanation_for_slow_play() -> None:
    first = give([], "slow_play")
    assert first.explanation.en == "Slow play: warning (the guide's default at Professional level)"
    second = give([first], "slow_play")
    assert second.explanation.en == (
        "second offence for slow play: raised from warning to game loss")
    assert second.explanation.ru == (
        "второе нарушение по причине «Затягивание игры»: повышено с предупреждения до "
        "поражения в партии")


def test_rule_J6_escalation_counts_only_the_same_player_and_reason() -> None:
    history = [record(1, P.WARNING, "slow_play", player=2), record(2, P.WARNING, "tardiness")]
    result = escalate(history, player=1, infraction=DEFAULT_CATALOGUE.get("slow_play"),
                      level=PRO)
    assert result.penalty is P.WARNING and result.offence == 1
    withdrawn = replace(record(3, P.WARNING), status=PenaltyStatus.WITHDRAWN)
    assert escalate([withdrawn], player=1, infraction=DEFAULT_CATALOGUE.get("slow_play"),
                    level=PRO).penalty is P.WARNING


def test_rule_J6_escalation_from_the_strongest_earlier_penalty_and_the_default() -> None:
    slow = DEFAULT_CATALOGUE.get("slow_play")
    # A lenient deviation (a remark) does not reset the count.
    history = [record(1, P.GAME_LOSS), record(2, P.REMARK)]
    assert escalate(history, player=1, infraction=slow, level=PRO).penalty is P.MATCH_LOSS
    # The default is never undercut: a remark then a repeat at a warning default.
    strong = escalate([record(1, P.REMARK, "drawing_extra_cards")], player=1,
                      infraction=DEFAULT_CATALOGUE.get("drawing_extra_cards"), level=PRO)
    assert strong.penalty is P.GAME_LOSS
    assert "already stronger" in strong.explanation.en


def test_rule_J6_never_past_a_single_disqualification() -> None:
    slow = DEFAULT_CATALOGUE.get("slow_play")
    history = [record(1, P.MATCH_LOSS)]
    assert escalate(history, player=1, infraction=slow, level=PRO).penalty is (
        P.DISQUALIFICATION)
    history.append(record(2, P.DISQUALIFICATION))
    result = escalate(history, player=1, infraction=slow, level=PRO)
    assert result.penalty is P.DISQUALIFICATION
    assert "single disqualification" in result.explanation.en


def test_rule_J6_scenario_three_warnings_for_different_reasons_give_a_game_loss() -> None:
    history: list[PenaltyRecord] = []
    for reason in ("slow_play", "game_rule_error", "looking_at_extra_cards"):
        history.append(give(history, reason, at=GivenAt.during_game(2, 1)))
    assert [r.penalty for r in history] == [P.WARNING] * 3
    new = accumulate(history, player=1, after_round=2, next_id=4, catalogue=DEFAULT_CATALOGUE)
    assert len(new) == 1
    auto = new[0]
    assert auto.penalty is P.GAME_LOSS and auto.reason == ACCUMULATION and auto.automatic
    assert auto.sources == (1, 2, 3) and auto.judge is None
    assert auto.explanation.en == (
        "three warnings for different reasons (slow play, game rule error, looking at extra "
        "cards): game loss at the end of the match")
    assert auto.explanation.ru.startswith("три предупреждения по разным причинам")
    # Given at the end of the match in round 2: it lands on round 3's first game (J-3).
    assert carry_of(auto) == Carry(4, 1, P.GAME_LOSS, Slot(3, 1))
    # The three are used up: the next match end adds nothing more.
    assert accumulate([*history, auto], player=1, after_round=3, next_id=5,
                      catalogue=DEFAULT_CATALOGUE) == ()
    counts = penalty_counts([*history, auto])
    assert counts == PenaltyCounts(match_losses=0, game_losses=1, penalty_points=5, warnings=4)


def test_rule_J6_accumulation_needs_three_different_reasons_and_cascades() -> None:
    two = [record(1, P.WARNING, "slow_play"), record(2, P.WARNING, "tardiness")]
    assert accumulate(two, player=1, after_round=1, next_id=3, catalogue=DEFAULT_CATALOGUE) == ()
    same = [*two, record(3, P.WARNING, "slow_play")]
    assert accumulate(same, player=1, after_round=1, next_id=4, catalogue=DEFAULT_CATALOGUE) == ()
    remarks = [record(3, P.REMARK, "game_rule_error"), record(4, P.REMARK, "draft_procedure"),
               record(5, P.REMARK, "other")]
    new = accumulate([*two, *remarks], player=1, after_round=1, next_id=6,
                     catalogue=DEFAULT_CATALOGUE)
    assert [(r.penalty, r.sources) for r in new] == [
        (P.WARNING, (3, 4, 5)), (P.GAME_LOSS, (1, 2, 6))]


def test_rule_J6_no_suspension_by_accumulation() -> None:
    mls = [record(i, P.MATCH_LOSS, reason) for i, reason in
           enumerate(("no_show", "outside_assistance", "unsporting_major"), start=1)]
    new = accumulate(mls, player=1, after_round=3, next_id=4, catalogue=DEFAULT_CATALOGUE)
    assert [r.penalty for r in new] == [P.DISQUALIFICATION]
    more = [*mls, *new, *(record(i, P.MATCH_LOSS, reason) for i, reason in
                          enumerate(("tardiness", "theft", "cheating"), start=5))]
    assert accumulate(more, player=1, after_round=4, next_id=8,
                      catalogue=DEFAULT_CATALOGUE) == ()


def test_rule_J6_appeal_withdrawing_a_source_makes_the_automatic_penalty_stale() -> None:
    history = [record(i, P.WARNING, reason) for i, reason in
               enumerate(("slow_play", "tardiness", "other"), start=1)]
    auto = accumulate(history, player=1, after_round=1, next_id=4,
                      catalogue=DEFAULT_CATALOGUE)[0]
    assert stale_automatic([*history, auto]) == ()
    _, withdrawn = decide_appeal(history[0], outcome=AppealOutcome.WITHDRAWN, head_judge=HEAD,
                                 level=PRO)
    assert stale_automatic([withdrawn, *history[1:], auto]) == (auto,)


_REASONS = ("slow_play", "tardiness", "game_rule_error", "marked_cards", "no_show")
_ADDING = (P.REMARK, P.WARNING, P.GAME_LOSS, P.MATCH_LOSS, P.DISQUALIFICATION,
           P.DISQUALIFICATION_WITHOUT_PRIZES)
penalty_lists = st.lists(st.tuples(st.sampled_from(_REASONS), st.sampled_from(_ADDING)),
                         max_size=12)


def _records(items: Sequence[tuple[str, Penalty]]) -> list[PenaltyRecord]:
    return [record(i, penalty, reason) for i, (reason, penalty) in enumerate(items, start=1)]


def _strongest_after_match(items: Sequence[tuple[str, Penalty]]) -> Penalty | None:
    history = _records(items)
    new = accumulate(history, player=1, after_round=1, next_id=len(history) + 1,
                     catalogue=DEFAULT_CATALOGUE)
    return max((r.penalty for r in [*history, *new]), default=None)


@settings(max_examples=150, deadline=None)
@given(penalty_lists, st.integers(0, 12), st.sampled_from(_REASONS), st.sampled_from(_ADDING),
       st.sampled_from(_REASONS), st.sampled_from(list(RulesLevel)))
def test_rule_J6_escalation_is_monotone_and_capped(
    items: list[tuple[str, Penalty]], where: int, extra_reason: str, extra: Penalty,
    reason: str, level: RulesLevel,
) -> None:
    infraction = DEFAULT_CATALOGUE.get(reason)
    more = [*items[:where], (extra_reason, extra), *items[where:]]
    base = escalate(_records(items), player=1, infraction=infraction, level=level).penalty
    extended = escalate(_records(more), player=1, infraction=infraction, level=level).penalty
    assert extended >= base  # an extra earlier penalty never makes the new one weaker
    assert extended <= max(infraction.default(level), P.DISQUALIFICATION)
    # Accumulation at the end of a match: monotone, never past a single disqualification.
    before, after = _strongest_after_match(items), _strongest_after_match(more)
    assert after is not None and (before is None or after >= before)
    history = _records(more)
    new = accumulate(history, player=1, after_round=1, next_id=len(more) + 1,
                     catalogue=DEFAULT_CATALOGUE)
    assert all(r.penalty <= P.DISQUALIFICATION for r in new)
    assert sum(r.penalty.is_disqualification for r in new) <= 1
    if any(r.penalty.is_disqualification for r in history):
        assert new == ()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(_REASONS), max_size=15))
def test_rule_J6_accumulation_forms_as_many_triples_as_possible(reasons: list[str]) -> None:
    history = [record(i, P.REMARK, reason) for i, reason in enumerate(reasons, start=1)]
    new = accumulate(history, player=1, after_round=1, next_id=len(history) + 1,
                     catalogue=DEFAULT_CATALOGUE)
    counts = [reasons.count(r) for r in set(reasons)]
    best = max((t for t in range(len(reasons) // 3 + 1)
                if sum(min(c, t) for c in counts) >= 3 * t), default=0)
    assert sum(r.penalty is P.WARNING for r in new) == best
    used = [s for r in new for s in r.sources]
    assert len(used) == len(set(used))


# ----- J-7, J-8 -------------------------------------------------------------------------------


def test_rule_J7_deviation_at_professional_level_needs_the_head_judge() -> None:
    with pytest.raises(UserError) as info:
        give([], "slow_play", penalty=P.REMARK)
    assert info.value.code == "deviation_unconfirmed"
    assert "game" not in info.value.message and "warning" in info.value.message
    confirmed = give([], "slow_play", penalty=P.REMARK, confirmed=True)
    assert confirmed.deviation and confirmed.confirmed_by_head_judge
    assert confirmed.guide_penalty is P.WARNING
    assert "confirmed by the head judge" in confirmed.explanation.en
    by_head = give([], "slow_play", penalty=P.GAME_LOSS, judge=HEAD, level=HIGHEST)
    assert by_head.deviation and by_head.confirmed_by_head_judge
    amateur = give([], "slow_play", penalty=P.WARNING, level=AMATEUR)
    assert amateur.deviation and not amateur.confirmed_by_head_judge
    same = give([], "slow_play", penalty=P.WARNING)
    assert not same.deviation


def test_rule_J7_defaults_depend_on_the_rules_level_and_the_reason_is_recorded() -> None:
    assert give([], "slow_play", level=AMATEUR).penalty is P.REMARK
    rec = give([], "slow_play", level=PRO)
    assert rec.penalty is P.WARNING and rec.reason == "slow_play"
    assert rec.explanation.ru == (
        "Затягивание игры: предупреждение (рекомендация Уложения, профессиональный уровень)")
    assert RulesLevel.AMATEUR < RulesLevel.PROFESSIONAL < RulesLevel.HIGHEST
    assert not AMATEUR.guide_binding and PRO.guide_binding and HIGHEST.guide_binding


@pytest.mark.parametrize(
    ("level", "participants", "allowed"),
    [
        (AMATEUR, 4, True),
        (AMATEUR, 11, True),
        (AMATEUR, 12, False),
        (AMATEUR, 30, False),
        (PRO, 11, False),
        (PRO, 8, False),
        (HIGHEST, 6, False),
    ],
)
def test_rule_J8_scenario_head_judge_may_play_only_at_amateur_with_fewer_than_12(
    level: RulesLevel, participants: int, allowed: bool,
) -> None:
    assert head_judge_may_play(level=level, participants=participants) is allowed
    if allowed:
        check_head_judge_may_play(level=level, participants=participants)
    else:
        with pytest.raises(UserError) as info:
            check_head_judge_may_play(level=level, participants=participants)
        assert info.value.code == "head_judge_may_not_play"
        assert "J-8" in info.value.message


def test_rule_J8_appeals_go_to_the_head_judge_whose_decisions_are_final() -> None:
    rec = give([], "drawing_extra_cards")
    assert rec.penalty is P.GAME_LOSS
    appeal, changed = decide_appeal(rec, outcome=AppealOutcome.CHANGED, head_judge=HEAD,
                                    level=PRO, changed_to=P.WARNING, note="карта не взята")
    assert appeal.before is P.GAME_LOSS and appeal.changed_to is P.WARNING
    assert changed.penalty is P.WARNING and changed.confirmed_by_head_judge
    assert "changed on appeal" in changed.explanation.en
    _, upheld = decide_appeal(rec, outcome=AppealOutcome.UPHELD, head_judge=HEAD, level=PRO)
    assert upheld.penalty is P.GAME_LOSS and upheld.active
    _, withdrawn = decide_appeal(rec, outcome=AppealOutcome.WITHDRAWN, head_judge=HEAD,
                                 level=PRO)
    assert not withdrawn.active
    assert penalty_counts([withdrawn]) == PenaltyCounts()
    codes = []
    for appealed, judge in ((rec, FLOOR), (give([], "slow_play", judge=HEAD), HEAD),
                            (withdrawn, HEAD)):
        with pytest.raises(UserError) as info:
            decide_appeal(appealed, outcome=AppealOutcome.UPHELD, head_judge=judge, level=PRO)
        codes.append(info.value.code)
    assert codes == ["not_head_judge", "final_decision", "not_appealable"]
    with pytest.raises(UserError):
        decide_appeal(rec, outcome=AppealOutcome.CHANGED, head_judge=HEAD, level=PRO)
    with pytest.raises(UserError):
        decide_appeal(rec, outcome=AppealOutcome.CHANGED, head_judge=HEAD, level=PRO,
                      changed_to=P.SUSPENSION)


# ----- T-6 ------------------------------------------------------------------------------------


def test_rule_T6_penalty_counts() -> None:
    history = [record(1, P.REMARK), record(2, P.WARNING), record(3, P.GAME_LOSS),
               record(4, P.MATCH_LOSS), record(5, P.DISQUALIFICATION)]
    assert penalty_counts(history) == PenaltyCounts(
        match_losses=2, game_losses=1, penalty_points=0 + 1 + 2 + 3 + 4, warnings=4)
    assert penalty_counts([]) == PenaltyCounts()
    assert penalty_counts(history, points=PenaltyPoints(remark=1)).penalty_points == 11
    with pytest.raises(InvariantError):
        penalty_counts([record(1, P.WARNING), record(2, P.WARNING, player=2)])


def test_rule_T6_fewer_penalties_rank_higher_in_the_standings() -> None:
    t = pair_next_round(tournament(4, rounds=1))
    for line in t.rounds[0].pairings:
        t = record_result(t, 1, line.table, parse_result("2-0"))
    winners = [line.a for line in t.rounds[0].pairings]
    assert t.rounds[0].stage is Stage.SWISS
    # Two winners tied on points and opponents' points; the one with a warning goes lower,
    # and one remark (no penalty points, no warning) changes nothing.
    history = [record(1, P.WARNING, player=winners[0]), record(2, P.REMARK, player=winners[1])]
    t = replace(t, penalties=penalty_counts_by_player(history))
    order = t.standings().order()
    assert order.index(winners[1]) < order.index(winners[0])


# ----- the catalogue --------------------------------------------------------------------------


def test_catalogue_is_bilingual_with_a_default_per_level() -> None:
    assert len(DEFAULT_CATALOGUE.infractions) >= 15
    for entry in DEFAULT_CATALOGUE:
        assert entry.name.ru and entry.name.en and entry.description.en
        defaults = [entry.default(level) for level in RulesLevel]
        assert defaults == sorted(defaults), entry.code  # never milder at a stricter level
        assert P.SUSPENSION not in defaults
    assert DEFAULT_CATALOGUE.get("unsporting_minor").default(PRO) is P.REMARK
    assert DEFAULT_CATALOGUE.name(ACCUMULATION).en == "accumulated penalties"


def test_catalogue_is_editable_by_the_organizer() -> None:
    edited = DEFAULT_CATALOGUE.with_default("slow_play", PRO, P.REMARK)
    assert edited.get("slow_play").professional is P.REMARK
    assert DEFAULT_CATALOGUE.get("slow_play").professional is P.WARNING
    added = edited.with_infraction(
        Infraction("phone_use", Text("Телефон за столом", "Phone at the table"),
                   P.REMARK, P.WARNING, P.WARNING))
    assert "phone_use" in added and "phone_use" not in edited
    assert "slow_play" not in added.without("slow_play")
    with pytest.raises(NotFoundError):
        added.get("nothing")
    for code, name, highest in (("Bad Code", Text("a", "b"), P.REMARK),
                                (ACCUMULATION, Text("a", "b"), P.REMARK),
                                ("no_name", Text("", "b"), P.REMARK),
                                ("susp", Text("a", "b"), P.SUSPENSION)):
        with pytest.raises(UserError):
            Infraction(code, name, P.REMARK, P.REMARK, highest)
    with pytest.raises(UserError):
        Catalogue((*DEFAULT_CATALOGUE.infractions, DEFAULT_CATALOGUE.get("other")))


def test_give_penalty_refuses_a_used_id() -> None:
    first = give([], "slow_play")
    with pytest.raises(InvariantError):
        give_penalty([first], record_id=first.id, player=1,
                     infraction=DEFAULT_CATALOGUE.get("slow_play"), level=PRO,
                     given_at=GivenAt.during_game(1, 1), judge=FLOOR)


def test_given_at_is_validated() -> None:
    for round_, moment, game in ((0, Moment.DURING_GAME, 1), (1, Moment.BETWEEN_GAMES, 0),
                                 (-1, Moment.BETWEEN_MATCHES, 0), (2, Moment.BETWEEN_MATCHES, 1)):
        with pytest.raises(UserError):
            GivenAt(round_, moment, game)
    assert GivenAt.between_games(2, 1).text.en == "round 2, after game 1"

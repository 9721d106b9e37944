"""A test per rule (J-1..J-8, T-6) through the penalty services, on SQLite and PostgreSQL:
the ladder and its attachments, where losses land, disqualification, suspension, escalation and
accumulation, deviations and the head judge, appeals."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from tests.services.builders import ORGANIZER, snapshot
from tests.services.penalty_builders import (
    FLOOR,
    HEAD,
    finish_round,
    give,
    judged_event,
    line_of,
    report,
)
from turnir.clock import ManualClock
from turnir.domain.penalties import AppealOutcome, GivenAt, Penalty, PenaltyStatus
from turnir.domain.results import GameReason, MatchEnding, MatchOutcome, MatchResult
from turnir.domain.standings import PenaltyCounts
from turnir.errors import ConflictError, NotFoundError, UserError
from turnir.services.common import RulesLevel
from turnir.services.penalties import list_penalties, preview_penalty
from turnir.services.penalty_appeals import decide_appeal, withdraw_penalty
from turnir.services.penalty_catalogue import set_judging_settings
from turnir.services.players import register_player
from turnir.services.queries import audit_log, get_standings
from turnir.services.results import GameReport, record_result
from turnir.services.rounds import start_round
from turnir.services.suspensions import add_suspension, list_suspensions, set_suspension_term
from turnir.services.tournaments import get_tournament
from turnir.storage.database import Database
from turnir.storage.penalty_rows import without_prizes

P = Penalty

NOW = datetime(2027, 3, 1, 10, 0, tzinfo=UTC)
"""The services' clock in the suspension tests (their "today")."""


def today() -> date:
    return NOW.date()


def counts(db: Database, tid: int, player: int) -> PenaltyCounts:
    return get_tournament(db, tid).tournament.penalties.get(player, PenaltyCounts())


# ----- J-1, J-2 ------------------------------------------------------------------------------


def test_rule_J1_every_rung_of_the_ladder_is_given_and_kept(db: Database) -> None:
    tid = judged_event(db, 8, level=RulesLevel.AMATEUR)      # deviations are free here
    start_round(db, tid, actor=ORGANIZER)
    ladder = [P.REMARK, P.WARNING, P.GAME_LOSS, P.MATCH_LOSS, P.DISQUALIFICATION,
              P.DISQUALIFICATION_WITHOUT_PRIZES]
    for player, penalty in enumerate(ladder, start=1):
        give(db, tid, player, "other", penalty=penalty, note="рукоприкладство" * (player == 6))
    given = list_penalties(db, tid)
    assert [v.penalty for v in given] == ladder
    assert sorted(v.penalty for v in given) == ladder        # compared by strength
    assert [v.deviation for v in given] == [False] + [True] * 5
    with pytest.raises(UserError, match="only at Professional level or above"):
        give(db, tid, 7, "other", penalty=P.SUSPENSION, judge=HEAD)


def test_rule_J2_attached_penalties_count_in_T6(db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    game_loss = give(db, tid, 1, "drawing_extra_cards").penalty
    assert game_loss.effects == (P.GAME_LOSS, P.WARNING)
    assert counts(db, tid, 1) == PenaltyCounts(game_losses=1, penalty_points=2, warnings=1)
    dq = give(db, tid, 2, "theft").penalty
    assert dq.effects == (P.DISQUALIFICATION_WITHOUT_PRIZES, P.MATCH_LOSS, P.WARNING)
    assert counts(db, tid, 2) == PenaltyCounts(match_losses=1, penalty_points=5, warnings=1)


# ----- J-3 ------------------------------------------------------------------------------------


def test_rule_J3_deferred_game_loss_lands_on_the_next_game(db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    line = line_of(db, tid, 1)
    side = "a" if line.a == 1 else "b"
    other = "b" if side == "a" else "a"
    give(db, tid, 1, "drawing_extra_cards", given_at=GivenAt.during_game(1, 1), deferred=True)
    with pytest.raises(UserError, match="report the games one by one"):
        report(db, tid, 1, 1, 1)
    done = record_result(db, tid, 1, line.table, _played(side, other), actor=FLOOR,
                         games_played=[GameReport(side), GameReport(other)])
    assert (done.result.wins_a, done.result.wins_b) == ((1, 2) if side == "a" else (2, 1))


def _played(first: str, second: str) -> MatchResult:
    return MatchResult.played(int(first == "a") + int(second == "a"),
                              int(first == "b") + int(second == "b"))


def test_rule_J3_match_loss_during_a_match_decides_it_at_once(db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    line = line_of(db, tid, 4)
    done = give(db, tid, 4, "no_show")
    [recorded] = done.results
    assert recorded.result.ending is MatchEnding.PENALTY
    assert recorded.result.outcome is (MatchOutcome.B_WINS if line.a == 4 else MatchOutcome.A_WINS)
    assert done.penalty.applied_round == 1
    assert get_standings(db, tid).standings.row_of(4).points == 0


def test_rule_J3_match_loss_between_rounds_decides_the_next_match_when_paired(
        db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    finish_round(db, tid)
    waiting = give(db, tid, 5, "outside_assistance").penalty     # Professional: match loss
    assert waiting.pending_loss and waiting.given_at == GivenAt.between_matches(1)
    view = start_round(db, tid, actor=ORGANIZER)
    line = view.round.pairing_of(5)
    assert line is not None and line.result is not None
    assert line.result.ending is MatchEnding.PENALTY
    assert list_penalties(db, tid, 5)[0].applied_round == 2


def test_rule_J3_a_loss_entered_after_the_result_corrects_it(db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    line = line_of(db, tid, 6)
    report(db, tid, 6, 2, 0)                         # reported before the judge logged it
    with pytest.raises(UserError, match="record that match game by game first"):
        give(db, tid, 6, "drawing_extra_cards", given_at=GivenAt.during_game(1, 2))
    done = give(db, tid, 6, "drawing_extra_cards", given_at=GivenAt.during_game(1, 1))
    [corrected] = done.results
    assert corrected.status.value == "corrected"
    own = corrected.result.wins_a if line.a == 6 else corrected.result.wins_b
    other = corrected.result.wins_b if line.a == 6 else corrected.result.wins_a
    assert (own, other) == (2, 1)
    [entry] = audit_log(db, tid, action="result.correct")
    assert entry.actor == FLOOR


def test_rule_J3_a_loss_cannot_change_a_result_a_later_round_was_paired_from(
        db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    finish_round(db, tid)
    start_round(db, tid, actor=ORGANIZER)
    before = snapshot(db)
    with pytest.raises(UserError, match="later round was already paired"):
        give(db, tid, 1, "drawing_extra_cards", given_at=GivenAt.during_game(1, 1))
    assert snapshot(db) == before


def test_rule_J3_game_loss_waits_past_an_intentional_draw(db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    finish_round(db, tid)
    give(db, tid, 2, "tardiness")
    start_round(db, tid, actor=ORGANIZER)
    line = line_of(db, tid, 2)
    drawn = record_result(db, tid, 2, line.table, MatchResult.intentional_draw(), actor=FLOOR)
    assert drawn.result.ending is MatchEnding.INTENTIONAL_DRAW
    assert list_penalties(db, tid, 2)[0].pending_loss
    finish_round(db, tid)
    start_round(db, tid, actor=ORGANIZER)
    done = report(db, tid, 2, 2, 0)
    assert done.result.wins_a + done.result.wins_b == 3
    assert list_penalties(db, tid, 2)[0].applied_round == 3


# ----- J-4, J-5 -------------------------------------------------------------------------------


def test_rule_J4_without_prizes_is_flagged_for_the_ratings(db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    give(db, tid, 3, "aggressive_behaviour")
    give(db, tid, 4, "cheating", penalty=P.DISQUALIFICATION, confirmed_by=HEAD)
    with db.read() as conn:
        flagged = without_prizes(conn, tid)
        person = get_tournament(db, tid)
    assert list(flagged) == [3]
    assert flagged[3] is not None
    assert {p.id: p.dropped_after for p in person.tournament.players}[3] == 1


def test_rule_J5_only_the_official_head_judge_suspends_at_professional_level(
        db: Database) -> None:
    db.clock = ManualClock(NOW)
    tid = judged_event(db, 8, official_head=False)
    start_round(db, tid, actor=ORGANIZER)
    for judge in (FLOOR, HEAD):
        with pytest.raises(UserError, match="only the head judge, and only when an official"):
            give(db, tid, 1, "aggressive_behaviour", penalty=P.SUSPENSION, judge=judge,
                 confirmed_by=HEAD)
    official = judged_event(db, 8, official_head=True, name="Официальный")
    start_round(db, official, actor=ORGANIZER)
    done = give(db, official, 1, "aggressive_behaviour", penalty=P.SUSPENSION, judge=HEAD)
    assert done.penalty.effects == (P.SUSPENSION, P.DISQUALIFICATION_WITHOUT_PRIZES,
                                    P.MATCH_LOSS, P.WARNING)
    assert done.dropped_after == 1 and done.suspension_id is not None
    [entry] = list_suspensions(db)
    assert (entry.start, entry.until, entry.issued_by) == (today(), None, HEAD)
    assert entry.tournament == "Официальный" and entry.penalty_seq == done.penalty.seq


def test_rule_J5_a_suspended_player_cannot_register_for_an_official_tournament(
        db: Database) -> None:
    db.clock = ManualClock(NOW)
    first = judged_event(db, 8, official_head=True, name="Первый")
    start_round(db, first, actor=ORGANIZER)
    give(db, first, 1, "theft", penalty=P.SUSPENSION, judge=HEAD,
         suspension_until=today() + timedelta(days=30))
    official = judged_event(db, 0, name="Второй")             # Professional: official
    before = snapshot(db)
    with pytest.raises(UserError, match="Игрок 01: this player is suspended"):
        register_player(db, official, name="Игрок 01", city="Тверь", actor=ORGANIZER)
    assert snapshot(db) == before
    club = judged_event(db, 0, level=RulesLevel.AMATEUR, name="Клубный")   # not official
    register_player(db, club, name="Игрок 01", city="Тверь", actor=ORGANIZER)
    made_official = judged_event(db, 0, level=RulesLevel.AMATEUR, name="Кубок области")
    set_judging_settings(db, made_official, actor=ORGANIZER, official=True)
    with pytest.raises(UserError, match="suspended"):
        register_player(db, made_official, name="Игрок 01", city="Тверь", actor=ORGANIZER)
    [entry] = list_suspensions(db, person="Игрок 01")
    with pytest.raises(UserError, match="cannot end before it starts"):
        set_suspension_term(db, entry.id, until=today() - timedelta(days=1), actor="К")
    shorter = set_suspension_term(db, entry.id, until=today(), actor="Координатор")
    assert (shorter.until, shorter.version) == (today(), 2)
    assert list_suspensions(db, on=today()) == [shorter]
    assert list_suspensions(db, on=today() + timedelta(days=1)) == []
    # A suspension that ended yesterday blocks nobody.
    add_suspension(db, person="Игрок 02", start=today() - timedelta(days=30),
                   until=today() - timedelta(days=1), reason="старое", issued_by="Координатор",
                   actor="Координатор")
    register_player(db, official, name="Игрок 02", city="Тверь", actor=ORGANIZER)


# ----- J-6 ------------------------------------------------------------------------------------


def test_rule_J6_escalation_is_explained_and_counts_one_player_and_reason(db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    give(db, tid, 1, "slow_play")
    other_player = give(db, tid, 2, "slow_play").penalty
    other_reason = give(db, tid, 1, "game_rule_error").penalty
    second = give(db, tid, 1, "slow_play").penalty
    assert (other_player.penalty, other_reason.penalty, second.penalty) == (
        P.WARNING, P.WARNING, P.GAME_LOSS)
    assert second.explanation.en == \
        "second offence for slow play: raised from warning to game loss"


def test_rule_J6_three_match_losses_add_up_to_one_disqualification_never_a_suspension(
        db: Database) -> None:
    tid = judged_event(db, 8, rounds=3)
    start_round(db, tid, actor=ORGANIZER)
    for reason in ("no_show", "outside_assistance", "unsporting_major"):
        give(db, tid, 1, reason)                       # match losses, different reasons
    finish_round(db, tid)
    start_round(db, tid, actor=ORGANIZER)              # the second match loss decides round 2
    given = list_penalties(db, tid, 1)
    automatic = [v for v in given if v.automatic]
    assert [v.penalty for v in automatic] == [P.DISQUALIFICATION]
    assert P.SUSPENSION not in {v.penalty for v in given}
    assert get_tournament(db, tid).tournament.player(1).dropped_after == 2
    finish_round(db, tid)
    assert start_round(db, tid, actor=ORGANIZER).round.pairing_of(1) is None


# ----- J-7 ------------------------------------------------------------------------------------


def test_rule_J7_deviation_at_professional_level_needs_the_head_judge(db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    preview = preview_penalty(db, tid, player=1, reason="slow_play", judge=FLOOR,
                              penalty=P.GAME_LOSS)
    assert (preview.guide_penalty, preview.penalty, preview.needs_head_judge) == (
        P.WARNING, P.GAME_LOSS, True)
    before = snapshot(db)
    with pytest.raises(UserError, match="needs the head judge's confirmation"):
        give(db, tid, 1, "slow_play", penalty=P.GAME_LOSS)
    with pytest.raises(UserError, match="is not the head judge"):
        give(db, tid, 1, "slow_play", penalty=P.GAME_LOSS, confirmed_by=FLOOR)
    assert snapshot(db) == before
    confirmed = give(db, tid, 1, "slow_play", penalty=P.GAME_LOSS, confirmed_by=HEAD).penalty
    assert (confirmed.deviation, confirmed.confirmed_by) == (True, HEAD)
    assert "confirmed by the head judge" in confirmed.explanation.en
    own = give(db, tid, 2, "slow_play", penalty=P.REMARK, judge=HEAD).penalty
    assert own.confirmed_by == HEAD


def test_rule_J7_defaults_follow_the_rules_level_and_deviations_are_recorded(
        db: Database) -> None:
    amateur = judged_event(db, 4, level=RulesLevel.AMATEUR, name="Любительский")
    highest = judged_event(db, 4, level=RulesLevel.HIGHEST, name="Высший")
    assert give(db, amateur, 1, "tardiness").penalty.penalty is P.WARNING
    assert give(db, highest, 1, "tardiness").penalty.penalty is P.GAME_LOSS
    free = give(db, amateur, 2, "tardiness", penalty=P.REMARK).penalty
    assert free.deviation and free.confirmed_by == ""
    assert "судья назначил: замечание" in free.explanation.ru


# ----- J-8: appeals ---------------------------------------------------------------------------


def test_rule_J8_appeals_go_to_the_head_judge_and_are_recorded(db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    warned = give(db, tid, 1, "slow_play").penalty
    with pytest.raises(UserError, match="only the head judge may decide appeals"):
        decide_appeal(db, tid, warned.seq, outcome=AppealOutcome.WITHDRAWN, actor=FLOOR)
    with pytest.raises(ConflictError, match="since you loaded it"):
        decide_appeal(db, tid, warned.seq, outcome=AppealOutcome.UPHELD, actor=HEAD,
                      expected_version=warned.version + 1)
    upheld = decide_appeal(db, tid, warned.seq, outcome=AppealOutcome.UPHELD, actor=HEAD)
    assert "upheld by the head judge" in upheld.penalty.explanation.en
    changed = decide_appeal(db, tid, warned.seq, outcome=AppealOutcome.CHANGED, actor=HEAD,
                            changed_to=P.REMARK, note="первое нарушение за день")
    assert changed.penalty.penalty is P.REMARK and changed.appeal.before is P.WARNING
    assert counts(db, tid, 1) == PenaltyCounts()
    own = give(db, tid, 2, "slow_play", judge=HEAD).penalty
    with pytest.raises(UserError, match="final"):
        decide_appeal(db, tid, own.seq, outcome=AppealOutcome.WITHDRAWN, actor=HEAD)
    outcomes = [e.after["outcome"] for e in audit_log(db, tid, action="penalty.appeal")
                if e.after is not None]
    assert outcomes == ["upheld", "changed"]


def test_rule_J8_withdrawn_source_withdraws_the_automatic_penalty_and_its_game(
        db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    for reason in ("slow_play", "game_rule_error", "looking_at_extra_cards"):
        give(db, tid, 1, reason)
    finish_round(db, tid)                               # the automatic game loss
    start_round(db, tid, actor=ORGANIZER)
    applied = report(db, tid, 1, 2, 0)
    assert applied.result.wins_a + applied.result.wins_b == 3
    decision = decide_appeal(db, tid, 2, outcome=AppealOutcome.WITHDRAWN, actor=HEAD)
    assert decision.also_withdrawn == (4,)
    given = {v.seq: v for v in list_penalties(db, tid, 1)}
    assert given[4].status is PenaltyStatus.WITHDRAWN and given[4].applied_round is None
    line = line_of(db, tid, 1)
    assert line.result is not None and line.result.wins_a + line.result.wins_b == 2
    assert counts(db, tid, 1) == PenaltyCounts(penalty_points=2, warnings=2)


def test_head_judge_withdraws_a_penalty_entered_in_error(db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    wrong = give(db, tid, 1, "drawing_extra_cards").penalty
    with pytest.raises(UserError, match="only the head judge may withdraw"):
        withdraw_penalty(db, tid, wrong.seq, reason="не тот игрок", actor=FLOOR)
    view = withdraw_penalty(db, tid, wrong.seq, reason="не тот игрок", actor=HEAD)
    assert view.status is PenaltyStatus.WITHDRAWN and not view.pending_loss
    assert "не тот игрок" in view.explanation.ru
    assert counts(db, tid, 1) == PenaltyCounts()
    with pytest.raises(ConflictError, match="already withdrawn"):
        withdraw_penalty(db, tid, wrong.seq, reason="ещё раз", actor=HEAD)


# ----- refusals -------------------------------------------------------------------------------


def test_bad_penalty_requests_change_nothing(db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    before = snapshot(db)
    with pytest.raises(NotFoundError, match="known: unsporting_minor, slow_play"):
        give(db, tid, 1, "swearing")
    with pytest.raises(NotFoundError, match="no player #99"):
        give(db, tid, 99, "slow_play")
    with pytest.raises(UserError, match="is not a judge of this tournament"):
        give(db, tid, 1, "slow_play", judge="Зритель")
    with pytest.raises(UserError, match="organizer of this tournament; only the head judge"):
        give(db, tid, 1, "slow_play", judge=ORGANIZER)
    with pytest.raises(UserError, match="round 5 has not been paired"):
        give(db, tid, 1, "slow_play", given_at=GivenAt.during_game(5, 1))
    assert snapshot(db) == before
    give(db, tid, 1, "cheating")
    with pytest.raises(ConflictError, match="already disqualified"):
        give(db, tid, 1, "slow_play")


def test_a_repeated_request_with_the_same_key_gives_one_penalty(db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    first = give(db, tid, 1, "slow_play", idempotency_key="tap-17")
    again = give(db, tid, 1, "slow_play", idempotency_key="tap-17")
    assert again.penalty.seq == first.penalty.seq
    assert len(list_penalties(db, tid)) == 1
    with pytest.raises(ConflictError, match="already used for another request"):
        give(db, tid, 2, "slow_play", idempotency_key="tap-17")


def test_game_reasons_of_penalty_games(db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    give(db, tid, 1, "drawing_extra_cards")
    line = line_of(db, tid, 1)
    side, other = ("a", "b") if line.a == 1 else ("b", "a")
    done = record_result(db, tid, 1, line.table, _played(side, side), actor=FLOOR,
                         games_played=[GameReport(side, GameReason.LETHAL_DAMAGE),
                                       GameReport(side, GameReason.CONCESSION)])
    assert (done.result.wins_a, done.result.wins_b) == ((2, 1) if side == "a" else (1, 2))
    assert other != side


"""Issue 12: the round clock pauses, resumes and gets more time, with its time given by the
service (a clock passed in); pairing starts the clock when the tournament says so; once
check-in has started, round 1 leaves out who did not check in (item 6) and names them; the
round wizard's next step and the finish preview (item 8)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.services.builders import JUDGE, ORGANIZER, event
from turnir.domain.results import parse_result
from turnir.errors import ConflictError, UserError
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.players import check_in, list_players
from turnir.services.queries import audit_log
from turnir.services.results import record_result
from turnir.services.round_clock import (
    add_time,
    clock_setting,
    pause_timer,
    resume_timer,
    round_timer,
    set_clock_setting,
    start_timer,
)
from turnir.services.round_wizard import Step, round_wizard
from turnir.services.rounds import start_round
from turnir.services.tournaments import finish_preview, finish_tournament
from turnir.storage.database import Database

T0 = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def _finish_round(db: Database, tid: int, score: str = "2-1") -> None:
    """Record a result at every open table of the current round."""
    wizard = round_wizard(db, tid)
    assert wizard.round is not None
    for table in wizard.open_tables:
        record_result(db, tid, wizard.round, table, parse_result(score), actor=JUDGE)


def test_the_clock_pauses_resumes_and_gets_more_time_by_the_given_times(db: Database) -> None:
    tid = event(db, 4)
    start_round(db, tid, actor=ORGANIZER)
    start_timer(db, tid, 1, minutes=50, actor=ORGANIZER, now=T0)
    at_10 = T0 + timedelta(minutes=10)
    paused = pause_timer(db, tid, 1, actor=ORGANIZER, now=at_10)
    assert paused.paused and paused.remaining_s(at_10 + timedelta(hours=5)) == 40 * 60
    stored = round_timer(db, tid, 1)
    assert stored is not None and stored.paused and stored.paused_at == at_10
    with pytest.raises(ConflictError, match="already paused"):
        pause_timer(db, tid, 1, actor=ORGANIZER, now=at_10)
    more = add_time(db, tid, 1, minutes=5, actor=ORGANIZER, now=at_10 + timedelta(minutes=1))
    assert more.paused and more.remaining_s(T0) == 45 * 60  # still standing: 40 + 5
    at_17 = T0 + timedelta(minutes=17)  # stood still for 7 minutes
    resumed = resume_timer(db, tid, 1, actor=ORGANIZER, now=at_17)
    assert not resumed.paused and resumed.remaining_s(at_17) == 45 * 60
    assert resumed.ends_at == at_17 + timedelta(minutes=45)
    with pytest.raises(ConflictError, match="not paused"):
        resume_timer(db, tid, 1, actor=ORGANIZER, now=at_17)
    # time that has run out: +5 gives five minutes from now
    late = at_17 + timedelta(hours=2)
    assert add_time(db, tid, 1, minutes=5, actor=ORGANIZER, now=late).ends_at == \
        late + timedelta(minutes=5)
    with pytest.raises(UserError, match="from 1 to 120"):
        add_time(db, tid, 1, minutes=0, actor=ORGANIZER, now=late)
    actions = [e.after.get("action") for e in audit_log(db, tid) if e.action == "round.timer"]
    assert actions == [None, "pause", "add", "resume", "add"]


def test_a_clock_never_started_cannot_be_paused(db: Database) -> None:
    tid = event(db, 4)
    start_round(db, tid, actor=ORGANIZER)
    with pytest.raises(ConflictError, match="has not been started"):
        pause_timer(db, tid, 1, actor=ORGANIZER, now=T0)


def test_pairing_starts_the_clock_when_the_setting_says_so(db: Database) -> None:
    tid = event(db, 4)
    assert clock_setting(db, tid) is None
    set_clock_setting(db, tid, 40, actor=ORGANIZER)
    assert clock_setting(db, tid) == 40
    view = start_round(db, tid, actor=ORGANIZER)
    assert view.clock is not None and view.clock.duration_s == 40 * 60
    timer = round_timer(db, tid, 1)
    assert timer is not None and timer.duration_s == 40 * 60 and not timer.paused
    with pytest.raises(UserError, match="1 to 600"):
        set_clock_setting(db, tid, 0, actor=ORGANIZER)
    set_clock_setting(db, tid, None, actor=ORGANIZER)
    assert [e.after for e in audit_log(db, tid) if e.action == "tournament.clock"] == [
        {"clock_minutes": 40}, {"clock_minutes": None}]


def test_once_check_in_has_started_round_1_leaves_out_the_unchecked_and_names_them(
        db: Database) -> None:
    """Issue 12 item 6: before, round 1 paired a player who never checked in unless a checkbox
    was ticked."""
    tid = event(db, 6)
    for number in (1, 2, 3, 4, 5):
        check_in(db, tid, number, actor=ORGANIZER)
    wizard = round_wizard(db, tid)
    assert wizard.step is Step.PAIR and wizard.checkin_started
    assert wizard.unchecked == ("Игрок 06",)
    view = start_round(db, tid, actor=ORGANIZER, leave_out_absent=True)
    assert view.left_out == ("Игрок 06",)
    assert 6 not in {pid for line in view.round.pairings for pid in line.players}
    assert {p.number: p.dropped_after for p in list_players(db, tid)}[6] == 0
    assert round_wizard(db, tid).left_out == ("Игрок 06",)


def test_before_check_in_starts_everyone_is_paired_and_pair_everyone_keeps_them(
        db: Database) -> None:
    tid = event(db, 4)
    view = start_round(db, tid, actor=ORGANIZER, leave_out_absent=True)  # nobody checked in
    assert view.left_out == () and len(view.round.pairings) == 2
    other = event(db, 4, name="Второй")
    check_in(db, other, 1, actor=ORGANIZER)
    everyone = start_round(db, other, actor=ORGANIZER, leave_out_absent=False)  # anyway
    assert everyone.left_out == () and len(everyone.round.pairings) == 2


def test_once_check_in_has_started_every_path_leaves_the_unchecked_out_by_default(
        db: Database) -> None:
    """Issue 12 item 6: the service's default (the CLI and the API call it so) leaves out who
    did not check in once anyone has, and names them."""
    tid = event(db, 5)
    for number in (1, 2, 3, 4):
        check_in(db, tid, number, actor=ORGANIZER)
    view = start_round(db, tid, actor=ORGANIZER)
    assert len(view.round.pairings) == 2 and len(view.left_out) == 1
    assert all(5 not in (line.a, line.b) for line in view.round.pairings)


def test_the_wizard_offers_the_top_then_finish_and_the_preview_warns_without_head_judge(
        db: Database) -> None:
    tid = event(db, 8, rounds=2, top=2)
    assert round_wizard(db, tid).step is Step.PAIR
    for _ in (1, 2):
        start_round(db, tid, actor=ORGANIZER)
        wizard = round_wizard(db, tid)
        assert wizard.step is Step.RESULTS and len(wizard.open_tables) == 4
        _finish_round(db, tid)
    wizard = round_wizard(db, tid)
    assert wizard.step is Step.TOP and wizard.next_round == 3
    preview = finish_preview(db, tid)
    assert preview.rounds_remain and not preview.head_judge and preview.open_tables == ()
    start_round(db, tid, actor=ORGANIZER)
    assert round_wizard(db, tid).top_round
    _finish_round(db, tid)
    assert round_wizard(db, tid).step is Step.FINISH  # not "pair the next round"
    with pytest.raises(ConflictError, match="finish the tournament"):  # not "is finished"
        start_round(db, tid, actor=ORGANIZER)
    add_judge(db, tid, name="Главный Судья", role=JudgeRole.HEAD_JUDGE, actor=ORGANIZER)
    preview = finish_preview(db, tid)
    assert not preview.rounds_remain and preview.head_judge
    finish_tournament(db, tid, actor=ORGANIZER)
    assert round_wizard(db, tid).step is Step.DONE

"""The round clock (``docs/web.md``): the organizer starts it for a round with a length in
minutes (or pairing the round starts it, when the tournament's setting "start the clock with
the round, minutes" is set); the organizer or the head judge pauses it, resumes it and adds
time; everyone's pages count down to its end, or show it paused.

Every change takes its time from the service (``changing``'s ``at``, or ``now`` given by the
caller, as the tests do): nothing here reads the wall clock itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from turnir.errors import ConflictError, UserError
from turnir.services.common import Database, Tx, changing, reading, refuse_when_finished
from turnir.services.judges import HEAD_OR_ORGANIZER, ORGANIZER_ONLY, check_staff
from turnir.storage import clock_repo
from turnir.storage.clock_repo import ClockRow
from turnir.storage.mappers import tournament_row
from turnir.storage.repositories import Change, round_row

MAX_MINUTES = 600
"""A round's clock lasts at most this long (and the setting is at most this)."""
MAX_ADDED = 120
"""Time added at once, in minutes."""


@dataclass(frozen=True, slots=True)
class RoundTimer:
    round: int
    started_at: datetime
    duration_s: int
    paused_at: datetime | None = None
    """Since when the clock stands still; ``None`` while it runs."""

    @property
    def ends_at(self) -> datetime:
        """When the round ends if the clock runs on (while paused: had it not been paused)."""
        return self.started_at + timedelta(seconds=self.duration_s)

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    def remaining_s(self, now: datetime) -> int:
        """Seconds left at ``now`` (a paused clock keeps what it had when paused)."""
        at = self.paused_at if self.paused_at is not None else now
        return max(0, int((self.ends_at - at).total_seconds()))


def _timer(round_number: int, row: ClockRow) -> RoundTimer:
    return RoundTimer(round_number, row.started_at, row.duration_s, row.paused_at)


def _json(timer: RoundTimer) -> dict[str, Any]:
    return {"started_at": timer.started_at.isoformat(), "duration_s": timer.duration_s,
            "paused_at": None if timer.paused_at is None else timer.paused_at.isoformat()}


def start_clock_in(change: Change, tournament_id: int, round_number: int, minutes: int,
                   at: datetime) -> RoundTimer:
    """Start round ``round_number``'s clock in ``change`` (its checks done by the caller)."""
    if not 1 <= minutes <= MAX_MINUTES:
        raise UserError("a round lasts from 1 to 600 minutes", code="bad_timer")
    timer = RoundTimer(round_number, at, minutes * 60)
    clock_repo.set_round_clock(change.conn, tournament_id, round_number,
                               ClockRow(timer.started_at, timer.duration_s, None))
    change.log(tournament_id, "round.timer", "round", round_number, None,
               {"minutes": minutes, "started_at": at.isoformat()})
    return timer


def start_timer(db: Database, tournament_id: int, round_number: int, *, minutes: int,
                actor: str, account_id: int | None = None,
                now: datetime | None = None) -> RoundTimer:
    """Start (or restart) the round's clock for ``minutes``; a web account (``account_id``)
    must be the tournament's organizer (``turnir.services.judges``)."""
    if not 1 <= minutes <= MAX_MINUTES:
        raise UserError("a round lasts from 1 to 600 minutes", code="bad_timer")
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        refuse_when_finished(tournament_row(conn, tournament_id))
        check_staff(conn, tournament_id, account_id, ORGANIZER_ONLY, what="start the clock")
        round_row(conn, tournament_id, round_number)
        return start_clock_in(change, tournament_id, round_number, minutes, now or change.at)


def _change_clock(db: Database, tournament_id: int, round_number: int, *, actor: str,
                  account_id: int | None, now: datetime | None, action: str,
                  minutes: int = 0) -> RoundTimer:
    """Pause, resume or lengthen a started clock; the organizer or the head judge."""
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        refuse_when_finished(tournament_row(conn, tournament_id))
        check_staff(conn, tournament_id, account_id, HEAD_OR_ORGANIZER, what="run the clock")
        round_row(conn, tournament_id, round_number)
        found = clock_repo.round_clock(conn, tournament_id, round_number)
        if found is None:
            raise ConflictError("the clock of round {round} has not been started",
                                code="no_timer", round=round_number)
        before = _timer(round_number, found)
        after = _moved(before, action, now or change.at, minutes)
        clock_repo.set_round_clock(conn, tournament_id, round_number,
                                   ClockRow(after.started_at, after.duration_s, after.paused_at))
        change.log(tournament_id, "round.timer", "round", round_number, _json(before),
                   {"action": action, **_json(after)})
        return after


def _moved(timer: RoundTimer, action: str, at: datetime, minutes: int) -> RoundTimer:
    if action == "pause":
        if timer.paused:
            raise ConflictError("the clock is already paused", code="timer_paused")
        return RoundTimer(timer.round, timer.started_at, timer.duration_s, at)
    if action == "resume":
        if timer.paused_at is None:
            raise ConflictError("the clock is not paused", code="timer_running")
        still = max(timedelta(0), at - timer.paused_at)
        return RoundTimer(timer.round, timer.started_at + still, timer.duration_s)
    # add: the time left grows by ``minutes`` (from now, when it had run out)
    if not 1 <= minutes <= MAX_ADDED:
        raise UserError("add from 1 to 120 minutes", code="bad_added_time")
    ref = timer.paused_at or at
    if timer.ends_at >= ref:
        duration = timer.duration_s + minutes * 60
    else:
        duration = round((ref - timer.started_at).total_seconds()) + minutes * 60
    if duration > MAX_MINUTES * 60:
        raise UserError("a round lasts from 1 to 600 minutes", code="bad_timer")
    return RoundTimer(timer.round, timer.started_at, duration, timer.paused_at)


def pause_timer(db: Database, tournament_id: int, round_number: int, *, actor: str,
                account_id: int | None = None, now: datetime | None = None) -> RoundTimer:
    """Stop the round's clock where it stands (everyone's pages show it paused)."""
    return _change_clock(db, tournament_id, round_number, actor=actor, account_id=account_id,
                         now=now, action="pause")


def resume_timer(db: Database, tournament_id: int, round_number: int, *, actor: str,
                 account_id: int | None = None, now: datetime | None = None) -> RoundTimer:
    """Let a paused clock run on: the round ends later by the time it stood still."""
    return _change_clock(db, tournament_id, round_number, actor=actor, account_id=account_id,
                         now=now, action="resume")


def add_time(db: Database, tournament_id: int, round_number: int, *, minutes: int, actor: str,
             account_id: int | None = None, now: datetime | None = None) -> RoundTimer:
    """Give the round ``minutes`` more (running or paused)."""
    return _change_clock(db, tournament_id, round_number, actor=actor, account_id=account_id,
                         now=now, action="add", minutes=minutes)


def round_timer(db: Database, tournament_id: int, round_number: int) -> RoundTimer | None:
    with reading(db) as tx:
        return round_timer_in(tx, tournament_id, round_number)


def round_timer_in(tx: Tx, tournament_id: int, round_number: int) -> RoundTimer | None:
    """``round_timer`` inside the caller's transaction (the match card's page, issue 15)."""
    found = clock_repo.round_clock(tx, tournament_id, round_number)
    return None if found is None else _timer(round_number, found)


def clock_setting(db: Database, tournament_id: int) -> int | None:
    """Minutes the clock starts with when a round is paired (``None``: started by hand)."""
    with reading(db) as tx:
        tournament_row(tx, tournament_id)
        return clock_repo.clock_minutes(tx, tournament_id)


def set_clock_setting(db: Database, tournament_id: int, minutes: int | None, *, actor: str,
                      account_id: int | None = None) -> int | None:
    """Set "start the clock with the round, minutes" (``None``: the organizer starts it)."""
    if minutes is not None and not 1 <= minutes <= MAX_MINUTES:
        raise UserError("a round lasts from 1 to 600 minutes", code="bad_timer")
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        refuse_when_finished(tournament_row(conn, tournament_id))
        check_staff(conn, tournament_id, account_id, ORGANIZER_ONLY, what="start the clock")
        before = clock_repo.clock_minutes(conn, tournament_id)
        if before != minutes:
            clock_repo.set_clock_minutes(conn, tournament_id, minutes)
            change.log(tournament_id, "tournament.clock", "tournament", tournament_id,
                       {"clock_minutes": before}, {"clock_minutes": minutes})
        return minutes

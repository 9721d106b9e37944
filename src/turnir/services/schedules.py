"""Tournament schedules (issue 13; C-1, C-2; 004: starter constructed runs daily at 9:15, 15:15
and 19:15 Moscow time): a site organizer keeps recurring tournament templates, and
``run_schedules`` — one pass, run by ``turnir schedule run`` or every minute by the server —
does what is due at the moment it is given:

1. *Open*: when a start's registration window opens (``turnir.domain.schedule.starts_opening``) the
   event is claimed (one row per schedule and start: a second pass claims nothing), its
   tournament created (``services.tournaments.create_tournament``, the schedule's organizer as
   its organizer), given the schedule's format with the start and the online flag
   (``services.deck_formats.set_tournament_format``: a starter format makes it unrated, C-2)
   and left in registration: players are registered as in any tournament.
2. *Start*: at the start, with at least the schedule's fewest players (C-1: 4) registered —
   checked-in players when check-in has started — round 1 is paired
   (``services.rounds.start_round``) and the event is "started"; otherwise it is cancelled:
   the event keeps the message («Турнир отменён: …», shown on the tournament's page) and the
   tournament is closed without rounds. **Decided**: closing it is the tournament's status
   set to finished in the same transaction that stores the message (``tournaments_repo.touch``,
   logged as ``tournament.cancel``); ``finish_tournament`` refuses a tournament without a
   round, and a closed tournament takes no more players, results or ratings.
3. *Run*: on later passes, when every result of the current round is in, the next round is
   paired; after the last round the tournament is finished (``finish_tournament``).

Every step is its own transaction and is safe to repeat: a step another pass did first is
skipped. The clock is the caller's (``now``); nothing here reads it but the defaults of the
read-only views.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from turnir.domain.accounts import AccountRole
from turnir.domain.limits import check_number
from turnir.domain.model import Settings, Status, TournamentFormat
from turnir.domain.schedule import (
    DEFAULT_ZONE,
    MAX_PLAYERS,
    MAX_TIMES,
    MIN_PLAYERS,
    Schedule,
    ScheduleSettings,
    cancel_from_text,
    cancel_message,
    decide_start,
    event_name,
    new_schedule,
    next_starts,
    parse_time,
    parse_times,
    starts_opening,
    time_text,
    zone_of,
)
from turnir.domain.tournament import Phase
from turnir.errors import ConflictError, ForbiddenError, NotFoundError, Term, UserError
from turnir.i18n import error_text
from turnir.services.common import Database, Tx, changing, reading
from turnir.services.deck_formats import set_tournament_format
from turnir.services.rounds import start_round
from turnir.services.tournaments import create_tournament, finish_tournament, get_tournament
from turnir.storage import formats_repo, players_repo, schedules_repo, tournaments_repo
from turnir.storage.accounts_repo import account_by_id
from turnir.storage.mappers import tournament_row
from turnir.storage.schedules_repo import StoredEvent, StoredSchedule

ACTOR = "schedule"
"""Who the server's periodic run writes to the audit log."""


@dataclass(frozen=True, slots=True)
class ScheduleInfo:
    """A schedule with its next starts."""

    id: int
    schedule: Schedule
    format_name: str
    version: int
    next_starts: tuple[datetime, ...]
    """The next starts (UTC) after the moment it was read."""

    @property
    def times(self) -> tuple[str, ...]:
        return tuple(time_text(t) for t in self.schedule.times)


@dataclass(frozen=True, slots=True)
class EventInfo:
    """One event a schedule created."""

    schedule_id: int
    schedule_name: str
    starts_at: datetime
    """In UTC."""
    time_zone: str
    tournament_id: int | None
    state: str
    """open, started or cancelled."""
    message: UserError | None
    """Why it was cancelled (translated where shown)."""
    finished: bool = False


@dataclass(frozen=True, slots=True)
class RunStep:
    """One thing a pass did: opened, started, cancelled, paired, finished or failed."""

    action: str
    schedule_name: str
    starts_at: datetime
    tournament_id: int | None
    round: int | None = None
    error: UserError | None = None


@dataclass(frozen=True, slots=True)
class ScheduleRun:
    """What one pass of ``run_schedules`` did, in order."""

    now: datetime
    steps: tuple[RunStep, ...] = field(default_factory=tuple)

    def of(self, action: str) -> list[RunStep]:
        return [s for s in self.steps if s.action == action]


class ScheduleProblems(UserError):
    """Every problem of a schedule as typed (``problems``, each naming its field), so that the
    form reports them all at once (QA 13); its message lists them, each translated."""

    code = "bad_schedule"

    def __init__(self, problems: Sequence[UserError]) -> None:
        listed = problems[-1]
        for first in reversed(problems[:-1]):
            listed = UserError("{first}; {rest}", first=first, rest=listed)
        super().__init__("the schedule has {count} problems: {problems}",
                         count=len(problems), problems=listed)
        self.problems = tuple(problems)


def _problem(check: Callable[..., object], *args: object, **kwargs: object) -> list[UserError]:
    """``check(*args, **kwargs)``'s problem, if any."""
    try:
        check(*args, **kwargs)
    except UserError as error:
        return [error]
    return []


def schedule_problems(name: str, times: Sequence[str], *, zone: str, min_players: int,
                      settings: ScheduleSettings | None) -> list[UserError]:
    """Every problem of a schedule as typed, in the form's order: the name, each start time
    that is not HH:MM, the number of times, the zone, the fewest players, the settings."""
    found = _problem(new_schedule, name, ("00:00",), zone="UTC")  # the name only
    bad = [p for t in times[:MAX_TIMES * 2] if t.strip() for p in _problem(parse_time, t)]
    found.extend(bad or _problem(parse_times, tuple(times)))
    found.extend(_problem(zone_of, zone))
    found.extend(_problem(check_number, min_players, what=Term("fewest players"),
                          low=MIN_PLAYERS, high=MAX_PLAYERS))
    found.extend(_problem((settings or ScheduleSettings()).checked))
    return found


def raise_problems(problems: Sequence[UserError]) -> None:
    """Nothing for no problem; the problem itself for one; ``ScheduleProblems`` for more."""
    if len(problems) == 1:
        raise problems[0]
    if problems:
        raise ScheduleProblems(problems)


# ----- keeping schedules --------------------------------------------------------------------


def _check_site_organizer(tx: Tx, account_id: int | None) -> None:
    if account_id is not None and AccountRole(
            account_by_id(tx, account_id).role) is not AccountRole.ORGANIZER:
        raise ForbiddenError("only a site organizer keeps the tournament schedules",
                             code="forbidden")


def _format_id(tx: Tx, ref: int | str | None) -> int | None:
    """A format by id or by name (case-insensitive)."""
    if ref is None or ref == "":
        return None
    formats = formats_repo.all_formats(tx)
    for f in formats:
        if isinstance(ref, str) and f.name.casefold() == " ".join(ref.split()).casefold():
            return f.id
    number = ref if isinstance(ref, int) else int(ref) if ref.strip().isdecimal() else None
    for f in formats:
        if f.id == number:
            return f.id
    raise NotFoundError("no format {name!r}", code="unknown_format", name=str(ref)[:100])


def _domain(stored: StoredSchedule) -> Schedule:
    return new_schedule(stored.name, stored.times, zone=stored.time_zone,
                        format_id=stored.format_id,
                        settings=ScheduleSettings.from_json(stored.settings),
                        min_players=stored.min_players, active=stored.active)


def _info(tx: Tx, stored: StoredSchedule, now: datetime) -> ScheduleInfo:
    schedule = _domain(stored)
    fmt = None if stored.format_id is None else formats_repo.format_by_id(tx, stored.format_id)
    starts = next_starts(schedule, now, 3) if schedule.active else []
    return ScheduleInfo(stored.id, schedule, "" if fmt is None else fmt.name, stored.version,
                        tuple(starts))


def _json(schedule: Schedule) -> dict[str, object]:
    return {"name": schedule.name, "times": [time_text(t) for t in schedule.times],
            "time_zone": schedule.zone, "format_id": schedule.format_id,
            "settings": schedule.settings.to_json(), "min_players": schedule.min_players,
            "active": schedule.active}


def add_schedule(
    db: Database, *, name: str, times: Sequence[str], actor: str, zone: str = DEFAULT_ZONE,
    format: int | str | None = None, settings: ScheduleSettings | None = None,
    min_players: int = MIN_PLAYERS, active: bool = True, account_id: int | None = None,
    problems: Sequence[UserError] = (),
) -> ScheduleInfo:
    """A new schedule (a site organizer's; ``account_id`` ``None``: the local operator).
    ``format``: the format's id or name. Every problem of what was typed is reported at once
    (``ScheduleProblems``), with ``problems`` the caller found reading its form first."""
    with changing(db, None, actor) as change:
        conn = change.conn
        _check_site_organizer(conn, account_id)
        raise_problems([*problems, *schedule_problems(name, times, zone=zone,
                                                      min_players=min_players,
                                                      settings=settings)])
        schedule = new_schedule(name, tuple(times), zone=zone, format_id=_format_id(conn, format),
                                settings=settings, min_players=min_players, active=active)
        if schedules_repo.schedule_named(conn, schedule.name) is not None:
            raise UserError("a schedule named {name!r} exists already", code="duplicate_schedule",
                            name=schedule.name)
        values = _json(schedule)
        sid = schedules_repo.insert_schedule(
            conn, name=schedule.name, times=[time_text(t) for t in schedule.times],
            time_zone=schedule.zone, format_id=schedule.format_id,
            settings=schedule.settings.to_json(), min_players=schedule.min_players,
            active=schedule.active, at=change.at, actor=change.actor)
        change.log(None, "schedule.add", "schedule", sid, None, values)
        return _info(conn, _stored(conn, sid), change.at)


def _stored(tx: Tx, schedule_id: int) -> StoredSchedule:
    found = schedules_repo.schedule(tx, schedule_id)
    if found is None:
        raise NotFoundError("no schedule #{id}", code="unknown_schedule", id=schedule_id)
    return found


def update_schedule(
    db: Database, schedule_id: int, *, actor: str, account_id: int | None = None,
    active: bool | None = None, times: Sequence[str] | None = None, zone: str | None = None,
    format: int | str | None = None, settings: ScheduleSettings | None = None,
    min_players: int | None = None, expected_version: int | None = None,
) -> ScheduleInfo:
    """Change a schedule (what is given); events already created keep their tournaments."""
    with changing(db, None, actor) as change:
        conn = change.conn
        _check_site_organizer(conn, account_id)
        old = _stored(conn, schedule_id)
        if expected_version is not None and expected_version != old.version:
            raise UserError("the schedule was changed since you loaded it; reload and try again",
                            code="stale_version")
        was = _domain(old)
        schedule = new_schedule(
            was.name, tuple(times) if times is not None else old.times,
            zone=zone if zone is not None else was.zone,
            format_id=_format_id(conn, format) if format is not None else was.format_id,
            settings=settings or was.settings,
            min_players=min_players if min_players is not None else was.min_players,
            active=was.active if active is None else active)
        values = _json(schedule)
        schedules_repo.update_schedule(conn, schedule_id, old.version, {
            **{k: v for k, v in values.items() if k != "name"}})
        change.log(None, "schedule.update", "schedule", schedule_id, _json(was), values)
        return _info(conn, _stored(conn, schedule_id), change.at)


def list_schedules(db: Database, *, now: datetime | None = None) -> list[ScheduleInfo]:
    """Every schedule with its next starts after ``now`` (the services' clock by default)."""
    moment = now or db.clock.now()
    with reading(db) as tx:
        return [_info(tx, s, moment) for s in schedules_repo.all_schedules(tx)]


def find_schedule(db: Database, ref: int | str) -> ScheduleInfo:
    """A schedule by number or by name."""
    with reading(db) as tx:
        found = (schedules_repo.schedule(tx, ref) if isinstance(ref, int)
                 else schedules_repo.schedule_named(tx, " ".join(ref.split())))
        if found is None:
            raise NotFoundError("no schedule {name!r}", code="unknown_schedule", name=str(ref))
        return _info(tx, found, db.clock.now())


def _event_info(event: StoredEvent, schedule: StoredSchedule) -> EventInfo:
    message = cancel_from_text(event.message) if event.state == "cancelled" else None
    if message is None and event.message:
        message = UserError("{reason}", code="cancelled", reason=event.message)
    return EventInfo(schedule.id, schedule.name, event.starts_at, schedule.time_zone,
                     event.tournament_id, event.state, message,
                     event.tournament_status == Status.FINISHED)


def cancel_reason(text: str, locale: str) -> str:
    """A stored cancel message (``tournament.cancel``'s reason) in ``locale``."""
    error = cancel_from_text(text)
    return text if error is None else error_text(error, locale)


def upcoming_events(db: Database, *, now: datetime | None = None,
                    limit: int = 20) -> list[EventInfo]:
    """Events created from the last six hours on, by start, with the starts still to be
    created (state "planned", no tournament) of the active schedules."""
    moment = now or db.clock.now()
    with reading(db) as tx:
        known = {s.id: s for s in schedules_repo.all_schedules(tx)}
        found = [_event_info(e, known[e.schedule_id]) for e in schedules_repo.events_of(
            tx, since=moment - timedelta(hours=6), limit=limit)]
    taken = {(e.schedule_id, e.starts_at) for e in found}
    for stored in known.values():
        if stored.active:
            found.extend(EventInfo(stored.id, stored.name, start, stored.time_zone, None,
                                   "planned", None)
                         for start in next_starts(_domain(stored), moment, 3)
                         if (stored.id, start) not in taken)
    return sorted(found, key=lambda e: (e.starts_at, e.schedule_name))[:limit]


def scheduled_event(db: Database, tournament_id: int) -> EventInfo | None:
    """The schedule's event of a tournament (``None``: the tournament was not scheduled)."""
    with reading(db) as tx:
        event = schedules_repo.event_of_tournament(tx, tournament_id)
        if event is None:
            return None
        return _event_info(event, _stored(tx, event.schedule_id))


# ----- one pass ------------------------------------------------------------------------------


def _step(action: str, schedule_name: str, start: datetime, tournament_id: int | None, *,
          round: int | None = None, error: UserError | None = None) -> RunStep:
    return RunStep(action, schedule_name, start, tournament_id, round, error)


def _open_event(db: Database, schedule_id: int, schedule: Schedule, start: datetime, *,
                actor: str) -> list[RunStep]:
    """Claim a start's event and create its tournament in registration (step 1)."""
    with changing(db, None, actor) as change:
        event_id = schedules_repo.claim_event(change.conn, schedule_id, start)
    if event_id is None:
        return []
    settings = schedule.settings
    try:
        info = create_tournament(
            db, name=event_name(schedule.name, start, schedule.zone), actor=actor,
            settings=Settings(best_of=settings.best_of, swiss_rounds=settings.swiss_rounds),
            format=TournamentFormat.CONSTRUCTED, rules_level=settings.rules_level,
            organizer_login=settings.organizer or None)
    except UserError as error:
        with changing(db, None, actor) as change:
            schedules_repo.set_event_state(change.conn, event_id, from_state="open",
                                           state="cancelled", message=error.message)
        return [_step("failed", schedule.name, start, None, error=error)]
    with changing(db, info.id, actor) as change:
        schedules_repo.attach_tournament(change.conn, event_id, info.id)
        change.log(info.id, "schedule.open", "scheduled_event", event_id, None,
                   {"schedule": schedule.name, "starts_at": start.isoformat()})
    try:
        if schedule.format_id is not None:
            set_tournament_format(db, info.id, actor=actor, account_id=None,
                                  format_id=schedule.format_id, starts_at=start,
                                  online=settings.online)
    except UserError as error:
        return [_step("opened", schedule.name, start, info.id),
                _step("failed", schedule.name, start, info.id, error=error)]
    return [_step("opened", schedule.name, start, info.id)]


def _players(tx: Tx, tournament_id: int) -> int:
    """Players who will play round 1: those checked in once check-in has started."""
    checked = players_repo.count_entries(tx, tournament_id, active_only=True,
                                         checked_in_only=True)
    return checked or players_repo.count_entries(tx, tournament_id, active_only=True)


def _start_or_cancel(db: Database, event: StoredEvent, schedule: Schedule, *,
                     actor: str) -> list[RunStep]:
    """At the start: pair round 1, or cancel with the message (step 2)."""
    tid = event.tournament_id
    assert tid is not None
    with changing(db, tid, actor) as change:
        conn = change.conn
        row = tournament_row(conn, tid)
        decision = decide_start(_players(conn, tid), schedule.min_players)
        if row["status"] != Status.REGISTRATION:
            schedules_repo.set_event_state(conn, event.id, from_state="open", state="started")
            return []
        if not decision.start:
            message = cancel_message(decision)
            if not schedules_repo.set_event_state(conn, event.id, from_state="open",
                                                  state="cancelled", message=message.message):
                return []
            tournaments_repo.touch(conn, tid, row["version"],
                                   {"status": Status.FINISHED.value, "finished_at": change.at})
            change.log(tid, "tournament.cancel", "tournament", tid,
                       {"status": row["status"], "version": row["version"]},
                       {"status": Status.FINISHED.value, "version": row["version"] + 1,
                        "reason": message.message, "registered": decision.registered,
                        "needed": decision.needed})
            return [_step("cancelled", schedule.name, event.starts_at, tid, error=message)]
        version = int(row["version"])
    try:
        view = start_round(db, tid, actor=actor, expected_version=version)
    except UserError as error:
        if error.code == "stale_version":  # another pass paired it first
            return []
        return [_step("failed", schedule.name, event.starts_at, tid, error=error)]
    with changing(db, None, actor) as change:
        schedules_repo.set_event_state(change.conn, event.id, from_state="open", state="started")
    return [_step("started", schedule.name, event.starts_at, tid, round=view.round.number)]


def _advance(db: Database, event: StoredEvent, schedule_name: str, *,
             actor: str) -> list[RunStep]:
    """A started event: pair the next round once every result is in, or finish (step 3)."""
    tid = event.tournament_id
    assert tid is not None
    details = get_tournament(db, tid)
    current = details.tournament.current_round
    if details.info.status != Status.RUNNING or current is None or not current.finished:
        return []
    try:
        if details.tournament.phase is Phase.FINISHED:
            finish_tournament(db, tid, actor=actor, expected_version=details.info.version)
            return [_step("finished", schedule_name, event.starts_at, tid)]
        view = start_round(db, tid, actor=actor, expected_version=details.info.version)
    except ConflictError as error:
        if error.code == "stale_version":  # another pass (or a person) did it first
            return []
        return [_step("failed", schedule_name, event.starts_at, tid, error=error)]
    except UserError as error:
        return [_step("failed", schedule_name, event.starts_at, tid, error=error)]
    return [_step("paired", schedule_name, event.starts_at, tid, round=view.round.number)]


def run_schedules(db: Database, *, now: datetime, actor: str = ACTOR) -> ScheduleRun:
    """Do what is due at ``now`` (see the module docstring); safe to run again at any time."""
    steps: list[RunStep] = []
    with reading(db) as tx:
        stored = {s.id: s for s in schedules_repo.all_schedules(tx)}
    for schedule_id, row in stored.items():
        schedule = _domain(row)
        for start in starts_opening(schedule, now):
            steps.extend(_open_event(db, schedule_id, schedule, start, actor=actor))
    with reading(db) as tx:
        live = schedules_repo.live_events(tx)
    for event in live:
        row = stored[event.schedule_id]
        if event.state == "open" and event.tournament_id is not None and event.starts_at <= now:
            steps.extend(_start_or_cancel(db, event, _domain(row), actor=actor))
        elif event.state == "started" and event.tournament_id is not None:
            steps.extend(_advance(db, event, row.name, actor=actor))
    return ScheduleRun(now, tuple(steps))

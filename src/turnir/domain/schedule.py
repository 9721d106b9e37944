"""A recurring tournament template (C-2; 004: starter constructed runs daily at 9:15, 15:15 and
19:15 Moscow time): its local start times in a time zone, and what is due at a moment.

Terms:

- *schedule* (расписание): a name, local start times ("HH:MM"), a time zone (IANA, default
  Europe/Moscow), the format and settings of the tournaments it creates, the fewest players
  that start one (C-1: at least 4), and whether it is active.
- *start* (начало): one start time of a schedule, a moment in UTC. A local time is turned into
  a moment by the zone's rules for that day (``zoneinfo``), so a daily 9:15 stays 9:15 on the
  wall clock across a daylight-saving change. **Decided**: a local time that does not exist
  on a spring-forward day (02:30 in Berlin on the last Sunday of March) starts when the
  clock shows the same distance after the jump (03:30); a time that happens twice on a
  fall-back day starts at its first occurrence.
- *registration window*: registration of a start opens ``registration_minutes`` before it; a
  run inside the window (``start - window <= now < start``) creates the event.

Pure: every moment comes from the caller (the service passes the clock it is given).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from turnir.domain.limits import MAX_SWISS_ROUNDS, check_number
from turnir.domain.model import RulesLevel
from turnir.errors import Term, UserError

DEFAULT_ZONE = "Europe/Moscow"
MAX_TIMES = 24
"""Start times of one schedule a day."""
MIN_PLAYERS = 4
"""C-1: a constructed tournament has at least 4 participants."""
MAX_PLAYERS = 10_000
MAX_WINDOW = 24 * 60
"""The longest registration window, in minutes (a day)."""
DEFAULT_WINDOW = 60
MAX_ZONE = 64
_HHMM = re.compile(r"([01]?\d|2[0-3]):([0-5]\d)")


@dataclass(frozen=True, slots=True)
class ScheduleSettings:
    """The settings of each tournament a schedule creates."""

    best_of: int = 3
    """Games in a match: 1, 3 or 5 (S-7)."""
    swiss_rounds: int | None = None
    """Swiss rounds; ``None``: automatic, ceil(log2 N) when round 1 is paired (P-4)."""
    rules_level: RulesLevel = RulesLevel.AMATEUR
    registration_minutes: int = DEFAULT_WINDOW
    """Registration opens this many minutes before the start."""
    online: bool = True
    """Played online: a starter event then checks the players' game age (C-2)."""
    organizer: str = ""
    """The login of the account that organizes each created tournament ("" none)."""

    def checked(self) -> ScheduleSettings:
        if self.best_of not in (1, 3, 5):
            raise UserError("games in a match: 1, 3 or 5, not {value}", code="bad_schedule",
                            value=self.best_of)
        if self.swiss_rounds is not None:
            check_number(self.swiss_rounds, what=Term("Swiss rounds"), low=1,
                         high=MAX_SWISS_ROUNDS)
        check_number(self.registration_minutes, what=Term("registration opens, minutes before"),
                     low=1, high=MAX_WINDOW)
        return self

    def to_json(self) -> dict[str, object]:
        return {"best_of": self.best_of, "swiss_rounds": self.swiss_rounds,
                "rules_level": str(self.rules_level),
                "registration_minutes": self.registration_minutes, "online": self.online,
                "organizer": self.organizer}

    @staticmethod
    def from_json(data: dict[str, object]) -> ScheduleSettings:
        rounds = data.get("swiss_rounds")
        return ScheduleSettings(
            best_of=int(str(data.get("best_of", 3))),
            swiss_rounds=None if rounds is None else int(str(rounds)),
            rules_level=RulesLevel(str(data.get("rules_level", RulesLevel.AMATEUR))),
            registration_minutes=int(str(data.get("registration_minutes", DEFAULT_WINDOW))),
            online=bool(data.get("online", True)), organizer=str(data.get("organizer", "")))


@dataclass(frozen=True, slots=True)
class Schedule:
    """A recurring tournament template: daily at ``times`` in ``zone``."""

    name: str
    times: tuple[time, ...]
    """Local start times, sorted, each once."""
    zone: str = DEFAULT_ZONE
    format_id: int | None = None
    settings: ScheduleSettings = field(default_factory=ScheduleSettings)
    min_players: int = MIN_PLAYERS
    active: bool = True

    @property
    def window(self) -> timedelta:
        return timedelta(minutes=self.settings.registration_minutes)


def parse_time(text: str) -> time:
    """A local start time "HH:MM" (24-hour clock)."""
    cleaned = text.strip()
    found = _HHMM.fullmatch(cleaned) if len(cleaned) <= 5 else None
    if found is None:
        raise UserError("a start time is HH:MM on a 24-hour clock, such as 09:15, not {text!r}",
                        code="bad_time", text=cleaned[:20])
    return time(int(found.group(1)), int(found.group(2)))


def parse_times(texts: list[str] | tuple[str, ...]) -> tuple[time, ...]:
    """Start times from "HH:MM" texts: sorted, each once, 1 to ``MAX_TIMES``."""
    if len(texts) > MAX_TIMES * 2:
        raise UserError("a schedule has at most {most} start times a day", code="bad_time",
                        most=MAX_TIMES)
    times = sorted({parse_time(t) for t in texts if t.strip()})
    if not times:
        raise UserError("a schedule needs at least one start time", code="bad_time")
    if len(times) > MAX_TIMES:
        raise UserError("a schedule has at most {most} start times a day", code="bad_time",
                        most=MAX_TIMES)
    return tuple(times)


def time_text(value: time) -> str:
    return f"{value.hour:02d}:{value.minute:02d}"


def zone_of(name: str) -> ZoneInfo:
    """The time zone named ``name`` (IANA, such as Europe/Moscow)."""
    cleaned = name.strip()
    if not cleaned or len(cleaned) > MAX_ZONE or ".." in cleaned or cleaned.startswith("/"):
        raise UserError("unknown time zone {zone!r}", code="bad_zone", zone=cleaned[:MAX_ZONE])
    try:
        return ZoneInfo(cleaned)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise UserError("unknown time zone {zone!r}", code="bad_zone",
                        zone=cleaned[:MAX_ZONE]) from None


def new_schedule(name: str, times: list[str] | tuple[str, ...], *, zone: str = DEFAULT_ZONE,
                 format_id: int | None = None, settings: ScheduleSettings | None = None,
                 min_players: int = MIN_PLAYERS, active: bool = True) -> Schedule:
    """A schedule from what a person typed, every value checked."""
    cleaned = " ".join(name.split())
    if not cleaned:
        raise UserError("a schedule needs a name", code="bad_schedule")
    if len(cleaned) > 150:
        raise UserError("a schedule's name has at most {most} characters", code="bad_schedule",
                        most=150)
    check_number(min_players, what=Term("fewest players"), low=MIN_PLAYERS, high=MAX_PLAYERS)
    zone_of(zone)
    return Schedule(cleaned, parse_times(times), zone.strip(), format_id,
                    (settings or ScheduleSettings()).checked(), min_players, active)


def local_start(day: date, at: time, zone: str) -> datetime:
    """The moment (UTC) of ``at`` on ``day`` by the wall clock in ``zone`` (see Decided)."""
    return datetime.combine(day, at, tzinfo=zone_of(zone)).astimezone(UTC)


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise UserError("a moment needs its time zone", code="bad_time")
    return moment.astimezone(UTC)


def starts_between(schedule: Schedule, after: datetime, until: datetime) -> list[datetime]:
    """Every start (UTC) with ``after < start <= until``, in order."""
    low, high = _utc(after), _utc(until)
    zone = zone_of(schedule.zone)
    day = low.astimezone(zone).date() - timedelta(days=1)
    last = high.astimezone(zone).date() + timedelta(days=1)
    found: list[datetime] = []
    while day <= last:
        for at in schedule.times:
            moment = local_start(day, at, schedule.zone)
            if low < moment <= high and moment not in found:
                found.append(moment)
        day += timedelta(days=1)
    return sorted(found)


def next_starts(schedule: Schedule, after: datetime, count: int = 3) -> list[datetime]:
    """The next ``count`` starts (UTC) after ``after``."""
    found: list[datetime] = []
    low = _utc(after)
    while len(found) < count:
        step = starts_between(schedule, low, low + timedelta(days=2))
        if not step:
            break
        found.extend(step)
        low = step[-1]
    return found[:count]


def starts_opening(schedule: Schedule, now: datetime) -> list[datetime]:
    """Starts whose registration is open at ``now`` (``start - window <= now < start``)."""
    if not schedule.active:
        return []
    moment = _utc(now)
    return [s for s in starts_between(schedule, moment, moment + schedule.window) if s > moment]


@dataclass(frozen=True, slots=True)
class StartDecision:
    """What happens at a start: the event starts, or it is cancelled with the count."""

    start: bool
    registered: int
    needed: int


def decide_start(registered: int, min_players: int) -> StartDecision:
    """At the start time: at least ``min_players`` registered starts it (C-1), else cancel."""
    return StartDecision(registered >= min_players, registered, min_players)


def cancel_message(decision: StartDecision) -> UserError:
    """Why an event was cancelled, to store and show on its page. Four templates, so that the
    Russian says «1 игрок», «3 игрока», «5 игроков» (the catalogues have no plural forms)."""
    n, needed = decision.registered, decision.needed
    if n == 0:
        return UserError("Tournament cancelled: nobody registered, at least {needed} needed",
                         code="cancelled", needed=needed)
    if n % 10 == 1 and n % 100 != 11:
        return UserError("Tournament cancelled: {registered} player registered, at least "
                         "{needed} needed", code="cancelled", registered=n, needed=needed)
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return UserError("Tournament cancelled: {registered} players registered, at least "
                         "{needed} needed", code="cancelled", registered=n, needed=needed)
    return UserError("Tournament cancelled: only {registered} players registered, at least "
                     "{needed} needed", code="cancelled", registered=n, needed=needed)


_CANCELLED = re.compile(r"Tournament cancelled: (?:nobody|(?:only )?(\d+) players?) "
                        r"registered, at least (\d+) needed")


def cancel_from_text(text: str) -> UserError | None:
    """The message ``cancel_message`` made, back from its stored English text (to show it in
    the reader's language); ``None`` for another text."""
    found = _CANCELLED.fullmatch(text.strip())
    if found is None:
        return None
    registered = 0 if found.group(1) is None else int(found.group(1))
    return cancel_message(StartDecision(False, registered, int(found.group(2))))


def event_name(schedule_name: str, start: datetime, zone: str) -> str:
    """The created tournament's name: the schedule's name, the local day and time."""
    local = _utc(start).astimezone(zone_of(zone))
    return f"{schedule_name} {local:%d.%m.%Y %H:%M}"

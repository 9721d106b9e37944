"""The schedules page (``/schedules``, issue 13; 004: starter constructed daily at 9:15, 15:15
and 19:15 Moscow time): everyone sees the upcoming scheduled events (a link to each created
tournament, a cancelled one with its message); a site organizer also sees every schedule, adds
one (the organizer becomes each created tournament's organizer) and switches one off or on.
Each form posts to one route that calls one service (``turnir.services.schedules``); the
periodic run is the server's (``turnir.web.serve``).

The players' age in game years (C-2) is set here too: the player on their own profile
(``POST /me/game-age``), a site organizer for any account (``POST /accounts/{login}/game-age``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Annotated

from fastapi import APIRouter, Depends, Form, Path, Request
from fastapi.responses import HTMLResponse, Response

from turnir.domain.accounts import AccountRole
from turnir.domain.model import RulesLevel
from turnir.domain.schedule import DEFAULT_ZONE, ScheduleSettings, zone_of
from turnir.errors import Term, UserError
from turnir.i18n import error_text
from turnir.services.common import Database
from turnir.services.deck_formats import format_choices
from turnir.services.game_age import (
    game_age_of,
    parse_game_age,
    set_game_age,
    set_own_game_age,
)
from turnir.services.schedules import (
    ScheduleProblems,
    add_schedule,
    list_schedules,
    scheduled_event,
    upcoming_events,
    update_schedule,
)
from turnir.web.deps import (
    SignedInDep,
    SiteOrganizerDep,
    StateDep,
    VisitorDep,
    done,
    gettext_for,
    is_htmx,
    message,
    render,
    require_csrf,
)
from turnir.web.form_once import FormOnce, FormSameDep
from turnir.web.i18n import Formats
from turnir.web.templating import N_

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])
ScheduleId = Annotated[int, Path(ge=1, le=2**31 - 1)]
Login = Annotated[str, Path(min_length=1, max_length=100)]


def _int(text: str, what: Term, *, empty: int | None = None) -> int | None:
    cleaned = text.strip()
    if not cleaned:
        return empty
    if len(cleaned) > 6 or not cleaned.isdecimal() or not cleaned.isascii():
        raise UserError("{what}: a whole number", code="bad_number", what=what)
    return int(cleaned)


def _read(text: str, what: Term, problems: list[UserError], *,
          empty: int | None = None) -> int | None:
    """``_int``, its problem added to ``problems`` (then ``empty``) so the form reports all."""
    try:
        return _int(text, what, empty=empty)
    except UserError as error:
        problems.append(error)
        return empty


ZONES: tuple[tuple[str, str], ...] = (
    ("Europe/Kaliningrad", N_("Kaliningrad")), ("Europe/Moscow", N_("Moscow")),
    ("Europe/Samara", N_("Samara")), ("Asia/Yekaterinburg", N_("Yekaterinburg")),
    ("Asia/Omsk", N_("Omsk")), ("Asia/Novosibirsk", N_("Novosibirsk")),
    ("Asia/Krasnoyarsk", N_("Krasnoyarsk")), ("Asia/Irkutsk", N_("Irkutsk")),
    ("Asia/Yakutsk", N_("Yakutsk")), ("Asia/Vladivostok", N_("Vladivostok")),
    ("Asia/Magadan", N_("Magadan")), ("Asia/Kamchatka", N_("Kamchatka")),
    ("Europe/Minsk", N_("Minsk")), ("Europe/Kyiv", N_("Kyiv")), ("Asia/Almaty", N_("Almaty")),
    ("UTC", N_("Universal time")),
)
"""The zones of the form's list (a Russian-speaking organizer's), each with its city; the
service takes any IANA zone (the CLI's ``--tz``)."""


def offset_text(moment: datetime, zone: str) -> str:
    """The zone's offset at ``moment``: "UTC+3", "UTC+5:30", "UTC"."""
    offset = moment.astimezone(zone_of(zone)).utcoffset() or timedelta()
    minutes = int(offset.total_seconds()) // 60
    if minutes == 0:
        return "UTC"
    sign, minutes = ("+" if minutes > 0 else "−"), abs(minutes)
    return f"UTC{sign}{minutes // 60}" + (f":{minutes % 60:02d}" if minutes % 60 else "")


def zone_words(zone: str, moment: datetime, gettext: Callable[[str], str]) -> str:
    """The zone as the page says it: «по московскому времени», else its offset («UTC+5»)."""
    if zone == DEFAULT_ZONE:
        return gettext(N_("Moscow time"))
    return offset_text(moment, zone)


class _When:
    """Moments in a schedule's zone, in the page's forms (``turnir.web.i18n.Formats``)."""

    def __init__(self, locale: str, gettext: Callable[[str], str]) -> None:
        self.locale, self.gettext = locale, gettext
        self.formats: dict[str, Formats] = {}

    def __call__(self, moment: datetime, zone: str, *, words: bool = True) -> str:
        """«2 дек. 2026 г., 09:15 по московскому времени» (``words``: with the zone)."""
        fmt = self.formats.get(zone)
        if fmt is None:
            fmt = self.formats[zone] = Formats(self.locale, zone_of(zone))
        local = f"{fmt.date(moment.astimezone(fmt.tz).date())}, {fmt.time(moment)}"
        return f"{local} {self.zone(zone, moment)}" if words else local

    def zone(self, zone: str, moment: datetime) -> str:
        return zone_words(zone, moment, self.gettext)


def zone_choices(gettext: Callable[[str], str], now: datetime) -> list[tuple[str, str]]:
    """The form's list: each zone with its city and offset today («Москва (UTC+3)»)."""
    return [(zone, f"{gettext(city)} ({offset_text(now, zone)})") for zone, city in ZONES]


@router.get("/schedules", response_class=HTMLResponse)
def schedules_page(request: Request, state: StateDep, visitor: VisitorDep) -> HTMLResponse:
    organizer = visitor.account is not None and visitor.account.role is AccountRole.ORGANIZER
    gettext = gettext_for(request)
    when, now = _When(visitor.locale, gettext), state.db.clock.now()
    events = [{"event": e, "when": when(e.starts_at, e.time_zone),
               "note": None if e.message is None else error_text(e.message, visitor.locale)}
              for e in upcoming_events(state.db, limit=12)]
    schedules = [{"info": s, "next": [when(t, s.schedule.zone, words=False) for t in s.next_starts],
                  "zone": when.zone(s.schedule.zone, now)}
                 for s in (list_schedules(state.db) if organizer else [])]
    return render(request, "schedules.html", events=events, schedules=schedules,
                  formats=format_choices(state.db) if organizer else [], organizer=organizer,
                  zones=zone_choices(gettext, now), default_zone=DEFAULT_ZONE,
                  nav="schedules", title=None)


def _problems(request: Request, error: ScheduleProblems, once: FormOnce,
              locale: str) -> Response:
    """Every problem of the schedule form, listed above it (HTMX), else the error page. The
    form's token is freed, as for any refused change: the corrected form can be sent."""
    if not is_htmx(request):
        raise error
    if once.tokens is not None and once.key is not None:
        once.tokens.release(once.key)
        if once.same is not None:
            once.tokens.release(once.same)
    response = render(request, "_schedule_problems.html", status=422,
                      lines=[error_text(p, locale) for p in error.problems])
    response.headers["HX-Retarget"] = "#messages"
    response.headers["HX-Reswap"] = "innerHTML"
    return response


@router.post("/schedules")
def add(request: Request, state: StateDep, actor: SiteOrganizerDep, visitor: VisitorDep,
        once: FormSameDep,
        name: Annotated[str, Form(max_length=150)],
        times: Annotated[str, Form(max_length=300)],
        zone: Annotated[str, Form(max_length=64)] = "Europe/Moscow",
        format_id: Annotated[str, Form(max_length=12)] = "",
        best_of: Annotated[str, Form(max_length=2)] = "3",
        rounds: Annotated[str, Form(max_length=6)] = "",
        registration: Annotated[str, Form(max_length=6)] = "60",
        min_players: Annotated[str, Form(max_length=6)] = "4",
        online: Annotated[str, Form(max_length=5)] = "") -> Response:
    """A new schedule; the times as "09:15, 15:15, 19:15". Every problem is reported at once."""
    account = visitor.account
    problems: list[UserError] = []
    settings = ScheduleSettings(
        best_of=_read(best_of, Term("games in a match"), problems, empty=3) or 3,
        swiss_rounds=_read(rounds, Term("Swiss rounds"), problems),
        rules_level=RulesLevel.AMATEUR,
        registration_minutes=_read(registration, Term("registration window"), problems,
                                   empty=60) or 0,
        online=bool(online), organizer=account.login if account else "")
    fmt = _read(format_id, Term("deck format"), problems)
    fewest = _read(min_players, Term("fewest players"), problems, empty=4)
    try:
        add_schedule(state.db, name=name, times=times.replace(",", " ").split(), actor=actor,
                     zone=zone, format=fmt, settings=settings,
                     min_players=4 if fewest is None else fewest,
                     account_id=account.id if account else None, problems=problems)
    except ScheduleProblems as error:
        return _problems(request, error, once, visitor.locale)
    return once.done(request, "/schedules")


@router.post("/schedules/{sid}/active")
def switch(request: Request, state: StateDep, actor: SiteOrganizerDep, visitor: VisitorDep,
           sid: ScheduleId, active: Annotated[str, Form(max_length=5)] = "") -> Response:
    """Switch a schedule off (``active`` empty) or on; created tournaments go on."""
    account = visitor.account
    update_schedule(state.db, sid, actor=actor, active=bool(active),
                    account_id=account.id if account else None)
    return done(request, "/schedules")


@router.post("/me/game-age")
def own_game_age(request: Request, state: StateDep, account: SignedInDep,
                 age: Annotated[str, Form(max_length=10)] = "") -> Response:
    """The player's own character's age in game years (C-2; empty: not given)."""
    set_own_game_age(state.db, account.id, parse_game_age(age), actor=account.name)
    return message(request, gettext_for(request)(N_("Age in game years saved.")))


@router.post("/accounts/{login}/game-age")
def account_game_age(request: Request, state: StateDep, actor: SiteOrganizerDep,
                     visitor: VisitorDep, login: Login,
                     age: Annotated[str, Form(max_length=10)] = "") -> Response:
    """A site organizer sets an account's age in game years (C-2)."""
    account = visitor.account
    set_game_age(state.db, login, parse_game_age(age), actor=actor,
                 account_id=account.id if account else None)
    return message(request, gettext_for(request)(N_("Age in game years saved.")))


def cancelled_note(db: Database, tournament_id: int, locale: str) -> str | None:
    """The message of a scheduled tournament that was cancelled, for its page («Турнир
    отменён: …»); ``None`` for any other."""
    event = scheduled_event(db, tournament_id)
    if event is None or event.message is None:
        return None
    return error_text(event.message, locale)


@router.get("/me/profile", response_class=HTMLResponse)
def profile(request: Request, state: StateDep, account: SignedInDep) -> HTMLResponse:
    """The account's profile: the character's age in game years (C-2)."""
    return render(request, "profile.html", age=game_age_of(state.db, account.id), title=None)

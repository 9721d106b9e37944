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

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Form, Path, Request
from fastapi.responses import HTMLResponse, Response

from turnir.domain.accounts import AccountRole
from turnir.domain.model import RulesLevel
from turnir.domain.schedule import ScheduleSettings, zone_of
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
    message,
    render,
    require_csrf,
)
from turnir.web.form_once import FormSameDep
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


def _local(moment: datetime, zone: str) -> str:
    return f"{moment.astimezone(zone_of(zone)):%d.%m.%Y %H:%M}"


@router.get("/schedules", response_class=HTMLResponse)
def schedules_page(request: Request, state: StateDep, visitor: VisitorDep) -> HTMLResponse:
    organizer = visitor.account is not None and visitor.account.role is AccountRole.ORGANIZER
    events = [{"event": e, "when": _local(e.starts_at, e.time_zone),
               "note": None if e.message is None else error_text(e.message, visitor.locale)}
              for e in upcoming_events(state.db, limit=12)]
    schedules = [{"info": s, "next": [_local(t, s.schedule.zone) for t in s.next_starts]}
                 for s in (list_schedules(state.db) if organizer else [])]
    return render(request, "schedules.html", events=events, schedules=schedules,
                  formats=format_choices(state.db) if organizer else [], organizer=organizer,
                  nav="schedules", title=None)


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
    """A new schedule; the times as "09:15, 15:15, 19:15"."""
    account = visitor.account
    settings = ScheduleSettings(
        best_of=_int(best_of, Term("games in a match"), empty=3) or 3,
        swiss_rounds=_int(rounds, Term("Swiss rounds")), rules_level=RulesLevel.AMATEUR,
        registration_minutes=_int(registration, Term("registration window"), empty=60) or 0,
        online=bool(online), organizer=account.login if account else "")
    fmt = _int(format_id, Term("deck format"))
    add_schedule(state.db, name=name, times=times.replace(",", " ").split(), actor=actor,
                 zone=zone, format=fmt, settings=settings,
                 min_players=_int(min_players, Term("fewest players"), empty=4) or 0,
                 account_id=account.id if account else None)
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

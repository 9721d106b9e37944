"""``turnir schedule``: recurring tournaments (issue 13; 004: starter constructed daily at 9:15,
15:15 and 19:15 Moscow time; ``docs/schedule.md``).

- ``add NAME --at 09:15 --at 15:15 --at 19:15 [--tz Europe/Moscow] --format NAME``: a new
  schedule (best of, Swiss rounds, registration window, fewest players, online, organizer);
- ``list``: every schedule with its next starts;
- ``on`` / ``off NAME``: activate or deactivate one;
- ``run [--now ISO]``: one pass of what is due now (or at the moment given, for a test or a
  catch-up); prints what it did. The server does the same every minute.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated

import typer

from turnir.cli.db_common import actor_name, command, console
from turnir.cli.options import ActorOption, command_group
from turnir.cli.session import database
from turnir.errors import UserError

if TYPE_CHECKING:
    from turnir.services.common import Database

schedule_app = command_group()
NameArg = Annotated[str, typer.Argument(help="The schedule's name (or number).")]


def _moment(text: str | None, db: Database) -> datetime:
    """The ``--now`` moment, else now by the database's clock."""
    if text is None:
        return db.clock.now()
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UserError("not a moment in ISO form (such as 2026-12-02T09:15+03:00): {text!r}",
                        code="bad_time", text=text[:40]) from None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def _local(moment: datetime, zone: str) -> str:
    from turnir.domain.schedule import zone_of

    return f"{moment.astimezone(zone_of(zone)):%Y-%m-%d %H:%M %Z}"


@command(schedule_app, "add")
def add(
    name: Annotated[str, typer.Argument(help="The schedule's name (each tournament's name "
                                             "starts with it).")],
    at: Annotated[list[str], typer.Option("--at", help="A local start time HH:MM (repeat).")],
    tz: Annotated[str, typer.Option("--tz", help="The time zone (IANA).")] = "Europe/Moscow",
    format: Annotated[str | None, typer.Option("--format", help="The deck format's name.")]
    = None,
    best_of: Annotated[int, typer.Option(help="Games in a match: 1, 3 or 5.")] = 3,
    rounds: Annotated[int | None, typer.Option(
        help="Swiss rounds (default: automatic from the players).")] = None,
    registration: Annotated[int, typer.Option(
        help="Registration opens this many minutes before the start.")] = 60,
    min_players: Annotated[int, typer.Option(help="Fewest players to start (C-1: 4).")] = 4,
    online: Annotated[bool, typer.Option(
        "--online/--offline",
        help="Played online (a starter event then checks the game age, C-2).")] = True,
    organizer: Annotated[str | None, typer.Option(
        help="The login of the account that organizes each tournament.")] = None,
    actor: ActorOption = None,
) -> None:
    """Add a schedule: daily at the given local times."""
    from turnir.domain.schedule import ScheduleSettings
    from turnir.services.schedules import add_schedule

    settings = ScheduleSettings(best_of=best_of, swiss_rounds=rounds,
                                registration_minutes=registration, online=online,
                                organizer=(organizer or "").strip())
    with database() as db:
        info = add_schedule(db, name=name, times=at, actor=actor_name(actor), zone=tz,
                            format=format, settings=settings, min_players=min_players)
    console.print(f"schedule #{info.id} {info.schedule.name}: daily at "
                  f"{', '.join(info.times)} ({info.schedule.zone})")
    for start in info.next_starts:
        console.print(f"  next: {_local(start, info.schedule.zone)}")


@command(schedule_app, "list")
def list_all() -> None:
    """Every schedule with its next starts."""
    from turnir.services.schedules import list_schedules

    with database() as db:
        found = list_schedules(db)
    if not found:
        console.print("no schedules")
    for info in found:
        s = info.schedule
        state = "active" if s.active else "off"
        console.print(f"#{info.id} {s.name} [{state}]: {', '.join(info.times)} {s.zone}; "
                      f"format {info.format_name or '-'}; best of {s.settings.best_of}; "
                      f"at least {s.min_players} players; registration "
                      f"{s.settings.registration_minutes} min before")
        for start in info.next_starts:
            console.print(f"  next: {_local(start, s.zone)}")


def _switch(ref: str, active: bool, actor: str | None) -> None:
    from turnir.services.schedules import find_schedule, update_schedule

    with database() as db:
        found = find_schedule(db, int(ref) if ref.isdecimal() else ref)
        info = update_schedule(db, found.id, actor=actor_name(actor), active=active)
    console.print(f"schedule #{info.id} {info.schedule.name}: "
                  f"{'active' if active else 'off'}")


@command(schedule_app, "on")
def on(name: NameArg, actor: ActorOption = None) -> None:
    """Activate a schedule."""
    _switch(name, True, actor)


@command(schedule_app, "off")
def off(name: NameArg, actor: ActorOption = None) -> None:
    """Deactivate a schedule (tournaments already created go on)."""
    _switch(name, False, actor)


@command(schedule_app, "run")
def run(
    now: Annotated[str | None, typer.Option(
        help="The moment to run at, ISO (default: now); without a zone it is UTC.")] = None,
    actor: Annotated[str, typer.Option(help="Who the audit log names.")] = "schedule",
) -> None:
    """One pass: open registration, start or cancel, pair the next round, finish."""
    from turnir.services.schedules import run_schedules

    with database() as db:
        moment = _moment(now, db)
        done = run_schedules(db, now=moment, actor=actor)
    if not done.steps:
        console.print(f"{moment.isoformat()}: nothing due")
    for step in done.steps:
        where = "" if step.tournament_id is None else f" tournament #{step.tournament_id}"
        what = "" if step.round is None else f" round {step.round}"
        why = "" if step.error is None else f": {step.error.message}"
        console.print(f"{step.action}: {step.schedule_name} "
                      f"{step.starts_at.isoformat()}{where}{what}{why}")

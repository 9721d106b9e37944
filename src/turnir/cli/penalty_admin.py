"""``turnir penalty catalogue show|set|default|remove`` (the infraction catalogue, J-7) and
``turnir penalty suspension add|list|term`` (the suspension register, J-5)."""

from __future__ import annotations

import json
from datetime import date
from typing import Annotated

import typer
from rich.table import Table

from turnir.cli.db_common import (
    ActorOption,
    TournamentArg,
    actor_name,
    console,
    database,
    guarded,
    tournament_id,
)
from turnir.cli.output import write
from turnir.domain.penalties import Infraction, Penalty, RulesLevel, Text
from turnir.errors import UserError
from turnir.services.penalty_catalogue import (
    CatalogueView,
    get_catalogue,
    infraction_json,
    remove_infraction,
    set_default,
    set_infraction,
)
from turnir.services.suspensions import (
    SuspensionView,
    add_suspension,
    list_suspensions,
    set_suspension_term,
)

catalogue_app = typer.Typer(help="The tournament's infraction catalogue (ru/en, a default "
                                 "penalty per rules level).", no_args_is_help=True)
suspension_app = typer.Typer(help="The suspension register, by person across tournaments "
                                  "(J-5).", no_args_is_help=True)

JudgeOption = Annotated[str | None, typer.Option(
    "--judge", help="The organizer or head judge acting (default: the actor).")]


def parse_penalty(text: str) -> Penalty:
    """A penalty by its name: ``warning``, ``game-loss``, ``disqualification-without-prizes``…"""
    value = text.strip().lower().replace("-", "_").replace(" ", "_")
    try:
        return Penalty(value)
    except ValueError:
        known = ", ".join(p.value.replace("_", "-") for p in Penalty)
        raise UserError(f"unknown penalty {text!r}; known: {known}", code="bad_penalty") from None


def parse_level(text: str) -> RulesLevel:
    try:
        return RulesLevel(text.strip().lower())
    except ValueError:
        raise UserError(f"unknown rules level {text!r}; use amateur, professional or highest",
                        code="bad_level") from None


def parse_day(text: str) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise UserError(f"cannot read the day {text!r}; write YYYY-MM-DD",
                        code="bad_day") from None


def _print_catalogue(view: CatalogueView, lang: str) -> None:
    title = "Infractions" + ("" if view.customised else " (the shipped catalogue)")
    table = Table(title=title)
    for header in ("Code", "Name", "Amateur", "Professional", "Highest"):
        table.add_column(header)
    for entry in view.catalogue:
        name = entry.name.ru if lang == "ru" else entry.name.en
        cells = [p.name_text.ru if lang == "ru" else p.name_text.en
                 for p in (entry.amateur, entry.professional, entry.highest)]
        table.add_row(entry.code, name, *cells)
    console.print(table)


@catalogue_app.command("show")
def show(
    tournament: TournamentArg,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    lang: Annotated[str, typer.Option("--lang", help="ru or en.")] = "ru",
) -> None:
    """The infractions judges pick from, with the default penalty per rules level."""
    with database() as db:
        tid = tournament_id(db, tournament)
        view = guarded(lambda: get_catalogue(db, tid))
    if as_json:
        write(json.dumps({
            "customised": view.customised, "level": view.level.value,
            "infractions": [infraction_json(e) for e in view.catalogue],
        }, ensure_ascii=False, indent=2) + "\n")
        return
    _print_catalogue(view, lang)


@catalogue_app.command("set")
def set_(
    tournament: TournamentArg,
    code: Annotated[str, typer.Argument(help="The infraction code (a-z, 0-9, _).")],
    ru: Annotated[str, typer.Option(help="The Russian name.")],
    en: Annotated[str, typer.Option(help="The English name.")],
    amateur: Annotated[str, typer.Option(help="Default penalty at Amateur level.")],
    professional: Annotated[str, typer.Option(help="Default at Professional level.")],
    highest: Annotated[str, typer.Option(help="Default at Highest level.")],
    about_ru: Annotated[str, typer.Option(help="What it covers, in Russian.")] = "",
    about_en: Annotated[str, typer.Option(help="What it covers, in English.")] = "",
    judge: JudgeOption = None,
    actor: ActorOption = None,
) -> None:
    """Add an infraction, or replace the one with this code."""
    with database() as db:
        tid = tournament_id(db, tournament)
        view = guarded(lambda: set_infraction(db, tid, Infraction(
            code.strip(), Text(ru.strip(), en.strip()), parse_penalty(amateur),
            parse_penalty(professional), parse_penalty(highest), Text(about_ru, about_en),
        ), actor=actor_name(actor), judge=judge))
    console.print(f"Infraction {code} set; the catalogue has {len(view.catalogue.infractions)}.")


@catalogue_app.command("default")
def default(
    tournament: TournamentArg,
    code: Annotated[str, typer.Argument(help="The infraction code.")],
    level: Annotated[str, typer.Argument(help="amateur, professional or highest.")],
    penalty: Annotated[str, typer.Argument(help="The new default penalty.")],
    judge: JudgeOption = None,
    actor: ActorOption = None,
) -> None:
    """Change one default penalty (before round 1)."""
    with database() as db:
        tid = tournament_id(db, tournament)
        guarded(lambda: set_default(db, tid, code, parse_level(level), parse_penalty(penalty),
                                    actor=actor_name(actor), judge=judge))
    console.print(f"{code}: the {level} default is now {penalty}.")


@catalogue_app.command("remove")
def remove(
    tournament: TournamentArg,
    code: Annotated[str, typer.Argument(help="The infraction code.")],
    judge: JudgeOption = None,
    actor: ActorOption = None,
) -> None:
    """Remove an infraction (before round 1)."""
    with database() as db:
        tid = tournament_id(db, tournament)
        guarded(lambda: remove_infraction(db, tid, code, actor=actor_name(actor), judge=judge))
    console.print(f"Infraction {code} removed.")


def _print_suspension(s: SuspensionView) -> None:
    until = s.until.isoformat() if s.until is not None else "term not set"
    where = f" at {s.tournament}" if s.tournament else ""
    console.print(f"#{s.id} {s.person_name} (person #{s.person_id}): {s.start.isoformat()} — "
                  f"{until}; {s.reason.en} (by {s.issued_by}{where}; version {s.version})",
                  highlight=False)


@suspension_app.command("add")
def add(
    person: Annotated[str, typer.Argument(help="The person: number or name.")],
    start: Annotated[str, typer.Option("--from", help="The first day, YYYY-MM-DD.")],
    reason: Annotated[str, typer.Option(help="Why.")],
    issued_by: Annotated[str, typer.Option(help="Who decided it (the coordinator).")],
    until: Annotated[str | None, typer.Option(help="The last day, YYYY-MM-DD.")] = None,
    reason_en: Annotated[str | None, typer.Option(help="Why, in English.")] = None,
    actor: ActorOption = None,
) -> None:
    """Enter a suspension decided outside a tournament (the coordinator's register)."""
    with database() as db:
        found = guarded(lambda: add_suspension(
            db, person=person, start=parse_day(start),
            until=None if until is None else parse_day(until), reason=reason,
            reason_en=reason_en, issued_by=issued_by, actor=actor_name(actor)))
    _print_suspension(found)


@suspension_app.command("list")
def list_(
    person: Annotated[str | None, typer.Argument(help="Only this person's.")] = None,
    on: Annotated[str | None, typer.Option(help="Only those in force on this day.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """The suspension register."""
    with database() as db:
        found = guarded(lambda: list_suspensions(db, person=person,
                                                 on=None if on is None else parse_day(on)))
    if as_json:
        write(json.dumps([s.as_json() for s in found], ensure_ascii=False,
                                    indent=2) + "\n")
        return
    if not found:
        console.print("The register has no such suspension.")
    for s in found:
        _print_suspension(s)


@suspension_app.command("term")
def term(
    suspension: Annotated[int, typer.Argument(help="The register entry's number.")],
    until: Annotated[str | None, typer.Option(help="The last day, YYYY-MM-DD.")] = None,
    open_ended: Annotated[bool, typer.Option(
        "--open", help="Clear the term (until the coordinator sets it).")] = False,
    expected_version: Annotated[int | None, typer.Option(help="The version you saw.")] = None,
    actor: ActorOption = None,
) -> None:
    """The coordinator sets the term of a suspension (J-5)."""
    if (until is None) == (not open_ended):
        raise typer.BadParameter("give --until DAY or --open")
    with database() as db:
        found = guarded(lambda: set_suspension_term(
            db, suspension, until=None if until is None else parse_day(until),
            actor=actor_name(actor), expected_version=expected_version))
    _print_suspension(found)


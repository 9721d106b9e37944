"""``turnir penalty catalogue show|set|default|remove`` (the infraction catalogue, J-7) and
``turnir penalty suspension add|list|term`` (the suspension register, J-5)."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Annotated

import typer

from turnir.cli.db_common import actor_name, command, console, content_language
from turnir.cli.options import (
    ActorOption,
    ExpectedVersionOption,
    JsonOption,
    LangOption,
    PersonArg,
    TournamentArg,
    command_group,
)
from turnir.cli.output import write_json
from turnir.cli.session import database, opened, show_view
from turnir.domain.model import RulesLevel
from turnir.errors import UserError

if TYPE_CHECKING:
    from turnir.domain.penalties import Penalty
    from turnir.services.penalty_catalogue import CatalogueView
    from turnir.services.suspensions import SuspensionView

catalogue_app = command_group(help="The tournament's infraction catalogue (ru/en, a default "
                                 "penalty per rules level).")
suspension_app = command_group(help="The suspension register, by person across tournaments "
                                  "(J-5).")

JudgeOption = Annotated[str | None, typer.Option(
    "--judge", help="The organizer or head judge acting (default: the actor).")]
InfractionCodeArg = Annotated[str, typer.Argument(help="The infraction code.")]
UntilOption = Annotated[str | None, typer.Option(help="The last day, YYYY-MM-DD.")]


def parse_penalty(text: str) -> Penalty:
    """A penalty by its name: ``warning``, ``game-loss``, ``disqualification-without-prizes``…"""
    from turnir.domain.penalties import Penalty

    value = text.strip().lower().replace("-", "_").replace(" ", "_")
    try:
        return Penalty(value)
    except ValueError:
        known = ", ".join(p.value.replace("_", "-") for p in Penalty)
        raise UserError("unknown penalty {text!r}; known: {known}", code="bad_penalty",
                        text=text, known=known) from None


def parse_level(text: str) -> RulesLevel:
    try:
        return RulesLevel(text.strip().lower())
    except ValueError:
        raise UserError("unknown rules level {text!r}; use amateur, professional or highest",
                        code="bad_level", text=text) from None


def parse_day(text: str) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise UserError("cannot read the day {text!r}; write YYYY-MM-DD", code="bad_day",
                        text=text) from None


def _print_catalogue(view: CatalogueView, lang: str) -> None:
    from rich.table import Table

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


@command(catalogue_app, "show")
def show(
    tournament: TournamentArg,
    as_json: JsonOption = False,
    lang: LangOption = None,
) -> None:
    """The infractions judges pick from, with the default penalty per rules level."""
    from turnir.services.penalty_catalogue import get_catalogue, infraction_json

    lang = content_language(lang)
    show_view(tournament, get_catalogue, as_json=as_json, to_json=lambda view: {
        "customised": view.customised, "level": view.level.value,
        "infractions": [infraction_json(e) for e in view.catalogue],
    }, render=lambda view: _print_catalogue(view, lang))


@command(catalogue_app, "set")
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
    from turnir.domain.penalties import Infraction, Text
    from turnir.services.penalty_catalogue import set_infraction

    with opened(tournament) as (db, tid):
        view = set_infraction(db, tid, Infraction(
            code.strip(), Text(ru.strip(), en.strip()), parse_penalty(amateur),
            parse_penalty(professional), parse_penalty(highest), Text(about_ru, about_en),
        ), actor=actor_name(actor), judge=judge)
    console.print(f"Infraction {code} set; the catalogue has {len(view.catalogue.infractions)}.")


@command(catalogue_app, "default")
def default(
    tournament: TournamentArg,
    code: InfractionCodeArg,
    level: Annotated[str, typer.Argument(help="amateur, professional or highest.")],
    penalty: Annotated[str, typer.Argument(help="The new default penalty.")],
    judge: JudgeOption = None,
    actor: ActorOption = None,
) -> None:
    """Change one default penalty (before round 1)."""
    from turnir.services.penalty_catalogue import set_default

    with opened(tournament) as (db, tid):
        set_default(db, tid, code, parse_level(level), parse_penalty(penalty),
                    actor=actor_name(actor), judge=judge)
    console.print(f"{code}: the {level} default is now {penalty}.")


@command(catalogue_app, "remove")
def remove(
    tournament: TournamentArg,
    code: InfractionCodeArg,
    judge: JudgeOption = None,
    actor: ActorOption = None,
) -> None:
    """Remove an infraction (before round 1)."""
    from turnir.services.penalty_catalogue import remove_infraction

    with opened(tournament) as (db, tid):
        remove_infraction(db, tid, code, actor=actor_name(actor), judge=judge)
    console.print(f"Infraction {code} removed.")


def _print_suspension(s: SuspensionView) -> None:
    until = s.until.isoformat() if s.until is not None else "term not set"
    where = f" at {s.tournament}" if s.tournament else ""
    console.print(f"#{s.id} {s.person_name} (person #{s.person_id}): {s.start.isoformat()} — "
                  f"{until}; {s.reason.en} (by {s.issued_by}{where}; version {s.version})",
                  highlight=False)


@command(suspension_app, "add")
def add(
    person: PersonArg,
    start: Annotated[str, typer.Option("--from", help="The first day, YYYY-MM-DD.")],
    reason: Annotated[str, typer.Option(help="Why.")],
    issued_by: Annotated[str, typer.Option(help="Who decided it (the coordinator).")],
    until: UntilOption = None,
    reason_en: Annotated[str | None, typer.Option(help="Why, in English.")] = None,
    actor: ActorOption = None,
) -> None:
    """Enter a suspension decided outside a tournament (the coordinator's register)."""
    from turnir.services.suspensions import add_suspension

    with database() as db:
        found = add_suspension(
            db, person=person, start=parse_day(start),
            until=None if until is None else parse_day(until), reason=reason,
            reason_en=reason_en, issued_by=issued_by, actor=actor_name(actor))
    _print_suspension(found)


@command(suspension_app, "list")
def list_(
    person: Annotated[str | None, typer.Argument(help="Only this person's.")] = None,
    on: Annotated[str | None, typer.Option(help="Only those in force on this day.")] = None,
    as_json: JsonOption = False,
) -> None:
    """The suspension register."""
    from turnir.services.suspensions import list_suspensions

    with database() as db:
        found = list_suspensions(db, person=person,
                                 on=None if on is None else parse_day(on))
    if as_json:
        write_json([s.as_json() for s in found])
        return
    if not found:
        console.print("The register has no such suspension.")
    for s in found:
        _print_suspension(s)


@command(suspension_app, "term")
def term(
    suspension: Annotated[int, typer.Argument(help="The register entry's number.")],
    until: UntilOption = None,
    open_ended: Annotated[bool, typer.Option(
        "--open", help="Clear the term (until the coordinator sets it).")] = False,
    expected_version: ExpectedVersionOption = None,
    actor: ActorOption = None,
) -> None:
    """The coordinator sets the term of a suspension (J-5)."""
    from turnir.services.suspensions import set_suspension_term

    if (until is None) == (not open_ended):
        raise typer.BadParameter("give --until DAY or --open")
    with database() as db:
        found = set_suspension_term(
            db, suspension, until=None if until is None else parse_day(until),
            actor=actor_name(actor), expected_version=expected_version)
    _print_suspension(found)


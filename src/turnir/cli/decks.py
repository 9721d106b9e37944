"""``turnir deck …``: deck lists of constructed play (docs/decks.md, C-1, C-2).

- ``check FILE --format NAME``: check a deck file against a format, no tournament needed (a
  player preparing a deck); every problem is printed in the reader's language; exit code 2
  when the deck breaks a rule (or cannot be read), 0 when it is legal;
- ``register TID PLAYER FILE``: register or replace a player's deck (the local operator acts as
  a judge: after round 1 the change is logged as a judge's); a deck with problems is stored
  too, and its problems printed;
- ``show TID PLAYER`` and ``list TID``: a deck with its problems, and every entry's deck.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from turnir.cli.db_common import actor_name, command, console, language
from turnir.cli.options import ActorOption, JsonOption, TournamentArg, command_group
from turnir.cli.output import emit, styled
from turnir.cli.session import database, opened

if TYPE_CHECKING:
    from turnir.domain.decks import DeckCheck, DeckProblem
    from turnir.services.decks import DeckSummary, DeckView

deck_app = command_group()

DeckFileArg = Annotated[Path, typer.Argument(help="The deck list: .txt, .csv or .xlsx.")]
PlayerArg = Annotated[str, typer.Argument(help="The player: number or name.")]

_TEXTS: dict[str, dict[str, str]] = {
    "ru": {
        "legal": "Колода из {total} карт соответствует формату «{format}».",
        "broken": "Колода из {total} карт, формат «{format}»: ошибок — {count}.",
        "line": "строка {line}",
        "maybe": "возможно, вы имели в виду: {names}",
        "stored": "Колода игрока №{number} ({player}) сохранена, версия {version}.",
        "none": "У игрока №{number} ({player}) колода не зарегистрирована.",
        "deck": "Колода игрока №{number} ({player}), {total} карт, формат «{format}»{locked}.",
        "locked": ", заблокирована (первый тур рассажен)",
        "updated": "Изменена: {at} UTC, {by}.",
        "head": "№|Игрок|Колода|Карт|Ошибок|Изменена (UTC)",
        "yes": "в порядке", "bad": "с ошибками", "missing": "нет",
    },
    "en": {
        "legal": "The {total}-card deck is legal in the format {format!r}.",
        "broken": "The {total}-card deck, format {format!r}: {count} problem(s).",
        "line": "line {line}",
        "maybe": "did you mean: {names}",
        "stored": "The deck of player #{number} ({player}) is stored, version {version}.",
        "none": "Player #{number} ({player}) has no deck registered.",
        "deck": "The deck of player #{number} ({player}), {total} cards, format "
                "{format!r}{locked}.",
        "locked": ", locked (round 1 is paired)",
        "updated": "Changed: {at} UTC, {by}.",
        "head": "#|Player|Deck|Cards|Problems|Changed (UTC)",
        "yes": "legal", "bad": "has problems", "missing": "none",
    },
}


def _say(key: str, **values: object) -> str:
    return _TEXTS.get(language(), _TEXTS["ru"])[key].format(**values)


def _read(path: Path) -> str:
    from turnir.formats.deck_file import MAX_DECK_FILE, read_deck_file
    from turnir.formats.tabular import read_file_bytes

    return read_deck_file(read_file_bytes(path, max_bytes=MAX_DECK_FILE), filename=path.name)


def _problem_text(problem: DeckProblem) -> str:
    from turnir.i18n import error_text

    text = error_text(problem.error, language())
    if problem.line is not None and not text.startswith(("line ", "строка ")):
        text = f"{_say('line', line=problem.line)}: {text}"
    if problem.suggestions:
        text += f" ({_say('maybe', names=', '.join(problem.suggestions))})"
    return text


def _print_problems(problems: tuple[DeckProblem, ...]) -> None:
    for problem in problems:
        console.print(styled(("  ✗ ", "bold red"), _problem_text(problem)), highlight=False)


def problem_json(problem: DeckProblem) -> dict[str, Any]:
    """A problem as ``--json`` gives it (the message in the reader's language)."""
    from turnir.services.decks import problem_record

    return problem_record(problem, language())


def _check_json(check: DeckCheck, format_name: str) -> dict[str, Any]:
    return {"ok": check.ok, "format": format_name, "total": check.total,
            "problems": [problem_json(p) for p in check.problems]}


@command(deck_app, "check")
def check(
    file: DeckFileArg,
    format: Annotated[str, typer.Option("--format", help="The format: its name or number.")],
    as_json: JsonOption = False,
) -> None:
    """Check a deck file against a format (no tournament): exit code 2 when it breaks a rule."""
    from turnir.services.decks import check_deck_text, format_named

    text = _read(file)
    with database() as db:
        chosen = format_named(db, format)
        found = check_deck_text(db, text=text, format_id=chosen.id)

    def render(result: DeckCheck) -> None:
        if result.ok:
            console.print(styled(("✓ ", "bold green"), _say("legal", total=result.total,
                                                             format=chosen.name)))
            return
        console.print(_say("broken", total=result.total, format=chosen.name,
                           count=len(result.problems)), highlight=False)
        _print_problems(result.problems)

    emit(found, as_json=as_json, json_of=lambda r: _check_json(r, chosen.name), render=render)
    if not found.ok:
        raise typer.Exit(code=2)


def _view_json(view: DeckView) -> dict[str, Any]:
    return {"tournament": view.tournament_id, "number": view.number, "player": view.player,
            "registered": view.registered, "format": view.format_name, "total": view.total,
            "valid": view.valid, "locked": view.locked, "version": view.version,
            "updated_at": view.updated_at.isoformat() if view.updated_at else None,
            "updated_by": view.updated_by, "lines": [line.to_json() for line in view.lines],
            "problems": [problem_json(p) for p in view.problems]}


def _render_view(view: DeckView) -> None:
    if not view.registered:
        console.print(_say("none", number=view.number, player=view.player), highlight=False)
        return
    console.print(_say("deck", number=view.number, player=view.player, total=view.total,
                       format=view.format_name,
                       locked=_say("locked") if view.locked else ""), highlight=False)
    for line in view.lines:
        edition = f" [{line.edition}]" if line.edition else ""
        console.print(f"  {line.count} {line.name}{edition}", highlight=False)
    if view.updated_at is not None:
        console.print(_say("updated", at=f"{view.updated_at:%Y-%m-%d %H:%M}",
                           by=view.updated_by), highlight=False)
    _print_problems(view.problems)


@command(deck_app, "register")
def register(tournament: TournamentArg, player: PlayerArg, file: DeckFileArg,
             actor: ActorOption = None, as_json: JsonOption = False) -> None:
    """Register or replace a player's deck (after round 1: a judge's change, logged)."""
    from turnir.services.decks import register_deck

    text = _read(file)
    with opened(tournament) as (db, tid):
        view = register_deck(db, tid, player, text=text, actor=actor_name(actor),
                             account_id=None)

    def render(found: DeckView) -> None:
        console.print(_say("stored", number=found.number, player=found.player,
                           version=found.version), highlight=False)
        _render_view(found)

    emit(view, as_json=as_json, json_of=_view_json, render=render)


@command(deck_app, "show")
def show(tournament: TournamentArg, player: PlayerArg, as_json: JsonOption = False) -> None:
    """A player's deck and its problems."""
    from turnir.services.decks import deck_view

    with opened(tournament) as (db, tid):
        view = deck_view(db, tid, player, account_id=None)
    emit(view, as_json=as_json, json_of=_view_json, render=_render_view)


def _summary_json(summary: DeckSummary) -> dict[str, Any]:
    return {"number": summary.number, "player": summary.player, "dropped": summary.dropped,
            "registered": summary.registered, "total": summary.total, "valid": summary.valid,
            "problems": summary.problems, "updated_by": summary.updated_by,
            "updated_at": summary.updated_at.isoformat() if summary.updated_at else None}


@command(deck_app, "list")
def list_(tournament: TournamentArg, as_json: JsonOption = False) -> None:
    """Every player of the tournament and their deck (or none)."""
    from rich.table import Table

    from turnir.services.decks import list_decks

    with opened(tournament) as (db, tid):
        found = list_decks(db, tid, account_id=None)

    def render(summaries: list[DeckSummary]) -> None:
        table = Table()
        for column in _say("head").split("|"):
            table.add_column(column)
        for s in summaries:
            state = (_say("yes") if s.valid else _say("bad")) if s.registered \
                else _say("missing")
            table.add_row(str(s.number), s.player, state, str(s.total) if s.registered else "",
                          str(s.problems) if s.registered else "",
                          f"{s.updated_at:%Y-%m-%d %H:%M}" if s.updated_at else "")
        console.print(table)

    emit(found, as_json=as_json, json_of=lambda rows: [_summary_json(s) for s in rows],
         render=render)

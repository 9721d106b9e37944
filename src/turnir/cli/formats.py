"""``turnir format …``: constructed formats, their ban lists and starter decks (docs/formats.md,
C-1, C-2). The local operator acts as a site organizer.

- ``add NAME [--edition E …] [--starter]``: a new format (editions from the card catalogue;
  none: every edition);
- ``list`` and ``show NAME``: the formats, and one with its ban lists (which is in force today)
  and starter decks;
- ``ban NAME --from YYYY-MM-DD CARD… | --file F``: the ban list from that day (``--delete``:
  remove a list that has not taken effect yet);
- ``starter-deck FORMAT DECKNAME FILE``: add or replace a starter deck (``--delete``: remove);
- ``set TID FORMAT [--starts-at ISO] [--online]``: a tournament's format (before round 1).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from turnir.cli.db_common import actor_name, command, console, fail, language
from turnir.cli.options import ActorOption, JsonOption, TournamentArg, command_group
from turnir.cli.output import emit, styled
from turnir.cli.session import database, opened

if TYPE_CHECKING:
    from turnir.domain.decks import DeckProblem
    from turnir.services.common import Database
    from turnir.services.deck_formats import FormatSummary, FormatView, TournamentFormatInfo

format_app = command_group()

FormatArg = Annotated[str, typer.Argument(help="The format: its name or number.")]

_TEXTS: dict[str, dict[str, str]] = {
    "ru": {
        "added": "Формат «{name}» (№{id}) создан.",
        "starter": "стартерный", "all": "все выпуски",
        "line": "№{id}  {name}{starter} · {editions} · запрещено сегодня: {banned}",
        "head": "Формат «{name}» (№{id}, версия {version}){starter}",
        "limits": "Колода {low}–{high} карт, не больше {copies} копий карты ({horde} с Ордой).",
        "editions": "Выпуски: {editions}.",
        "ban": "Список запрещённых карт с {day}{state}: {cards}",
        "in_force": " (действует сегодня)", "future": " (ещё не вступил в силу)",
        "nothing": "ничего", "no_bans": "Списков запрещённых карт нет.",
        "deck": "Стартовая колода «{name}», {total} карт:",
        "banned": "Список запрещённых карт формата «{name}» с {day}: карт — {count}.",
        "unbanned": "Список запрещённых карт формата «{name}» с {day} удалён.",
        "stored": "Стартовая колода «{deck}» формата «{name}» сохранена ({total} карт).",
        "removed": "Стартовая колода «{deck}» формата «{name}» удалена.",
        "set": "Турнир №{tid}: формат «{name}»{starter}{online}; запрещённые карты по "
               "списку на {day}: {cards}",
        "online": ", онлайн", "maybe": "возможно: {names}",
    },
    "en": {
        "added": "Format {name!r} (#{id}) created.",
        "starter": "starter", "all": "every edition",
        "line": "#{id}  {name}{starter} · {editions} · banned today: {banned}",
        "head": "Format {name!r} (#{id}, version {version}){starter}",
        "limits": "A deck of {low}-{high} cards, at most {copies} copies of a card "
                  "({horde} with Horde).",
        "editions": "Editions: {editions}.",
        "ban": "Ban list from {day}{state}: {cards}",
        "in_force": " (in force today)", "future": " (not in force yet)",
        "nothing": "nothing", "no_bans": "No ban lists.",
        "deck": "Starter deck {name!r}, {total} cards:",
        "banned": "Ban list of {name!r} from {day}: {count} card(s).",
        "unbanned": "Ban list of {name!r} from {day} deleted.",
        "stored": "Starter deck {deck!r} of {name!r} stored ({total} cards).",
        "removed": "Starter deck {deck!r} of {name!r} removed.",
        "set": "Tournament #{tid}: format {name!r}{starter}{online}; banned by the list of "
               "{day}: {cards}",
        "online": ", online", "maybe": "maybe: {names}",
    },
}


def _say(key: str, **values: object) -> str:
    return _TEXTS.get(language(), _TEXTS["ru"])[key].format(**values)


def _starter_mark(starter: bool) -> str:
    return f" ({_say('starter')})" if starter else ""


@command(format_app, "add")
def add(
    name: Annotated[str, typer.Argument(help="The format's name.")],
    edition: Annotated[list[str] | None, typer.Option(
        "--edition", help="An allowed edition (repeat; none: every edition).")] = None,
    starter: Annotated[bool, typer.Option(
        "--starter", help="A starter format: only its starter decks (C-2).")] = False,
    min_cards: Annotated[int, typer.Option(min=1, max=200)] = 30,
    max_cards: Annotated[int, typer.Option(min=1, max=200)] = 50,
    max_copies: Annotated[int, typer.Option(min=1, max=99)] = 3,
    max_horde_copies: Annotated[int, typer.Option(min=1, max=99)] = 5,
    actor: ActorOption = None,
) -> None:
    """Create a format (the local operator acts as a site organizer)."""
    from turnir.services.format_edits import FormatLimits, create_format

    limits = FormatLimits(min_cards=min_cards, max_cards=max_cards, max_copies=max_copies,
                          max_horde_copies=max_horde_copies)
    with database() as db:
        made = create_format(db, actor=actor_name(actor), account_id=None, name=name,
                             editions=edition or (), starter=starter, limits=limits)
    console.print(_say("added", name=made.name, id=made.id), highlight=False)


def _summary_json(found: FormatSummary) -> dict[str, Any]:
    return {"id": found.id, "name": found.name, "starter": found.starter,
            "editions": list(found.editions), "banned_today": found.banned_today,
            "starter_decks": found.starter_decks}


@command(format_app, "list")
def list_(as_json: JsonOption = False) -> None:
    """Every format."""
    from turnir.services.deck_formats import format_list

    with database() as db:
        found = format_list(db)

    def render(formats: list[FormatSummary]) -> None:
        for one in formats:
            console.print(_say("line", id=one.id, name=one.name,
                               starter=_starter_mark(one.starter),
                               editions=", ".join(one.editions) or _say("all"),
                               banned=one.banned_today), highlight=False)

    emit(found, as_json=as_json, json_of=lambda f: [_summary_json(one) for one in f],
         render=render)


def view_json(view: FormatView) -> dict[str, Any]:
    fmt = view.format
    return {"id": view.id, "name": view.name, "version": view.version, "starter": fmt.starter,
            "editions": list(fmt.editions), "min_cards": fmt.min_cards,
            "max_cards": fmt.max_cards, "max_copies": fmt.max_copies,
            "max_horde_copies": fmt.max_horde_copies,
            "ban_lists": [{"effective": b.effective.isoformat(), "cards": list(b.cards),
                           "in_force": b.in_force, "future": b.future}
                          for b in view.ban_lists],
            "starter_decks": [{"name": d.name, "total": d.deck.total,
                               "lines": d.deck.to_json()} for d in fmt.starter_decks]}


def _render_view(view: FormatView) -> None:
    fmt = view.format
    say = console.print
    say(_say("head", name=view.name, id=view.id, version=view.version,
             starter=_starter_mark(fmt.starter)), highlight=False)
    say(_say("limits", low=fmt.min_cards, high=fmt.max_cards, copies=fmt.max_copies,
             horde=fmt.max_horde_copies), highlight=False)
    say(_say("editions", editions=", ".join(fmt.editions) or _say("all")), highlight=False)
    if not view.ban_lists:
        say(_say("no_bans"), highlight=False)
    for ban in view.ban_lists:
        state = _say("in_force") if ban.in_force else _say("future") if ban.future else ""
        say(_say("ban", day=ban.effective.isoformat(), state=state,
                 cards=", ".join(ban.cards) or _say("nothing")), highlight=False)
    for deck in fmt.starter_decks:
        say(_say("deck", name=deck.name, total=deck.deck.total), highlight=False)
        for line in deck.deck.lines:
            say(f"  {line.count} {line.name}", highlight=False)


@command(format_app, "show")
def show(format: FormatArg, as_json: JsonOption = False) -> None:
    """A format with its ban lists and starter decks."""
    from turnir.services.deck_formats import format_view
    from turnir.services.format_edits import find_format

    with database() as db:
        view = format_view(db, find_format(db, format))
    emit(view, as_json=as_json, json_of=view_json, render=_render_view)


def _unknown_cards(error: Exception) -> None:
    """Every unknown name on its own line with the closest names (after the message)."""
    for name, close in getattr(error, "unknown", ()):
        hint = f" ({_say('maybe', names=', '.join(close))})" if close else ""
        console.print(styled(("  ✗ ", "bold red"), f"{name}{hint}"), highlight=False)


@command(format_app, "ban")
def ban(
    format: FormatArg,
    cards: Annotated[list[str] | None, typer.Argument(help="The banned cards.")] = None,
    day: Annotated[str, typer.Option("--from", help="The day it takes effect, YYYY-MM-DD.")]
    = "",
    file: Annotated[Path | None, typer.Option(
        "--file", help="A text file: one card a line.")] = None,
    delete: Annotated[bool, typer.Option(
        "--delete", help="Delete the list of that day (not in force yet).")] = False,
    actor: ActorOption = None,
) -> None:
    """Give a format's ban list from a day (replaces that day's list)."""
    from turnir.formats.tabular import read_file_bytes
    from turnir.services.format_edits import (
        UnknownCardsError,
        card_names,
        delete_ban_list,
        find_format,
        parse_day,
        set_ban_list,
    )

    effective = parse_day(day)
    names = list(cards or ())
    if file is not None:
        names += card_names(read_file_bytes(file, max_bytes=200_000).decode("utf-8-sig",
                                                                            "replace"))
    with database() as db:
        fid = find_format(db, format)
        shown = format_name(db, fid)
        if delete:
            delete_ban_list(db, fid, actor=actor_name(actor), account_id=None,
                            effective=effective)
            console.print(_say("unbanned", name=shown, day=effective), highlight=False)
            return
        try:
            set_ban_list(db, fid, actor=actor_name(actor), account_id=None,
                         effective=effective, cards=names)
        except UnknownCardsError as error:
            exit_code = fail(error)
            _unknown_cards(error)
            raise exit_code from None
    console.print(_say("banned", name=shown, day=effective, count=len(set(names))),
                  highlight=False)


def format_name(db: Database, format_id: int) -> str:
    from turnir.services.deck_formats import deck_format

    return deck_format(db, format_id).name


@command(format_app, "starter-deck")
def starter_deck(
    format: FormatArg,
    name: Annotated[str, typer.Argument(help="The starter deck's name.")],
    file: Annotated[Path | None, typer.Argument(help="The deck list: .txt, .csv or .xlsx.")]
    = None,
    delete: Annotated[bool, typer.Option("--delete", help="Remove the deck.")] = False,
    actor: ActorOption = None,
) -> None:
    """Add or replace a starter deck of a starter format (C-2)."""
    from turnir.services.format_edits import (
        DeckProblemsError,
        delete_starter_deck,
        find_format,
        set_starter_deck,
    )

    with database() as db:
        fid = find_format(db, format)
        shown = format_name(db, fid)
        if delete or file is None:
            delete_starter_deck(db, fid, actor=actor_name(actor), account_id=None, name=name)
            console.print(_say("removed", deck=name, name=shown), highlight=False)
            return
        text = _read_deck(file)
        try:
            deck = set_starter_deck(db, fid, actor=actor_name(actor), account_id=None,
                                    name=name, text=text)
        except DeckProblemsError as error:
            exit_code = fail(error)
            _print_problems(error.problems)
            raise exit_code from None
    console.print(_say("stored", deck=name, name=shown, total=deck.total), highlight=False)


def _print_problems(problems: tuple[DeckProblem, ...]) -> None:
    from turnir.i18n import error_text

    for problem in problems:
        hint = (f" ({_say('maybe', names=', '.join(problem.suggestions))})"
                if problem.suggestions else "")
        console.print(styled(("  ✗ ", "bold red"), error_text(problem.error, language()) + hint),
                      highlight=False)


def _read_deck(path: Path) -> str:
    from turnir.formats.deck_file import MAX_DECK_FILE, read_deck_file
    from turnir.formats.tabular import read_file_bytes

    return read_deck_file(read_file_bytes(path, max_bytes=MAX_DECK_FILE), filename=path.name)


def _set_json(info: TournamentFormatInfo) -> dict[str, Any]:
    ban = info.ban_list
    return {"tournament": info.tournament_id, "format_id": info.format_id,
            "format": info.format.name, "starter": info.starter, "online": info.online,
            "starts_at": info.starts_at.isoformat() if info.starts_at else None,
            "rules_day": info.rules_day.isoformat(), "rules_day_from": info.rules_day_from,
            "banned": list(ban.cards) if ban else []}


@command(format_app, "set")
def set_(
    tournament: TournamentArg,
    format: FormatArg,
    starts_at: Annotated[str, typer.Option(
        "--starts-at", help="The planned start, ISO (Moscow time without a zone).")] = "",
    online: Annotated[bool, typer.Option("--online", help="Played online.")] = False,
    actor: ActorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Set a tournament's format (before round 1 is paired)."""
    from turnir.services.deck_formats import parse_start, set_tournament_format
    from turnir.services.format_edits import find_format

    start = parse_start(starts_at)
    with opened(tournament) as (db, tid):
        info = set_tournament_format(db, tid, actor=actor_name(actor), account_id=None,
                                     format_id=find_format(db, format), starts_at=start,
                                     online=online)

    def render(found: TournamentFormatInfo) -> None:
        ban = found.ban_list
        console.print(_say("set", tid=found.tournament_id, name=found.format.name,
                           starter=_starter_mark(found.starter),
                           online=_say("online") if found.online else "",
                           day=found.rules_day.isoformat(),
                           cards=", ".join(ban.cards) if ban and ban.cards
                           else _say("nothing")), highlight=False)

    emit(info, as_json=as_json, json_of=_set_json, render=render)

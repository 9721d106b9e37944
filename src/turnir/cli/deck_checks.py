"""``turnir deck-checks …``: random deck checks of a constructed tournament (issue 13, the
judges' tools; ``turnir.services.deck_checks``).

- ``draw TID --round R --count N``: N decks drawn by lot in the current round R among the
  players at a table not checked in it yet; the lot (seed, round, draw) is printed and stored,
  so the same draw can be made again and gives the same decks;
- ``add TID PLAYER --round R``: a check of a player the judge chooses (not by lot);
- ``done TID CHECK --note TEXT``: a check marked done with what was found;
- ``list TID [--round R]``: every check.

The local operator acts as the tournament's staff; each change is in the audit log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from turnir.cli.db_common import actor_name, command, console, language
from turnir.cli.options import ActorOption, JsonOption, TournamentArg, command_group
from turnir.cli.output import emit
from turnir.cli.session import opened

if TYPE_CHECKING:
    from turnir.services.deck_checks import DeckCheckView

deck_checks_app = command_group()

RoundOpt = Annotated[int | None, typer.Option(
    "--round", min=1, max=10_000, help="The round (the current one; default: it).")]

_TEXTS: dict[str, dict[str, str]] = {
    "ru": {"head": "№|Тур|Стол|Игрок|Как|Назначил|Проверена|Заметка", "lot": "жребий {lot}",
           "chosen": "выбор судьи", "yes": "да", "no": "нет", "none": "Проверок колод нет.",
           "drawn": "Тур {round}: по жребию {lot} выбраны колоды игроков: {names}."},
    "en": {"head": "#|Round|Table|Player|How|By|Done|Note", "lot": "lot {lot}",
           "chosen": "chosen by a judge", "yes": "yes", "no": "no", "none": "No deck checks.",
           "drawn": "Round {round}: the lot {lot} drew the decks of: {names}."},
}


def _say(key: str, **values: object) -> str:
    return _TEXTS.get(language(), _TEXTS["ru"])[key].format(**values)


def _json(check: DeckCheckView) -> dict[str, Any]:
    return {"id": check.id, "round": check.round, "number": check.number,
            "player": check.player, "table": check.table, "by_lot": check.by_lot,
            "lot": check.lot, "drawn_at": check.drawn_at.isoformat(),
            "drawn_by": check.drawn_by, "done": check.done, "note": check.note,
            "has_deck": check.has_deck}


def _render(found: list[DeckCheckView]) -> None:
    from rich.table import Table

    if not found:
        console.print(_say("none"))
        return
    table = Table()
    for header in _say("head").split("|"):
        table.add_column(header, overflow="fold")
    for c in found:
        table.add_row(str(c.id), str(c.round), str(c.table or "—"),
                      f"{c.player} (#{c.number})",
                      _say("lot", lot=c.lot) if c.by_lot else _say("chosen"), c.drawn_by,
                      _say("yes") if c.done else _say("no"), c.note)
    console.print(table)


@command(deck_checks_app, "draw")
def draw(tournament: TournamentArg, count: Annotated[int, typer.Option(
             "--count", min=1, help="How many decks to draw.")] = 2,
         round: RoundOpt = None, actor: ActorOption = None, as_json: JsonOption = False) -> None:
    """Draw decks by lot in the current round (the same lot always draws the same decks)."""
    from turnir.services.deck_checks import draw_deck_checks

    with opened(tournament) as (db, tid):
        found = draw_deck_checks(db, tid, count=count, actor=actor_name(actor),
                                 account_id=None, round_number=round)

    def render(drawn: list[DeckCheckView]) -> None:
        console.print(_say("drawn", round=drawn[0].round, lot=drawn[0].lot,
                           names=", ".join(f"{c.player} (#{c.number})" for c in drawn)),
                      highlight=False)

    emit(found, as_json=as_json, json_of=lambda f: [_json(c) for c in f], render=render)


@command(deck_checks_app, "add")
def add(tournament: TournamentArg,
        player: Annotated[str, typer.Argument(help="The player: number or name.")],
        round: RoundOpt = None, actor: ActorOption = None, as_json: JsonOption = False) -> None:
    """A check of the player a judge chooses (not by lot)."""
    from turnir.services.deck_checks import add_deck_check

    with opened(tournament) as (db, tid):
        found = add_deck_check(db, tid, player, actor=actor_name(actor), account_id=None,
                               round_number=round)
    emit([found], as_json=as_json, json_of=lambda f: [_json(c) for c in f], render=_render)


@command(deck_checks_app, "done")
def done(tournament: TournamentArg,
         check: Annotated[int, typer.Argument(min=1, help="The check's number (list).")],
         note: Annotated[str, typer.Option("--note", help="What was found.")] = "",
         actor: ActorOption = None, as_json: JsonOption = False) -> None:
    """Mark a check done, with what was found."""
    from turnir.services.deck_checks import finish_deck_check

    with opened(tournament) as (db, tid):
        found = finish_deck_check(db, tid, check, note=note, actor=actor_name(actor),
                                  account_id=None)
    emit([found], as_json=as_json, json_of=lambda f: [_json(c) for c in f], render=_render)


@command(deck_checks_app, "list")
def list_(tournament: TournamentArg, round: Annotated[int | None, typer.Option(
              "--round", min=1, max=10_000, help="Only this round.")] = None,
          as_json: JsonOption = False) -> None:
    """Every deck check of the tournament (of one round with --round)."""
    from turnir.services.deck_checks import list_deck_checks

    with opened(tournament) as (db, tid):
        found = list_deck_checks(db, tid, account_id=None, round_number=round)
    emit(found, as_json=as_json, json_of=lambda f: [_json(c) for c in f], render=_render)

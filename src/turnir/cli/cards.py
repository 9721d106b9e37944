"""``turnir cards …``: the card catalogue (docs/cards.md).

``import FILE [--replace]`` (a CSV, JSON or ``.xlsx`` catalogue file; the local operator is a
site organizer), ``find NAME`` (the card, or "not found" with the closest names and exit code
2), ``list [--edition E]``, ``sample`` (load the invented sample catalogue).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from turnir.cli.db_common import actor_name, command, console
from turnir.cli.options import ActorOption, JsonOption, command_group
from turnir.cli.output import emit
from turnir.cli.session import database

if TYPE_CHECKING:
    from rich.table import Table

    from turnir.domain.cards import Card
    from turnir.services.cards import CardImport

cards_app = command_group()


def _cost(card: Card) -> str:
    return f"{card.cost} {card.crystal.value}"


def _table(cards: list[Card], title: str) -> Table:
    from rich.table import Table

    table = Table(title=title)
    for column in ("name", "edition", "no.", "element", "cost", "type", "features", "unique"):
        table.add_column(column)
    for card in cards:
        table.add_row(card.name, card.edition, card.number, card.element, _cost(card),
                      card.type, ", ".join(card.features), "yes" if card.unique else "")
    return table


def _print_card(card: Card) -> None:
    lines = [("edition", f"{card.edition}" + (f" #{card.number}" if card.number else "")),
             ("rarity", card.rarity), ("element", card.element), ("cost", _cost(card)),
             ("type", card.type), ("features", ", ".join(card.features)),
             ("unique", "yes" if card.unique else "no"), ("aliases", " | ".join(card.aliases))]
    console.print(card.name, style="bold", markup=False, highlight=False)
    for label, value in lines:
        if value:
            console.print(f"  {label}: {value}", markup=False, highlight=False)


def _print_import(done: CardImport, source: str) -> None:
    console.print(f"Imported {source}: {done.added} new card(s), {done.updated} updated"
                  + (f", {done.removed} removed first" if done.removed else "")
                  + f"; {done.total} in the catalogue.", markup=False, highlight=False)
    if done.ignored:
        console.print("Columns ignored: " + ", ".join(done.ignored), markup=False,
                      highlight=False)


@command(cards_app, "import")
def import_(
    file: Annotated[Path, typer.Argument(help="A card catalogue (.csv, .xlsx or .json).")],
    replace: Annotated[bool, typer.Option(
        help="Replace the whole catalogue (cards not in the file are removed).")] = False,
    actor: ActorOption = None,
) -> None:
    """Add the file's cards to the catalogue (a card already there is updated)."""
    from turnir.formats.cards_file import MAX_BYTES
    from turnir.formats.tabular import read_file_bytes
    from turnir.services.cards import import_cards

    data = read_file_bytes(file, max_bytes=MAX_BYTES)
    with database() as db:
        done = import_cards(db, actor=actor_name(actor), account_id=None, data=data,
                            filename=str(file), replace=replace)
    _print_import(done, str(file))


@command(cards_app, "sample")
def sample(actor: ActorOption = None) -> None:
    """Load the sample catalogue shipped with turnir (invented cards, for trying it out)."""
    from turnir.services.cards import SAMPLE, load_sample_cards

    with database() as db:
        done = load_sample_cards(db, actor=actor_name(actor))
    _print_import(done, SAMPLE)


@command(cards_app, "find")
def find(
    name: Annotated[str, typer.Argument(help="The card's name (or an alias).")],
    edition: Annotated[str | None, typer.Option(help="Only this edition.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Show a card; when it is not found, the closest names (exit code 2)."""
    from turnir.services.cards import card_json, find_card

    with database() as db:
        card = find_card(db, name, edition=edition)
    emit(card, as_json=as_json, json_of=card_json, render=_print_card)


@command(cards_app, "list")
def list_(
    edition: Annotated[str | None, typer.Option(help="Only this edition.")] = None,
    as_json: JsonOption = False,
) -> None:
    """List the catalogue's cards (by edition, then name)."""
    from turnir.services.cards import card_json, list_cards

    with database() as db:
        cards = list_cards(db, edition=edition)
    emit(cards, as_json=as_json, json_of=lambda found: [card_json(c) for c in found],
         render=lambda found: console.print(_table(found, f"{len(found)} card(s)")))

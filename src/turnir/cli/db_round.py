"""``turnir round pair|undo|show|swap``: rounds of a tournament in the database."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from turnir.cli.db_common import actor_name, command, console
from turnir.cli.options import (
    ActorOption,
    CurrentRoundArg,
    EditNoteOption,
    PlayerRefArg,
    SwapRoundArg,
    TournamentArg,
    command_group,
)
from turnir.cli.session import opened

if TYPE_CHECKING:
    from turnir.services.rounds import RoundView

round_app = command_group()


def print_round(view: RoundView) -> None:
    from turnir.cli.render import pairings_table

    console.print(pairings_table(view.tournament, view.round))
    if view.left_out:
        console.print("Left out of round 1 (did not check in): {names}".format(
            names=", ".join(view.left_out)))


@command(round_app, "pair")
def pair(
    tournament: TournamentArg,
    top: Annotated[bool, typer.Option(help="Build the top (refused before the Swiss end).")]
    = False,
    drop_absent: Annotated[bool, typer.Option(help="Round 1: drop who did not check in.")]
    = False,
    include_absent: Annotated[bool, typer.Option(
        help="Round 1, once check-in has started: pair who did not check in too.")] = False,
    actor: ActorOption = None,
) -> None:
    """Pair the next round: Swiss while Swiss rounds remain, then the top."""
    from turnir.services.rounds import build_top, start_round

    with opened(tournament) as (db, tid):
        if top:
            view = build_top(db, tid, actor=actor_name(actor))
        else:
            view = start_round(db, tid, actor=actor_name(actor),
                               drop_absent_players=drop_absent,
                               leave_out_absent=not include_absent)
    print_round(view)


@command(round_app, "undo")
def undo(tournament: TournamentArg, actor: ActorOption = None) -> None:
    """Remove the last round when it has no results yet."""
    from turnir.services.rounds import undo_round

    with opened(tournament) as (db, tid):
        view = undo_round(db, tid, actor=actor_name(actor))
    left = 0 if view is None else view.round.number
    console.print(f"Round {left + 1} undone; {left} round(s) remain.")


@command(round_app, "show")
def show(
    tournament: TournamentArg,
    number: CurrentRoundArg = None,
) -> None:
    """Show a round's pairings and results."""
    from turnir.services.rounds import current_round

    with opened(tournament) as (db, tid):
        print_round(current_round(db, tid, number))


@command(round_app, "swap")
def swap(
    tournament: TournamentArg,
    number: SwapRoundArg,
    first: PlayerRefArg,
    second: PlayerRefArg,
    note: EditNoteOption = "",
    actor: ActorOption = None,
) -> None:
    """Manual pairing edit: two players exchange their seats (logged)."""
    from turnir.services.rounds import swap_seats

    with opened(tournament) as (db, tid):
        print_round(swap_seats(db, tid, number, first, second, actor=actor_name(actor),
                               note=note))

"""``turnir round pair|undo|show|swap``: rounds of a tournament in the database."""

from __future__ import annotations

from typing import Annotated

import typer

from turnir.cli import render
from turnir.cli.db_common import (
    ActorOption,
    TournamentArg,
    actor_name,
    console,
    database,
    guarded,
    tournament_id,
)
from turnir.services.rounds import build_top, current_round, start_round, swap_seats, undo_round

round_app = typer.Typer(help="Rounds of a tournament in the database.", no_args_is_help=True)


@round_app.command("pair")
def pair(
    tournament: TournamentArg,
    top: Annotated[bool, typer.Option(help="Build the top (refused before the Swiss end).")]
    = False,
    drop_absent: Annotated[bool, typer.Option(help="Round 1: drop who did not check in.")]
    = False,
    actor: ActorOption = None,
) -> None:
    """Pair the next round: Swiss while Swiss rounds remain, then the top."""
    with database() as db:
        tid = tournament_id(db, tournament)
        who = actor_name(actor)
        if top:
            view = guarded(lambda: build_top(db, tid, actor=who))
        else:
            view = guarded(lambda: start_round(db, tid, actor=who,
                                               drop_absent_players=drop_absent))
    console.print(render.pairings_table(view.tournament, view.round))


@round_app.command("undo")
def undo(tournament: TournamentArg, actor: ActorOption = None) -> None:
    """Remove the last round when it has no results yet."""
    with database() as db:
        tid = tournament_id(db, tournament)
        view = guarded(lambda: undo_round(db, tid, actor=actor_name(actor)))
    left = 0 if view is None else view.round.number
    console.print(f"Round {left + 1} undone; {left} round(s) remain.")


@round_app.command("show")
def show(
    tournament: TournamentArg,
    number: Annotated[int | None, typer.Argument(help="Round (default: current).")] = None,
) -> None:
    """Show a round's pairings and results."""
    with database() as db:
        tid = tournament_id(db, tournament)
        view = guarded(lambda: current_round(db, tid, number))
    console.print(render.pairings_table(view.tournament, view.round))


@round_app.command("swap")
def swap(
    tournament: TournamentArg,
    number: Annotated[int, typer.Argument(help="Round number (the current round).")],
    first: Annotated[str, typer.Argument(help="Player number or name.")],
    second: Annotated[str, typer.Argument(help="Player number or name.")],
    note: Annotated[str, typer.Option(help="Why (kept in the round's edit log).")] = "",
    actor: ActorOption = None,
) -> None:
    """Manual pairing edit: two players exchange their seats (logged)."""
    with database() as db:
        tid = tournament_id(db, tournament)
        view = guarded(lambda: swap_seats(db, tid, number, first, second,
                                          actor=actor_name(actor), note=note))
    console.print(render.pairings_table(view.tournament, view.round))

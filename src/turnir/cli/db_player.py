"""``turnir player add|import|list|checkin|drop|late``: the players of a tournament in the
database."""

from __future__ import annotations

import json
from pathlib import Path
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
    progress_bar,
    tournament_id,
)
from turnir.cli.output import write
from turnir.formats.players_csv import read_players_csv
from turnir.services.players import (
    PlayerInfo,
    check_in,
    drop_player,
    late_entry,
    list_players,
    register_player,
    register_players,
)

player_app = typer.Typer(help="Players of a tournament in the database.", no_args_is_help=True)
PlayerArg = Annotated[str, typer.Argument(help="The player: number or name.")]


@player_app.command("add")
def add(
    tournament: TournamentArg,
    name: Annotated[str, typer.Argument(help="The player's full name.")],
    city: str = "",
    club: str = "",
    byes: Annotated[int, typer.Option(help="Privilege byes for the first rounds (S-5).")] = 0,
    actor: ActorOption = None,
) -> None:
    """Register a player (before round 1; later, use `player late`)."""
    with database() as db:
        tid = tournament_id(db, tournament)
        p = guarded(lambda: register_player(db, tid, name=name, city=city, club=club,
                                            byes=byes, actor=actor_name(actor)))
    console.print(f"{p.name} registered as #{p.number}.")


@player_app.command("import")
def import_(
    tournament: TournamentArg,
    csv_file: Annotated[Path, typer.Argument(help="Players CSV or .xlsx: name[,city,club,byes].")],
    actor: ActorOption = None,
) -> None:
    """Register every player of a CSV or .xlsx file (all of them, or none when a line is
    wrong)."""
    with database() as db:
        tid = tournament_id(db, tournament)

        def run() -> list[PlayerInfo]:
            lines = read_players_csv(csv_file)
            with progress_bar("registering players") as bar:
                return register_players(db, tid, lines, actor=actor_name(actor), progress=bar)

        added = guarded(run)
    console.print(f"Registered {len(added)} players (#{added[0].number}-#{added[-1].number}).")


@player_app.command("list")
def list_(
    tournament: TournamentArg,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """The players with their state (checked in, dropped, late entry, byes)."""
    with database() as db:
        tid = tournament_id(db, tournament)
        players = guarded(lambda: list_players(db, tid))
    if as_json:
        write(json.dumps([
            {"number": p.number, "name": p.name, "city": p.city, "club": p.club,
             "granted_byes": list(p.granted_byes), "joined_round": p.joined_round,
             "dropped_after": p.dropped_after, "checked_in": p.checked_in,
             "version": p.version}
            for p in players
        ], ensure_ascii=False, indent=2) + "\n")
        return
    table = Table(title=f"Players ({len(players)})")
    for header in ("#", "Name", "City", "Club", "Checked in", "Byes", "Joined", "Dropped after"):
        table.add_column(header)
    for p in players:
        table.add_row(str(p.number), p.name, p.city, p.club, "yes" if p.checked_in else "",
                      ", ".join(map(str, p.granted_byes)), str(p.joined_round),
                      "" if p.dropped_after is None else str(p.dropped_after))
    console.print(table)


@player_app.command("checkin")
def checkin(
    tournament: TournamentArg,
    player: PlayerArg,
    absent: Annotated[bool, typer.Option(help="Mark as not present instead.")] = False,
    actor: ActorOption = None,
) -> None:
    """Mark a player present before round 1 (`round pair --drop-absent` drops the others)."""
    with database() as db:
        tid = tournament_id(db, tournament)
        p = guarded(lambda: check_in(db, tid, player, actor=actor_name(actor),
                                     present=not absent))
    console.print(f"{p.name} #{p.number}: {'checked in' if p.checked_in else 'not present'}.")


@player_app.command("drop")
def drop(
    tournament: TournamentArg,
    player: PlayerArg,
    reason: Annotated[str, typer.Option(help="Why (kept in the drop history).")] = "",
    actor: ActorOption = None,
) -> None:
    """Drop a player: not paired any more, results kept (P-7)."""
    with database() as db:
        tid = tournament_id(db, tournament)
        p = guarded(lambda: drop_player(db, tid, player, actor=actor_name(actor),
                                        reason=reason))
    console.print(f"{p.name} dropped after round {p.dropped_after}.")


@player_app.command("late")
def late(
    tournament: TournamentArg,
    name: Annotated[str, typer.Argument(help="The new player's name.")],
    byes: Annotated[bool, typer.Option(help="Grant byes for the rounds already played.")]
    = False,
    city: str = "",
    club: str = "",
    actor: ActorOption = None,
) -> None:
    """Late entry: add a player from the next round on (P-7)."""
    with database() as db:
        tid = tournament_id(db, tournament)
        p = guarded(lambda: late_entry(db, tid, name=name, city=city, club=club,
                                       byes_for_missed_rounds=byes, actor=actor_name(actor)))
    console.print(f"{p.name} joined as #{p.number} from round {p.joined_round}"
                  + (" with byes for the rounds played." if byes else "."))

"""``turnir player add|import|list|checkin|checkin-all|drop|reinstate|late``: the players of a
tournament in the database."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from turnir.cli.db_common import actor_name, command, console
from turnir.cli.options import (
    ActorOption,
    JsonOption,
    LateByesOption,
    NewPlayerArg,
    TournamentArg,
    command_group,
)
from turnir.cli.output import write_json
from turnir.cli.session import opened

player_app = command_group()
PlayerArg = Annotated[str, typer.Argument(help="The player: number or name.")]


@command(player_app, "add")
def add(
    tournament: TournamentArg,
    name: Annotated[str, typer.Argument(help="The player's full name.")],
    city: str = "",
    club: str = "",
    byes: Annotated[int, typer.Option(help="Privilege byes for the first rounds (S-5).")] = 0,
    actor: ActorOption = None,
) -> None:
    """Register a player (before round 1; later, use `player late`)."""
    from turnir.services.players import register_player

    with opened(tournament) as (db, tid):
        p = register_player(db, tid, name=name, city=city, club=club, byes=byes,
                            actor=actor_name(actor))
    console.print(f"{p.name} registered as #{p.number}.")


@command(player_app, "import")
def import_(
    tournament: TournamentArg,
    csv_file: Annotated[Path, typer.Argument(help="Players CSV or .xlsx: name[,city,club,byes].")],
    actor: ActorOption = None,
) -> None:
    """Register every player of a CSV or .xlsx file (all of them, or none when a line is
    wrong)."""
    from turnir.cli.db_data import register_file

    added, _ = register_file(tournament, csv_file, actor_name(actor))
    console.print(f"Registered {len(added)} players (#{added[0].number}-#{added[-1].number}).")


@command(player_app, "list")
def list_(
    tournament: TournamentArg,
    as_json: JsonOption = False,
) -> None:
    """The players with their state (checked in, dropped, late entry, byes)."""
    from rich.table import Table

    from turnir.services.players import list_players

    with opened(tournament) as (db, tid):
        players = list_players(db, tid)
    if as_json:
        write_json([
            {"number": p.number, "name": p.name, "city": p.city, "club": p.club,
             "granted_byes": list(p.granted_byes), "joined_round": p.joined_round,
             "dropped_after": p.dropped_after, "checked_in": p.checked_in,
             "version": p.version}
            for p in players
        ])
        return
    table = Table(title=f"Players ({len(players)})")
    for header in ("#", "Name", "City", "Club", "Checked in", "Byes", "Joined", "Dropped after"):
        table.add_column(header)
    for p in players:
        table.add_row(str(p.number), p.name, p.city, p.club, "yes" if p.checked_in else "",
                      ", ".join(map(str, p.granted_byes)), str(p.joined_round),
                      "" if p.dropped_after is None else str(p.dropped_after))
    console.print(table)


@command(player_app, "checkin")
def checkin(
    tournament: TournamentArg,
    player: PlayerArg,
    absent: Annotated[bool, typer.Option(help="Mark as not present instead.")] = False,
    actor: ActorOption = None,
) -> None:
    """Mark a player present before round 1 (`round pair --drop-absent` drops the others)."""
    from turnir.services.players import check_in

    with opened(tournament) as (db, tid):
        p = check_in(db, tid, player, actor=actor_name(actor), present=not absent)
    console.print(f"{p.name} #{p.number}: {'checked in' if p.checked_in else 'not present'}.")


@command(player_app, "drop")
def drop(
    tournament: TournamentArg,
    player: PlayerArg,
    reason: Annotated[str, typer.Option(help="Why (kept in the drop history).")] = "",
    actor: ActorOption = None,
) -> None:
    """Drop a player: not paired any more, results kept (P-7)."""
    from turnir.services.players import drop_player

    with opened(tournament) as (db, tid):
        p = drop_player(db, tid, player, actor=actor_name(actor), reason=reason)
    console.print(f"{p.name} dropped after round {p.dropped_after}.")


@command(player_app, "late")
def late(
    tournament: TournamentArg,
    name: NewPlayerArg,
    byes: LateByesOption = False,
    city: str = "",
    club: str = "",
    actor: ActorOption = None,
) -> None:
    """Late entry: add a player from the next round on (P-7)."""
    from turnir.cli.render import joined_line
    from turnir.services.players import late_entry

    with opened(tournament) as (db, tid):
        p = late_entry(db, tid, name=name, city=city, club=club, byes_for_missed_rounds=byes,
                       actor=actor_name(actor))
    console.print(joined_line(p.name, p.number, p.joined_round, byes=byes))


@command(player_app, "reinstate")
def reinstate(
    tournament: TournamentArg,
    player: PlayerArg,
    actor: ActorOption = None,
) -> None:
    """Undo a drop: the player is back while the next round is not paired (P-7)."""
    from turnir.services.players import reinstate_player

    with opened(tournament) as (db, tid):
        p = reinstate_player(db, tid, player, actor=actor_name(actor))
    console.print(f"{p.name} #{p.number} is back in the tournament.")


@command(player_app, "checkin-all")
def checkin_all(tournament: TournamentArg, actor: ActorOption = None) -> None:
    """Mark every player still in and not yet present as present."""
    from turnir.services.players import check_in_all

    with opened(tournament) as (db, tid):
        checked = check_in_all(db, tid, actor=actor_name(actor))
    console.print(f"Checked in: {len(checked)} players.")

"""``turnir robot token create|list|revoke``: the game server's tokens for the robot's HTTP
API (issue 10 item 4, ``turnir.services.robot_tokens``). A token is printed once, when it is
created; the database keeps only its hash.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from turnir.cli.db_common import actor_name, command, console
from turnir.cli.options import ActorOption, JsonOption, command_group
from turnir.cli.session import database, opened, tournament_id
from turnir.errors import UserError

if TYPE_CHECKING:
    from turnir.services.robot_tokens import RobotTokenInfo

token_app = command_group(
    help="The game server's tokens for the robot's HTTP API: create, list, revoke.",
)

TournamentOpt = Annotated[str | None, typer.Option(
    "--tournament", help="The tournament (its number or name); without: the whole deployment.")]


def _json(info: RobotTokenInfo) -> dict[str, object]:
    return {"id": info.id, "tournament": info.tournament_id, "label": info.label,
            "created_at": info.created_at.isoformat(), "created_by": info.created_by,
            "revoked_at": None if info.revoked_at is None else info.revoked_at.isoformat(),
            "revoked_by": info.revoked_by}


@command(token_app, "create")
def create_command(
    tournament: TournamentOpt = None,
    label: Annotated[str, typer.Option(help="What the token is for (a game server, an event).")]
    = "",
    actor: ActorOption = None,
) -> None:
    """Create a token and print it once (only its hash is kept: store it now)."""
    from turnir.services.robot_tokens import create_robot_token

    with database() as db:
        info, token = create_robot_token(db, tournament_id=tournament_id(db, tournament),
                                         label=label, actor=actor_name(actor))
    typer.echo(token)
    typer.echo(f"robot token #{info.id} for the {info.scope}"
               + (f" ({info.label})" if info.label else "")
               + ": the game server sends 'Authorization: Bearer <token>'; it is shown only "
               "now", err=True)


@command(token_app, "list")
def list_command(
    tournament: TournamentOpt = None,
    every: Annotated[bool, typer.Option("--all", help="The revoked tokens too.")] = False,
    as_json: JsonOption = False,
) -> None:
    """The tokens (never the tokens themselves: their numbers, scopes and labels)."""
    from rich.table import Table

    from turnir.services.robot_tokens import list_robot_tokens

    with database() as db:
        found = list_robot_tokens(db, tournament_id=tournament_id(db, tournament),
                                  revoked=every)
    if as_json:
        typer.echo(json.dumps([_json(t) for t in found], ensure_ascii=False, indent=2))
        return
    if not found:
        console.print("no robot tokens" if every else "no live robot tokens")
        return
    table = Table(title="Robot tokens")
    for header in ("#", "For", "Label", "Created", "By", "Revoked"):
        table.add_column(header)
    for t in found:
        revoked = "" if t.revoked_at is None else f"{t.revoked_at:%Y-%m-%d %H:%M} {t.revoked_by}"
        table.add_row(str(t.id), t.scope, t.label, f"{t.created_at:%Y-%m-%d %H:%M}",
                      t.created_by, revoked)
    console.print(table)


@command(token_app, "revoke")
def revoke_command(
    token: Annotated[int | None, typer.Argument(help="The token's number (token list).")]
    = None,
    tournament: Annotated[str | None, typer.Option(
        "--tournament", help="Revoke every live token of this tournament instead.")] = None,
    actor: ActorOption = None,
) -> None:
    """Revoke a token (or every token of a tournament): refused from the next request on."""
    from turnir.services.robot_tokens import revoke_robot_token, revoke_tournament_tokens

    if (token is None) == (tournament is None):
        raise UserError("give a token's number or --tournament, not both", code="bad_argument")
    if token is not None:
        with database() as db:
            done = [revoke_robot_token(db, token, actor=actor_name(actor))]
    else:
        assert tournament is not None
        with opened(tournament) as (db, tid):
            done = revoke_tournament_tokens(db, tid, actor=actor_name(actor))
    if not done:
        console.print("no live token to revoke")
    for t in done:
        console.print(f"robot token #{t.id} for the {t.scope} is revoked", highlight=False)

"""The arguments and options many commands share (typer annotations)."""

from __future__ import annotations

from typing import Annotated, Any

import typer


def command_group(**options: Any) -> typer.Typer:
    """A group of commands as every group of ``turnir`` is made: help when no command is
    given, and plain (click) help and usage errors, which need none of Rich's help machinery
    at start-up (issue 11: ``turnir --help`` under a quarter of a second)."""
    options.setdefault("no_args_is_help", True)
    return typer.Typer(rich_markup_mode=None, **options)

TournamentArg = Annotated[str, typer.Argument(help="The tournament: its number or its name.")]
ActorOption = Annotated[
    str | None,
    typer.Option("--actor", help="Who makes the change (default: $TURNIR_ACTOR or your login)."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
LangOption = Annotated[str | None, typer.Option(
    "--lang", help="ru or en (default: turnir's --lang, else ru).", show_default=False)]
"""The language of the texts a command shows (``db_common.content_language``)."""
ForceOption = Annotated[bool, typer.Option(help="Overwrite an existing file.")]
"""Without it a command refuses to overwrite (``db_common.refuse_existing``)."""
PersonArg = Annotated[str, typer.Argument(help="The person: number or name.")]
"""Someone of the players' register, across tournaments (penalties, suspensions)."""
CurrentRoundArg = Annotated[int | None, typer.Argument(help="Round (default: current).")]

# ----- changing a recorded result (``turnir result FILE``, ``turnir penalty …``) -----------

JudgeCorrectOption = Annotated[bool, typer.Option(help="Replace an existing result (judge).")]
"""A correction of a recorded result (S-6), which only a judge may make."""
ExpectedVersionOption = Annotated[int | None, typer.Option(help="The version you saw.")]
"""Optimistic locking: refuse the change when the row has moved on since."""

# ----- a new tournament's settings (``turnir new FILE`` and ``turnir tournament new``) -------

RoundsOption = Annotated[int | None, typer.Option(help="Swiss rounds (default ceil(log2 N)).")]
BestOfOption = Annotated[int, typer.Option(help="Games per Swiss match: 1, 3 or 5.")]
TopOption = Annotated[int, typer.Option(help="Players in the top: 0, 2, 4, 8, …")]
TopBestOfOption = Annotated[int, typer.Option(help="Games per top match: 1, 3 or 5.")]
PointsOption = Annotated[str, typer.Option(help="Match points win/draw/loss[/bye].")]
SeedOption = Annotated[int | None, typer.Option(help="Random seed (default: drawn now).")]

# ----- a late entry (``turnir late FILE`` and ``turnir player late``) -------------------------

NewPlayerArg = Annotated[str, typer.Argument(help="The new player's name.")]
LateByesOption = Annotated[bool, typer.Option(help="Grant byes for the rounds already played.")]

# ----- a manual seat swap (``turnir swap FILE`` and ``turnir round swap``) ---------------------

SwapRoundArg = Annotated[int, typer.Argument(help="Round number (the current round).")]
PlayerRefArg = Annotated[str, typer.Argument(help="Player number or name.")]
EditNoteOption = Annotated[str, typer.Option(help="Why (kept in the round's edit log).")]

"""Command groups loaded when they are used (issue 11: ``turnir --help`` and the file commands
import none of the database, penalty, rating or robot commands).

The main app's group (``LazyGroup``) lists each lazy group by name with its help text; the
group's module is imported only when the command line names it (``turnir penalty …``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

import typer
from typer import _click as click  # the click that typer builds its commands with
from typer.core import TyperCommand, TyperGroup


@dataclass(frozen=True, slots=True)
class Lazy:
    """A command group by where it is: ``module.attribute`` is its ``typer.Typer``."""

    module: str
    attribute: str
    help: str

    def load(self, name: str) -> click.Command:
        app = getattr(importlib.import_module(self.module), self.attribute)
        group = typer.main.get_group(app)
        group.name = name
        group.help = self.help
        return group


GROUPS: dict[str, Lazy] = {}
"""The lazy groups of the main app, by command name (``turnir.cli.main`` fills it)."""


class _Listed(TyperCommand):
    """A lazy group as ``turnir --help`` lists it: its name and help, nothing imported."""

    def __init__(self, name: str, lazy: Lazy) -> None:
        super().__init__(name, help=lazy.help)
        self.lazy = lazy


class LazyGroup(TyperGroup):
    """The main app's group: its own commands, then the lazy groups of ``GROUPS``."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*super().list_commands(ctx), *(n for n in GROUPS if n not in self.commands)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in GROUPS and cmd_name not in self.commands:
            return _Listed(cmd_name, GROUPS[cmd_name])
        return super().get_command(ctx, cmd_name)

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if isinstance(command, _Listed) and name is not None:
            command = command.lazy.load(name)
            self.commands[name] = command
        return name, command, rest


def lazy_group(name: str, module: str, attribute: str, help: str) -> None:
    """Add the group ``module.attribute`` to the main app as ``name``, loaded when used."""
    GROUPS[name] = Lazy(module, attribute, help)

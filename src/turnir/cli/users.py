"""``turnir user``: web accounts (``docs/web.md``). ``turnir user add`` makes a player unless
``--role`` says otherwise (the first organizer: ``turnir user add boss --role organizer``);
the password is asked for (twice) unless ``--password`` is given. ``deactivate`` ends the
account's sessions and stops its logins, ``activate`` lets it log in again, ``password`` sets
a new one (and ends its sessions). Every change goes to the audit log."""

from __future__ import annotations

from typing import Annotated

import typer

from turnir.cli.db_common import actor_name, command, console
from turnir.cli.options import ActorOption, command_group
from turnir.cli.session import database
from turnir.domain.accounts import AccountRole

user_app = command_group()
LoginArg = Annotated[str, typer.Argument(help="The login.")]


def _password(given: str | None) -> str:
    if given is not None:
        return given
    value: str = typer.prompt("password", hide_input=True, confirmation_prompt=True)
    return value


@command(user_app, "add")
def add(
    login: Annotated[str, typer.Argument(help="The login (one word).")],
    name: Annotated[str | None, typer.Option(help="The name shown (default: the login).")]
    = None,
    role: Annotated[AccountRole, typer.Option(
        help="The account's role (a player needs --person).")] = AccountRole.PLAYER,
    person: Annotated[int | None, typer.Option(
        help="For a player: the person's number (people.id) whose entries they report.")]
    = None,
    password: Annotated[str | None, typer.Option(
        help="The password (default: asked for, not echoed).")] = None,
    actor: ActorOption = None,
) -> None:
    """Create a web account: a player unless --role is given (the first one is usually the
    organizer: --role organizer)."""
    from turnir.services.accounts import create_account

    secret = _password(password)
    with database() as db:
        made = create_account(db, login=login, name=name or login, password=secret, role=role,
                              person_id=person, actor=actor_name(actor))
    console.print(f"account {made.login} ({made.role.value}) created")


@command(user_app, "password")
def change_password(
    login: LoginArg,
    password: Annotated[str | None, typer.Option(help="The new password.")] = None,
    actor: ActorOption = None,
) -> None:
    """Set a new password (the account's sessions are closed)."""
    from turnir.services.accounts import set_password

    secret = _password(password)
    with database() as db:
        set_password(db, login, secret, actor=actor_name(actor))
    console.print(f"password of {login} changed")


def _set_active(login: str, active: bool, actor: str | None) -> str:
    from turnir.services.accounts import set_active

    with database() as db:
        return set_active(db, login, active, actor=actor_name(actor)).login


@command(user_app, "deactivate")
def deactivate(
    login: LoginArg,
    actor: ActorOption = None,
) -> None:
    """Stop an account: its sessions end now and it cannot log in (not the last organizer)."""
    console.print(f"account {_set_active(login, False, actor)} deactivated")


@command(user_app, "activate")
def activate(
    login: LoginArg,
    actor: ActorOption = None,
) -> None:
    """Let a deactivated account log in again."""
    console.print(f"account {_set_active(login, True, actor)} active")


@command(user_app, "list")
def list_() -> None:
    """Every account with its role."""
    from turnir.services.accounts import list_accounts

    with database() as db:
        accounts = list_accounts(db)
    for account in accounts:
        person = f" person #{account.person_id}" if account.person_id else ""
        state = "" if account.active else " (deactivated)"
        console.print(f"{account.login:<20} {account.role.value:<12} {account.name}{person}"
                      f"{state}")

"""The composition root: the one module that opens the database and hands it to the web app,
the CLI and the robot, which import no storage themselves (issue 11; ``pyproject.toml``'s
import-linter contracts).

Everything here is imported lazily by its callers, so ``turnir --help`` pays for none of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from fastapi import FastAPI

    from turnir.robot.robot import Robot
    from turnir.storage.database import Database
    from turnir.web.settings import WebSettings


def open_database(url: str | None = None, *, migrate: bool = True) -> Database:
    """The database at ``url`` (default: ``TURNIR_DATABASE_URL`` or the per-user SQLite file),
    created and migrated on first use (``storage.database.Database.open``)."""
    from turnir.storage.database import Database

    return Database.open(url, migrate=migrate)


def database_url() -> str:
    """The database URL in effect: ``TURNIR_DATABASE_URL`` or the per-user SQLite file."""
    from turnir.storage.database import database_url

    return database_url()


def upgrade_database(db: Database) -> tuple[str | None, str]:
    """Create ``db``'s schema or migrate it to this version's: (the revision before, after)."""
    from turnir.storage.migrate import upgrade

    report = upgrade(db)
    return report.before, report.after


# ----- the web app ---------------------------------------------------------------------------


def web_app(settings: WebSettings | None = None, *, db: Database | None = None) -> FastAPI:
    """The web app (``turnir.web.app.create_app``) on ``db``, or on a database opened here on
    ``settings.database_url`` and closed when the app shuts down."""
    from turnir.web.app import create_app
    from turnir.web.settings import WebSettings

    settings = settings or WebSettings.from_env()
    if db is not None:
        return create_app(settings, db=db)
    database = open_database(settings.database_url)
    return create_app(settings, db=database, on_shutdown=database.close)


def seed_demo(db: Database, echo: Callable[[str], object], url: str) -> None:
    """The demo tournaments and accounts (``turnir.services.demo``), and what to print about them:
    where the running tournament is and the demo logins with their new passwords."""
    from turnir.services.accounts import make_hasher
    from turnir.services.demo import seed_accounts, seed_tournaments

    echo("preparing the demo tournaments…")
    tid = seed_tournaments(db)
    logins = seed_accounts(db, tid, make_hasher())
    echo(f"\nturnir is at {url}  (database: {db.describe()})")
    echo(f"demo tournament: {url}t/{tid}\n")
    echo("demo accounts (new passwords at every start):")
    for item in logins:
        echo(f"  {item.role.value:<12} login {item.login:<10} password {item.password}"
             f"   ({item.name})")
    echo("")


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8000,
    demo: Annotated[bool, typer.Option(
        help="Create the demo tournaments and demo accounts (new passwords) first.")] = False,
    quiet: Annotated[bool, typer.Option(help="No access log (benchmarks).")] = False,
) -> None:
    """Serve the web app: pages for organizers, judges, players and the public, and the API.

    ``turnir serve`` (``make run``): the database opened here, the demo seeded on it when
    asked, the app served by uvicorn (``turnir.web.serve.run``), the database closed after."""
    from turnir.cli.db_common import fail, guarded
    from turnir.web.serve import run
    from turnir.web.settings import WebSettings

    try:
        settings = WebSettings.from_env()
    except ValueError as error:
        raise fail(str(error)) from None
    db = guarded(lambda: open_database(settings.database_url))
    try:
        url = f"http://{host if host not in ('0.0.0.0', '::') else '127.0.0.1'}:{port}/"
        if demo:
            guarded(lambda: seed_demo(db, typer.echo, url))
        else:
            typer.echo(f"turnir is at {url}  (database: {db.describe()})")
        run(web_app(settings, db=db), host=host, port=port, quiet=quiet)
    finally:
        db.close()


# ----- the robot's web app -------------------------------------------------------------------


def robot_app(robot: Robot | None = None, **options: Any) -> FastAPI:
    """The robot's HTTP API as a standalone app (``turnir.web.robot_api.create_robot_app``,
    the same keyword options), for ``turnir robot serve``."""
    from turnir.web.robot_api import create_robot_app

    return create_robot_app(robot, **options)

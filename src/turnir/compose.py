"""The composition root: the one module that opens the database and hands it to the web app,
the CLI and the robot, which import no storage themselves (issue 11; ``pyproject.toml``'s
import-linter contracts).

Everything here is imported lazily by its callers, so ``turnir --help`` pays for none of it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from fastapi import FastAPI

    from turnir.robot.robot import Robot
    from turnir.storage.database import Database
    from turnir.web.settings import WebSettings

SECRET_ENV = "TURNIR_SECRET_KEY"


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
    ``settings.database_url`` and closed when the app shuts down. Without ``settings``, they
    come from the environment with the kept CSRF key (``kept_secret``)."""
    from turnir.web.app import create_app
    from turnir.web.settings import WebSettings

    from_env = settings is None
    settings = settings or WebSettings.from_env()
    if db is not None:
        return create_app(kept_secret(settings, db) if from_env else settings, db=db)
    database = open_database(settings.database_url)
    try:
        settings = kept_secret(settings, database) if from_env else settings
    except BaseException:
        database.close()
        raise
    return create_app(settings, db=database, on_shutdown=database.close)


def kept_secret(settings: WebSettings, db: Database,
                env: Mapping[str, str] | None = None) -> WebSettings:
    """``settings`` signing CSRF tokens with ``TURNIR_SECRET_KEY`` when it is given, else with
    the key kept in the database (``turnir.services.site_secrets``: drawn once, first writer
    wins), so that every worker and every restart accept each other's forms."""
    from turnir.services.site_secrets import csrf_key

    environ = os.environ if env is None else env
    if environ.get(SECRET_ENV, "").strip():
        return settings
    return replace(settings, secret_key=csrf_key(db))


def worker_app() -> FastAPI:
    """One worker of ``turnir serve --workers N``: uvicorn's app factory
    (``turnir.compose:worker_app``, ``factory=True``), called in each worker process. The
    settings come from the environment the serving parent left (``TURNIR_DATABASE_URL``: the
    database it opened; ``TURNIR_SCHEDULES=0``: the parent runs the schedules and the drafts);
    the worker opens its own engine and closes it when it shuts down."""
    return web_app()


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


WORKERS_MOST = 32


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8000,
    demo: Annotated[bool, typer.Option(
        help="Create the demo tournaments and demo accounts (new passwords) first.")] = False,
    quiet: Annotated[bool, typer.Option(help="No access log (benchmarks).")] = False,
    workers: Annotated[int, typer.Option(
        min=1, max=WORKERS_MOST,
        help="Web worker processes (1-32); several share the database.")] = 1,
) -> None:
    """Serve the web app: pages for organizers, judges, players and the public, and the API.

    ``turnir serve`` (``make run``): the database opened here, the demo seeded on it when
    asked, the app served by uvicorn (``turnir.web.serve.run``), the database closed after.
    With ``--workers N`` (more than one), uvicorn runs N processes of ``worker_app`` on the
    same database; this process seeds the demo before they start and alone runs the
    schedules and the drafts (``turnir.web.serve.run_workers``)."""
    from turnir.cli.db_common import fail, guarded
    from turnir.web.serve import run, run_workers
    from turnir.web.settings import WebSettings

    try:
        settings = WebSettings.from_env()
    except ValueError as error:
        raise fail(str(error)) from None
    db = guarded(lambda: open_database(settings.database_url))
    try:
        if workers > 1:
            guarded(lambda: refuse_private_database(db))
        settings = guarded(lambda: kept_secret(settings, db))
        url = f"http://{host if host not in ('0.0.0.0', '::') else '127.0.0.1'}:{port}/"
        if demo:
            guarded(lambda: seed_demo(db, typer.echo, url))
        else:
            typer.echo(f"turnir is at {url}  (database: {db.describe()})")
        if workers == 1:
            run(web_app(settings, db=db), host=host, port=port, quiet=quiet)
        else:
            os.environ.update(worker_environment(db))
            typer.echo(f"{workers} web workers")
            run_workers(db, settings, host=host, port=port, quiet=quiet, workers=workers)
    finally:
        db.close()


def refuse_private_database(db: Database) -> None:
    """Several workers need one database they all open: not an in-memory SQLite one."""
    from turnir.errors import UserError

    name = db.engine.url.database or ""
    if db.is_sqlite and (name in ("", ":memory:") or "mode=memory" in name):
        raise UserError("several workers need a database file or PostgreSQL, not an "
                        "in-memory database", code="bad_setting")


def worker_environment(db: Database) -> dict[str, str]:
    """What the serving parent tells its workers (``worker_app``): the database it opened
    (also when it is the default SQLite file) and that it runs the schedules itself."""
    return {"TURNIR_DATABASE_URL": db.engine.url.render_as_string(hide_password=False),
            "TURNIR_SCHEDULES": "0"}


# ----- the robot's web app -------------------------------------------------------------------


def robot_app(robot: Robot | None = None, **options: Any) -> FastAPI:
    """The robot's HTTP API as a standalone app (``turnir.web.robot_api.create_robot_app``,
    the same keyword options), for ``turnir robot serve``."""
    from turnir.web.robot_api import create_robot_app

    return create_robot_app(robot, **options)

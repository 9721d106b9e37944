"""``turnir serve``: the web app with uvicorn on the default database (``make run``).

uvicorn runs with ``proxy_headers=False``: it never rewrites the client or the scheme from
``X-Forwarded-*`` (its default would believe them from 127.0.0.1). turnir itself does, and only
for the proxies in ``TURNIR_TRUSTED_PROXIES`` (``turnir.web.proxies``)."""

from __future__ import annotations

from typing import Annotated

import typer

from turnir.cli.db_common import fail, guarded
from turnir.storage.database import Database
from turnir.web.settings import WebSettings


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8000,
    demo: Annotated[bool, typer.Option(
        help="Create the demo tournaments and demo accounts (new passwords) first.")] = False,
    quiet: Annotated[bool, typer.Option(help="No access log (benchmarks).")] = False,
) -> None:
    """Serve the web app: pages for organizers, judges, players and the public, and the API."""
    import uvicorn

    from turnir.services.accounts import make_hasher
    from turnir.web.app import create_app
    from turnir.web.demo import seed_accounts, seed_tournaments

    try:
        settings = WebSettings.from_env()
    except ValueError as error:
        raise fail(str(error)) from None
    db = guarded(lambda: Database.open(settings.database_url))
    url = f"http://{host if host not in ('0.0.0.0', '::') else '127.0.0.1'}:{port}/"
    if demo:
        typer.echo("preparing the demo tournaments…")
        tid = guarded(lambda: seed_tournaments(db))
        logins = guarded(lambda: seed_accounts(db, tid, make_hasher()))
        typer.echo(f"\nturnir is at {url}  (database: {db.describe()})")
        typer.echo(f"demo tournament: {url}t/{tid}\n")
        typer.echo("demo accounts (new passwords at every start):")
        for item in logins:
            typer.echo(f"  {item.role.value:<12} login {item.login:<10} password {item.password}"
                       f"   ({item.name})")
        typer.echo("")
    else:
        typer.echo(f"turnir is at {url}  (database: {db.describe()})")
    app = create_app(settings, db=db)
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning" if quiet else "info",
                    access_log=not quiet, proxy_headers=False)
    finally:
        db.close()

"""Serving the web app with uvicorn (``turnir serve``, ``make run``: ``turnir.compose.serve``
opens the database, seeds the demo when asked and calls :func:`run`).

uvicorn runs with ``proxy_headers=False``: it never rewrites the client or the scheme from
``X-Forwarded-*`` (its default would believe them from 127.0.0.1). turnir itself does, and only
for the proxies in ``TURNIR_TRUSTED_PROXIES`` (``turnir.web.proxies``).

While it serves, a background thread runs the tournament schedules once a minute with the real
clock (``turnir.services.schedules.run_schedules``, issue 13), unless the setting
``run_schedules`` is off (``TURNIR_SCHEDULES=0``); with it, another advances the live drafts
every second (``draft_loop``, issue 14).

``turnir serve --workers N`` (issue 15, :func:`run_workers`): uvicorn's supervisor runs N
worker processes of the factory ``turnir.compose:worker_app``, each with its own database
engine, on the database the parent opened (passed in ``TURNIR_DATABASE_URL``); the parent
alone runs the schedules and the drafts (the workers get ``TURNIR_SCHEDULES=0``). They agree on
the CSRF key (``TURNIR_SECRET_KEY`` or the one kept in the database,
``turnir.services.site_secrets``) and on the creating forms' tokens (``form_tokens``)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from fastapi import FastAPI

from turnir.services.common import Database
from turnir.web.settings import WebSettings

log = logging.getLogger("turnir.schedule")
SCHEDULE_EVERY_S = 60.0


def schedule_loop(db: Database, stop: threading.Event, *,
                  every_s: float = SCHEDULE_EVERY_S) -> None:
    """Run the schedules now and then every ``every_s`` seconds until ``stop`` is set; a
    failing pass is logged and the next one runs as usual."""
    from turnir.services.schedules import run_schedules

    while not stop.is_set():
        try:
            for step in run_schedules(db, now=db.clock.now()).steps:
                log.info("schedule: %s %s %s", step.action, step.schedule_name,
                         step.tournament_id)
        except Exception:  # a pass must never stop the server; the next one retries
            log.exception("schedule pass failed")
        stop.wait(every_s)


DRAFT_EVERY_S = 1.0


def draft_loop(db: Database, stop: threading.Event, *, every_s: float = DRAFT_EVERY_S) -> None:
    """Advance the live drafts (``turnir.services.live_draft.advance_drafts``: the automatic
    picks of the timers that ran out, the next booster after the review) every ``every_s``
    seconds until ``stop`` is set; a pass with no table due is one query. Safe beside other
    workers doing the same (each table is locked and checked again)."""
    from turnir.services.live_draft import advance_drafts

    while not stop.is_set():
        try:
            advance_drafts(db)
        except Exception:  # a pass must never stop the server; the next one retries
            log.exception("draft pass failed")
        stop.wait(every_s)


@contextmanager
def background(db: Database, settings: WebSettings) -> Iterator[None]:
    """The schedules and the drafts advanced in background threads while the block runs (when
    the setting ``run_schedules`` says so), stopped after it."""
    stop = threading.Event()
    if settings.run_schedules:
        threading.Thread(target=schedule_loop, args=(db, stop), daemon=True,
                         name="turnir-schedules").start()
        threading.Thread(target=draft_loop, args=(db, stop), daemon=True,
                         name="turnir-drafts").start()
    try:
        yield
    finally:
        stop.set()


def run(app: FastAPI, *, host: str, port: int, quiet: bool) -> None:
    """Serve ``app`` on ``host:port`` until stopped (an access log unless ``quiet``), running
    the schedules in the background while it serves (when the setting says so)."""
    import uvicorn

    state = app.state.web
    with background(state.db, state.settings):
        uvicorn.run(app, host=host, port=port, log_level="warning" if quiet else "info",
                    access_log=not quiet, proxy_headers=False)


WORKER_APP = "turnir.compose:worker_app"


def run_workers(db: Database, settings: WebSettings, *, host: str, port: int, quiet: bool,
                workers: int) -> None:
    """Serve with ``workers`` processes of ``WORKER_APP`` (uvicorn's supervisor, which starts
    each one anew: spawned, nothing of this process's engine is shared) until stopped; this
    process runs the schedules and the drafts on ``db`` meanwhile, the workers never do."""
    import uvicorn

    with background(db, settings):
        uvicorn.run(WORKER_APP, factory=True, workers=workers, host=host, port=port,
                    log_level="warning" if quiet else "info", access_log=not quiet,
                    proxy_headers=False)

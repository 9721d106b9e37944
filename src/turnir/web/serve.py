"""Serving the web app with uvicorn (``turnir serve``, ``make run``: ``turnir.compose.serve``
opens the database, seeds the demo when asked and calls :func:`run`).

uvicorn runs with ``proxy_headers=False``: it never rewrites the client or the scheme from
``X-Forwarded-*`` (its default would believe them from 127.0.0.1). turnir itself does, and only
for the proxies in ``TURNIR_TRUSTED_PROXIES`` (``turnir.web.proxies``)."""

from __future__ import annotations

from fastapi import FastAPI


def run(app: FastAPI, *, host: str, port: int, quiet: bool) -> None:
    """Serve ``app`` on ``host:port`` until stopped (an access log unless ``quiet``)."""
    import uvicorn

    uvicorn.run(app, host=host, port=port, log_level="warning" if quiet else "info",
                access_log=not quiet, proxy_headers=False)

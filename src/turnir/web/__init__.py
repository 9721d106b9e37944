"""The web app: server-rendered pages (Jinja2 + HTMX) and the REST API under ``/api/v1``
(``docs/web.md``). ``create_app(settings)`` builds it; nothing is created at import time."""

"""Request bodies are refused over a limit before anything parses them (413).

``BodyLimit`` is a pure ASGI middleware near the outside of the app (``turnir.web.app``, inside
``SecurityHeaders`` only, so nothing else has touched the body yet):

- the limit is ``max_upload`` (``TURNIR_MAX_UPLOAD``, 10 MB) for a ``multipart/form-data``
  body (file uploads) and ``max_body`` (``TURNIR_MAX_BODY``, 2 MB) for every other body (JSON,
  forms);
- a ``Content-Length`` over the limit is refused at once: the app is not called and the body
  is not read (uvicorn sends no ``100 Continue``, so a client that waits for one sends nothing);
- without a ``Content-Length`` (chunked) or with a false one, the chunks are counted as the
  app reads them; the read that passes the limit raises :class:`BodyTooLarge` (an
  ``HTTPException`` 413, which FastAPI passes on as it is) and nothing more is read; whatever
  answer the app then starts is replaced by the refusal below.

The refusal is the app's own error answer (``turnir.web.errors.too_large``): a JSON
``{"code": "too_large", "message"}`` under ``/api``, the message in the page's message area for
HTMX, a translated error page otherwise; it carries ``Connection: close`` so the server does not
read the rest of the body to keep the connection.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from turnir.errors import Term, UserError

log = logging.getLogger("turnir.web")

Refusal = Callable[[Scope, "BodyTooLarge"], Awaitable[Response]]
"""Builds the 413 answer for a request (the app's error pages)."""


def size_parts(size: int) -> tuple[int, Term]:
    """``(2, "MB")``, ``(512, "KB")``, ``(1000, "bytes")``: a size in its largest whole unit."""
    if size % (1024 * 1024) == 0:
        return size // (1024 * 1024), Term("MB")
    if size % 1024 == 0:
        return size // 1024, Term("KB")
    return size, Term("bytes")


class BodyTooLarge(HTTPException):
    """A request body over its limit (413); ``reason`` says so in the reader's language."""

    def __init__(self, limit: int, *, upload: bool) -> None:
        size, unit = size_parts(limit)
        if upload:
            self.reason = UserError("the file upload is larger than {size} {unit}",
                                    code="too_large", size=size, unit=unit)
        else:
            self.reason = UserError("the request is larger than {size} {unit}",
                                    code="too_large", size=size, unit=unit)
        super().__init__(status_code=413, detail=self.reason.message)
        self.limit = limit
        self.upload = upload


def is_upload(headers: Headers) -> bool:
    return headers.get("content-type", "").lower().lstrip().startswith("multipart/form-data")


def whole_number(text: str, *, digits: int = 18) -> int | None:
    """``text`` as a whole number when it is ASCII digits only (at most ``digits`` of them:
    ``"²"`` passes ``str.isdigit`` and a 5,000-digit string makes ``int`` raise)."""
    value = text.strip()
    if not value or len(value) > digits or not (value.isascii() and value.isdigit()):
        return None
    return int(value)


def declared_length(headers: Headers) -> int | None:
    value = headers.get("content-length")
    return None if value is None else whole_number(value)


async def plain_refusal(scope: Scope, error: BodyTooLarge) -> Response:
    return PlainTextResponse(str(error.detail), status_code=413)


async def json_refusal(scope: Scope, error: BodyTooLarge) -> Response:
    """``{"error": {"code": "too_large", "message"}}``: the robot API's error shape."""
    return JSONResponse({"error": {"code": "too_large", "message": str(error.detail)}},
                        status_code=413)


class BodyLimit:
    """Pure ASGI: 413 for a body over ``max_body`` (``max_upload`` for multipart uploads)."""

    def __init__(self, app: ASGIApp, *, max_body: int, max_upload: int,
                 refusal: Refusal = plain_refusal) -> None:
        self.app = app
        self.max_body = max_body
        self.max_upload = max_upload
        self.refusal = refusal

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        upload = is_upload(headers)
        error = BodyTooLarge(self.max_upload if upload else self.max_body, upload=upload)
        declared = declared_length(headers)
        if declared is not None and declared > error.limit:
            await self._refuse(scope, receive, send, error)
            return
        await _Counted(self, scope, receive, send, error).run()

    async def _refuse(self, scope: Scope, receive: Receive, send: Send,
                      error: BodyTooLarge) -> None:
        try:
            response = await self.refusal(scope, error)
        except Exception:  # the error page itself failed: still a 413
            log.exception("could not render the 413 page for %s", scope.get("path"))
            response = await plain_refusal(scope, error)
        response.status_code = 413
        response.headers["connection"] = "close"
        await response(scope, receive, send)


class _Counted:
    """One request whose body is counted as the app reads it."""

    def __init__(self, limit: BodyLimit, scope: Scope, receive: Receive, send: Send,
                 error: BodyTooLarge) -> None:
        self.limit = limit
        self.scope = scope
        self.receive = receive
        self.send = send
        self.error = error
        self.received = 0
        self.exceeded = False
        self.started = False
        self.replaced = False

    async def run(self) -> None:
        try:
            await self.limit.app(self.scope, self.read, self.write)
        except BodyTooLarge:
            if self.replaced:
                return
            if self.started:
                raise
            await self._replace()

    async def read(self) -> Message:
        if self.exceeded:
            raise self.error
        message = await self.receive()
        if message["type"] == "http.request":
            self.received += len(message.get("body", b""))
            if self.received > self.error.limit:
                self.exceeded = True
                raise self.error
        return message

    async def write(self, message: Message) -> None:
        if self.replaced:
            return  # the app's own answer after the 413 was sent
        if message["type"] == "http.response.start":
            if self.exceeded:  # whatever the app made of the error: the one 413 answer
                await self._replace()
                return
            self.started = True
        await self.send(message)

    async def _replace(self) -> None:
        self.replaced = True
        self.started = True
        await self.limit._refuse(self.scope, self.receive, self.send, self.error)

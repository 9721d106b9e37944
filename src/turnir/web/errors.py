"""Errors as people see them: a ``UserError`` is a clear message on the page (the form stays
as it was typed: HTMX forms show it above the form without reloading) or a 4xx JSON body
``{"code", "message"}`` in the API; anything else is a short "internal error" page or body,
logged on the server, never a traceback."""

from __future__ import annotations

import logging
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Scope

from turnir.errors import ConflictError, ForbiddenError, NotFoundError, UserError
from turnir.services.reports import NotAllowedError
from turnir.web.deps import is_htmx, render
from turnir.web.i18n import COOKIE as LANG_COOKIE
from turnir.web.i18n import negotiate
from turnir.web.limits import BodyTooLarge
from turnir.web.security import BadCsrf, Forbidden, LoginRequired, TooManyAttempts
from turnir.web.templating import ERROR_TEXTS

log = logging.getLogger("turnir.web")

API_PREFIX = "/api/"


def status_of(error: UserError) -> int:
    if isinstance(error, LoginRequired):
        return 401
    if isinstance(error, Forbidden | ForbiddenError | NotAllowedError | BadCsrf):
        return 403
    if isinstance(error, NotFoundError):
        return 404
    if isinstance(error, ConflictError):
        return 409
    if isinstance(error, TooManyAttempts):
        return 429
    return 422


def is_api(request: Request) -> bool:
    return request.url.path.startswith(API_PREFIX)


def error_body(code: str, message: str) -> dict[str, str]:
    return {"code": code, "message": message}


def api_message(request: Request, code: str, message: str) -> str:
    """The API's message in the language the client asked for (the ``turnir_lang`` cookie or
    ``Accept-Language``: Russian first, the English detail kept, as the pages show it);
    English as it is when it asked for none, or for English, or the code has no text."""
    asked = request.cookies.get(LANG_COOKIE) or request.headers.get("accept-language")
    if not asked or code not in ERROR_TEXTS:
        return message
    locale = negotiate(request.cookies.get(LANG_COOKIE), request.headers.get("accept-language"),
                       "en")
    if locale == "en":
        return message
    return f"{request.app.state.web.templates.gettext[locale](ERROR_TEXTS[code])} ({message})"


def _message_response(request: Request, status: int, message: str, code: str,
                      headers: dict[str, str] | None = None) -> Response:
    if is_api(request):
        if status == 401:
            headers = {**(headers or {}), "WWW-Authenticate": "Bearer"}
        return JSONResponse(error_body(code, api_message(request, code, message)),
                            status_code=status, headers=headers)
    if is_htmx(request):
        response = render(request, "_message.html", status=status, message=message,
                          kind="error", code=code)
        response.headers["HX-Retarget"] = "#messages"
        response.headers["HX-Reswap"] = "innerHTML"
        return response
    if status == 401 and request.method == "GET":
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return RedirectResponse(f"/login?next={quote(target)}", status_code=303)
    return render(request, "error.html", status=status, message=message, code=code,
                  kind="error")


async def user_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, UserError)
    return _message_response(request, status_of(error), error.message, error.code)


async def validation_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, RequestValidationError)
    errors = error.errors()
    first = errors[0] if errors else {}
    where = ".".join(str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path"))
    message = f"{where}: {first.get('msg', 'invalid request')}" if where else str(
        first.get("msg", "invalid request"))
    return _message_response(request, 422, message, "invalid_request")


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, StarletteHTTPException)
    status = error.status_code
    code = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}.get(
        status, "http_error")
    message = str(error.detail) if error.detail else "error"
    if status == 404:
        message = "no such page"
    if status == 400:  # a body that cannot be read at all: like any malformed request
        status, code = 422, "invalid_request"
    response = _message_response(request, status, message, code,
                                 dict(error.headers) if error.headers else None)
    if error.headers and not is_api(request):
        response.headers.update(error.headers)
    return response


async def too_large(scope: Scope, error: BodyTooLarge) -> Response:
    """The 413 answer of ``turnir.web.limits.BodyLimit`` (it has not called the app)."""
    request = Request(scope)
    return await run_in_threadpool(_message_response, request, 413, str(error.detail),
                                   "too_large")


async def internal_error(request: Request, error: Exception) -> Response:
    log.exception("internal error on %s %s", request.method, request.url.path, exc_info=error)
    return _message_response(request, 500, "internal error; the server logged it",
                             "internal_error")


def install(app: FastAPI) -> None:
    app.add_exception_handler(UserError, user_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(Exception, internal_error)

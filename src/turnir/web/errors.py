"""Errors as people see them: a ``UserError`` is a clear message on the page (the form stays
as it was typed: HTMX forms show it above the form without reloading) or a 4xx JSON body
``{"code", "message"}`` in the API; anything else is a short "internal error" page or body,
logged on the server, never a traceback.

Every message is in the reader's language (``turnir.i18n.error_text``, the ``errors``
catalogue): a page in the page's language (``turnir_lang`` cookie, else ``Accept-Language``,
else the site's default: ``turnir.web.i18n.negotiate``), the API by the ``turnir_lang``
cookie of a browser session, else ``Accept-Language``, Russian when neither asks for Russian
or English (``turnir.i18n.accept_language_locale``). Errors that are not ``UserError``\\s
(a malformed request, an unknown page, a body over the limit, a failure) are given a
template of their own here, so they are translated the same way.
"""

from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from turnir.errors import (
    ConflictError,
    DatabaseUnavailable,
    DiskFull,
    ForbiddenError,
    NotFoundError,
    Term,
    UserError,
)
from turnir.i18n import accept_language_locale, error_text
from turnir.services.reports import NotAllowedError
from turnir.web.deps import get_visitor, is_htmx, render
from turnir.web.i18n import COOKIE as LANG_COOKIE
from turnir.web.i18n import LOCALES
from turnir.web.limits import BodyTooLarge
from turnir.web.security import LoginRequired, TooManyAttempts

log = logging.getLogger("turnir.web")

API_PREFIX = "/api/"


STATUSES: tuple[tuple[type[UserError] | tuple[type[UserError], ...], int], ...] = (
    (LoginRequired, 401),
    ((ForbiddenError, NotAllowedError), 403),
    (NotFoundError, 404),
    (ConflictError, 409),
    (TooManyAttempts, 429),
    (DatabaseUnavailable, 503),
    (DiskFull, 507),
)
"""The status of each family of ``UserError``; any other is 422."""

RETRY_AFTER_S = 5
"""``Retry-After`` of a 503: the database server is expected back within seconds."""


def status_in(error: UserError,
              statuses: tuple[tuple[type[UserError] | tuple[type[UserError], ...], int], ...],
              ) -> int:
    """The status of the first family ``error`` belongs to (422 for none)."""
    return next((status for kinds, status in statuses if isinstance(error, kinds)), 422)


def status_of(error: UserError) -> int:
    return status_in(error, STATUSES)


def is_api(request: Request) -> bool:
    return request.url.path.startswith(API_PREFIX)


def error_body(code: str, message: str) -> dict[str, str]:
    return {"code": code, "message": message}


def api_locale(request: Request) -> str:
    """The API's language: a browser session's ``turnir_lang`` choice, else the client's
    ``Accept-Language``; Russian when it asks for neither language."""
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in LOCALES:
        return chosen
    return accept_language_locale(request.headers.get("accept-language"))


FORM_MESSAGE_BOX = re.compile(r"[a-z][a-z0-9-]{0,40}-msg")
"""A form's own message box (its ``hx-target``, e.g. the staff page's ``#account-msg``)."""


def _message_box(request: Request) -> str:
    """Where an HTMX form's error goes: the form's own message box when it targets one (the
    message then stands next to the form, QA h11 item 11), else the page's ``#messages``."""
    target = request.headers.get("hx-target", "")
    return f"#{target}" if FORM_MESSAGE_BOX.fullmatch(target) else "#messages"


def message_response(request: Request, status: int, error: UserError,
                     headers: dict[str, str] | None = None) -> Response:
    """``error`` answered with ``status``: JSON under ``/api``, the page's message area for
    HTMX, a redirect to the login for a page that needs one, an error page otherwise."""
    if is_api(request):
        if status == 401:
            headers = {**(headers or {}), "WWW-Authenticate": "Bearer"}
        return JSONResponse(error_body(error.code, error_text(error, api_locale(request))),
                            status_code=status, headers=headers)
    message = error_text(error, get_visitor(request).locale)
    if is_htmx(request):
        response = render(request, "_message.html", status=status, message=message,
                          kind="error", code=error.code)
        response.headers["HX-Retarget"] = _message_box(request)
        response.headers["HX-Reswap"] = "innerHTML"
        return response
    if status == 401 and request.method == "GET":
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return RedirectResponse(f"/login?next={quote(target)}", status_code=303)
    return render(request, "error.html", status=status, message=message, code=error.code,
                  kind="error")


async def user_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, UserError)
    if isinstance(error, (DatabaseUnavailable, DiskFull)):
        return fault_response(request, error)
    return message_response(request, status_of(error), error)


def fault_response(request: Request, error: DatabaseUnavailable | DiskFull) -> Response:
    """A temporary fault (issue 15): 503 with ``Retry-After`` while the database server cannot
    be reached, 507 for a full disk; the message says nothing was changed. Logged with its
    cause (the driver's own words, which the reader is not shown)."""
    log.warning("%s on %s %s: %s", error.code, request.method, request.url.path,
                error.__cause__ or error)
    status = status_of(error)
    headers = {"Retry-After": str(RETRY_AFTER_S)} if status == 503 else {}
    response = message_response(request, status, error, headers)
    response.headers.update(headers)
    response.headers["Cache-Control"] = "no-store"
    return response


_FIELDS = {
    "tid": Term("the tournament's number"), "number": Term("the number"),
    "round": Term("the round"), "round_number": Term("the round"), "table": Term("the table"),
    "page": Term("the page"), "limit": Term("how many entries"), "kind": Term("the kind"),
    "name": Term("the name"), "format": Term("the format"), "person": Term("the person"),
    "best_of": Term("games per match"), "top_best_of": Term("games per top match"),
    "rounds": Term("the rounds"), "top": Term("the top"), "login": Term("the login"),
    "password": Term("the password"), "role": Term("the role"),
}


def _problem(first: dict[str, Any]) -> UserError:
    """Pydantic's problem as a translated sentence (its own English text is not shown)."""
    kind = str(first.get("type", ""))
    ctx = first.get("ctx") or {}
    if kind == "missing":
        return UserError("a value is required", code="invalid_request")
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return UserError("a whole number is needed", code="invalid_request")
    if kind in ("float_parsing", "float_type", "decimal_parsing", "decimal_type"):
        return UserError("a number is needed", code="invalid_request")
    if kind in ("bool_parsing", "bool_type"):
        return UserError("yes or no is needed", code="invalid_request")
    for key in ("ge", "gt", "le", "lt"):
        if key in ctx and kind.startswith(("greater", "less")):
            return _bound(key, ctx[key])
    if kind in ("string_too_long", "too_long") and "max_length" in ctx:
        return UserError("at most {limit} characters", code="invalid_request",
                         limit=ctx["max_length"])
    if kind in ("string_too_short", "too_short") and "min_length" in ctx:
        return UserError("at least {limit} characters", code="invalid_request",
                         limit=ctx["min_length"])
    if kind in ("enum", "literal_error") and "expected" in ctx:
        expected = str(ctx["expected"]).replace(" or ", ", ")
        return UserError("one of {expected}", code="invalid_request", expected=expected)
    if kind.startswith("json"):
        return UserError("the body is not valid JSON", code="invalid_request")
    return UserError("the value is not accepted", code="invalid_request")


def _bound(key: str, limit: object) -> UserError:
    if key == "ge":
        return UserError("at least {limit}", code="invalid_request", limit=limit)
    if key == "gt":
        return UserError("more than {limit}", code="invalid_request", limit=limit)
    if key == "le":
        return UserError("at most {limit}", code="invalid_request", limit=limit)
    return UserError("less than {limit}", code="invalid_request", limit=limit)


def invalid_request(errors: list[Any]) -> UserError:
    """The first problem pydantic found, in the reader's language, named by its field (the
    request's parts and list positions left out)."""
    first = errors[0] if errors else {}
    parts = [str(p) for p in first.get("loc", ())
             if p not in ("body", "query", "path", "form") and not isinstance(p, int)]
    problem = _problem(first) if first else UserError("the request cannot be read",
                                                      code="invalid_request")
    if parts:
        name = ".".join(parts)
        label = _FIELDS.get(parts[-1])
        if label is None:
            return UserError("{field}: {problem}", code="invalid_request", field=name,
                             problem=problem)
        return UserError("{label} ({field}): {problem}", code="invalid_request", label=label,
                         field=name, problem=problem)
    return UserError("the request is not valid: {problem}", code="invalid_request",
                     problem=problem)


async def validation_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, RequestValidationError)
    return message_response(request, 422, invalid_request(list(error.errors())))


def http_refusal(status: int, detail: object) -> tuple[int, UserError]:
    """What a Starlette ``HTTPException`` (no route, no such method, an unreadable body)
    says, as a translated error, with the status answered."""
    if status == 404:
        return 404, UserError("no such page", code="not_found")
    if status == 405:
        return 405, UserError("this page does not take this method", code="method_not_allowed")
    if status == 413:
        return 413, UserError("the request is too large for the server", code="too_large")
    if status == 400:  # a body that cannot be read at all: like any malformed request
        return 422, UserError("the request cannot be read", code="invalid_request")
    return status, UserError("the request was refused: {detail}", code="http_error",
                             detail=str(detail) if detail else status)


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, StarletteHTTPException)
    if isinstance(error, BodyTooLarge):
        status, refused = 413, error.reason
    else:
        status, refused = http_refusal(error.status_code, error.detail)
    response = message_response(request, status, refused,
                                dict(error.headers) if error.headers else None)
    if error.headers and not is_api(request):
        response.headers.update(error.headers)
    return response


async def too_large(scope: Scope, error: BodyTooLarge) -> Response:
    """The 413 answer of ``turnir.web.limits.BodyLimit`` (it has not called the app)."""
    request = Request(scope)
    return await run_in_threadpool(message_response, request, 413, error.reason)


async def internal_error(request: Request, error: Exception) -> Response:
    if isinstance(error, (DatabaseUnavailable, DiskFull)):  # raised in a middleware
        return await run_in_threadpool(fault_response, request, error)
    log.exception("internal error on %s %s", request.method, request.url.path, exc_info=error)
    return message_response(request, 500, UserError("internal error; the server logged it",
                                                    code="internal_error"))


class FaultGuard:
    """Outside Starlette's error middleware: a temporary fault raised in a middleware (the
    public page cache's stamps, the form tokens) has been answered by ``internal_error`` with
    its 503/507, and Starlette raises it again after the answer; it ends here, logged once by
    ``fault_response`` instead of as a traceback."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        except (DatabaseUnavailable, DiskFull):
            if scope["type"] != "http":
                raise


def install(app: FastAPI) -> None:
    app.add_exception_handler(UserError, user_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(Exception, internal_error)

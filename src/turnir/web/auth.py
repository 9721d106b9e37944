"""Logging in and out of the pages (the API has ``/api/v1/session``). Both draw a new CSRF
nonce (``deps.rotate_csrf``): the tokens of the page before do not work after."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response

from turnir.services import login_limits
from turnir.services.accounts import AccountInfo, AccountRole, close_session, open_session
from turnir.services.common import Database
from turnir.services.landing import staff_landing
from turnir.web.deps import StateDep, VisitorDep, WebState, done, render, require_csrf, rotate_csrf
from turnir.web.public import safe_next
from turnir.web.security import SESSION_COOKIE, client_address, cookie_secure


def sign_in(state: WebState, login: str, password: str, address: str) -> tuple[AccountInfo, str]:
    """The account and a new session token for it, when the password is right: checked
    under the rate limit (429 after too many failures), the counts shared by every worker
    (``turnir.services.login_limits``)."""
    account = login_limits.log_in(state.db, login, password, address, limits=state.limiter,
                                  hasher=state.hasher)
    return account, open_session(state.db, account, lifetime=state.session_lifetime)


def landing(db: Database, account: AccountInfo) -> str:
    """Where a login without a ``next`` lands (issue 12): a player on their current match;
    staff on the tournament they work at now (the newest running one where the account is on
    the staff: its organizers on Manage, its judges on the results grid); else the home page."""
    if account.role is AccountRole.PLAYER:
        return "/me"
    found = staff_landing(db, account.id)
    if found is None:
        return "/"
    page = "manage" if found.organizer else "results"
    return f"/t/{found.tournament_id}/{page}"


router = APIRouter(include_in_schema=False)
"""The login and logout pages; ``turnir.web.app`` includes it."""


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, next: str | None = None) -> HTMLResponse:
    return render(request, "login.html", next=safe_next(next), login="", title=None)


@router.post("/login", dependencies=[Depends(require_csrf)])
def login(request: Request, state: StateDep, visitor: VisitorDep,
          login: Annotated[str, Form(max_length=100)],
          password: Annotated[str, Form(max_length=1000)],
          next: Annotated[str, Form(max_length=2000)] = "/") -> Response:
    account, token = sign_in(state, login, password, client_address(request))
    if visitor.session_token is not None and not visitor.bearer:
        close_session(state.db, visitor.session_token)  # the browser's previous login
    target = safe_next(next)
    if target == "/":
        target = landing(state.db, account)
    response = done(request, target)
    response.set_cookie(SESSION_COOKIE, token, httponly=True, samesite="lax",
                        secure=cookie_secure(request, state.settings), path="/",
                        max_age=int(state.session_lifetime.total_seconds()))
    rotate_csrf(request, response, token)
    return response


@router.post("/logout", dependencies=[Depends(require_csrf)])
def logout(request: Request, state: StateDep, visitor: VisitorDep) -> Response:
    if visitor.session_token is not None:
        close_session(state.db, visitor.session_token)
    response = done(request, "/")
    response.delete_cookie(SESSION_COOKIE, path="/")
    rotate_csrf(request, response, None)
    return response

"""The organizer's accounts page (``/accounts``): every account with its role and whether it is
active; a new organizer's or judge's account (players get theirs on a tournament's Manage
page); deactivating an account (its sessions end at once, it cannot log in) and reactivating
it; a new password for it, typed or drawn (shown once), which ends its sessions. Each form
posts to one route that calls one service (``turnir.services.accounts``); every change is in
the audit log."""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import APIRouter, Depends, Form, Path, Request
from fastapi.responses import HTMLResponse, Response

from turnir.errors import UserError
from turnir.services.accounts import (
    AccountRole,
    create_account,
    list_accounts,
    set_active,
    set_password,
)
from turnir.services.game_age import game_ages
from turnir.web.deps import (
    SiteOrganizerDep,
    StateDep,
    done,
    gettext_for,
    message,
    render,
    require_csrf,
)
from turnir.web.form_once import FormSameDep
from turnir.web.templating import N_

Login = Annotated[str, Path(min_length=1, max_length=100)]

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])


@router.get("/accounts", response_class=HTMLResponse)
def accounts_page(request: Request, state: StateDep, actor: SiteOrganizerDep) -> HTMLResponse:
    return render(request, "accounts.html", accounts=list_accounts(state.db),
                  roles=[r for r in AccountRole if r is not AccountRole.PLAYER], title=None,
                  game_ages=game_ages(state.db))  # C-2, issue 13


@router.post("/accounts")
def add_account(request: Request, state: StateDep, actor: SiteOrganizerDep,
                login: Annotated[str, Form(max_length=100)],
                name: Annotated[str, Form(max_length=200)],
                password: Annotated[str, Form(max_length=1000)],
                role: Annotated[AccountRole, Form()], once: FormSameDep) -> Response:
    """An organizer's or a judge's account: the role is always chosen on this form (sent
    twice, it creates once: ``turnir.web.form_once``)."""
    if role is AccountRole.PLAYER:
        raise UserError("player logins are made on the tournament's page", code="bad_role")
    create_account(state.db, login=login, name=name, password=password, role=role,
                   actor=actor, hasher=state.hasher)
    return once.done(request, "/accounts")


@router.post("/accounts/{login}/deactivate")
def deactivate(request: Request, state: StateDep, actor: SiteOrganizerDep,
               login: Login) -> Response:
    set_active(state.db, login, False, actor=actor)
    return done(request, "/accounts")


@router.post("/accounts/{login}/activate")
def activate(request: Request, state: StateDep, actor: SiteOrganizerDep,
             login: Login) -> Response:
    set_active(state.db, login, True, actor=actor)
    return done(request, "/accounts")


@router.post("/accounts/{login}/password")
def new_password(request: Request, state: StateDep, actor: SiteOrganizerDep, login: Login,
                 password: Annotated[str, Form(max_length=1000)] = "") -> Response:
    """The typed password, or a drawn one shown once; the account's sessions end."""
    drawn = not password
    secret = secrets.token_urlsafe(9) if drawn else password
    account = set_password(state.db, login, secret, actor=actor, hasher=state.hasher)
    gettext = gettext_for(request)
    if drawn:
        text = gettext(N_("New password for %(login)s: %(pw)s (shown once; the "
                          "account's sessions have ended)"))
        return message(request, text % {"login": account.login, "pw": secret})
    text = gettext(N_("The password of %(login)s is changed; the account's sessions "
                      "have ended."))
    return message(request, text % {"login": account.login})

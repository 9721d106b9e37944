"""The card catalogue on the web (issue 13, ``docs/cards.md``).

- ``GET /cards`` (everyone): find a card as you type (HTMX; without JavaScript the form is a
  plain GET), each card's edition, element, cost and crystal, type and features; a site
  organizer also gets the upload form (CSV, JSON or ``.xlsx``; "replace the whole catalogue").
- ``POST /cards/import`` (site organizers): the upload; every problem of a bad file is listed
  on the page, in the page's language, by row and column, and nothing is stored.
- ``GET /cards/search?q=…`` (everyone): the cards found, as ``_cards_found.html`` (a list of
  buttons, each with the card's name in ``data-card``: the deck builder adds it to the list)
  or, with ``view=table``, the catalogue page's table.
- ``GET /api/v1/cards?q=…&limit=…`` (everyone): the cards found as JSON.

Each route calls one service (``turnir.services.cards``), which checks the role again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from turnir.domain.accounts import AccountRole
from turnir.errors import UserError
from turnir.formats.cards_file import MAX_BYTES, CardFileError
from turnir.i18n import error_text
from turnir.services import cards as card_service
from turnir.web.api import EVERYONE, PREFIX, route
from turnir.web.api_deps import api_csrf
from turnir.web.deps import (
    DbDep,
    SiteOrganizerDep,
    VisitorDep,
    gettext_for,
    is_htmx,
    render,
    require_csrf,
)
from turnir.web.form_once import FIELD as FORM_TOKEN_FIELD
from turnir.web.form_once import form_once
from turnir.web.templating import N_

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])
api_router = APIRouter(prefix=PREFIX, tags=["turnir"], dependencies=[Depends(api_csrf)])
"""``GET /api/v1/cards``; ``turnir.web.app`` includes both routers."""

TITLE = N_("Card catalogue")
SearchText = Annotated[str, Query(max_length=card_service.MAX_QUERY)]
Limit = Annotated[int, Query(ge=1, le=card_service.MAX_LIMIT)]
Count = Annotated[int, Query(ge=0, le=1_000_000)]


def _may_import(visitor: VisitorDep) -> bool:
    return visitor.account is not None and visitor.account.role is AccountRole.ORGANIZER


@router.get("/cards", response_class=HTMLResponse)
def cards(request: Request, db: DbDep, visitor: VisitorDep, q: SearchText = "",
          added: Count | None = None, updated: Count = 0, removed: Count = 0,
          total: Count = 0) -> HTMLResponse:
    """The catalogue page; ``?added=…&updated=…&removed=…&total=…``: what an import did."""
    page = card_service.cards_page(db, q)
    imported = None if added is None else {"added": added, "updated": updated,
                                           "removed": removed, "total": total}
    return render(request, "cards.html", title=gettext_for(request)(TITLE), nav="cards",
                  page=page, may_import=_may_import(visitor), imported=imported, problems=None)


@router.get("/cards/search", response_class=HTMLResponse)
def search(request: Request, db: DbDep, q: SearchText = "", limit: Limit = 20,
           view: Literal["list", "table"] = "list") -> HTMLResponse:
    """The cards found alone (HTMX): a list of buttons for the deck builder, or the table."""
    if view == "table":
        return render(request, "_cards_table.html", page=card_service.cards_page(db, q))
    return render(request, "_cards_found.html", q=q.strip(),
                  found=card_service.search_cards(db, q, limit=limit))


@router.post("/cards/import")
async def import_cards(request: Request, db: DbDep, actor: SiteOrganizerDep,
                       visitor: VisitorDep) -> Response:
    """The catalogue file; no file parameter: the role and the CSRF token are checked before
    the multipart body is read (as ``players_pages.import_players``)."""
    form = await request.form(max_files=1, max_fields=4)
    file = form.get("file")
    try:
        async with form_once(request, form.get(FORM_TOKEN_FIELD)) as once:
            if not isinstance(file, UploadFile) or not file.filename:
                raise UserError("choose the card file to import", code="no_file")
            data = await file.read(MAX_BYTES + 1)
            done = await run_in_threadpool(
                card_service.import_cards, db, actor=actor,
                account_id=visitor.account.id if visitor.account else None, data=data,
                filename=_shown_filename(file.filename), replace=form.get("replace") == "1")
            return once.done(request, f"/cards?added={done.added}&updated={done.updated}"
                                      f"&removed={done.removed}&total={done.total}")
    except CardFileError as error:
        return _problems(request, db, error, visitor.locale)


@dataclass(frozen=True, slots=True)
class FileProblems:
    """A catalogue file's problems as the page lists them (``_cards_problems.html``)."""

    head: str
    lines: list[str]
    more: int
    """Problems not listed (beyond ``SHOWN``)."""


SHOWN = 200
"""The most problems of one file listed on the page."""


def _problems(request: Request, db: DbDep, error: CardFileError, locale: str) -> Response:
    """Every problem of the file, in the page's language: in the form's message box (HTMX),
    or the page again with them."""
    head = UserError("{source}: {count} problems, nothing was imported",
                     source=error.params["source"], count=len(error.problems))
    listed = FileProblems(head=error_text(head, locale),
                          lines=[error_text(p, locale) for p in error.problems[:SHOWN]],
                          more=max(0, len(error.problems) - SHOWN))
    if is_htmx(request):
        response = render(request, "_cards_problems.html", status=422, problems=listed)
        response.headers["HX-Retarget"] = "#cards-import-msg"
        response.headers["HX-Reswap"] = "innerHTML"
        return response
    return render(request, "cards.html", status=422, title=gettext_for(request)(TITLE),
                  nav="cards",
                  page=card_service.cards_page(db, ""), may_import=True, imported=None,
                  problems=listed)


def _shown_filename(name: str | None) -> str:
    """An uploaded file's name for messages: its last part, without control characters."""
    base = (name or "").replace("\\", "/").rsplit("/", 1)[-1]
    return "".join(c for c in base if c.isprintable())[:100] or "the file"


# ----- the API ----------------------------------------------------------------------------------


class CardOut(BaseModel):
    name: str
    edition: str
    number: str
    rarity: str
    element: str
    cost: int
    crystal: Literal["gold", "silver"]
    type: str
    features: list[str]
    unique: bool
    horde: bool
    """It has the Орда feature: up to 5 copies (C-1)."""
    aliases: list[str]


class CardsOut(BaseModel):
    query: str
    cards: list[CardOut]


@route("GET", "/cards", EVERYONE, response_model=CardsOut, on=api_router)
def api_cards(db: DbDep, q: SearchText = "", limit: Limit = 20) -> CardsOut:
    """The cards whose name or alias holds every word of ``q`` (case, ё/е, spaces and Latin
    look-alike letters ignored), then the closest names; at most ``limit``."""
    found = card_service.search_cards(db, q, limit=limit)
    return CardsOut(query=q.strip(), cards=[CardOut.model_validate(card_service.card_json(c))
                                            for c in found])

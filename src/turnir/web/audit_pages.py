"""The tournament's audit log page for its staff (organizer and head judge): the newest entries
and, at the top, whether the log verifies (``turnir.services.audit``: the hash chain and the
stored pairings and results) or the first entry that does not match."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from turnir.services.audit import log_page
from turnir.web.deps import HeadDep, StateDep, TournamentDep, render

SHOWN = 100
"""Entries on the page by default (the newest)."""

router = APIRouter(include_in_schema=False)


@router.get("/t/{tid}/log", response_class=HTMLResponse)
def audit_log_page(request: Request, state: StateDep, staff: HeadDep, info: TournamentDep,
                   limit: Annotated[int, Query(ge=1, le=5000)] = SHOWN) -> HTMLResponse:
    """The newest entries, and "verified" or the first broken entry."""
    page = log_page(state.db, info.id, limit=limit)
    return render(request, "audit_log.html", tid=info.id, tab="log", title=info.name,
                  has_top=bool(info.settings.top_size), info=info,
                  check=page.verification, lines=page.entries, staff=staff)

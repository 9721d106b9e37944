"""The tournament's audit log page for its staff (organizer and head judge): the newest entries
and, at the top, whether the log verifies (``turnir.services.audit``: the hash chain and the
stored pairings and results) or the first entry that does not match."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from turnir.services.audit import brief, log_page
from turnir.services.tournaments import find_tournament
from turnir.storage.audit import AuditEntry
from turnir.web.deps import HeadDep, StateDep, TournamentPath, render

SHOWN = 100
"""Entries on the page by default (the newest)."""


@dataclass(frozen=True, slots=True)
class LogLine:
    """One entry as the page shows it."""

    id: int
    seq: int
    at: datetime
    actor: str
    action: str
    what: str
    before: str
    after: str


def _line(entry: AuditEntry) -> LogLine:
    return LogLine(entry.id, entry.seq, entry.at, entry.actor, entry.action,
                   f"{entry.entity} {entry.entity_id}", brief(entry.before), brief(entry.after))


def create_audit_router() -> APIRouter:
    router = APIRouter(include_in_schema=False)

    @router.get("/t/{tid}/log", response_class=HTMLResponse)
    def audit_log_page(request: Request, state: StateDep, staff: HeadDep, tid: TournamentPath,
                       limit: Annotated[int, Query(ge=1, le=5000)] = SHOWN) -> HTMLResponse:
        """The newest entries, and "verified" or the first broken entry."""
        info = find_tournament(state.db, tid)
        page = log_page(state.db, tid, limit=limit)
        return render(request, "audit_log.html", tid=tid, tab="log", title=info.name,
                      has_top=bool(info.settings.top_size), info=info,
                      check=page.verification, lines=[_line(e) for e in page.entries],
                      staff=staff)

    return router

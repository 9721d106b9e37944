"""The site organizers' backup page (issue 15, ``docs/backup.md``), for a shop organizer
without a shell on the server.

- ``GET /backup`` (site organizers): what the portable backup holds, a button that downloads
  it and how an operator restores it (``turnir restore``: restoring stays a command on the
  server, never a web form).
- ``GET /backup/download`` (site organizers): the portable file, streamed as it is written
  (``turnir.services.backup.portable_download``: every row read in one read transaction, so
  it is one consistent moment while the tournaments go on), named after the time
  (``turnir-2026-03-01-1402.turnir.gz``).

Each route calls one service, which checks the role again.
"""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, StreamingResponse

from turnir.services.backup import portable_download
from turnir.web.deps import (
    DbDep,
    SiteOrganizerDep,
    VisitorDep,
    gettext_for,
    render,
    require_csrf,
)
from turnir.web.templating import N_

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])
TITLE = N_("Backup")


@router.get("/backup", response_class=HTMLResponse)
def backup_page(request: Request, actor: SiteOrganizerDep) -> HTMLResponse:
    return render(request, "backup.html", title=gettext_for(request)(TITLE), nav="backup")


def file_name(at: datetime) -> str:
    """The download's name: the moment it was taken, in UTC."""
    return f"turnir-{at.astimezone(UTC):%Y-%m-%d-%H%M}.turnir.gz"


@router.get("/backup/download")
def download(db: DbDep, visitor: VisitorDep, actor: SiteOrganizerDep) -> StreamingResponse:
    account = visitor.account
    chunks = portable_download(db, account_id=None if account is None else account.id)
    name = file_name(db.clock.now())
    return StreamingResponse(chunks, media_type="application/gzip", headers={
        "Content-Disposition": f'attachment; filename="{name}"',
        "Cache-Control": "no-store"})

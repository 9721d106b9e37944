"""Results: the judges' live grid (record, decide a dispute, override with a logged
correction), players reporting their own match, and the printables (pairings by name and by
table, result slips, seating lists) with print CSS."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from turnir.domain.model import Stage
from turnir.errors import UserError
from turnir.i18n import error_text
from turnir.services import fast_results, pages
from turnir.services.reports import ReportStatus
from turnir.web import views
from turnir.web.deps import (
    JudgesDep,
    RoundDep,
    RoundQuery,
    StateDep,
    TournamentPath,
    VisitorDep,
    get_visitor,
    gettext_for,
    is_htmx,
    message,
    render,
    require_csrf,
)
from turnir.web.errors import status_of
from turnir.web.security import PLAYERS
from turnir.web.templating import N_

SmallInt = Annotated[int, Form(ge=0, le=5)]
REPORTED = {
    ReportStatus.WAITING: N_("Reported; your opponent confirms it by reporting the same "
                             "result."),
    ReportStatus.RECORDED: N_("Confirmed by both players: the result is recorded."),
    ReportStatus.DISPUTED: N_("Your opponent reported something else; a judge will decide."),
    ReportStatus.UNCHANGED: N_("The table already has this result."),
}
"""What a player reads after reporting their match."""

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])


def grid_context(grid: pages.GridPage, *, missing: bool = False,
                 after: int | None = None) -> dict[str, Any]:
    """The grid's template values; ``missing``: only the tables without a result (issue 12);
    ``after``: the table just entered (the keyboard entry goes on at the next open one)."""
    page = grid.page
    t, rnd = page.tournament, page.round
    assert rnd is not None
    lines = views.round_lines(t, rnd)
    matches = [line for line in lines if line.b is not None]
    entered = next((line for line in matches if line.table == after and line.score), None)
    return dict(info=page.info, t=t, rnd=rnd, lines=lines,
                done=sum(1 for line in matches if line.score), total=len(matches),
                notes=grid.notes, versions=grid.versions, last=t.current_round is rnd,
                choices=grid.choices, missing=missing, entered=entered,
                next_table=grid.next_open(after), tid=page.info.id, timer=page.timer,
                rounds=[r.number for r in t.rounds])


def _grid_url(tid: int, rnd: int, *, missing: bool, after: int | None = None) -> str:
    return (f"/t/{tid}/results?round={rnd}" + ("&missing=1" if missing else "")
            + (f"&after={after}" if after is not None else ""))


@router.get("/t/{tid}/results", response_class=HTMLResponse)
def results(request: Request, state: StateDep, staff: JudgesDep, tid: TournamentPath,
            round: RoundQuery = None, missing: bool = False,
            after: Annotated[int | None, Query(ge=1, le=100_000)] = None) -> HTMLResponse:
    ctx = grid_context(pages.results_grid(state.db, tid, round), missing=missing, after=after)
    if is_htmx(request):
        return render(request, "_grid.html", **ctx)
    info = ctx["info"]
    return render(request, "results.html", tab="results", title=info.name,
                  has_top=bool(info.settings.top_size), **ctx)


@router.post("/t/{tid}/results")
def record(request: Request, state: StateDep, staff: JudgesDep, tid: TournamentPath,
           round: Annotated[int, Form(ge=1, le=10_000)],
           table: Annotated[int, Form(ge=1, le=100_000)],
           score: Annotated[str, Form(max_length=20)],
           version: Annotated[int | None, Form(ge=1)] = None,
           correct: Annotated[bool, Form()] = False,
           missing: Annotated[bool, Form()] = False) -> Response:
    """Record a result (a one-tap button, a typed score, the keyboard entry, a player's report
    accepted), decide a dispute, or override one (a logged correction, S-6). Without JS: back
    to the grid (303), or the grid with the message and the entry as typed."""
    try:
        fast_results.record_on_grid(state.db, tid, round, table, score, actor=staff.actor,
                                    correction=correct, expected_version=version,
                                    account_id=staff.account_id)
    except UserError as error:
        if is_htmx(request):
            raise  # the message above the grid; the form keeps what was typed
        ctx = grid_context(pages.results_grid(state.db, tid, round), missing=missing)
        return render(request, "results.html", status=status_of(error), tab="results",
                      title=ctx["info"].name, error=error_text(error, get_visitor(request).locale),
                      typed={"table": table, "score": score}, **ctx)
    if not is_htmx(request):
        return RedirectResponse(_grid_url(tid, round, missing=missing, after=table),
                                status_code=303)
    ctx = grid_context(pages.results_grid(state.db, tid, round), missing=missing, after=table)
    # recorded: an earlier error above the grid goes (issue 12 item 7)
    # and the keyboard entry's table field moves on to the next open table (QA h11 M3)
    return render(request, "_grid.html", clear_messages=True, advance=True, **ctx)


@router.post("/t/{tid}/report")
def report(request: Request, state: StateDep, visitor: VisitorDep, tid: TournamentPath,
           round: Annotated[int, Form(ge=1, le=10_000)],
           table: Annotated[int, Form(ge=1, le=100_000)],
           mine: SmallInt, theirs: SmallInt, draws: SmallInt = 0) -> Response:
    """A player reports their own match (their game wins first)."""
    account = visitor.require(PLAYERS)
    answer = pages.report_score(state.db, tid, round, table, mine=mine, theirs=theirs,
                                draws=draws, account=account)
    response = message(request, gettext_for(request)(REPORTED[answer.status]),
                       kind="warn" if answer.status is ReportStatus.DISPUTED else "ok")
    response.headers["HX-Trigger"] = "result-reported"  # the page shows the new state
    return response


@router.get("/t/{tid}/print/{kind}", response_class=HTMLResponse)
def printable(request: Request, staff: JudgesDep, page: RoundDep,
              kind: Annotated[str, Path(pattern="^(pairings|slips|seating)$")],
              by: str = "table") -> HTMLResponse:
    """Printables: pairings (by table or by name), result slips, seating lists."""
    t, rnd = page.tournament, page.round
    assert rnd is not None
    lines = views.round_lines(t, rnd)
    seating = sorted(((seat, line.table, "A" if seat is line.a else "B")
                      for line in lines if line.b is not None
                      for seat in (line.a, line.b)),
                     key=lambda s: (s[0].order, s[0].name.casefold(), s[0].number))
    return render(request, f"print/{kind}.html", info=page.info, rnd=rnd,
                  lines=lines, rows=views.by_name(lines), by=by, seating=seating,
                  best_of=(t.settings.top_best_of if rnd.stage is Stage.TOP
                           else t.settings.best_of), title=page.info.name)

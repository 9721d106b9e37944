"""Results: the judges' live grid (record, decide a dispute, override with a logged
correction), players reporting their own match, and the printables (pairings by name and by
table, result slips, seating lists) with print CSS."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Path, Query, Request
from fastapi.responses import HTMLResponse, Response

from turnir.domain.results import MatchResult, parse_result
from turnir.domain.tournament import Tournament
from turnir.errors import ConflictError
from turnir.services.common import TournamentInfo
from turnir.services.reports import (
    ReportStatus,
    pairing_versions,
    report_result,
    round_reports,
    round_timer,
)
from turnir.services.results import record_result
from turnir.services.tournaments import get_tournament
from turnir.web import views
from turnir.web.deps import (
    JudgesDep,
    StateDep,
    VisitorDep,
    WebState,
    is_htmx,
    render,
    require_csrf,
)
from turnir.web.organizer import message
from turnir.web.security import PLAYERS

TournamentId = Annotated[int, Path(ge=1, le=2**31 - 1)]
RoundQuery = Annotated[int | None, Query(ge=1, le=10_000)]
SmallInt = Annotated[int, Form(ge=0, le=5)]


def _round(t: Tournament, number: int | None) -> Any:
    if number is not None:
        return t.round(number)
    if t.current_round is None:
        raise ConflictError("no round has been paired yet", code="no_round")
    return t.current_round


def grid_context(state: WebState, tid: int, number: int | None) -> dict[str, Any]:
    details = get_tournament(state.db, tid)
    t = details.tournament
    rnd = _round(t, number)
    lines = views.round_lines(t, rnd)
    matches = [line for line in lines if line.b is not None]
    return dict(info=details.info, t=t, rnd=rnd, lines=lines,
                done=sum(1 for line in matches if line.score), total=len(matches),
                reports=round_reports(state.db, tid, rnd.number),
                versions=pairing_versions(state.db, tid, rnd.number),
                last=t.current_round is rnd, tid=tid,
                timer=round_timer(state.db, tid, rnd.number),
                rounds=[r.number for r in t.rounds])


def create_judging_router() -> APIRouter:
    router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])

    @router.get("/t/{tid}/results", response_class=HTMLResponse)
    def results(request: Request, state: StateDep, staff: JudgesDep, tid: TournamentId,
                round: RoundQuery = None) -> HTMLResponse:
        ctx = grid_context(state, tid, round)
        if is_htmx(request):
            return render(request, "_grid.html", **ctx)
        info: TournamentInfo = ctx["info"]
        return render(request, "results.html", tab="results", title=info.name,
                      has_top=bool(info.settings.top_size), **ctx)

    @router.post("/t/{tid}/results")
    def record(request: Request, state: StateDep, staff: JudgesDep, tid: TournamentId,
               round: Annotated[int, Form(ge=1, le=10_000)],
               table: Annotated[int, Form(ge=1, le=100_000)],
               score: Annotated[str, Form(max_length=20)],
               version: Annotated[int | None, Form(ge=1)] = None,
               correct: Annotated[bool, Form()] = False) -> Response:
        """Record a result, decide a dispute, or override one (a logged correction, S-6)."""
        record_result(state.db, tid, round, table, parse_result(score), actor=staff.actor,
                      correction=correct, expected_version=version,
                      account_id=staff.account_id)
        if is_htmx(request):
            return render(request, "_grid.html", **grid_context(state, tid, round))
        return render(request, "results.html", tab="results", **grid_context(state, tid, round))

    @router.post("/t/{tid}/report")
    def report(request: Request, state: StateDep, visitor: VisitorDep, tid: TournamentId,
               round: Annotated[int, Form(ge=1, le=10_000)],
               table: Annotated[int, Form(ge=1, le=100_000)],
               mine: SmallInt, theirs: SmallInt, draws: SmallInt = 0) -> Response:
        """A player reports their own match (their game wins first)."""
        account = visitor.require(PLAYERS)
        answer = report_result(state.db, tid, round, table,
                               MatchResult.played(mine, theirs, draws), account=account)
        gettext = state.templates.gettext[visitor.locale]
        text = {
            ReportStatus.WAITING: gettext("Reported; your opponent confirms it by reporting "
                                          "the same result."),
            ReportStatus.RECORDED: gettext("Confirmed by both players: the result is "
                                           "recorded."),
            ReportStatus.DISPUTED: gettext("Your opponent reported something else; a judge "
                                           "will decide."),
            ReportStatus.UNCHANGED: gettext("The table already has this result."),
        }[answer.status]
        return message(request, text, kind="warn" if answer.status is ReportStatus.DISPUTED
                       else "ok")

    @router.get("/t/{tid}/print/{kind}", response_class=HTMLResponse)
    def printable(request: Request, state: StateDep, staff: JudgesDep, tid: TournamentId,
                  kind: Annotated[str, Path(pattern="^(pairings|slips|seating)$")],
                  round: RoundQuery = None, by: str = "table") -> HTMLResponse:
        """Printables: pairings (by table or by name), result slips, seating lists."""
        details = get_tournament(state.db, tid)
        t = details.tournament
        rnd = _round(t, round)
        lines = views.round_lines(t, rnd)
        seating = sorted(((seat, line.table, "A" if seat is line.a else "B")
                          for line in lines if line.b is not None
                          for seat in (line.a, line.b)),
                         key=lambda s: (s[0].name.casefold(), s[0].number))
        return render(request, f"print/{kind}.html", info=details.info, rnd=rnd,
                      lines=lines, rows=views.by_name(lines), by=by, seating=seating,
                      best_of=(t.settings.top_best_of if rnd.stage.value == "top"
                               else t.settings.best_of), title=details.info.name)

    return router

"""The rating pages, for anyone: the leaderboard (both ratings, search by name, filters by
city and club, paging), a player's rating profile (the history chart as inline SVG drawn on
the server, readable without JavaScript, and the rated tournaments with place, change and K),
and a tournament's rating report (with the prize split when the fund is known). Each route
calls one read-only service of ``turnir.services.rating_queries``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse

from turnir.i18n import error_text
from turnir.ratings_chart import ChartFormat, ChartText
from turnir.services.rating_admin import rating_report_page
from turnir.services.rating_queries import (
    RatingKind,
    leaderboard,
    leaderboard_filters,
    player_rating,
)
from turnir.web.deps import (
    StaffDep,
    StateDep,
    TournamentPath,
    formats_for,
    get_visitor,
    gettext_for,
    render,
)
from turnir.web.public import PageQuery
from turnir.web.templating import N_

PersonId = Annotated[int, Path(ge=1, le=2**31 - 1, description="The person's number")]
Text = Annotated[str, Query(max_length=200)]
PER_PAGE = 50
CHART_WORDS = {"title": N_("Rating history"), "professional": N_("Pro"),
               "warlock": N_("Warlock"), "start": N_("start"),
               "empty": N_("No rated tournaments yet"), "axis": N_("Rating")}
"""The chart's words, translated for the visitor."""
CHART_SIZE = (480, 320)
CHART_FONT = 15
"""The chart is drawn 480 units wide and shrinks with the page: on a 390 px phone (366 px
of content) its 15-unit texts are still 11.4 px; on a wide screen it keeps 480 px."""


router = APIRouter(include_in_schema=False)


@router.get("/ratings", response_class=HTMLResponse)
def ratings(request: Request, state: StateDep, by: RatingKind = RatingKind.PROFESSIONAL,
            q: Text = "", city: Text = "", club: Text = "",
            page: PageQuery = 1) -> HTMLResponse:
    board = leaderboard(state.db, by=by, search=q, city=city, club=club, page=page,
                        per_page=PER_PAGE)
    return render(request, "ratings.html", board=board,
                  filters=leaderboard_filters(state.db), title=None, nav="ratings")


@router.get("/ratings/players/{person}", response_class=HTMLResponse)
def profile(request: Request, state: StateDep, person: PersonId) -> HTMLResponse:
    gettext = gettext_for(request)
    words = ChartText(**{key: gettext(text) for key, text in CHART_WORDS.items()})
    found = player_rating(state.db, person, start_label=words.start)
    formats = formats_for(request)
    form = ChartFormat(value=formats.rating, tick=formats.number, day=formats.date,
                       font_size=CHART_FONT)
    width, height = CHART_SIZE
    chart = found.chart_svg(width=width, height=height, text=words, form=form)
    return render(request, "rating_profile.html", profile=found, chart=chart,
                  title=found.person.name, nav="ratings")


@router.get("/t/{tid}/rating", response_class=HTMLResponse)
def report(request: Request, state: StateDep, staff: StaffDep,
           tid: TournamentPath) -> HTMLResponse:
    """The report; before the finish (or for an unrated tournament) the reason, with 200
    (issue 12 item 2); the head judge and the organizer get the link to the terms."""
    found = rating_report_page(state.db, tid)
    problem = None if found.problem is None else error_text(found.problem,
                                                            get_visitor(request).locale)
    return render(request, "rating_report.html", report=found.report, rtid=tid,
                  problem=found.problem, problem_text=problem, may_admin=staff.is_head,
                  title=found.tournament.name, tournament_name=found.tournament.name,
                  nav="ratings")

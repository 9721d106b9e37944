"""The projector view (issue 12): the current round's pairings by name for the screen on the
venue's wall, public like the pairings page.

Every player once, alphabetically (Russian order: ё beside е), with their table and opponent in
big type, under the tournament's name, the round and its clock (``_timer.html``, the same data
as every page's clock: a paused clock shows paused). ``static/projector.js`` scrolls a list
longer than the screen by itself (page by page when the visitor asked for reduced motion); the
page asks for its live part again as often as every public page does (HTMX, the setting
``poll_seconds``), so the next round appears as soon as it is paired.
"""

from __future__ import annotations

from collections.abc import Sequence

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from turnir.domain.text import search_key
from turnir.web import views
from turnir.web.deps import CurrentRoundDep, StateDep, is_htmx, render

router = APIRouter(include_in_schema=False)


def alphabetical(lines: Sequence[views.Line]) -> list[views.NameLine]:
    """Each player once, in the order of the Russian alphabet (case ignored, ё right after е,
    not after я as in Unicode), by surname then given name (``views.by_name``), then by
    number."""
    return sorted(views.by_name(lines),
                  key=lambda n: (n.me.order, search_key(n.me.name), n.me.name.casefold(),
                                 n.me.number))


@router.get("/t/{tid}/projector", response_class=HTMLResponse)
def projector(request: Request, state: StateDep, page: CurrentRoundDep) -> HTMLResponse:
    """The whole screen, or (an HTMX poll) its live part alone."""
    rnd = page.round
    rows = alphabetical(views.round_lines(page.tournament, rnd)) if rnd is not None else []
    return render(request, "projector_part.html" if is_htmx(request) else "projector.html",
                  info=page.info, rnd=rnd, rows=rows, timer=page.timer, tournament_id=page.info.id,
                  poll=state.settings.poll_seconds, title=page.info.name)

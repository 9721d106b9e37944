"""Downloads of the public lists (issue 12, "exports"): the standings and the final places as
CSV or as an Excel workbook, the same rows and columns as the page, in the page's language.

Public data, as the pages are: everyone may download what the standings and final-places pages
show (neither hides anything from the anonymous; the judges-only float notes belong to the
pairings page). The files themselves are written by ``turnir.formats.table_export`` (the CSV
for a Russian Excel: UTF-8 with a BOM, ``;``; formula injection neutralised).

- pages: ``GET /t/{tid}/standings/export?format=csv|xlsx``, ``GET /t/{tid}/places/export?…``;
- API: ``GET /api/v1/tournaments/{tid}/standings/export?format=…`` and
  ``…/final-places/export?format=…`` beside the JSON ``…/standings`` and ``…/final-places``
  (a separate path: the JSON routes keep their one response type).

A draft event with draft tables (T-8) gets two more columns after the player: his draft table
and his place at it (the standings within each table); other events' files are as before.

The page's "W-D-L" and penalties columns ("2-1-0", "0/1/0/2") become one number column each:
Excel would take a text such as "2-1-0" for a date.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response

from turnir.domain.draft.tables import table_places
from turnir.domain.model import Player, PlayerId, Status
from turnir.domain.standings import TieBreak
from turnir.formats.table_export import Cell, Table, csv_bytes, xlsx_bytes
from turnir.services.common import Database
from turnir.services.queries import StandingsView, get_standings
from turnir.services.tournaments import get_tournament
from turnir.web.api import EVERYONE, PREFIX, errors
from turnir.web.api_deps import TournamentId, api_csrf
from turnir.web.deps import StateDep, TournamentPath, VisitorDep, gettext_for
from turnir.web.templating import N_
from turnir.web.views import final_places


class ExportFormat(StrEnum):
    """The file to download."""

    CSV = "csv"
    XLSX = "xlsx"


MEDIA = {ExportFormat.CSV: "text/csv; charset=utf-8",
         ExportFormat.XLSX: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}
FormatQuery = Annotated[ExportFormat, Query(alias="format", description="csv or xlsx")]

PLACE, NUMBER, PLAYER, CITY, CLUB = N_("Place"), N_("No."), N_("Player"), N_("City"), N_("Club")
WINS, DRAWS, LOSSES = N_("Wins"), N_("Draws"), N_("Losses")
PENALTY_PARTS = (N_("Penalty match losses"), N_("Penalty game losses"), N_("Penalty points"),
                 N_("Warnings"))
ABOVE_NEXT, DROPPED = N_("Above next by"), N_("Dropped after round")
DRAFT_TABLE, TABLE_PLACE = N_("Draft table"), N_("Place at table")
STANDINGS, PLACES = N_("Standings"), N_("Final places")
ORDER = (TieBreak.QUALITY_OF_WINS, TieBreak.QUALITY_OF_LOSSES, TieBreak.QUALITY_OF_GAMES,
         TieBreak.SECOND_ORDER_QUALITY)
"""The tiebreak columns between the record and the penalties, as on the page."""

router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix=PREFIX, tags=["turnir"], dependencies=[Depends(api_csrf)])


def _tiebreak_name(tb: TieBreak, locale: str) -> str:
    return tb.name_ru if locale == "ru" else tb.name_en


def _where(players: Sequence[Player]) -> tuple[bool, bool]:
    """Whether the city and the club columns are wanted (someone has one)."""
    return any(p.city for p in players), any(p.club for p in players)


def _person(p: Player, city: bool, club: bool) -> list[Cell]:
    cells: list[Cell] = [p.id, p.name]
    return cells + ([p.city] if city else []) + ([p.club] if club else [])


def _draft_header(draft: dict[PlayerId, tuple[int, int]],
                  gettext: Callable[[str], str]) -> list[str]:
    """The draft table and place-at-table columns' header (none without draft tables)."""
    return [gettext(DRAFT_TABLE), gettext(TABLE_PLACE)] if draft else []


def _draft_cells(draft: dict[PlayerId, tuple[int, int]], pid: PlayerId) -> list[Cell]:
    """A player's draft table and place at it (T-8); empty cells for one without a place."""
    if not draft:
        return []
    return list(draft[pid]) if pid in draft else ["", ""]


def standings_table(view: StandingsView, gettext: Callable[[str], str], locale: str) -> Table:
    """The standings page's table: place, player, points, record, tiebreaks, penalties, lot
    and the criterion that put each player above the next."""
    t = view.tournament
    city, club = _where(t.players)
    header = [gettext(PLACE), gettext(NUMBER), gettext(PLAYER)]
    header += ([gettext(CITY)] if city else []) + ([gettext(CLUB)] if club else [])
    draft = table_places(t, view.standings) if t.tables else {}
    header += _draft_header(draft, gettext)
    header += [_tiebreak_name(TieBreak.POINTS, locale), gettext(WINS), gettext(DRAWS),
               gettext(LOSSES)]
    header += [_tiebreak_name(tb, locale) for tb in ORDER]
    header += [gettext(part) for part in PENALTY_PARTS]
    header += [_tiebreak_name(TieBreak.LOT, locale), gettext(ABOVE_NEXT), gettext(DROPPED)]
    rows = []
    for row in view.standings.rows:
        p = t.player(row.player)
        pen = row.penalties
        cells: list[Cell] = [row.place, *_person(p, city, club),
                             *_draft_cells(draft, p.id), row.points, row.wins,
                             row.draws, row.losses, row.quality_of_wins,
                             row.quality_of_losses, row.quality_of_games,
                             row.second_order_quality, pen.match_losses, pen.game_losses,
                             pen.penalty_points, pen.warnings, row.lot,
                             _tiebreak_name(row.decided_by, locale) if row.decided_by else "",
                             "" if p.dropped_after is None else p.dropped_after]
        rows.append(tuple(cells))
    return Table(f"{gettext(STANDINGS)} {view.info.name}", tuple(header), tuple(rows))


def places_table(db: Database, tid: int, gettext: Callable[[str], str]) -> tuple[str, Table]:
    """The final-places page's table (empty before the tournament is over) and the
    tournament's name."""
    details = get_tournament(db, tid)
    t = details.tournament
    city, club = _where(t.players)
    header = [gettext(PLACE), gettext(NUMBER), gettext(PLAYER)]
    header += ([gettext(CITY)] if city else []) + ([gettext(CLUB)] if club else [])
    draft = table_places(t, t.standings()) if t.tables else {}
    header += _draft_header(draft, gettext)
    seats = final_places(t, closed=details.info.status is Status.FINISHED)
    rows = tuple((place, *_person(t.player(seat.number), city, club),
                  *_draft_cells(draft, seat.number))
                 for place, seat in enumerate(seats, start=1))
    name = details.info.name
    return name, Table(f"{gettext(PLACES)} {name}", tuple(header), rows)


def download(table: Table, kind: ExportFormat, *, name: str, what: str, slug: str,
             tid: int) -> Response:
    """The table as a file to save, ``<tournament> - <what>.csv`` (``what`` in the page's
    language; ``turnir-<tid>-<slug>.csv`` for a browser that cannot take that name)."""
    data = csv_bytes(table) if kind is ExportFormat.CSV else xlsx_bytes(table)
    fallback = f"turnir-{tid}-{slug}.{kind.value}"
    wanted = "".join(c if c.isprintable() and c not in '/\\"' else " "
                     for c in f"{name} - {what}")[:120] + f".{kind.value}"
    disposition = f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(wanted)}"
    return Response(data, media_type=MEDIA[kind], headers={"content-disposition": disposition})


def _standings_file(request: Request, state: StateDep, visitor: VisitorDep, tid: int,
                    kind: ExportFormat) -> Response:
    view = get_standings(state.db, tid)
    table = standings_table(view, gettext_for(request), visitor.locale)
    return download(table, kind, name=view.info.name, what=gettext_for(request)(STANDINGS),
                    slug="standings", tid=tid)


def _places_file(request: Request, state: StateDep, tid: int, kind: ExportFormat) -> Response:
    name, table = places_table(state.db, tid, gettext_for(request))
    return download(table, kind, name=name, what=gettext_for(request)(PLACES), slug="places",
                    tid=tid)


@router.get("/t/{tid}/standings/export")
def standings_export(request: Request, state: StateDep, visitor: VisitorDep,
                     tid: TournamentPath, format: FormatQuery = ExportFormat.CSV) -> Response:
    """The standings page as a CSV or an Excel file."""
    return _standings_file(request, state, visitor, tid, format)


@router.get("/t/{tid}/places/export")
def places_export(request: Request, state: StateDep, tid: TournamentPath,
                  format: FormatQuery = ExportFormat.CSV) -> Response:
    """The final places as a CSV or an Excel file."""
    return _places_file(request, state, tid, format)


_FILES: dict[int | str, dict[str, Any]] = {
    200: {"description": "the file (CSV: UTF-8 with a BOM, ';'-separated)",
          "content": {MEDIA[k].split(";")[0]: {"schema": {"type": "string",
                                                         "format": "binary"}}
                      for k in ExportFormat}},
    **errors(404, 422),
}


@api_router.get("/tournaments/{tid}/standings/export", response_class=Response,
                responses=_FILES, openapi_extra={"x-roles": sorted(r.value for r in EVERYONE)})
def api_standings_export(request: Request, state: StateDep, visitor: VisitorDep,
                         tid: TournamentId, format: FormatQuery = ExportFormat.CSV) -> Response:
    """The standings as a file, in the language of ``Accept-Language`` (Russian by default)."""
    return _standings_file(request, state, visitor, tid, format)


@api_router.get("/tournaments/{tid}/final-places/export", response_class=Response,
                responses=_FILES, openapi_extra={"x-roles": sorted(r.value for r in EVERYONE)})
def api_places_export(request: Request, state: StateDep, tid: TournamentId,
                      format: FormatQuery = ExportFormat.CSV) -> Response:
    """The final places (P-6) as a file; only the header before the tournament is over."""
    return _places_file(request, state, tid, format)

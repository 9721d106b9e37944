"""The deck pages of a constructed tournament (issue 13, C-1, C-2), phone first:

- ``/t/{tid}/deck``: the signed-in player's own deck: paste a list ("3 Название карты" a
  line), upload a file (.txt, .csv, .xlsx: ``turnir.formats.deck_file``) or build it with the
  card search; after saving, every problem at once (the rule, the line, and for an unknown
  card the closest names, which replace it in that line with one tap: ``static/decks.js``),
  the card count and "legal" / "not legal". Once round 1 is paired the deck is read-only
  ("locked: ask a judge").
- ``/t/{tid}/decks/{number}/edit``: the same for the tournament's judges and organizer, for any
  entry at any time (a change after round 1 is logged as a judge's change, with the judge's
  optional reason; the player's page then says «changed by judge …»).
- ``/t/{tid}/decks/{number}/print`` (the player or the staff) and ``/t/{tid}/deck-sheet`` (a
  blank one): the printable deck registration sheet judges collect.
- ``/deck-check``: for anyone, no login: a list checked against a format, nothing stored.

Who may see a deck is checked by ``turnir.services.decks`` (the entry's player and the
tournament's staff); the routes check the role first (``JudgesDep``, a player's account).
Without JavaScript every form works as a plain form and the card search is a GET form that
lists the cards found on the page itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile

from turnir.domain.cards import Card, card_key
from turnir.domain.decks import MAX_TEXT, DeckCheck, DeckProblem, ProblemKind
from turnir.domain.text import QUERY_LEN, REASON_LEN
from turnir.errors import UserError
from turnir.formats.deck_file import MAX_DECK_FILE, read_deck_file
from turnir.i18n import error_text
from turnir.services import pages
from turnir.services.cards import search_cards
from turnir.services.deck_formats import format_choices, tournament_format
from turnir.services.decks import DeckView, check_deck_text, deck_view, register_deck
from turnir.services.reports import NotAllowedError
from turnir.services.tournaments import find_tournament
from turnir.web.deps import (
    JudgesDep,
    StateDep,
    TournamentPath,
    VisitorDep,
    done,
    formats_for,
    get_state,
    get_visitor,
    is_htmx,
    render,
    require_csrf,
)
from turnir.web.security import PLAYERS, SIGNED_IN, Forbidden

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])

NumberPath = Annotated[int, Path(ge=1, le=100_000, description="The entry's number")]
SearchQuery = Annotated[str, Query(max_length=QUERY_LEN)]
FOUND = 12
"""Cards listed by the search without JavaScript."""
BLANK_ROWS = 30
"""Rows of the blank registration sheet."""


@dataclass(frozen=True, slots=True)
class ProblemRow:
    """A deck problem as the page shows it: the rule, the line, the message in the page's
    language and the names to put instead (an unknown card)."""

    kind: str
    rule: str
    line: int | None
    card: str | None
    message: str
    suggestions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SheetRow:
    """A line of the registration sheet: copies, the card, its edition and element."""

    count: int
    name: str
    edition: str
    element: str


def problem_rows(problems: tuple[DeckProblem, ...], locale: str) -> list[ProblemRow]:
    return [ProblemRow(kind=p.kind.value, rule=p.rule, line=p.line, card=p.card,
                       message=error_text(p.error, locale),
                       suggestions=p.suggestions if p.kind is ProblemKind.UNKNOWN_CARD else ())
            for p in problems]


def _found(request: Request, q: str) -> list[Card] | None:
    """The cards the no-JavaScript search asked for (``None``: no search)."""
    db = get_state(request).db
    return search_cards(db, q.strip(), limit=FOUND) if q.strip() else None


async def _deck_text(form: FormData) -> str:
    """The list of a deck form: the uploaded file's when one was chosen, else the text."""
    file = form.get("file")
    if isinstance(file, UploadFile) and file.filename:
        data = await file.read(MAX_DECK_FILE + 1)
        return await run_in_threadpool(read_deck_file, data, filename=file.filename)
    text = form.get("text")
    text = text if isinstance(text, str) else ""
    if len(text) > MAX_TEXT:
        raise UserError("the deck list is longer than {limit} characters", code="bad_deck",
                        limit=MAX_TEXT)
    return text


def _version(form: FormData) -> int | None:
    value = form.get("version")
    return int(value) if isinstance(value, str) and value.isdigit() and len(value) < 10 else None


def _deck_page(request: Request, view: DeckView, *, tid: int, editing: bool, q: str,
               saved: bool) -> HTMLResponse:
    locale = get_visitor(request).locale
    action = f"/t/{tid}/decks/{view.number}/edit" if editing else f"/t/{tid}/deck"
    found = tournament_format(get_state(request).db, tid) if view.can_change else None
    starters = found.format.starter_decks if found is not None and found.starter else ()
    return render(request, "deck.html", tid=tid, tab="decks" if editing else "deck", view=view,
                  editing=editing, title=view.player, action=action,
                  problems=problem_rows(view.problems, locale), q=q, found=_found(request, q),
                  saved=saved, max_text=MAX_TEXT, max_reason=REASON_LEN, starters=starters,
                  editions=any(line.edition for line in view.lines))


def _own_number(state: StateDep, visitor: VisitorDep, tid: int) -> int:
    """The signed-in player's entry number in the tournament (403 for anyone else)."""
    if visitor.account is not None and visitor.role not in PLAYERS:
        raise Forbidden("you are not a participant of this tournament", code="not_a_player")
    account = visitor.require(PLAYERS)
    number = pages.entry_number(state.db, tid, account.person_id)
    if number is None:
        find_tournament(state.db, tid)  # an unknown tournament is 404
        raise NotAllowedError("you do not play in this tournament", code="not_a_player")
    return number


@router.get("/t/{tid}/deck", response_class=HTMLResponse)
def my_deck(request: Request, state: StateDep, visitor: VisitorDep, tid: TournamentPath,
            q: SearchQuery = "", saved: Annotated[int, Query(ge=0, le=1)] = 0) -> HTMLResponse:
    """The player's own deck: the form before round 1, read-only once it is locked."""
    number = _own_number(state, visitor, tid)
    assert visitor.account is not None
    view = deck_view(state.db, tid, number, account_id=visitor.account.id)
    return _deck_page(request, view, tid=tid, editing=False, q=q, saved=bool(saved))


@router.post("/t/{tid}/deck")
async def save_my_deck(request: Request, state: StateDep, visitor: VisitorDep,
                       tid: TournamentPath) -> Response:
    """The player registers (or replaces) their deck; the page then shows its problems."""
    number = await run_in_threadpool(_own_number, state, visitor, tid)
    assert visitor.account is not None
    form = await request.form(max_files=1, max_fields=6)
    text = await _deck_text(form)
    await run_in_threadpool(register_deck, state.db, tid, number, text=text,
                            actor=visitor.actor, account_id=visitor.account.id,
                            expected_version=_version(form))
    return done(request, f"/t/{tid}/deck?saved=1")


@router.get("/t/{tid}/decks/{number}/edit", response_class=HTMLResponse)
def edit_deck(request: Request, state: StateDep, staff: JudgesDep, tid: TournamentPath,
              number: NumberPath, q: SearchQuery = "",
              saved: Annotated[int, Query(ge=0, le=1)] = 0) -> HTMLResponse:
    """A judge's page for one entry's deck (any time; logged after round 1)."""
    view = deck_view(state.db, tid, number, account_id=staff.account_id)
    return _deck_page(request, view, tid=tid, editing=True, q=q, saved=bool(saved))


@router.post("/t/{tid}/decks/{number}/edit")
async def save_deck(request: Request, state: StateDep, staff: JudgesDep, tid: TournamentPath,
                    number: NumberPath) -> Response:
    """A judge registers or changes an entry's deck."""
    form = await request.form(max_files=1, max_fields=7)
    text = await _deck_text(form)
    reason = form.get("reason")
    await run_in_threadpool(register_deck, state.db, tid, number, text=text, actor=staff.actor,
                            account_id=staff.account_id, expected_version=_version(form),
                            reason=reason if isinstance(reason, str) else "")
    return done(request, f"/t/{tid}/decks/{number}/edit?saved=1")


# ----- the printable registration sheet --------------------------------------------------


def sheet_rows(view: DeckView) -> list[SheetRow]:
    """The deck's cards for the sheet, by element then name; a name the catalogue does not
    know last, as the player wrote it."""
    check: DeckCheck | None = view.check
    if check is None:
        return []
    editions: dict[str, str] = {}
    for line in view.lines:
        if line.edition:
            editions.setdefault(card_key(line.name), line.edition)
    known = [SheetRow(count=count, name=card.name, element=card.element,
                      edition=editions.get(card.key, card.edition))
             for card, count in check.cards]
    known.sort(key=lambda row: (card_key(row.element), card_key(row.name)))
    unknown_lines = {p.line for p in check.problems if p.kind is ProblemKind.UNKNOWN_CARD}
    unknown = [SheetRow(count=line.count, name=line.name, edition=line.edition or "",
                        element="") for line in view.lines if line.line in unknown_lines]
    return known + unknown


def _sheet(request: Request, state: StateDep, tid: int, view: DeckView | None) -> HTMLResponse:
    info = find_tournament(state.db, tid)
    found = tournament_format(state.db, tid)
    day = None
    if found is not None:
        day = found.starts_at.date() if found.starts_at is not None else found.rules_day
    rows = sheet_rows(view) if view is not None else []
    return render(request, "print/deck_sheet.html", info=info, view=view, rows=rows,
                  format_name=found.format.name if found is not None else "",
                  day=formats_for(request).date(day), blank=BLANK_ROWS,
                  elements=_element_totals(rows), back=_back(request, tid, view))


def _element_totals(rows: list[SheetRow]) -> list[tuple[str, int]]:
    totals: dict[str, int] = {}
    for row in rows:
        if row.element:
            totals[row.element] = totals.get(row.element, 0) + row.count
    return list(totals.items())


def _back(request: Request, tid: int, view: DeckView | None) -> str:
    if view is None:
        return f"/t/{tid}"
    return f"/t/{tid}/decks/{view.number}/edit" if view.staff else f"/t/{tid}/deck"


@router.get("/t/{tid}/decks/{number}/print", response_class=HTMLResponse)
def print_deck(request: Request, state: StateDep, visitor: VisitorDep, tid: TournamentPath,
               number: NumberPath) -> HTMLResponse:
    """One entry's filled registration sheet (its player or the tournament's staff)."""
    account = visitor.require(SIGNED_IN)
    view = deck_view(state.db, tid, number, account_id=account.id)
    return _sheet(request, state, tid, view)


@router.get("/t/{tid}/deck-sheet", response_class=HTMLResponse)
def blank_sheet(request: Request, state: StateDep, tid: TournamentPath) -> HTMLResponse:
    """The blank registration sheet of the tournament, to fill in by hand."""
    return _sheet(request, state, tid, None)


# ----- the public check ------------------------------------------------------------------


def _check_page(request: Request, state: StateDep, **context: Any) -> HTMLResponse:
    if is_htmx(request) and "check" in context:
        return render(request, "_deck_problems.html", **context)
    return render(request, "deck_check.html", title=None, formats=format_choices(state.db),
                  max_text=MAX_TEXT, **context)


@router.get("/deck-check", response_class=HTMLResponse)
def deck_check_page(request: Request, state: StateDep, q: SearchQuery = "",
                    format: Annotated[int, Query(ge=0, le=2**31 - 1)] = 0) -> HTMLResponse:
    """The form: a list, a format; nothing checked yet."""
    return _check_page(request, state, text="", format_id=format, q=q,
                       found=_found(request, q))


@router.post("/deck-check", response_class=HTMLResponse)
async def check_deck_page(request: Request, state: StateDep,
                          visitor: VisitorDep) -> HTMLResponse:
    """Every problem of the list in the chosen format (no tournament, nothing stored)."""
    form = await request.form(max_files=1 if visitor.account is not None else 0, max_fields=5)
    text = await _deck_text(form)
    raw = form.get("format")
    format_id = int(raw) if isinstance(raw, str) and raw.isdigit() and len(raw) < 10 else 0
    if not format_id:
        raise UserError("choose the format to check the deck in", code="no_format")
    check = await run_in_threadpool(check_deck_text, state.db, text=text, format_id=format_id)
    return _check_page(request, state, text=text, format_id=format_id, check=check,
                       problems=problem_rows(check.problems, visitor.locale), q="", found=None,
                       view=None)

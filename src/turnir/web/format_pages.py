"""The format pages (issue 13, docs/formats.md):

- ``/formats`` (everyone): every format, the starter ones marked; a site organizer also gets
  the new-format form;
- ``/formats/{format_id}`` (everyone): its editions, deck size and copy limits, its ban lists
  with their days and which is in force today, its starter decks with their lists; a site
  organizer also gets the forms: edit the format, give a ban list for a day, delete a list not
  in force yet, add, replace or remove a starter deck;
- ``/t/{tid}/format`` (the tournament's organizer): choose its format, planned start (Moscow
  time) and whether it is online, until round 1 is paired; it shows the ban list that will
  apply; a change that registered decks would not pass asks to confirm first (how many of
  them the new format would not accept), and a saved change says «Сохранено»;
- the API: ``GET /api/v1/formats`` and ``GET /api/v1/formats/{format_id}`` (everyone).

Each form posts to one route that calls one service (``turnir.services.format_edits``,
``turnir.services.deck_formats``), which checks the account's role again.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Depends, Form, Path, Query, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel

from turnir.domain.decks import MAX_TEXT
from turnir.errors import Term
from turnir.i18n import error_text
from turnir.services.deck_format_pages import (
    FormatChangeCheck,
    format_change_check,
    format_page,
    formats_page,
    tournament_format_page,
)
from turnir.services.deck_formats import (
    RULES_ZONE,
    FormatView,
    format_list,
    format_view,
    parse_start,
    set_tournament_format,
)
from turnir.services.format_edits import (
    DeckProblemsError,
    FormatLimits,
    card_names,
    create_format,
    delete_ban_list,
    delete_starter_deck,
    edit_format,
    set_ban_list,
    set_starter_deck,
)
from turnir.web.api import EVERYONE, PREFIX, route
from turnir.web.api_deps import api_csrf
from turnir.web.audit_words import ACTIONS
from turnir.web.deps import (
    DbDep,
    OrganizerDep,
    SiteOrganizerDep,
    StateDep,
    TournamentPath,
    VisitorDep,
    done,
    formats_for,
    get_visitor,
    gettext_for,
    is_htmx,
    render,
    require_csrf,
)
from turnir.web.form_fields import number_field
from turnir.web.form_once import FormSameDep

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])
api_router = APIRouter(prefix=PREFIX, tags=["turnir"], dependencies=[Depends(api_csrf)])
"""The format API under ``/api/v1`` (``turnir.web.app`` includes both routers)."""

FormatPath = Annotated[int, Path(ge=1, le=2**31 - 1, description="The format's number")]
Text100 = Annotated[str, Form(max_length=100)]
Small = Annotated[str, Form(max_length=4)]
Version = Annotated[str, Form(max_length=12)]
BAN_TEXT = 50_000
"""The longest ban list typed in the form (one card a line)."""


def _account_id(request: Request) -> int | None:
    account = get_visitor(request).account
    return None if account is None else account.id


def _version(text: str) -> int | None:
    return number_field(text, Term("the version"), low=0, high=2**31 - 1)


def _limits(min_cards: str, max_cards: str, max_copies: str, max_horde: str) -> FormatLimits:
    def field(text: str, what: Term, default: int) -> int:
        found = number_field(text, what, low=1, high=200, default=default)
        return default if found is None else found

    return FormatLimits(min_cards=field(min_cards, Term("the fewest cards"), 30),
                        max_cards=field(max_cards, Term("the most cards"), 50),
                        max_copies=field(max_copies, Term("copies of a card"), 3),
                        max_horde_copies=field(max_horde, Term("copies of a card with Horde"),
                                               5))


# ----- the pages ------------------------------------------------------------------------------


@router.get("/formats", response_class=HTMLResponse)
def formats(request: Request, state: StateDep, visitor: VisitorDep) -> HTMLResponse:
    return render(request, "formats.html", page=formats_page(state.db), nav="formats",
                  may_edit=visitor.is_organizer, fmt=formats_for(request), title=None)


@router.post("/formats")
def new_format(request: Request, state: StateDep, actor: SiteOrganizerDep, once: FormSameDep,
               name: Text100, editions: Annotated[list[str], Form(max_length=100)] = [],  # noqa: B006
               starter: Annotated[str, Form(max_length=4)] = "",
               min_cards: Small = "", max_cards: Small = "", max_copies: Small = "",
               max_horde_copies: Small = "") -> Response:
    made = create_format(state.db, actor=actor, account_id=_account_id(request), name=name,
                         editions=editions, starter=bool(starter),
                         limits=_limits(min_cards, max_cards, max_copies, max_horde_copies))
    return once.done(request, f"/formats/{made.id}")


@router.get("/formats/{format_id}", response_class=HTMLResponse)
def format_detail(request: Request, state: StateDep, visitor: VisitorDep,
                  format_id: FormatPath) -> HTMLResponse:
    page = format_page(state.db, format_id)
    gettext = gettext_for(request)
    return render(request, "format.html", page=page, view=page.view, nav="formats",
                  action_names={e.action: gettext(ACTIONS.get(e.action, e.action))
                                for e in page.changes},
                  may_edit=visitor.is_organizer, fmt=formats_for(request),
                  title=page.view.name, max_text=MAX_TEXT, ban_text=BAN_TEXT)


@router.post("/formats/{format_id}")
def change_format(request: Request, state: StateDep, actor: SiteOrganizerDep,
                  format_id: FormatPath, name: Text100, version: Version = "",
                  editions: Annotated[list[str], Form(max_length=100)] = [],  # noqa: B006
                  starter: Annotated[str, Form(max_length=4)] = "",
                  min_cards: Small = "", max_cards: Small = "", max_copies: Small = "",
                  max_horde_copies: Small = "") -> Response:
    edit_format(state.db, format_id, actor=actor, account_id=_account_id(request), name=name,
                editions=editions, starter=bool(starter),
                limits=_limits(min_cards, max_cards, max_copies, max_horde_copies),
                expected_version=_version(version))
    return done(request, f"/formats/{format_id}")


@router.post("/formats/{format_id}/ban")
def give_ban_list(request: Request, state: StateDep, actor: SiteOrganizerDep,
                  format_id: FormatPath, effective: Annotated[str, Form(max_length=20)],
                  cards: Annotated[str, Form(max_length=BAN_TEXT)] = "",
                  version: Version = "") -> Response:
    set_ban_list(state.db, format_id, actor=actor, account_id=_account_id(request),
                 effective=effective, cards=card_names(cards),
                 expected_version=_version(version))
    return done(request, f"/formats/{format_id}#bans")


@router.post("/formats/{format_id}/ban/delete")
def remove_ban_list(request: Request, state: StateDep, actor: SiteOrganizerDep,
                    format_id: FormatPath, effective: Annotated[str, Form(max_length=20)],
                    version: Version = "") -> Response:
    delete_ban_list(state.db, format_id, actor=actor, account_id=_account_id(request),
                    effective=effective, expected_version=_version(version))
    return done(request, f"/formats/{format_id}#bans")


@router.post("/formats/{format_id}/starter")
def give_starter_deck(request: Request, state: StateDep, actor: SiteOrganizerDep,
                      format_id: FormatPath, name: Text100,
                      text: Annotated[str, Form(max_length=MAX_TEXT)],
                      version: Version = "") -> Response:
    try:
        set_starter_deck(state.db, format_id, actor=actor, account_id=_account_id(request),
                         name=name, text=text, expected_version=_version(version))
    except DeckProblemsError as error:
        return _deck_problems(request, error)
    return done(request, f"/formats/{format_id}#starter")


def _deck_problems(request: Request, error: DeckProblemsError) -> Response:
    """Every problem of a refused starter deck, in the form's message box (422)."""
    locale = get_visitor(request).locale
    problems = [(error_text(p.error, locale), p.suggestions) for p in error.problems]
    if not is_htmx(request):
        return render(request, "error.html", status=422, kind="error", code=error.code,
                      message=" ".join([error_text(error, locale),
                                        *(f"{n}) {text}" for n, (text, _) in
                                          enumerate(problems, start=1))]))
    response = render(request, "_format_problems.html", status=422,
                      message=error_text(error, locale), problems=problems)
    response.headers["HX-Retarget"] = "#starter-msg"
    response.headers["HX-Reswap"] = "innerHTML"
    return response


@router.post("/formats/{format_id}/starter/delete")
def remove_starter_deck(request: Request, state: StateDep, actor: SiteOrganizerDep,
                        format_id: FormatPath, name: Text100,
                        version: Version = "") -> Response:
    delete_starter_deck(state.db, format_id, actor=actor, account_id=_account_id(request),
                        name=name, expected_version=_version(version))
    return done(request, f"/formats/{format_id}#starter")


@router.get("/t/{tid}/format", response_class=HTMLResponse)
def tournament_format_form(request: Request, state: StateDep, staff: OrganizerDep,
                           tid: TournamentPath,
                           saved: Annotated[int, Query(ge=0, le=1)] = 0) -> HTMLResponse:
    page = tournament_format_page(state.db, tid, account_id=staff.account_id)
    current = page.current
    starts = ("" if current is None or current.starts_at is None
              else current.starts_at.astimezone(RULES_ZONE).strftime("%Y-%m-%dT%H:%M"))
    return render(request, "tournament_format.html", page=page, info=page.info,
                  deck_format=current, starts_local=starts, tid=tid, tab="manage",
                  fmt=formats_for(request), title=page.info.name, saved=bool(saved))


def _confirm_change(request: Request, state: StateDep, staff: OrganizerDep, tid: int,
                    check: FormatChangeCheck, chosen: dict[str, object]) -> HTMLResponse:
    """The page again with the chosen values and the question (HTMX: the question alone, in
    the form's message box): how many registered decks the new format would not accept, and
    a second submit carrying ``confirm`` (the format confirmed)."""
    if is_htmx(request):
        return render(request, "_format_confirm.html", check=check, chosen=chosen, tid=tid)
    page = tournament_format_page(state.db, tid, account_id=staff.account_id)
    return render(request, "tournament_format.html", page=page, info=page.info,
                  deck_format=page.current, starts_local=chosen["starts_local"], tid=tid,
                  tab="manage", fmt=formats_for(request), title=page.info.name,
                  check=check, chosen=chosen)


@router.post("/t/{tid}/format")
def set_format(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
               format_id: Annotated[int, Form(ge=1, le=2**31 - 1)],
               starts_at: Annotated[str, Form(max_length=40)] = "",
               online: Annotated[str, Form(max_length=4)] = "",
               version: Version = "",
               confirm: Annotated[str, Form(max_length=12)] = "") -> Response:
    """Save the format; a change that affects registered decks is first confirmed (the
    question names how many the new format would not accept; ``confirm``: the format id the
    organizer confirmed, so a format picked after the question is asked about again)."""
    start = parse_start(starts_at)
    if confirm != str(format_id):
        check = format_change_check(state.db, tid, account_id=staff.account_id,
                                    format_id=format_id, starts_at=start)
        if check is not None:
            return _confirm_change(request, state, staff, tid, check, {
                "format_id": format_id, "starts_local": starts_at.strip(),
                "online": bool(online)})
    set_tournament_format(state.db, tid, actor=staff.actor, account_id=staff.account_id,
                          format_id=format_id, starts_at=start,
                          online=bool(online), expected_version=_version(version))
    return done(request, f"/t/{tid}/format?saved=1")


# ----- the API ------------------------------------------------------------------------------


class FormatOut(BaseModel):
    id: int
    name: str
    starter: bool
    editions: list[str]
    """The allowed editions; empty: every edition of the catalogue."""
    banned_today: int
    starter_decks: int


class BanListOut(BaseModel):
    effective: date
    cards: list[str]
    in_force: bool
    """The list in force today (Moscow day)."""
    future: bool


class DeckLineOut(BaseModel):
    count: int
    name: str
    edition: str | None


class StarterDeckOut(BaseModel):
    name: str
    total: int
    lines: list[DeckLineOut]


class FormatDetailOut(BaseModel):
    id: int
    name: str
    version: int
    starter: bool
    editions: list[str]
    min_cards: int
    max_cards: int
    max_copies: int
    max_horde_copies: int
    ban_lists: list[BanListOut]
    """The latest first."""
    starter_decks: list[StarterDeckOut]

    @classmethod
    def of(cls, view: FormatView) -> FormatDetailOut:
        fmt = view.format
        return cls(
            id=view.id, name=view.name, version=view.version, starter=fmt.starter,
            editions=list(fmt.editions), min_cards=fmt.min_cards, max_cards=fmt.max_cards,
            max_copies=fmt.max_copies, max_horde_copies=fmt.max_horde_copies,
            ban_lists=[BanListOut(effective=b.effective, cards=list(b.cards),
                                  in_force=b.in_force, future=b.future)
                       for b in view.ban_lists],
            starter_decks=[StarterDeckOut(name=d.name, total=d.deck.total,
                                          lines=[DeckLineOut(**line.to_json())
                                                 for line in d.deck.lines])
                           for d in fmt.starter_decks])


@route("GET", "/formats", EVERYONE, response_model=list[FormatOut], on=api_router)
def api_formats(db: DbDep) -> list[FormatOut]:
    """Every format, by name."""
    return [FormatOut(id=f.id, name=f.name, starter=f.starter, editions=list(f.editions),
                      banned_today=f.banned_today, starter_decks=f.starter_decks)
            for f in format_list(db)]


@route("GET", "/formats/{format_id}", EVERYONE, codes=(404,), response_model=FormatDetailOut,
       on=api_router)
def api_format(db: DbDep, format_id: FormatPath) -> FormatDetailOut:
    """A format with its ban lists (which is in force today) and starter decks."""
    return FormatDetailOut.of(format_view(db, format_id))

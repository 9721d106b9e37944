"""Game rulings from a page (issue 12; today's CLI ``turnir penalty technical|claim`` and
``turnir penalty catalogue set|default|remove``): the head judge records a technical result by
crystal count (S-8: both players' totals against the tournament's threshold, a technical win or
draw), a judge decides a claim after time-out (S-9), and the organizer or head judge edits the
infraction catalogue (J-7). Each form calls the service the CLI calls, with the web account
acting (``account_id``: its staff row in this tournament); each number is bounded and a bad one
is a translated message, nothing stored. Appeals are decided on the penalties page."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Annotated

from fastapi import APIRouter, Depends, Form, Path, Query, Request
from fastapi.responses import HTMLResponse, Response

from turnir.domain.cards import MAX_NAME
from turnir.domain.games import Side
from turnir.domain.model import RulesLevel
from turnir.domain.penalties import ClaimKind, CrystalCount, Penalty, Text
from turnir.errors import Term, UserError
from turnir.services.common import TournamentInfo
from turnir.services.game_rulings import decide_time_out_claim, record_technical_result
from turnir.services.penalty_catalogue import (
    get_catalogue,
    remove_infraction,
    set_default,
    set_infraction,
    set_judging_settings,
)
from turnir.services.results import GameReport
from turnir.services.rulings_page import (
    MAX_CRYSTALS,
    MAX_GAMES_BEFORE,
    MAX_MARGIN,
    games_before,
    infraction_of,
    rulings_page,
)
from turnir.services.technical_count import MAX_CARDS_TEXT, CrystalPicker, crystal_picker
from turnir.web import views
from turnir.web.deps import (
    HeadDep,
    JudgesDep,
    RoundQuery,
    StateDep,
    TournamentDep,
    TournamentPath,
    VisitorDep,
    done,
    render,
    require_csrf,
)
from turnir.web.form_fields import count_field, number_field
from turnir.web.staff import Staff

RoundField = Annotated[int, Form(ge=1, le=10_000)]
TableField = Annotated[int, Form(ge=1, le=100_000)]
Count = Annotated[str, Form(max_length=12)]
Note = Annotated[str, Form(max_length=1000)]
Code = Annotated[str, Path(min_length=1, max_length=48)]
Name = Annotated[str, Form(max_length=200)]
About = Annotated[str, Form(max_length=500)]
DEFAULTS = [p for p in Penalty if p is not Penalty.SUSPENSION]
"""What an infraction's default may be (never a suspension, J-5)."""

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])


def _language(locale: str) -> Callable[[Text], str]:
    """A text of the rules (Russian and English) in the page's language."""
    return attrgetter("en") if locale == "en" else attrgetter("ru")


def _crystals(silver: str, gold: str, side: str) -> CrystalCount:
    """One player's crystals from the form (S-8): silver and gold, each 0..``MAX_CRYSTALS``."""
    what_silver = Term("player A's silver crystals") if side == "a" \
        else Term("player B's silver crystals")
    what_gold = Term("player A's gold crystals") if side == "a" \
        else Term("player B's gold crystals")
    return CrystalCount(count_field(silver, what_silver, high=MAX_CRYSTALS),
                        count_field(gold, what_gold, high=MAX_CRYSTALS))


def _games_before(wins_a: str, wins_b: str, draws: str) -> list[GameReport]:
    """The games played before the ruled one, as counted on the form."""
    return games_before(
        count_field(wins_a, Term("games player A won before"), high=MAX_GAMES_BEFORE),
        count_field(wins_b, Term("games player B won before"), high=MAX_GAMES_BEFORE),
        count_field(draws, Term("drawn games before"), high=MAX_GAMES_BEFORE))


def _claimant(text: str) -> tuple[int, int]:
    """``table:number`` from the claimant's list: their table and number."""
    table, _, number = text.partition(":")
    found = (number_field(table, Term("the table"), low=1, high=100_000),
             number_field(number, Term("player"), low=1, high=100_000))
    if found[0] is None or found[1] is None:
        raise UserError("choose the player who claims", code="bad_claim")
    return found[0], found[1]


def _rulings(request: Request, state: StateDep, visitor: VisitorDep, staff: Staff,
             info: TournamentInfo, round: int | None, recorded: int | None = None,
             picker: CrystalPicker | None = None, picked_table: int | None = None
             ) -> HTMLResponse:
    found = rulings_page(state.db, info.id, round)
    page = found.page
    lines = [] if page.round is None else [
        line for line in views.round_lines(page.tournament, page.round) if line.b is not None]
    text = _language(visitor.locale)
    return render(request, "rulings.html", tid=info.id, info=info, title=info.name,
                  tab="penalties", rnd=page.round, lines=lines, rulings=found.rulings,
                  margin=found.margin, text=text, claim_kinds=list(ClaimKind),
                  said=found.said,
                  just_recorded=next((r for r in found.rulings if r.id == recorded), None),
                  is_head=staff.is_head, max_crystals=MAX_CRYSTALS,
                  max_before=MAX_GAMES_BEFORE, picker=picker, picked_table=picked_table,
                  crystals=picker.count if picker is not None else None,
                  max_cards_text=MAX_CARDS_TEXT)


@router.get("/t/{tid}/rulings", response_class=HTMLResponse)
def rulings(request: Request, state: StateDep, visitor: VisitorDep, staff: JudgesDep,
            info: TournamentDep, round: RoundQuery = None,
            recorded: Annotated[int | None, Query(ge=1, le=2**31 - 1)] = None) -> HTMLResponse:
    """The rulings so far, and the forms: a technical result (the head judge), a claim;
    ``recorded``: the ruling just recorded, confirmed at the top."""
    return _rulings(request, state, visitor, staff, info, round, recorded)


CardsText = Annotated[str, Form(max_length=MAX_CARDS_TEXT)]


@router.post("/t/{tid}/rulings/crystals", response_class=HTMLResponse)
def crystals(request: Request, state: StateDep, visitor: VisitorDep, staff: JudgesDep,
             info: TournamentDep, round: RoundField,
             table: Annotated[int | None, Form(ge=1, le=100_000)] = None,
             cards_a: CardsText = "", cards_b: CardsText = "",
             q: Annotated[str, Form(max_length=100)] = "",
             add: Annotated[str, Form(max_length=MAX_NAME + 2)] = "") -> HTMLResponse:
    """The card picker of the crystal count (S-8, issue 13): each player's cards counted from
    the catalogue (``add``: "a|name" or "b|name", a card picked from the search ``q``); the
    page again with the totals filled in the technical result form (the head judge records
    it). Nothing is stored."""
    side, _, name = add.partition("|")
    picked = ((Side.A if side == "a" else Side.B, name)
              if side in ("a", "b") and name.strip() else None)
    picker = crystal_picker(state.db, info.id, account_id=staff.account_id, cards_a=cards_a,
                            cards_b=cards_b, query=q, add=picked, round_number=round,
                            table=table)
    return _rulings(request, state, visitor, staff, info, round, picker=picker,
                    picked_table=table)


@router.post("/t/{tid}/rulings/technical")
def technical(request: Request, state: StateDep, staff: HeadDep, tid: TournamentPath,
              round: RoundField, table: TableField, a_silver: Count = "", a_gold: Count = "",
              b_silver: Count = "", b_gold: Count = "", wins_a: Count = "",
              wins_b: Count = "", draws: Count = "",
              correct: Annotated[bool, Form()] = False, note: Note = "") -> Response:
    """The head judge's technical result (S-8): the match result is recorded with it."""
    outcome = record_technical_result(
        state.db, tid, round, table, crystals_a=_crystals(a_silver, a_gold, "a"),
        crystals_b=_crystals(b_silver, b_gold, "b"), actor=staff.actor,
        games_before=_games_before(wins_a, wins_b, draws), correction=correct, note=note,
        account_id=staff.account_id)
    return done(request, f"/t/{tid}/rulings?round={round}&recorded={outcome.ruling.id}"
                         "#ruling-list")


@router.post("/t/{tid}/rulings/claim")
def claim(request: Request, state: StateDep, staff: JudgesDep, tid: TournamentPath,
          round: RoundField, kind: Annotated[ClaimKind, Form()],
          granted: Annotated[bool, Form()], claimant: Annotated[str, Form(max_length=20)] = "",
          wins_a: Count = "", wins_b: Count = "", draws: Count = "",
          correct: Annotated[bool, Form()] = False, note: Note = "") -> Response:
    """A judge's decision on a claim after time-out (S-9); ``claimant`` is ``table:number``
    (the claimant's table and number); granted, the match result is recorded."""
    table, number = _claimant(claimant)
    outcome = decide_time_out_claim(
        state.db, tid, round, table, claimant=number, kind=kind, granted=granted,
        actor=staff.actor, games_before=_games_before(wins_a, wins_b, draws),
        correction=correct, note=note, account_id=staff.account_id)
    return done(request, f"/t/{tid}/rulings?round={round}&recorded={outcome.ruling.id}"
                         "#ruling-list")


@router.get("/t/{tid}/catalogue", response_class=HTMLResponse)
def catalogue(request: Request, state: StateDep, visitor: VisitorDep, staff: HeadDep,
              info: TournamentDep) -> HTMLResponse:
    """The infraction catalogue with its defaults per rules level, and its forms."""
    view = get_catalogue(state.db, info.id)
    text = _language(visitor.locale)
    return render(request, "catalogue.html", tid=info.id, info=info, title=info.name,
                  tab="penalties", view=view, text=text, levels=list(RulesLevel),
                  defaults=DEFAULTS, penalty_names={p.value: text(p.name_text) for p in Penalty},
                  registration=info.status.value == "registration")


@router.post("/t/{tid}/catalogue")
def catalogue_set(request: Request, state: StateDep, staff: HeadDep, tid: TournamentPath,
                  code: Annotated[str, Form(min_length=1, max_length=48)], name_ru: Name,
                  name_en: Name, amateur: Annotated[Penalty, Form()],
                  professional: Annotated[Penalty, Form()],
                  highest: Annotated[Penalty, Form()], about_ru: About = "",
                  about_en: About = "") -> Response:
    """Add an infraction, or replace the one with this code (before round 1; afterwards only
    new ones)."""
    set_infraction(state.db, tid, infraction_of(
        code=code, name_ru=name_ru, name_en=name_en, amateur=amateur,
        professional=professional, highest=highest, about_ru=about_ru, about_en=about_en),
        actor=staff.actor, account_id=staff.account_id)
    return done(request, f"/t/{tid}/catalogue")


@router.post("/t/{tid}/catalogue/{code}/default")
def catalogue_default(request: Request, state: StateDep, staff: HeadDep, tid: TournamentPath,
                      code: Code, level: Annotated[RulesLevel, Form()],
                      penalty: Annotated[Penalty, Form()]) -> Response:
    """One default penalty changed (before round 1)."""
    set_default(state.db, tid, code, level, penalty, actor=staff.actor,
                account_id=staff.account_id)
    return done(request, f"/t/{tid}/catalogue#infraction-{code}")


@router.post("/t/{tid}/catalogue/{code}/remove")
def catalogue_remove(request: Request, state: StateDep, staff: HeadDep, tid: TournamentPath,
                     code: Code) -> Response:
    """An infraction removed (before round 1)."""
    remove_infraction(state.db, tid, code, actor=staff.actor, account_id=staff.account_id)
    return done(request, f"/t/{tid}/catalogue")


@router.post("/t/{tid}/rulings/threshold")
def threshold(request: Request, state: StateDep, staff: HeadDep, tid: TournamentPath,
              margin: Count = "") -> Response:
    """The crystal difference a technical win needs in this tournament (S-8; default 1)."""
    set_judging_settings(state.db, tid, actor=staff.actor, account_id=staff.account_id,
                         technical_margin=number_field(margin, Term("the technical win threshold"),
                                                       low=1, high=MAX_MARGIN))
    return done(request, f"/t/{tid}/rulings#technical")

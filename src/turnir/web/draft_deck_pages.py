"""After the draft (issue 14, D-6, D-7), phone first:

- ``/t/{tid}/draft/pool``: the signed-in player's pool as a list of cards grouped by element
  (cost, name, edition, rarity), a checkbox each and the running count (``static/draft_pool.js``
  counts as boxes are ticked; without JavaScript the count is the saved one), «Сохранить
  колоду» and the D-6 verdict. When the whole pool is the hand (or squad, or an online 1-2
  booster deck) the page says so and saves it with one button. A tabletop draft has no live
  pool: the page sends the player to the deck page, where they type the deck (checked by D-6
  and D-1). The tournament's judges see any player's pool (``?number=N``, a list of the
  players otherwise) and save it for them (after round 1 logged as a judge's change).
- ``/t/{tid}/draft/replacements``: the judges record a D-7 replacement (the player, the card
  as reported, the card given from the catalogue, a reason) and see every one; a player sees
  their own.

The services (``turnir.services.draft_decks``) check the roles again; an anonymous visitor is
sent to log in before any of them is asked.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, Response

from turnir.domain.text import REASON_LEN
from turnir.errors import Term, UserError
from turnir.services import pages
from turnir.services.draft_decks import (
    CARD_TEXT,
    MAX_UIDS,
    Reported,
    pool_deck,
    pool_players,
    record_replacement,
    replacements,
    save_pool_deck,
)
from turnir.services.reports import NotAllowedError
from turnir.services.tournaments import find_tournament
from turnir.web.deck_pages import problem_rows
from turnir.web.deps import (
    JudgesDep,
    StaffDep,
    StateDep,
    TournamentPath,
    done,
    get_visitor,
    render,
    require_csrf,
)
from turnir.web.form_fields import number_field
from turnir.web.form_once import FormOnceDep
from turnir.web.security import PLAYERS, LoginRequired
from turnir.web.staff import Staff

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])

NumberQuery = Annotated[int | None, Query(ge=1, le=2**31 - 1)]
FieldText = Annotated[str, Form(max_length=4 * REASON_LEN)]
UID_LEN = 20


def _own_number(state: StateDep, staff: Staff, tid: int) -> int:
    """The signed-in player's entry number (401 for the anonymous, 403 for anyone else)."""
    account = staff.require(PLAYERS)
    number = pages.entry_number(state.db, tid, account.person_id)
    if number is None:
        find_tournament(state.db, tid)  # an unknown tournament is 404
        raise NotAllowedError("you do not play in this tournament", code="not_a_player")
    return number


def _whose(state: StateDep, staff: Staff, tid: int, number: int | None) -> int | None:
    """Whose pool the page is about: the judge's choice (``None``: the list), else the
    player's own."""
    if staff.account is None:
        raise LoginRequired("log in to do this")
    if staff.is_judge:
        return number
    return _own_number(state, staff, tid)


@router.get("/t/{tid}/draft/pool", response_class=HTMLResponse)
def pool_page(request: Request, state: StateDep, staff: StaffDep, tid: TournamentPath,
              number: NumberQuery = None,
              saved: Annotated[int, Query(ge=0, le=1)] = 0) -> HTMLResponse:
    """A player's pool and the deck or hand built from it; the judges' list of players."""
    whose = _whose(state, staff, tid, number)
    if whose is None:
        players = pool_players(state.db, tid, account_id=staff.account_id)
        return render(request, "draft_pool.html", tid=tid, tab="draft", view=None,
                      players=players, title=find_tournament(state.db, tid).name)
    view = pool_deck(state.db, tid, whose, account_id=staff.account_id)
    locale = get_visitor(request).locale
    return render(request, "draft_pool.html", tid=tid, tab="draft", view=view, players=None,
                  problems=problem_rows(view.problems, locale), saved=bool(saved),
                  editing=staff.is_judge, title=view.player, max_uids=MAX_UIDS)


def _version(value: str) -> int | None:
    return int(value) if value.isdigit() and len(value) < 10 else None


@router.post("/t/{tid}/draft/pool")
async def save_pool(request: Request, state: StateDep, staff: StaffDep,
                    tid: TournamentPath) -> Response:
    """Save the ticked cards (``card``: their uids) as the deck; a judge names the player."""
    form = await request.form(max_files=0, max_fields=MAX_UIDS + 6)
    raw = form.get("number")
    chosen = raw if isinstance(raw, str) and raw.isdigit() and len(raw) < 10 else ""
    whose = _whose(state, staff, tid, int(chosen) if chosen else None)
    if whose is None:
        raise UserError("choose the player whose deck this is", code="no_player")
    uids = [uid[:UID_LEN] for uid in form.getlist("card") if isinstance(uid, str)]
    version = form.get("version")
    save_pool_deck(state.db, tid, whose, actor=staff.actor, account_id=staff.account_id,
                   uids=uids, expected_version=_version(version if isinstance(version, str)
                                                         else ""))
    back = f"/t/{tid}/draft/pool?number={whose}&saved=1" if staff.is_judge \
        else f"/t/{tid}/draft/pool?saved=1"
    return done(request, back + "#pool-verdict")


@router.get("/t/{tid}/draft/replacements", response_class=HTMLResponse)
def replacements_page(request: Request, state: StateDep, staff: StaffDep,
                      tid: TournamentPath, recorded: NumberQuery = None) -> HTMLResponse:
    """The judges' form and every replacement; a player's own replacements; after one is
    recorded, «Замена записана: …» at the top."""
    if staff.account is None:
        raise LoginRequired("log in to do this")
    lines = replacements(state.db, tid, account_id=staff.account_id)
    just = next((line for line in lines if line.id == recorded), None)
    return render(request, "draft_replacements.html", tid=tid, tab="draft", lines=lines,
                  editing=staff.is_judge, title=find_tournament(state.db, tid).name,
                  card_text=CARD_TEXT, max_reason=REASON_LEN, recorded=just)


REPLACEMENT_TEXTS = (
    ("old_name", Term("the card reported"), CARD_TEXT),
    ("old_edition", Term("the edition of the card reported"), CARD_TEXT),
    ("old_rarity", Term("the rarity of the card reported"), CARD_TEXT),
    ("new_name", Term("the card given"), CARD_TEXT),
    ("new_edition", Term("the edition of the card given"), CARD_TEXT),
    ("reason", Term("reason"), REASON_LEN))
"""The replacement form's text fields, their labels and limits."""


def _labelled(text: str, what: Term, limit: int) -> str:
    if len(text.strip()) > limit:
        raise UserError("{what}: at most {limit} characters", code="bad_text", what=what,
                        limit=limit)
    return text


@router.post("/t/{tid}/draft/replacements")
def add_replacement(request: Request, state: StateDep, staff: JudgesDep, tid: TournamentPath,
                    once: FormOnceDep, number: FieldText = "", booster_round: FieldText = "",
                    old_name: FieldText = "", new_name: FieldText = "",
                    old_edition: FieldText = "", old_rarity: FieldText = "",
                    new_edition: FieldText = "", reason: FieldText = "") -> Response:
    """A judge records a replacement (D-7); then the list, the new one named at the top.
    Every field is read here and named by its label when refused."""
    player = number_field(number, Term("the player's number"), low=1, high=100_000)
    booster = number_field(booster_round, Term("the booster"), low=1, high=4, default=1)
    if player is None:
        raise UserError("give the player's number", code="bad_replacement")
    given = {"old_name": old_name, "new_name": new_name, "old_edition": old_edition,
             "old_rarity": old_rarity, "new_edition": new_edition, "reason": reason}
    texts = {key: _labelled(given[key], what, limit) for key, what, limit in REPLACEMENT_TEXTS}
    line = record_replacement(state.db, tid, Reported(
        number=player, booster_round=booster or 1, **texts),
        actor=staff.actor, account_id=staff.account_id)
    return once.done(request, f"/t/{tid}/draft/replacements?recorded={line.id}#replacements")

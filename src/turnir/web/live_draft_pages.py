"""The live draft in the browser (issue 14, D-4, D-8), phone and tablet first:

- ``/t/{tid}/draft/pick``: the player's page: the booster they hold as big buttons (name,
  edition, rarity), the countdown to the pick's deadline (``static/live_draft.js``: counted
  from the server's seconds left, so a wrong clock on the phone does not matter), which booster
  and where it passes (D-4), the pool so far by rarity, «ждём: …» while the player holds no
  booster, the review time after each booster. ``/t/{tid}/draft/pick/state`` is the polled
  part (HTMX every ~2 s; 204 while the state the page shows is still current). A pick is a
  plain POST form (hidden booster, cards_left; the card is the button): without JavaScript
  a 303 back to the page (POST-redirect-GET), with HTMX the new state. A pick the engine
  refuses (the booster moved on, the card was taken, a repeated tap: ``PickRefused``) is never
  applied twice: the page says so in words and shows the current state. A reload or a dropped
  connection changes nothing: the page is the server's state read again. A player marked away
  (timed out again and again: picked for at once) comes back with «Я здесь»
  (``/t/{tid}/draft/pick/resume``).
- ``/t/{tid}/draft/live``: the staff's view of every table: who holds how many boosters, each
  deadline, away and dropped players, whom the table waits on; the organizer starts the live
  draft here (a booster template for each booster), the head judge and the organizer drop a
  player from the draft (from then on auto-picked at once).
- ``/t/{tid}/draft/log``: the full pick log: the staff any time, the tournament's players once
  the draft is over.
- ``/booster-templates``: the site organizers' booster templates (a name, the editions, slots
  by rarity and count), checked against the card catalogue when saved.

Every route calls ``turnir.services.live_draft``, which checks the role again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any

from babel.dates import format_time
from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from turnir.domain.draft.boosters import (
    MAX_SLOTS,
    MAX_TEMPLATE_NAME,
    RARITY_ORDER,
    BoosterTemplate,
    DraftCard,
)
from turnir.domain.draft.engine import PickRefused
from turnir.errors import UserError
from turnir.i18n import error_text
from turnir.services import booster_templates, live_draft
from turnir.services.booster_templates import TemplateInfo
from turnir.services.cards import card_catalogue
from turnir.services.draft_setup import draft_plan, draft_seating
from turnir.web.deps import (
    HeadDep,
    JudgesDep,
    OrganizerDep,
    SiteOrganizerDep,
    StaffDep,
    StateDep,
    TournamentPath,
    VisitorDep,
    entered,
    formats_for,
    get_state,
    get_visitor,
    gettext_for,
    is_htmx,
    render,
    require_csrf,
)
from turnir.web.errors import status_of
from turnir.web.security import JUDGES, ORGANIZER, PLAYERS, Forbidden
from turnir.web.staff import Staff
from turnir.web.templating import N_

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])

REFUSED = N_("This pick was not taken: the booster has already moved on or the card was "
             "already picked. Below is what you hold now.")
"""The page's words for a refused pick (``PickRefused``: stale, repeated or late)."""
REASONS = {"pick": N_("picked"), "timeout": N_("time ran out"), "away": N_("away: picked for"),
           "dropped": N_("dropped: picked for"), "last": N_("last card: no choice")}
"""How a pick in the log was made (``PickEntry.reason``)."""
UID_LEN = 40
"""The longest card id a pick names (the engine's ids are short: ``b3c07``)."""

VersionQuery = Annotated[int | None, Query(ge=0, le=2**62)]
TableQuery = Annotated[int | None, Query(ge=1, le=1_000)]


@dataclass(frozen=True, slots=True)
class PoolGroup:
    """The pool's cards of one rarity, rarest first."""

    rarity: str
    cards: tuple[DraftCard, ...]


def pool_groups(pool: Sequence[DraftCard]) -> tuple[PoolGroup, ...]:
    """The pool by rarity (``RARITY_ORDER``, rarest first; an unknown rarity last), each
    group in the order picked."""
    order = {rarity: i for i, rarity in enumerate(RARITY_ORDER)}
    rarities = sorted({c.rarity for c in pool}, key=lambda r: (order.get(r, len(order)), r))
    return tuple(PoolGroup(r, tuple(c for c in pool if c.rarity == r)) for r in rarities)


def seconds_to(when: datetime | None, now: datetime) -> int:
    """Whole seconds from ``now`` to ``when`` (0 when it has passed)."""
    if when is None:
        return 0
    return max(0, round((when - now).total_seconds()))


def _helpers(request: Request) -> dict[str, Any]:
    """What the draft templates use besides their view: the seconds left to a time, a time
    with its seconds in the page's locale and zone, the words for a pick's reason."""
    formats = formats_for(request)
    gettext = gettext_for(request)

    def clock(when: datetime) -> str:
        return format_time(when, format="medium", tzinfo=formats.tz, locale=formats.locale)

    now = get_state(request).db.clock.now()

    def left(when: datetime | None) -> int:
        return seconds_to(when, now)

    return {"seconds_to": left, "clock": clock,
            "reasons": {key: gettext(text) for key, text in REASONS.items()}}


def _player(request: Request, visitor: VisitorDep, tid: int) -> int:
    """The account of a player entered in tournament ``tid`` (403 otherwise)."""
    account = visitor.require(PLAYERS)
    if not entered(request, tid):
        raise Forbidden("you are not a participant of this tournament", code="not_a_player")
    return account.id


def _state(request: Request, state: StateDep, tid: int, account_id: int, *,
           note: str = "", status: int = 200) -> HTMLResponse:
    view = live_draft.player_draft(state.db, tid, account_id=account_id)
    template = "_live_draft_state.html" if is_htmx(request) else "live_draft_pick.html"
    return render(request, template, status=status, view=view, tid=tid, tab="draft",
                  note=note, groups=pool_groups(view.pool) if view else (),
                  title=gettext_for(request)("Draft picks"), **_helpers(request))


@router.get("/t/{tid}/draft/pick", response_class=HTMLResponse)
def pick_page(request: Request, state: StateDep, visitor: VisitorDep, tid: TournamentPath,
              refused: Annotated[int, Query(ge=0, le=1)] = 0) -> Response:
    """The player's pick page (after a refused pick without JavaScript: ``?refused=1``)."""
    account_id = _player(request, visitor, tid)
    note = gettext_for(request)(REFUSED) if refused else ""
    return _state(request, state, tid, account_id, note=note)


@router.get("/t/{tid}/draft/pick/state", response_class=HTMLResponse)
def pick_state(request: Request, state: StateDep, visitor: VisitorDep, tid: TournamentPath,
               v: VersionQuery = None) -> Response:
    """The polled part of the pick page; 204 while ``v`` (the version it shows) is current."""
    account_id = _player(request, visitor, tid)
    view = live_draft.player_draft(state.db, tid, account_id=account_id)
    if v is not None and view is not None and view.version == v:
        return Response(status_code=204)
    return render(request, "_live_draft_state.html", view=view, tid=tid, note="",
                  groups=pool_groups(view.pool) if view else (), **_helpers(request))


@router.post("/t/{tid}/draft/pick")
def pick(request: Request, state: StateDep, visitor: VisitorDep, tid: TournamentPath,
         booster: Annotated[int, Form(ge=0, le=2**31 - 1)],
         cards_left: Annotated[int, Form(ge=0, le=100)],
         card: Annotated[str, Form(min_length=1, max_length=UID_LEN)]) -> Response:
    """One pick on the booster state the page showed; a refused one says so (never twice)."""
    account_id = _player(request, visitor, tid)
    try:
        live_draft.pick_card(state.db, tid, account_id=account_id, booster=booster,
                             cards_left=cards_left, card=card)
    except PickRefused:
        if not is_htmx(request):
            return RedirectResponse(f"/t/{tid}/draft/pick?refused=1", status_code=303)
        return _state(request, state, tid, account_id, note=gettext_for(request)(REFUSED),
                      status=409)
    if not is_htmx(request):
        return RedirectResponse(f"/t/{tid}/draft/pick", status_code=303)
    return _state(request, state, tid, account_id)


@router.post("/t/{tid}/draft/pick/resume")
def resume(request: Request, state: StateDep, visitor: VisitorDep,
           tid: TournamentPath) -> Response:
    """«Я здесь»: an away player (timed out again and again) picks for themselves again."""
    account_id = _player(request, visitor, tid)
    live_draft.resume_draft(state.db, tid, account_id=account_id)
    if not is_htmx(request):
        return RedirectResponse(f"/t/{tid}/draft/pick", status_code=303)
    return _state(request, state, tid, account_id)


# ----- the staff's view ---------------------------------------------------------------------

@router.get("/t/{tid}/draft/live", response_class=HTMLResponse)
def live_page(request: Request, state: StateDep, staff: JudgesDep,
              tid: TournamentPath) -> Response:
    """Every table of the live draft (an HTMX poll gets the tables alone); the organizer's
    start form before it starts."""
    tables = live_draft.draft_overview(state.db, tid, account_id=staff.account_id)
    if is_htmx(request):
        return render(request, "_live_draft_tables.html", tables=tables, tid=tid,
                      **_helpers(request))
    return _live_page(request, state, staff, tid, tables)


def _live_page(request: Request, state: StateDep, staff: Staff, tid: int,
               tables: Sequence[live_draft.TableDraftView], *,
               refusal: UserError | None = None) -> HTMLResponse:
    """The live draft's page; ``refusal``: why the start was refused, shown above the start
    form with the page's status for it (issue 14 QA: not a bare error page)."""
    plan = draft_plan(state.db, tid)
    templates = booster_templates.booster_templates(state.db) if staff.is_organizer else []
    refused = None if refusal is None else error_text(refusal, get_visitor(request).locale)
    return render(request, "live_draft_tables.html", tables=tables, tid=tid, tab="draft",
                  plan=plan, templates=templates, refused=refused,
                  status=200 if refusal is None else status_of(refusal),
                  seated=draft_seating(state.db, tid) is not None,
                  title=gettext_for(request)("Live draft"), **_helpers(request))


@router.post("/t/{tid}/draft/live/start")
async def start(request: Request, state: StateDep, staff: OrganizerDep,
                tid: TournamentPath) -> Response:
    """The organizer starts the live draft: one booster template a booster (``booster_1``…;
    an empty choice: the standard booster of its size)."""
    form = await request.form()
    chosen = [str(form.get(f"booster_{i}", "") or "")[:12] for i in range(1, 5)]
    ids = [int(v) if v.isdigit() else 0 for v in chosen if v != ""]
    template_ids = ids if any(ids) else None
    try:
        if any(ids) and not all(ids):
            raise UserError("choose a booster template for every booster, or the standard "
                            "booster for all of them", code="bad_template")
        live_draft.start_live_draft(state.db, tid, actor=staff.actor,
                                    account_id=staff.account_id, template_ids=template_ids)
    except UserError as refusal:  # shown on the live page, above its start form
        tables = live_draft.draft_overview(state.db, tid, account_id=staff.account_id)
        return _live_page(request, state, staff, tid, tables, refusal=refusal)
    return _back(request, f"/t/{tid}/draft/live")


@router.post("/t/{tid}/draft/live/drop")
def drop(request: Request, state: StateDep, staff: HeadDep, tid: TournamentPath,
         number: Annotated[int, Form(ge=1, le=100_000)]) -> Response:
    """A player dropped from the draft: from now on picked for at once."""
    live_draft.drop_from_draft(state.db, tid, number, actor=staff.actor,
                               account_id=staff.account_id)
    return _back(request, f"/t/{tid}/draft/live")


def _back(request: Request, url: str) -> Response:
    if is_htmx(request):
        return Response(status_code=200, headers={"HX-Redirect": url})
    return RedirectResponse(url, status_code=303)


@router.get("/t/{tid}/draft/log", response_class=HTMLResponse)
def log_page(request: Request, state: StateDep, visitor: VisitorDep, staff: StaffDep,
             tid: TournamentPath, table: TableQuery = None) -> Response:
    """The pick log: the staff any time, the tournament's players after the draft."""
    if not staff.may(JUDGES):
        account_id = _player(request, visitor, tid)
        view = live_draft.player_draft(state.db, tid, account_id=account_id)
        if view is None or view.status != "done":  # the log opens to players after the draft
            return render(request, "live_draft_log.html", lines=[], tid=tid, tab="draft",
                          table=None, tables=[], closed=True,
                          title=gettext_for(request)("Pick log"), **_helpers(request))
    lines = live_draft.pick_log(state.db, tid, account_id=staff.account_id)
    tables = sorted({line.table for line in lines})
    shown = [line for line in lines if table is None or line.table == table]
    return render(request, "live_draft_log.html", lines=shown, tid=tid, tab="draft",
                  table=table, tables=tables, title=gettext_for(request)("Pick log"),
                  **_helpers(request))


# ----- booster templates (site organizers) ----------------------------------------------------

@router.get("/booster-templates", response_class=HTMLResponse)
def templates_page(request: Request, state: StateDep, actor: SiteOrganizerDep,
                   edit: Annotated[str, Query(max_length=MAX_TEMPLATE_NAME)] = "") -> Response:
    """The booster templates, and the form for a new one (``?edit=<name>``: that one's)."""
    templates = booster_templates.booster_templates(state.db)
    editing = next((t for t in templates if t.name == edit), None) if edit else None
    return _templates_page(request, state, templates, editing.template if editing else None)


def _templates_page(request: Request, state: StateDep, templates: Sequence[TemplateInfo],
                    form: BoosterTemplate | None) -> HTMLResponse:
    slots = list(form.slots) if form else []
    blank = min(MAX_SLOTS, max(4, len(slots) + 1)) - len(slots)  # room for one more slot
    rows = [*slots, *([None] * blank)]
    return render(request, "booster_templates.html", templates=templates,
                  form=form, rows=rows, rarities=RARITY_ORDER,
                  editions=card_catalogue(state.db).editions(), nav="booster-templates",
                  title=gettext_for(request)("Booster templates"))


@router.post("/booster-templates")
async def save_template(request: Request, state: StateDep, visitor: VisitorDep,
                        actor: SiteOrganizerDep) -> Response:
    """A template saved (a new name, or the same name again: changed), checked against the
    catalogue by the service."""
    form = await request.form()
    template = BoosterTemplate.from_json(template_json(
        lambda key: [str(v) for v in form.getlist(key)][:50]))
    account = visitor.require(ORGANIZER)
    booster_templates.save_booster_template(state.db, actor=actor, account_id=account.id,
                                     name=template.name, template=template)
    if is_htmx(request):
        return Response(status_code=200, headers={"HX-Redirect": "/booster-templates"})
    return RedirectResponse("/booster-templates", status_code=303)


def template_json(values: Callable[[str], list[str]]) -> dict[str, object]:
    """The form's fields as ``BoosterTemplate.from_json`` takes them: ``name``, ``edition``
    (each ticked), ``count_<i>`` and ``rarity_<i>`` (each ticked) for the slot rows; a row
    with no count is left out."""
    def first(key: str) -> str:
        found = values(key)
        return found[0].strip()[:MAX_TEMPLATE_NAME + 1] if found else ""

    slots: list[dict[str, object]] = []
    for i in range(1, MAX_SLOTS + 1):
        count = first(f"count_{i}")
        if count in ("", "0"):
            continue
        number = int(count) if count.isdigit() and len(count) <= 3 else -1
        slots.append({"count": number, "rarities": values(f"rarity_{i}")})
    return {"name": first("name"), "editions": values("edition"), "slots": slots}

"""The staff page of a tournament (``/t/{tid}/staff``, issue 12): its organizer, head judge and
floor judges with what each role may do (``turnir.services.staff_page.ABILITIES``). Its judges
see it; its organizer gives an account a role by searching accounts by name or login (at most
20 answers, updated as they type), takes a login off a role, and makes a new account there
(a player's by default), on the staff at once when wanted. Adding and removing staff is
allowed after the finish too, logged."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Path, Query, Request
from fastapi.responses import HTMLResponse, Response

from turnir.domain.model import StaffRole
from turnir.errors import Term
from turnir.services.accounts import AccountRole
from turnir.services.judges import add_judge, remove_staff
from turnir.services.staff_page import (
    ABILITIES,
    SEARCH_LIMIT,
    FoundAccounts,
    create_account_here,
    search_accounts,
    staff_page,
)
from turnir.web.deps import (
    JudgesDep,
    OrganizerDep,
    StateDep,
    TournamentPath,
    done,
    gettext_for,
    is_htmx,
    render,
    require_csrf,
)
from turnir.web.form_fields import number_field
from turnir.web.form_once import FormOnceDep
from turnir.web.templating import N_

JudgeId = Annotated[int, Path(ge=1, le=2**31 - 1)]
SearchQuery = Annotated[str, Query(max_length=200)]

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])

ABILITY_NAMES = {
    "players": N_("Register and check in players"),
    "rounds": N_("Pair and undo rounds, run the clock, finish the tournament"),
    "results": N_("Enter and correct results"),
    "drops": N_("Drop players"),
    "penalties": N_("Give penalties"),
    "claims": N_("Decide claims after time-out (S-9)"),
    "appeals": N_("Decide appeals"),
    "technical": N_("Record a technical result (S-8)"),
    "catalogue": N_("Edit the infraction catalogue"),
    "rating_terms": N_("Set the rating terms"),
    "rating_submit": N_("Submit the tournament to the rating"),
    "staff": N_("Manage the staff"),
}
"""The roles table's lines (``ABILITIES`` keys), in the page's words."""
ROLES = (StaffRole.ORGANIZER, StaffRole.HEAD_JUDGE, StaffRole.FLOOR_JUDGE)
DONE = {"added": N_("Added to the staff."), "removed": N_("Taken off the role."),
        "account": N_("The account is created.")}
"""``?done=``: what the last form did, said in that form's card (QA h11 item 11)."""
Done = Annotated[str, Query(max_length=20)]


def _after(request: Request, tid: int, what: str, card: str) -> str:
    """Where a staff form goes when it worked: with JS the page again with the message in the
    form's card (``DONE``); without JS the page (its plain address)."""
    return f"/t/{tid}/staff?done={what}#{card}" if is_htmx(request) else f"/t/{tid}/staff"


@router.get("/t/{tid}/staff", response_class=HTMLResponse)
def staff_list(request: Request, state: StateDep, staff: JudgesDep, tid: TournamentPath,
               q: SearchQuery = "", done: Done = "") -> HTMLResponse:
    """The staff and the roles table; the organizer's forms (``?q=``: the search without JS;
    ``?done=``: the message of the form that just worked)."""
    page = staff_page(state.db, tid)
    found = (search_accounts(state.db, tid, q) if staff.is_organizer
             else FoundAccounts("", [], False))
    return render(request, "staff.html", tid=tid, info=page.info, title=page.info.name,
                  tab="staff", members=page.staff, players=page.players, roles=ROLES,
                  abilities=[(ABILITY_NAMES[a.key], a.roles) for a in ABILITIES],
                  account_roles=list(AccountRole), found=found, limit=SEARCH_LIMIT,
                  may_edit=staff.is_organizer, done=done,
                  done_message=gettext_for(request)(DONE[done]) if done in DONE else "")


@router.get("/t/{tid}/staff/search", response_class=HTMLResponse)
def staff_search(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
                 q: SearchQuery = "") -> HTMLResponse:
    """The accounts matching ``q`` (the list the search box updates)."""
    return render(request, "_staff_found.html", tid=tid, found=search_accounts(state.db, tid, q),
                  roles=ROLES, limit=SEARCH_LIMIT)


@router.post("/t/{tid}/staff")
def add_staff(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
              login: Annotated[str, Form(min_length=1, max_length=100)],
              role: Annotated[StaffRole, Form()], once: FormOnceDep) -> Response:
    """The organizer gives an account a role in this tournament (also after the finish)."""
    add_judge(state.db, tid, role=role, login=login, actor=staff.actor,
              account_id=staff.account_id)
    return once.done(request, _after(request, tid, "added", "add"))


@router.post("/t/{tid}/staff/{judge}/remove")
def remove_from_staff(request: Request, state: StateDep, staff: OrganizerDep,
                      tid: TournamentPath, judge: JudgeId) -> Response:
    """The account loses that role here; the judge stays named for the record."""
    remove_staff(state.db, tid, judge, actor=staff.actor, account_id=staff.account_id)
    return done(request, _after(request, tid, "removed", "staff"))


@router.post("/t/{tid}/staff/account")
def new_account(request: Request, state: StateDep, staff: OrganizerDep, tid: TournamentPath,
                login: Annotated[str, Form(max_length=100)],
                name: Annotated[str, Form(max_length=200)],
                password: Annotated[str, Form(max_length=1000)],
                role: Annotated[AccountRole | None, Form()] = None,
                player: Annotated[str, Form(max_length=6)] = "",
                staff_role: Annotated[StaffRole | None, Form()] = None, *,
                once: FormOnceDep) -> Response:
    """A new account, on the staff at once when a staff role is chosen; without a site role
    chosen it gets the one that goes with the staff role (a player's when not on the staff)."""
    assert staff.account_id is not None
    create_account_here(state.db, tid, login=login, name=name, password=password,
                        role=role,
                        player=number_field(player, Term("player"), low=1, high=100_000),
                        staff_role=staff_role, actor=staff.actor, account_id=staff.account_id,
                        hasher=state.hasher)
    return once.done(request, _after(request, tid, "account", "new-account"))

"""Penalty pages (J-1..J-8): a judge issues a penalty from a phone in three taps (player,
reason, confirm what ``preview_penalty`` shows), the tournament's penalties with appeals to the
head judge, a player's own penalty history with the reasons, and the penalties section of the
tournament report (``report``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Form, Path, Query, Request
from fastapi.responses import HTMLResponse, Response

from turnir.domain.penalties import AppealOutcome, Penalty, Text
from turnir.services.common import TournamentInfo
from turnir.services.penalties import give_penalty as service_give_penalty
from turnir.services.penalties import list_penalties, person_history, preview_penalty
from turnir.services.penalty_appeals import decide_appeal
from turnir.services.penalty_catalogue import get_catalogue
from turnir.services.penalty_document import (
    Language,
    layout_penalty_document,
    penalty_document,
    render_penalty_document,
)
from turnir.services.penalty_pick import pick_players
from turnir.services.players import list_players
from turnir.web.deps import (
    HeadDep,
    JudgesDep,
    SignedInDep,
    StaffDep,
    StateDep,
    TournamentDep,
    TournamentPath,
    VisitorDep,
    done,
    render,
    require_csrf,
)
from turnir.web.form_once import FormOnceDep
from turnir.web.security import Forbidden, Visitor

Code = Annotated[str, Form(min_length=1, max_length=48)]
CHOICES = [p for p in Penalty if p is not Penalty.SUSPENSION] + [Penalty.SUSPENSION]

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])


def _text(locale: str) -> Callable[[Text], str]:
    def text(value: Text) -> str:
        return value.en if locale == "en" else value.ru
    return text


def _common(visitor: Visitor, info: TournamentInfo) -> dict[str, Any]:
    """What every penalty page shows: the tournament, and texts in the visitor's language."""
    text = _text(visitor.locale)
    return dict(tid=info.id, info=info, title=info.name, text=text, tab="penalties",
                penalty_names={p.value: text(p.name_text) for p in Penalty})


@router.get("/t/{tid}/penalties/give", response_class=HTMLResponse)
def give_page(request: Request, state: StateDep, visitor: VisitorDep, staff: JudgesDep,
              info: TournamentDep,
              player: Annotated[int | None, Query(ge=1, le=100_000)] = None,
              reason: Annotated[str | None, Query(max_length=48)] = None,
              penalty: Annotated[Penalty | None, Query()] = None,
              q: Annotated[str, Query(max_length=200)] = "",
              table: Annotated[str, Query(max_length=5, pattern=r"^\d{0,5}$")] = ""
              ) -> HTMLResponse:
    """The three taps: the player (found by name, number or current table), the reason,
    then the preview to confirm."""
    tid, ctx = info.id, _common(visitor, info)
    if player is None:
        found = pick_players(state.db, tid, query=q, table=int(table) if table else None)
        return render(request, "penalty_give.html", step=1, pick=found, q=q, table=table,
                      **ctx)
    if reason is None:
        catalogue = get_catalogue(state.db, tid)
        name = next((p.name for p in list_players(state.db, tid) if p.number == player), "")
        reasons = [(i, i.default(catalogue.level)) for i in catalogue.catalogue]
        return render(request, "penalty_give.html", step=2, player=player,
                      player_name=name, reasons=reasons, **ctx)
    preview = preview_penalty(state.db, tid, player=player, reason=reason, judge=staff.actor,
                              penalty=penalty, account_id=staff.account_id)
    # how many penalties there are is part of the idempotency key: the same confirm page
    # tapped twice gives one penalty, and the next page is a new key
    given = len(list_penalties(state.db, tid))
    return render(request, "penalty_give.html", step=3, player=player, reason=reason,
                  preview=preview, choices=CHOICES,
                  key=f"{visitor.csrf_nonce[:8]}-{player}-{reason}-{given}", **ctx)


@router.post("/t/{tid}/penalties")
def give(request: Request, state: StateDep, staff: JudgesDep, tid: TournamentPath,
         player: Annotated[int, Form(ge=1, le=100_000)], reason: Code,
         penalty: Annotated[Penalty | None, Form()] = None,
         confirmed_by: Annotated[str, Form(max_length=200)] = "",
         note: Annotated[str, Form(max_length=1000)] = "",
         key: Annotated[str, Form(max_length=200)] = "", *, once: FormOnceDep) -> Response:
    """Give the penalty the judge confirmed (a double tap gives one: the idempotency key;
    the form sent again is answered as the first time, ``turnir.web.form_once``)."""
    given = service_give_penalty(
        state.db, tid, player=player, reason=reason, actor=staff.actor, penalty=penalty,
        confirmed_by=confirmed_by.strip() or None, note=note, idempotency_key=key or None,
        account_id=staff.account_id)
    return once.done(request, f"/t/{tid}/penalties?given={given.penalty.seq}")


@router.get("/t/{tid}/penalties", response_class=HTMLResponse)
def penalties(request: Request, state: StateDep, visitor: VisitorDep, staff: JudgesDep,
              info: TournamentDep,
              given: Annotated[int | None, Query(ge=1, le=1_000_000)] = None) -> HTMLResponse:
    """Every penalty of the tournament, with the appeals and (for the head judge) the form
    to decide one; ``given``: the penalty just given, confirmed at the top."""
    every = list(reversed(list_penalties(state.db, info.id)))
    return render(request, "penalties.html", penalties=every,
                  just_given=next((p for p in every if p.seq == given), None),
                  appeals=penalty_document(state.db, info.id).appeals,
                  outcomes=list(AppealOutcome), choices=CHOICES, may_decide=staff.is_head,
                  **_common(visitor, info))


@router.post("/t/{tid}/penalties/{seq}/appeal")
def appeal(request: Request, state: StateDep, staff: HeadDep, tid: TournamentPath,
           seq: Annotated[int, Path(ge=1, le=1_000_000)],
           outcome: Annotated[AppealOutcome, Form()],
           changed_to: Annotated[Penalty | None, Form()] = None,
           note: Annotated[str, Form(max_length=1000)] = "") -> Response:
    """The head judge decides an appeal against a floor judge's penalty (recorded)."""
    decide_appeal(state.db, tid, seq, outcome=outcome, actor=staff.actor,
                  changed_to=changed_to if outcome is AppealOutcome.CHANGED else None,
                  note=note, account_id=staff.account_id)
    return done(request, f"/t/{tid}/penalties")


@router.get("/t/{tid}/penalties/history", response_class=HTMLResponse)
def history(request: Request, state: StateDep, visitor: VisitorDep, staff: StaffDep,
            account: SignedInDep, info: TournamentDep,
            person: Annotated[int | None, Query(ge=1, le=2**31 - 1)] = None) -> HTMLResponse:
    """A player's penalties in every tournament, with the reasons: a player sees their
    own; this tournament's staff anyone's (its players are listed to pick from)."""
    players = list_players(state.db, info.id)
    if not staff.is_judge:
        if account.person_id is None:
            raise Forbidden("this login is not linked to a player")
        if person is not None and person != account.person_id:
            raise Forbidden("a player sees only their own penalties")
        person = account.person_id
    lines = [] if person is None else person_history(state.db, person)
    name = next((p.name for p in players if p.person_id == person), "")
    return render(request, "penalty_history.html", person=person, person_name=name,
                  lines=lines, players=players, **_common(visitor, info))


@router.get("/t/{tid}/penalties/report", response_class=HTMLResponse)
def report(request: Request, state: StateDep, visitor: VisitorDep, staff: JudgesDep,
           info: TournamentDep,
           download: Annotated[Literal["md"] | None, Query()] = None) -> Response:
    """The penalties section of the tournament report the head judge submits: on the page
    as headings, lists and tables; ``?download=md`` the same as a Markdown file."""
    found = penalty_document(state.db, info.id)
    lang: Language = "en" if visitor.locale == "en" else "ru"
    if download == "md":
        return Response(render_penalty_document(found, lang=lang),
                        media_type="text/markdown; charset=utf-8", headers={
                            "Content-Disposition":
                                f'attachment; filename="penalties-{info.id}.md"'})
    return render(request, "penalty_report.html",
                  layout=layout_penalty_document(found, lang=lang), **_common(visitor, info))

"""The tournament's audit log page for its staff (organizer and head judge): the entries in
words (``turnir.web.audit_words``: the action, who, when in the page's time, what changed),
newest first, filtered by round, kind of action and who did it, a page at a time; at the top,
whether the log verifies (``turnir.services.audit``: the hash chain and the stored pairings
and results) or the first entry that does not match."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from turnir.services.audit import LogFamily, LogQuery, family_of, log_page
from turnir.web.audit_words import ACTIONS, FAMILIES, FIELDS, OTHER_CHANGES, Words
from turnir.web.deps import HeadDep, StateDep, TournamentDep, VisitorDep, gettext_for, render

SHOWN = 100
"""Entries on a page by default (the newest)."""

router = APIRouter(include_in_schema=False)

RoundFilter = Annotated[str, Query(max_length=5, pattern=r"^\d{0,5}$")]
FamilyFilter = Annotated[str, Query(alias="action", max_length=20,
                                    pattern="^(" + "|".join(LogFamily) + ")?$")]
ActorFilter = Annotated[str, Query(max_length=200)]


@router.get("/t/{tid}/log", response_class=HTMLResponse)
def audit_log_page(request: Request, state: StateDep, visitor: VisitorDep, staff: HeadDep,
                   info: TournamentDep, round: RoundFilter = "", family: FamilyFilter = "",
                   actor: ActorFilter = "",
                   page: Annotated[int, Query(ge=1, le=100_000)] = 1,
                   limit: Annotated[int, Query(ge=1, le=5000)] = SHOWN) -> HTMLResponse:
    """One page of the entries the filter wants, and "verified" or the first broken entry."""
    query = LogQuery(round=int(round) if round and int(round) > 0 else None,
                     family=LogFamily(family) if family else None, actor=actor or None,
                     page=page, size=limit)
    found = log_page(state.db, info.id, query=query)
    gettext = gettext_for(request)
    words = Words(gettext, visitor.locale, found.players, found.staff)

    def action_words(code: str) -> str:
        return gettext(ACTIONS.get(code) or OTHER_CHANGES[family_of(code)])

    def field_words(name: str) -> str:
        return gettext(FIELDS[name]) if name in FIELDS else name

    kept = {"round": round, "action": family, "actor": actor}
    if limit != SHOWN:
        kept["limit"] = str(limit)

    def page_url(number: int) -> str:
        return "?" + urlencode({**{k: v for k, v in kept.items() if v}, "page": number})

    return render(request, "audit_log.html", tid=info.id, tab="log", title=info.name,
                  has_top=bool(info.settings.top_size), info=info, staff=staff,
                  check=found.verification, found=found, lines=found.entries, said=words,
                  action_words=action_words, field_words=field_words, page_url=page_url,
                  filters=kept,
                  families=[(f.value, gettext(FAMILIES[f])) for f in LogFamily],
                  actors=[(a, words.who(a)) for a in found.actors])

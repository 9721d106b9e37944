"""The audit log's draft entries in words (issue 14 QA fix), for ``turnir.web.audit_words``:
the draft plan (D-1, D-4), the seating (D-2, D-3), the live draft's start and a player dropped
from it, a judge's card replacement (D-7) and a booster template, each named and described from
the values the services stored (``services.draft_setup``, ``services.live_draft``,
``services.draft_decks``, ``services.booster_templates``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from turnir.services.audit import AuditEntry
from turnir.web.templating import N_

if TYPE_CHECKING:
    from turnir.web.audit_words import Words

DRAFT_ACTIONS = {
    "draft.plan": N_("Draft plan set"),
    "draft.seat": N_("Players seated at the draft tables"),
    "draft.start": N_("Live draft started"),
    "draft.drop": N_("Player dropped from the live draft"),
    "draft.template": N_("Booster template saved"),
    "deck.draft_replacement": N_("Draft card replaced by a judge"),
}
"""The draft's actions in words."""

PROFILES = {"tabletop": N_("at a table"), "online": N_("online")}
METHODS = {"lot": N_("by lot"), "standings": N_("by the standings")}


def _sizes(sizes: list[int]) -> str:
    return ", ".join(map(str, sizes))


def _plan(w: Words, e: AuditEntry, before: dict[str, Any], after: dict[str, Any]) -> str:
    """"4 boosters (12, 12, 12, 12 cards), at a table"."""
    boosters = [int(b) for b in after.get("boosters") or () if isinstance(b, int)]
    profile = PROFILES.get(str(after.get("profile")))
    text = w.t(N_("%(n)s boosters (%(cards)s cards)"), n=len(boosters), cards=_sizes(boosters))
    return text + (", " + w.gettext(profile) if profile else "")


def _seat(w: Words, e: AuditEntry, before: dict[str, Any], after: dict[str, Any]) -> str:
    """"by lot: 4 tables (9, 8, 8, 8 players)"."""
    tables = [len(t) for t in after.get("tables") or () if isinstance(t, list)]
    method = METHODS.get(str(after.get("method")))
    text = w.t(N_("%(n)s tables (%(sizes)s players)"), n=len(tables), sizes=_sizes(tables))
    return f"{w.gettext(method)}: {text}" if method else text


def _start(w: Words, e: AuditEntry, before: dict[str, Any], after: dict[str, Any]) -> str:
    tables = [int(t) for t in after.get("tables") or () if isinstance(t, int)]
    return w.t(N_("%(n)s tables (%(sizes)s players)"), n=len(tables), sizes=_sizes(tables))


def _drop(w: Words, e: AuditEntry, before: dict[str, Any], after: dict[str, Any]) -> str:
    return w.t(N_("%(player)s, draft table %(table)s"), player=w.player(after.get("number")),
               table=after.get("table"))


def _card(value: object) -> str:
    parts = [str(p) for p in value if p] if isinstance(value, list) else []
    return f"{parts[0]} ({', '.join(parts[1:])})" if len(parts) > 1 else "".join(parts) or "—"


def _replacement(w: Words, e: AuditEntry, before: dict[str, Any], after: dict[str, Any]) -> str:
    """"Player (#3), booster 2: Old (edition, rarity) → New (…); reason: torn card"."""
    text = w.t(N_("%(player)s, booster %(round)s: %(old)s → %(new)s"),
               player=w.player(after.get("number")), round=after.get("booster_round"),
               old=_card(after.get("old")), new=_card(after.get("new")))
    if after.get("reason"):  # the judge's own words, as typed
        text += "; " + w.t(N_("reason: %(reason)s"), reason=str(after["reason"]))
    return text


def _template(w: Words, e: AuditEntry, before: dict[str, Any], after: dict[str, Any]) -> str:
    return str(after.get("name") or "")


DRAFT_DESCRIBE: dict[str, Callable[[Words, AuditEntry, dict[str, Any], dict[str, Any]], str]] = {
    "draft.plan": _plan, "draft.seat": _seat, "draft.start": _start, "draft.drop": _drop,
    "draft.template": _template, "deck.draft_replacement": _replacement,
}
"""By action."""

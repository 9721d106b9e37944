"""The audit log in words, for the log page (issue 12): each entry's action, what it changed and
who did it, in the page's language, translated when shown from the entry's codes (its action
and the values it stored), never from stored English text: a stored reason such as "did not
check in" or the actor's "(confirmed by both players)" is recognised and translated; the
organizer's own words (a drop's reason) are shown as typed.

An action this module does not know yet is named by its family ("a change to the results")
and its round and table when it has them, so a new action never shows a code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from turnir.domain.penalties import Penalty, Text
from turnir.services.audit import AuditEntry, LogFamily, actor_parts, entry_round, family_of
from turnir.services.deck_checks import lot_parts
from turnir.services.deck_formats import RULES_ZONE
from turnir.services.demo import ACTOR as DEMO_ACTOR
from turnir.services.online import ROBOT_ACTOR
from turnir.services.player_match import SELF_DROP_REASON
from turnir.services.schedules import ACTOR as SCHEDULE_ACTOR
from turnir.services.schedules import cancel_reason
from turnir.web.audit_draft_words import DRAFT_ACTIONS, DRAFT_DESCRIBE
from turnir.web.i18n import Formats
from turnir.web.templating import N_, ROLE_NAMES

ACTIONS = {
    "tournament.create": N_("Tournament created"),
    "tournament.import": N_("Tournament loaded from a file"),
    "tournament.finish": N_("Tournament finished"),
    "tournament.cancel": N_("Scheduled tournament cancelled"),
    "schedule.open": N_("Scheduled tournament opened for registration"),
    "schedule.add": N_("Schedule added"),
    "schedule.update": N_("Schedule changed"),
    "account.game_age": N_("Age in game years set"),
    "account.person": N_("Account linked to a player"),  # a self-entry (issue 13)
    "tournament.robot": N_("Online judge robot switched"),
    "tournament.clock": N_("Round clock setting changed"),
    "player.register": N_("Player registered"),
    "player.import": N_("Players loaded from a file"),
    "player.check_in": N_("Check-in"),
    "player.drop": N_("Player dropped"),
    "player.reinstate": N_("Player reinstated"),
    "player.late_entry": N_("Late entry added"),
    "round.pair": N_("Round paired"),
    "round.undo": N_("Round pairing undone"),
    "round.swap": N_("Pairings changed by hand"),
    "round.timer": N_("Round clock"),
    "result.record": N_("Result recorded"),
    "result.correct": N_("Result corrected"),
    "report.submit": N_("Player reported a result"),
    "robot.dismiss": N_("Robot's game result dismissed"),
    "robot.token.create": N_("Robot access key created"),
    "robot.token.revoke": N_("Robot access key revoked"),
    "game.technical": N_("Technical result of a game"),
    "game.claim": N_("Claim after time-out decided"),
    "penalty.give": N_("Penalty given"),
    "penalty.appeal": N_("Appeal decided"),
    "penalty.withdraw": N_("Penalty withdrawn"),
    "penalty.apply": N_("Penalty applied to a match"),
    "penalty.unapply": N_("Penalty taken off a match"),
    "penalty.accumulate": N_("Penalties added up"),
    "suspension.add": N_("Suspension recorded"),
    "suspension.term": N_("Suspension term changed"),
    "catalogue.set": N_("Infraction catalogue changed"),
    "catalogue.remove": N_("Infraction removed from the catalogue"),
    "judging.settings": N_("Judging settings changed"),
    "judge.add": N_("Added to the staff"),
    "judge.link": N_("Account linked to the staff"),
    "judge.unlink": N_("Account unlinked from the staff"),
    "rating.terms": N_("Rating terms set"),
    "rating.submit": N_("Submitted to the rating database"),
    "rating.correct": N_("Rating submission corrected"),
    "deck.register": N_("Deck registered"),
    "deck.judge_change": N_("Deck changed by a judge"),
    "format.tournament": N_("Tournament's deck format set"),
    "format.create": N_("Format created"),
    "format.edit": N_("Format changed"),
    "format.ban_list": N_("Ban list given"),
    "format.ban_list_delete": N_("Ban list deleted"),
    "format.starter_deck": N_("Starter deck saved"),
    "format.starter_deck_delete": N_("Starter deck removed"),
    "deck.check_draw": N_("Deck drawn by lot for a check"),
    "deck.check_add": N_("Deck check added by a judge"),
    "deck.check_done": N_("Deck check done"),
    "deck.publish": N_("Top decks published"),
    **DRAFT_ACTIONS,  # issue 14
}
"""Every action the log knows, in words (``services.*``: ``change.log(…, action, …)``)."""

FAMILIES = {
    LogFamily.RESULTS: N_("Results"), LogFamily.ROUNDS: N_("Rounds"),
    LogFamily.PLAYERS: N_("Players"), LogFamily.PENALTIES: N_("Penalties"),
    LogFamily.STAFF: N_("Staff"), LogFamily.RATINGS: N_("Rating"),
    LogFamily.DECKS: N_("Decks"), LogFamily.DRAFT: N_("Draft"),
    LogFamily.TOURNAMENT: N_("Tournament"), LogFamily.OTHER: N_("Other changes"),
}
"""The filter's choices."""

OTHER_CHANGES = {
    LogFamily.RESULTS: N_("A change to the results"), LogFamily.ROUNDS: N_("A change to a round"),
    LogFamily.PLAYERS: N_("A change to a player"),
    LogFamily.PENALTIES: N_("A change to the penalties"),
    LogFamily.STAFF: N_("A change to the staff"), LogFamily.RATINGS: N_("A change to the rating"),
    LogFamily.DECKS: N_("A change to a deck"), LogFamily.DRAFT: N_("A change to the draft"),
    LogFamily.TOURNAMENT: N_("A change to the tournament"), LogFamily.OTHER: N_("Another change"),
}
"""An action not in ``ACTIONS`` (a new one), by its family."""

KNOWN_REASONS = {"did not check in": N_("did not check in"),
                 SELF_DROP_REASON: N_("of their own accord, on their page")}
"""Reasons the services store in English (``services.players``, ``services.player_match``),
translated when shown: old entries keep the stored English, the page never shows it."""

SELF_DROP = N_("Player left the tournament")
"""A ``player.drop`` the player made from their own page (``SELF_DROP_REASON``): they left,
nobody dropped them."""

FIELDS = {"table": N_("the table"), "a": N_("the first player"), "b": N_("the second player"),
          "kind": N_("the kind of pairing"), "wins_a": N_("the first player's game wins"),
          "wins_b": N_("the second player's game wins"), "draws": N_("drawn games"),
          "outcome": N_("the match's outcome"), "ending": N_("how the match ended"),
          "version": N_("the version"), "games": N_("the games"),
          "position": N_("the place in the round")}
"""The columns of a stored pairing that the verification compares (``services.audit_replay``),
named in a finding on the page."""

CLOCK = {"pause": N_("Round %(round)s: the clock paused"),
         "resume": N_("Round %(round)s: the clock resumed"),
         "add": N_("Round %(round)s: %(n)s min added")}


@dataclass(frozen=True, slots=True)
class Said:
    """One entry in words."""

    action: str
    what: str
    who: str


Describe = Callable[["Words", AuditEntry, dict[str, Any], dict[str, Any]], str]


class Words:
    """The log's entries in one language (``gettext``), players named by number."""

    def __init__(self, gettext: Callable[[str], str], locale: str,
                 players: Mapping[int, str], staff: Mapping[int, str]) -> None:
        self.gettext, self.locale, self.players, self.staff = gettext, locale, players, staff

    def __call__(self, entry: AuditEntry) -> Said:
        known = ACTIONS.get(entry.action)
        before, after = entry.before or {}, entry.after or {}
        if entry.action == "player.drop" and after.get("reason") == SELF_DROP_REASON:
            known = SELF_DROP
        action = self.gettext(known or OTHER_CHANGES[family_of(entry.action)])
        describe = _DESCRIBE.get(entry.action) or _DESCRIBE.get(entry.action.split(".")[0])
        what = describe(self, entry, before, after) if describe else self.where(entry)
        return Said(action, what, self.who(entry.actor))

    def t(self, template: str, **values: object) -> str:
        """``template`` in the page's language with ``values`` (a missing one as a dash)."""
        return self.gettext(template) % {k: "—" if v is None else v for k, v in values.items()}

    def who(self, actor: str) -> str:
        if actor == ROBOT_ACTOR:
            return self.gettext(N_("the online judge robot"))
        if actor == SCHEDULE_ACTOR:  # issue 13: the server's run of the schedules
            return self.gettext(N_("the tournament schedule"))
        if actor == DEMO_ACTOR:  # the demo's own sample entries: not a person
            return self.gettext(N_("the demo's sample data"))
        name, both = actor_parts(actor)
        return self.t(N_("%(name)s (confirmed by both players)"), name=name) if both else name

    def player(self, number: object, name: object = None) -> str:
        if not isinstance(number, int):
            return str(name or "—")
        return f"{name or self.players.get(number, '')} (#{number})".strip()

    def text(self, value: Text) -> str:
        return value.en if self.locale == "en" else value.ru

    def penalty(self, value: object) -> str:
        try:
            return self.text(Penalty(str(value)).name_text)
        except ValueError:
            return ""

    def score(self, data: Mapping[str, Any]) -> str:
        result = data.get("result", data)
        score = result.get("score") if isinstance(result, dict) else None
        if score == "ID":
            return self.gettext(N_("intentional draw"))
        return str(score or "—").replace("-", "\u2011")  # a non-breaking hyphen: 2‑1 stays whole

    def where(self, entry: AuditEntry) -> str:
        """Round and table (a pairing's entry), or the round, or nothing."""
        number = entry_round(entry)
        if entry.entity == "pairing" and "." in entry.entity_id:
            table = entry.entity_id.split(".", 1)[1]
            return self.t(N_("Round %(round)s, table %(table)s"), round=number, table=table)
        return self.t(N_("Round %(round)s"), round=number) if number else ""

    def match(self, entry: AuditEntry, data: Mapping[str, Any]) -> str:
        """"Round 2, table 3 (A – B)"."""
        where = self.where(entry)
        a, b = data.get("a"), data.get("b")
        if isinstance(a, int) and isinstance(b, int):
            return f"{where} ({self.player(a)} – {self.player(b)})"
        return where


def _result(w: Words, e: AuditEntry, before: dict[str, Any], after: dict[str, Any]) -> str:
    if e.action == "result.correct" and before:
        return f"{w.match(e, after or before)}: {w.score(before)} → {w.score(after)}"
    return f"{w.match(e, after)}: {w.score(after)}"


def _report(w: Words, e: AuditEntry, before: dict[str, Any], after: dict[str, Any]) -> str:
    """The score is stored first player first: the match is named in that order too."""
    me, other = after.get("player"), after.get("opponent")
    pair = {"a": me, "b": other} if after.get("side") == "a" else {"a": other, "b": me}
    return w.t(N_("%(where)s: %(player)s reported %(score)s"), where=w.match(e, pair),
               player=w.player(me), score=w.score(after))


def _player(w: Words, e: AuditEntry, before: dict[str, Any], after: dict[str, Any]) -> str:
    number = int(e.entity_id) if e.entity_id.isdigit() else after.get("number")
    who = w.player(number, after.get("name") or before.get("name"))
    if e.action == "player.check_in":
        return w.t(N_("%(player)s: checked in") if after.get("checked_in")
                   else N_("%(player)s: check-in taken back"), player=who)
    if e.action == "player.drop":
        last = after.get("dropped_after")
        text = (who if last is None else w.t(N_("%(player)s, before round 1"), player=who)
                if last == 0 else w.t(N_("%(player)s, after round %(round)s"), player=who,
                                      round=last))
        reason = str(after.get("reason") or "")
        if reason:
            shown = w.gettext(KNOWN_REASONS[reason]) if reason in KNOWN_REASONS else reason
            text += "; " + w.t(N_("reason: %(reason)s"), reason=shown)
        return text
    if e.action == "player.import":
        return w.t(N_("%(n)s players"), n=len(after.get("players") or ()))
    return who


def _round(w: Words, e: AuditEntry, before: dict[str, Any], after: dict[str, Any]) -> str:
    number = entry_round(e)
    if e.action == "round.pair":
        return w.t(N_("Round %(round)s: %(n)s tables"), round=number,
                   n=len(after.get("pairings") or ()))
    if e.action == "round.swap":
        old = {tuple(p[1:3]) for p in before.get("pairings") or ()}
        tables = sorted(p[0] for p in after.get("pairings") or () if tuple(p[1:3]) not in old)
        return w.t(N_("Round %(round)s, tables %(tables)s"), round=number,
                   tables=", ".join(map(str, tables)) or "—")
    if e.action == "round.timer":
        kind = after.get("action")
        if kind in CLOCK:
            added = (int(after.get("duration_s") or 0) - int(before.get("duration_s") or 0))
            return w.t(CLOCK[str(kind)], round=number, n=max(0, added) // 60)
        return w.t(N_("Round %(round)s: started for %(n)s min"), round=number,
                   n=after.get("minutes", "—"))
    return w.where(e)


def _tournament(w: Words, e: AuditEntry, before: dict[str, Any], after: dict[str, Any]) -> str:
    if e.action in ("tournament.create", "tournament.import"):
        return str(after.get("name") or "")
    if e.action == "tournament.finish":
        return w.gettext(N_("early, before the planned rounds were over")) if after.get(
            "early") else ""
    if e.action == "tournament.cancel":  # issue 13: a scheduled event with too few players
        return cancel_reason(str(after.get("reason") or ""), w.locale)
    if e.action == "tournament.robot":
        return w.gettext(N_("switched on") if after.get("robot_allowed") else N_("switched off"))
    if e.action == "tournament.clock":
        minutes = after.get("clock_minutes")
        return (w.t(N_("the clock starts with each round: %(n)s min"), n=minutes) if minutes
                else w.gettext(N_("the clock does not start by itself")))
    return ""


def _penalty(w: Words, e: AuditEntry, before: dict[str, Any], after: dict[str, Any]) -> str:
    data = after or before
    who = w.player(data.get("number"), data.get("player_name") or data.get("player"))
    if e.action in ("penalty.apply", "penalty.unapply"):
        table = str(data.get("pairing") or "").partition(".")[2]
        return w.t(N_("Penalty %(seq)s: round %(round)s, table %(table)s"), seq=e.entity_id,
                   round=entry_round(e), table=table or "—")
    if e.action in ("penalty.appeal", "penalty.withdraw") and before and after:
        old, new = w.penalty(before.get("penalty")), w.penalty(after.get("penalty"))
        if after.get("status") == "withdrawn":
            return w.t(N_("%(player)s: %(penalty)s withdrawn"), player=who, penalty=old)
        return f"{who}: {old} → {new}" if old != new else f"{who}: {old}"
    if e.entity == "penalty":
        return w.t(N_("%(player)s: %(penalty)s, round %(round)s"), player=who,
                   penalty=w.penalty(data.get("penalty")), round=data.get("given_round", "—"))
    if e.entity == "suspension":
        return who
    return w.t(N_("infraction %(code)s"), code=e.entity_id) if e.entity == "infraction" else ""


def _staff(w: Words, e: AuditEntry, before: dict[str, Any], after: dict[str, Any]) -> str:
    data = {**before, **after}
    role = ROLE_NAMES.get(str(data.get("role")))
    number = int(e.entity_id) if e.entity_id.isdigit() else 0
    name = str(data.get("name") or w.staff.get(number) or "")  # a login is not a name
    return f"{name} ({w.gettext(role)})" if role and name else name


def _deck_counts(data: dict[str, Any]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for line in data.get("lines") or ():
        if isinstance(line, dict):
            name = str(line.get("name") or "")
            counts[name] = counts.get(name, 0) + int(line.get("count") or 0)
    return counts


def _deck(w: Words, e: AuditEntry, before: dict[str, Any], after: dict[str, Any]) -> str:
    """Issue 13: "Player (#3): 35 cards; +1 Card, −2 Other; the deck breaks a rule"."""
    number = int(e.entity_id) if e.entity_id.isdigit() else None
    text = w.t(N_("%(player)s: %(n)s cards"), player=w.player(number), n=after.get("total"))
    if before:
        old, new = _deck_counts(before), _deck_counts(after)
        moved = [f"{'+' if new.get(n, 0) > old.get(n, 0) else '−'}"
                 f"{abs(new.get(n, 0) - old.get(n, 0))} {n}"
                 for n in sorted(set(old) | set(new)) if new.get(n, 0) != old.get(n, 0)]
        if moved:
            text += "; " + ", ".join(moved)
    if after and not after.get("valid"):
        text += "; " + w.gettext(N_("the deck breaks a rule"))
    if after and after.get("reason"):  # a judge's own words, as typed
        text += "; " + w.t(N_("reason: %(reason)s"), reason=str(after["reason"]))
    return text


def _deck_check(w: Words, e: AuditEntry, before: dict[str, Any], after: dict[str, Any]) -> str:
    """Issue 13: "Player (#3), round 2: by lot, draw 1; note" (the lot's technical text only
    when it is not of the usual shape)."""
    number = after.get("number")
    text = w.t(N_("%(player)s, round %(round)s"), player=w.player(number),
               round=after.get("round"))
    parts = lot_parts(str(after.get("lot") or ""))
    how = (w.gettext(N_("chosen by a judge")) if not after.get("by_lot")
           else w.t(N_("by lot, draw %(draw)s"), draw=parts[1]) if parts
           else w.t(N_("by lot %(lot)s"), lot=after.get("lot")))
    text += f": {how}" if e.action != "deck.check_done" else ""
    return text + (f"; {after['note']}" if after.get("note") else "")


def _publish(w: Words, e: AuditEntry, before: dict[str, Any], after: dict[str, Any]) -> str:
    """Issue 13: "the decks of the top 8" or "publication withdrawn"."""
    count = after.get("published")
    return (w.t(N_("the decks of the top %(n)s"), n=count) if count
            else w.gettext(N_("publication withdrawn")))


def _start(value: object, locale: str) -> tuple[str, str] | None:
    """A logged planned start (UTC "YYYY-MM-DD HH:MM") as the format card says it, in Moscow
    time; ``None`` for none or a value that is no moment."""
    try:
        moment = datetime.fromisoformat(str(value)).replace(tzinfo=UTC).astimezone(RULES_ZONE)
    except ValueError:
        return None
    return Formats(locale, RULES_ZONE).date(moment.date()), f"{moment:%H:%M}"


def _deck_format(w: Words, e: AuditEntry, before: dict[str, Any], after: dict[str, Any]) -> str:
    """Issue 13: "Deck format: «Standard» → «Starter»; start: 5 Dec 2026, 15:15 Moscow time;
    online" (what changed; a first choice says all it set)."""
    old, new = before.get("format"), after.get("format")
    parts = [w.t(N_("Deck format: “%(old)s” → “%(new)s”"), old=old, new=new)
             if before and old != new else w.t(N_("Deck format: “%(name)s”"), name=new)]
    start = after.get("starts_at")
    if (start != before.get("starts_at")) if before else bool(start):
        shown = _start(start, w.locale) if start else None
        parts.append(w.t(N_("start: %(day)s, %(time)s Moscow time"), day=shown[0],
                         time=shown[1]) if shown else w.gettext(N_("no planned start")))
    online = bool(after.get("online"))
    if (bool(before.get("online")) != online) if before else online:
        parts.append(w.gettext(N_("online") if online else N_("played in person")))
    return "; ".join(parts)


_DESCRIBE: dict[str, Describe] = {
    "result": _result, "report": _report, "player": _player, "round": _round,
    "tournament": _tournament, "penalty": _penalty, "suspension": _penalty,
    "catalogue": _penalty, "judge": _staff, "deck.register": _deck, "deck.judge_change": _deck,
    "deck.check_draw": _deck_check, "deck.check_add": _deck_check,
    "deck.check_done": _deck_check, "deck.publish": _publish, "format.tournament": _deck_format,
    "schedule.open": lambda w, e, before, after: str(after.get("schedule") or ""),
    **DRAFT_DESCRIBE,
}
"""By action, else by its first word; anything else: its round and table."""

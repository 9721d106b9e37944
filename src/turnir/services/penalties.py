"""Use cases on penalties (J-1..J-8, T-6): give one, preview it, list a player's penalties with
their reasons; appeals and withdrawals are in ``penalty_appeals``.

A judge's phone issues a penalty in three steps: pick the player (``services.players`` /
``services.rounds`` list them with their tables), pick the reason (``penalty_catalogue``),
confirm what ``preview_penalty`` shows (the guide's penalty with its explanation, whether a
deviation needs the head judge, where a loss will land) with ``give_penalty``. Everything not
chosen has a default: the penalty is the guide's (escalated, J-6), the moment is "during the
player's current match" while it has no result, otherwise "after the last round" (J-3).

Every change locks the tournament, leaves an audit record (``penalty.give``, ``penalty.appeal``,
``penalty.withdraw``, ``penalty.apply``, ``penalty.accumulate``, ``result.correct``,
``player.drop``, ``suspension.add``) and counts in the tournament's version; penalties carry
their own version for appeals. ``give_penalty`` accepts an idempotency key, so a double tap
gives one penalty.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from turnir.domain.model import RulesLevel
from turnir.domain.penalties import (
    GivenAt,
    Moment,
    Penalty,
    PenaltyRecord,
    PenaltyStatus,
    Text,
    check_may_suspend,
    effects,
    escalate,
)
from turnir.domain.penalties import give_penalty as domain_give_penalty
from turnir.domain.text import NOTE_LEN, clean_text
from turnir.errors import ConflictError, NotFoundError, Term, UserError
from turnir.services.common import (
    Database,
    Tx,
    changing,
    reading,
    refuse_when_finished,
    touch_tournament,
)
from turnir.services.judging import (
    acting_judge,
    confirming_head_judge,
    level_of,
)
from turnir.services.penalty_effects import land, player_pairings, register_suspension
from turnir.services.penalty_losses import disqualify_player
from turnir.services.results import RecordedResult
from turnir.services.suspensions import find_person
from turnir.storage.mappers import tournament_row
from turnir.storage.penalties_repo import person_entries, player_name, player_names
from turnir.storage.penalty_rows import (
    StoredPenalty,
    insert_penalty,
    load_catalogue,
    next_seq,
    penalty_records,
    record_json,
    stored_penalties,
    stored_penalty,
)
from turnir.storage.repositories import (
    Change,
    entry_by_ref,
    last_round_number,
    store_answer,
    stored_answer,
)


@dataclass(frozen=True, slots=True)
class PenaltyView:
    """One penalty as a player, a judge or the report sees it (J-7: the reason is shown)."""

    seq: int
    """The penalty's number in the tournament (``turnir penalty appeal T SEQ``)."""
    player: int
    player_name: str
    reason: str
    """The infraction code, or ``accumulation`` (J-6)."""
    reason_name: Text
    penalty: Penalty
    guide_penalty: Penalty
    """What the guide prescribes (default, escalated); differs from ``penalty`` on a
    deviation (J-7)."""
    given_at: GivenAt
    explanation: Text
    """Why, in words shown to the player (J-6, J-7)."""
    judge: str
    """Who gave it ('' for an automatic penalty)."""
    confirmed_by: str
    """The head judge who confirmed a deviation ('' if none was needed)."""
    deferred: bool
    sources: tuple[int, ...]
    note: str
    status: PenaltyStatus
    applied_round: int | None
    """The round whose result took its loss (J-3); ``None``: none yet, or no loss."""
    effects: tuple[Penalty, ...]
    """The penalty and the ones attached to it (J-2)."""
    given_on: datetime
    version: int

    @property
    def automatic(self) -> bool:
        return self.judge == "" and self.reason == "accumulation"

    @property
    def deviation(self) -> bool:
        return self.penalty is not self.guide_penalty

    @property
    def active(self) -> bool:
        return self.status is PenaltyStatus.ACTIVE

    @property
    def pending_loss(self) -> bool:
        """A game or match loss still waiting for its result (J-3)."""
        return self.active and self.applied_round is None and any(
            e in (Penalty.GAME_LOSS, Penalty.MATCH_LOSS) for e in self.effects)

    def as_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq, "player": self.player, "player_name": self.player_name,
            "reason": self.reason, "reason_name": {"ru": self.reason_name.ru,
                                                   "en": self.reason_name.en},
            "penalty": self.penalty.value, "guide_penalty": self.guide_penalty.value,
            "deviation": self.deviation, "round": self.given_at.round,
            "moment": self.given_at.moment.value, "game": self.given_at.game,
            "explanation": {"ru": self.explanation.ru, "en": self.explanation.en},
            "judge": self.judge, "confirmed_by": self.confirmed_by, "deferred": self.deferred,
            "automatic": self.automatic, "sources": list(self.sources), "note": self.note,
            "status": self.status.value, "applied_round": self.applied_round,
            "pending_loss": self.pending_loss, "effects": [e.value for e in self.effects],
            "given_on": self.given_on.isoformat(), "version": self.version,
        }


def penalty_view(stored: StoredPenalty, name: str) -> PenaltyView:
    record = stored.record
    return PenaltyView(
        seq=record.id, player=record.player, player_name=name, reason=record.reason,
        reason_name=stored.reason_name, penalty=record.penalty,
        guide_penalty=record.guide_penalty, given_at=record.given_at,
        explanation=record.explanation, judge=stored.judge_name,
        confirmed_by=stored.confirmed_by, deferred=record.deferred, sources=record.sources,
        note=record.note, status=record.status, applied_round=stored.applied_round,
        effects=record.effects, given_on=stored.given_on, version=stored.version,
    )


def views_in(conn: Tx, tournament_id: int,
             player: int | None = None) -> list[PenaltyView]:
    names = player_names(conn, tournament_id)
    found = stored_penalties(conn, tournament_id, None if player is None else [player])
    return [penalty_view(stored, names.get(stored.player, "?")) for stored in found]


def existing_penalty(conn: Tx, tournament_id: int, seq: int) -> StoredPenalty:
    """Penalty #``seq``; refused when the tournament has none."""
    stored = stored_penalty(conn, tournament_id, seq)
    if stored is None:
        raise NotFoundError("no penalty #{seq} in this tournament", code="unknown_penalty",
                            seq=seq)
    return stored


def view_of(conn: Tx, tournament_id: int, seq: int) -> PenaltyView:
    stored = existing_penalty(conn, tournament_id, seq)
    return penalty_view(stored, player_name(conn, tournament_id, stored.player))


# ----- the moment (J-3) ---------------------------------------------------------------------


def default_moment(conn: Tx, tournament_id: int, number: int) -> GivenAt:
    """During the player's current match while it has no result; otherwise after the last
    round (before round 1: after round 0)."""
    last = last_round_number(conn, tournament_id)
    if last == 0:
        return GivenAt.between_matches(0)
    for line in player_pairings(conn, tournament_id, number, from_round=last):
        if line.is_match and line.pairing.result is None:
            return GivenAt.during_game(last, 1)
    return GivenAt.between_matches(last)


def _check_moment(conn: Tx, tournament_id: int, number: int, at: GivenAt) -> None:
    last = last_round_number(conn, tournament_id)
    if at.round > last:
        raise UserError("round {round} has not been paired yet (the last is {last})",
                        code="bad_moment", round=at.round, last=last)
    if at.moment is Moment.BETWEEN_MATCHES:
        return
    lines = [line for line in player_pairings(conn, tournament_id, number, from_round=at.round)
             if line.round == at.round]
    if not lines or not lines[0].is_match:
        raise UserError("player #{number} has no match in round {round} to be given a "
                        "penalty during", code="bad_moment", number=number, round=at.round)


# ----- giving a penalty ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PenaltyPreview:
    """What confirming would give (the phone's third step)."""

    player: int
    player_name: str
    reason: str
    reason_name: Text
    guide_penalty: Penalty
    """The guide's penalty: the default at the rules level, escalated (J-6)."""
    penalty: Penalty
    """What would be given (the guide's unless the judge chose another)."""
    offence: int
    """1 for a first offence for this reason, 2 for the second, …"""
    explanation: Text
    given_at: GivenAt
    needs_head_judge: bool
    """A deviation at Professional level or above needs the head judge's confirmation (J-7)."""
    effects: tuple[Penalty, ...]
    level: RulesLevel


def _player_entry(conn: Tx, tournament_id: int, player: str | int) -> Mapping[Any, Any]:
    entry = entry_by_ref(conn, tournament_id, player)
    for stored in stored_penalties(conn, tournament_id, [entry["number"]]):
        record = stored.record
        if record.active and record.penalty.is_disqualification:
            raise ConflictError("{name} is already disqualified (penalty #{seq})",
                                code="disqualified", name=entry["name"], seq=record.id)
    return entry


def preview_penalty(
    db: Database, tournament_id: int, *, player: str | int, reason: str, judge: str,
    penalty: Penalty | None = None, given_at: GivenAt | None = None,
    account_id: int | None = None,
) -> PenaltyPreview:
    """The penalty ``judge`` would give ``player`` for ``reason`` now, without giving it
    (``account_id``: the web account acting, as in ``give_penalty``)."""
    with reading(db) as conn:
        row = tournament_row(conn, tournament_id)
        acting = acting_judge(conn, tournament_id, judge, what=Term("give penalties"),
                              account_id=account_id)
        entry = _player_entry(conn, tournament_id, player)
        level = level_of(row)
        infraction = load_catalogue(conn, tournament_id).get(reason)
        records = penalty_records(conn, tournament_id)
        at = given_at or default_moment(conn, tournament_id, entry["number"])
        guide = escalate(records, player=entry["number"], infraction=infraction, level=level)
    given = guide.penalty if penalty is None else penalty
    if given is Penalty.SUSPENSION:
        check_may_suspend(level=level, judge=acting.judge)
    deviation = given is not guide.penalty
    return PenaltyPreview(
        player=entry["number"], player_name=entry["name"], reason=infraction.code,
        reason_name=infraction.name, guide_penalty=guide.penalty, penalty=given,
        offence=guide.offence, explanation=guide.explanation, given_at=at,
        needs_head_judge=deviation and level.guide_binding and not acting.is_head,
        effects=effects(given), level=level,
    )


@dataclass(frozen=True, slots=True)
class PenaltyOutcome:
    """A penalty given, and what it did at once."""

    penalty: PenaltyView
    results: tuple[RecordedResult, ...]
    """Results recorded or corrected because the loss landed on them now (J-3)."""
    dropped_after: int | None
    """For a disqualification: the round the player left after (J-4)."""
    suspension_id: int | None
    """For a suspension: its register entry (J-5)."""


def give_penalty(
    db: Database, tournament_id: int, *, player: str | int, reason: str, actor: str,
    judge: str | None = None, penalty: Penalty | None = None, given_at: GivenAt | None = None,
    confirmed_by: str | None = None, deferred: bool = False, note: str = "",
    suspension_until: date | None = None, idempotency_key: str | None = None,
    account_id: int | None = None,
) -> PenaltyOutcome:
    """Give ``player`` a penalty for ``reason`` (an infraction code of the catalogue).

    ``judge`` (default: the actor) must be a head or floor judge of the tournament; a web
    account (``account_id``) is the judge linked to it, whatever the name
    (``turnir.services.judging.acting_judge``).
    ``penalty``: the judge's choice when it differs from the guide's; at Professional level and
    above such a deviation needs ``confirmed_by`` naming the head judge (J-7). ``given_at``:
    when (J-3; default: see the module docstring); ``deferred`` moves a game loss to the next
    game, a match loss to the next match. A suspension needs the head judge who is an official
    representative at Professional level or above (J-5); ``suspension_until`` is its last day,
    when already known.
    """
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        row = tournament_row(conn, tournament_id)
        refuse_when_finished(row)
        request: dict[str, Any] = {}
        if idempotency_key is not None:
            request = {"player": str(player), "reason": reason, "judge": judge or actor,
                       "penalty": None if penalty is None else penalty.value,
                       "given_at": None if given_at is None else [
                           given_at.round, given_at.moment.value, given_at.game],
                       "confirmed_by": confirmed_by, "deferred": deferred, "note": note,
                       "until": None if suspension_until is None else suspension_until.isoformat()}
            answered = stored_answer(conn, tournament_id, idempotency_key, "penalty", request)
            if answered is not None:
                return PenaltyOutcome(view_of(conn, tournament_id, answered["seq"]), (),
                                      answered["dropped_after"], answered["suspension_id"])
        acting = acting_judge(conn, tournament_id, judge or actor, what=Term("give penalties"),
                              account_id=account_id)
        entry = _player_entry(conn, tournament_id, player)
        number = entry["number"]
        catalogue = load_catalogue(conn, tournament_id)
        infraction = catalogue.get(reason)
        at = given_at or default_moment(conn, tournament_id, number)
        _check_moment(conn, tournament_id, number, at)
        confirming = (None if confirmed_by is None
                      else confirming_head_judge(conn, tournament_id, confirmed_by))
        records = penalty_records(conn, tournament_id)
        record = domain_give_penalty(
            records, record_id=next_seq(conn, tournament_id), player=number,
            infraction=infraction, level=level_of(row), given_at=at, judge=acting.judge,
            penalty=penalty, confirmed_by_head_judge=confirming is not None, deferred=deferred,
            note=clean_text(note, field="note", max_len=NOTE_LEN),
        )
        confirmer = ("" if not record.confirmed_by_head_judge
                     else acting.name if confirming is None else confirming.name)
        row_id = insert_penalty(conn, tournament_id, record, reason_name=infraction.name,
                                judge_id=acting.id, confirmed_by=confirmer, at=change.at,
                                actor=change.actor)
        touch_tournament(conn, row)
        change.log(tournament_id, "penalty.give", "penalty", record.id, None,
                   {**record_json(record), "player_name": entry["name"],
                    "confirmed_by": confirmer})
        outcome = carry_out(change, tournament_id, record, row_id, suspension_until)
        if idempotency_key is not None:
            store_answer(conn, tournament_id, idempotency_key, "penalty", request,
                         {"seq": record.id, "dropped_after": outcome.dropped_after,
                          "suspension_id": outcome.suspension_id}, change.at)
        return outcome


def carry_out(change: Change, tournament_id: int, record: PenaltyRecord, row_id: int,
               suspension_until: date | None, *, land_loss: bool = True) -> PenaltyOutcome:
    """The immediate effects of a new (or changed) penalty: its loss lands (J-3), a
    disqualification drops the player (J-4), a suspension enters the register (J-5)."""
    conn = change.conn
    landed = land(change, tournament_id, record) if land_loss else None
    dropped_after = None
    suspension_id = None
    if record.penalty.is_disqualification:
        disqualify_player(change, tournament_id, record)
        dropped_after = entry_by_ref(conn, tournament_id, record.player)["dropped_after"]
    if record.penalty is Penalty.SUSPENSION:
        suspension_id = register_suspension(change, tournament_id, record, penalty_row_id=row_id,
                                            until=suspension_until)
    return PenaltyOutcome(view_of(conn, tournament_id, record.id),
                          () if landed is None else (landed,), dropped_after, suspension_id)


# ----- reading ------------------------------------------------------------------------------


def list_penalties(db: Database, tournament_id: int,
                   player: str | int | None = None) -> list[PenaltyView]:
    """The tournament's penalties (or one player's), oldest first, withdrawn ones included."""
    with reading(db) as conn:
        tournament_row(conn, tournament_id)
        number = None if player is None else entry_by_ref(conn, tournament_id, player)["number"]
        return views_in(conn, tournament_id, number)


def get_penalty(db: Database, tournament_id: int, seq: int) -> PenaltyView:
    with reading(db) as conn:
        return view_of(conn, tournament_id, seq)


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """A penalty in a person's history across tournaments."""

    tournament_id: int
    tournament: str
    penalty: PenaltyView


def person_history(db: Database, person: int | str) -> list[HistoryLine]:
    """Every penalty of one person (id, or a name only one person has) in every tournament,
    oldest first, with the reasons."""
    with reading(db) as conn:
        person_id = find_person(conn, person).id
        return [HistoryLine(entry.tournament_id, entry.tournament, penalty_view(one, entry.name))
                for entry in person_entries(conn, person_id)
                for one in stored_penalties(conn, entry.tournament_id, [entry.number])]


def pending_losses(db: Database, tournament_id: int) -> list[PenaltyView]:
    """Game and match losses waiting for their result (J-3), for the judges' screen."""
    return [v for v in list_penalties(db, tournament_id) if v.pending_loss]


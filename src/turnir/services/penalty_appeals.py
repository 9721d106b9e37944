"""Appeals against floor judges' penalties and withdrawals by the head judge (J-6, J-8).

``decide_appeal``: the head judge upholds, changes or withdraws a floor judge's penalty; the
decision is stored (``appeals``) and appended to the penalty's explanation. ``withdraw_penalty``:
the head judge's correction of a penalty entered in error. After either, an automatic penalty
whose three no longer add up is withdrawn too (J-6), and a result that took a changed loss is
recorded again from the players' report, unless a later round was paired from it (S-6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from turnir.domain.model import StaffRole as Role
from turnir.domain.penalties import (
    AppealOutcome,
    Penalty,
    PenaltyRecord,
    PenaltyStatus,
    Text,
    stale_automatic,
)
from turnir.domain.penalties import decide_appeal as domain_decide_appeal
from turnir.domain.text import NOTE_LEN, clean_text
from turnir.errors import ConflictError, Term, UserError
from turnir.services.common import Database, Tx, changing, refuse_when_finished, touch_tournament
from turnir.services.judging import ActingJudge, acting_judge, level_of
from turnir.services.penalties import PenaltyView, carry_out, existing_penalty, view_of
from turnir.services.penalty_effects import refresh
from turnir.storage.mappers import tournament_row
from turnir.storage.penalties_repo import AppealView as AppealView
from turnir.storage.penalties_repo import appeal_views as appeal_views
from turnir.storage.penalties_repo import insert_appeal, update_penalty
from turnir.storage.penalty_rows import (
    StoredPenalty,
    penalty_records,
    record_json,
    stored_penalty,
)
from turnir.storage.repositories import Change, check_version


def _carry_out_changed(change: Change, tournament_id: int, record: PenaltyRecord,
                       row_id: int) -> tuple[str, ...]:
    """``_carry_out`` for a penalty changed on appeal: a new loss that would land on a result a
    later round was paired from waits for the player's next match instead (J-3)."""
    stored = stored_penalty(change.conn, tournament_id, record.id)
    on_its_result = stored is not None and stored.applied_round is not None
    try:
        carry_out(change, tournament_id, record, row_id, None, land_loss=not on_its_result)
    except UserError as error:
        if error.code != "result_locked":
            raise
        carry_out(change, tournament_id, record, row_id, None, land_loss=False)
        return (f"the new {record.penalty.name_text.en} waits for the next match of "
                f"#{record.player}",)
    return ()


# ----- appeals and withdrawals --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AppealDecision:
    appeal: AppealView
    penalty: PenaltyView
    also_withdrawn: tuple[int, ...]
    """Automatic penalties withdrawn with it: their three no longer add up (J-6)."""
    results: tuple[str, ...]
    """What happened to results, in words (corrected, or kept because a later round exists)."""


def decide_appeal(
    db: Database, tournament_id: int, seq: int, *, outcome: AppealOutcome, actor: str,
    judge: str | None = None, changed_to: Penalty | None = None, note: str = "",
    expected_version: int | None = None, account_id: int | None = None,
) -> AppealDecision:
    """The head judge decides an appeal against a floor judge's penalty #``seq`` (J-8):
    upheld, changed to ``changed_to``, or withdrawn; the outcome is recorded. A web account
    (``account_id``) must be the tournament's head judge itself."""
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        row, prow, head = _penalty_to_change(conn, tournament_id, seq, expected_version,
                                             judge or actor, Term("decide appeals"), account_id)
        record = prow.record
        appeal, updated = domain_decide_appeal(record, outcome=outcome, head_judge=head.judge,
                                               level=level_of(row), changed_to=changed_to,
                                               note=clean_text(note, field="note",
                                                               max_len=NOTE_LEN))
        _update(conn, prow, updated, confirmed_by=head.name if changed_to else None)
        appeal_id = insert_appeal(
            conn, tournament_id=tournament_id, penalty_id=prow.row_id,
            outcome=appeal.outcome.value, judge_id=head.id, decided_by=head.name,
            before_penalty=appeal.before.value,
            changed_to=None if appeal.changed_to is None else appeal.changed_to.value,
            note=appeal.note, at=change.at, actor=change.actor)
        touch_tournament(conn, row)
        _log(change, tournament_id, "penalty.appeal", prow, record, updated,
             appeal=appeal_id, outcome=appeal.outcome.value, decided_by=head.name,
             note=appeal.note)
        withdrawn, results = _after_change(change, tournament_id, [seq], head)
        if updated.active and updated.penalty is not record.penalty:
            results = (*results, *_carry_out_changed(change, tournament_id, updated, prow.row_id))
        view = next(v for v in appeal_views(conn, tournament_id) if v.id == appeal_id)
        return AppealDecision(view, view_of(conn, tournament_id, seq), withdrawn, results)


def withdraw_penalty(
    db: Database, tournament_id: int, seq: int, *, reason: str, actor: str,
    judge: str | None = None, expected_version: int | None = None,
    account_id: int | None = None,
) -> PenaltyView:
    """The head judge withdraws penalty #``seq`` entered in error (a wrong player, a slip of
    the finger); recorded with the reason. Appeals go through ``decide_appeal``; a web account
    (``account_id``) must be the head judge itself."""
    if not reason.strip():
        raise UserError("say why the penalty is withdrawn", code="no_reason")
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        row, prow, head = _penalty_to_change(conn, tournament_id, seq, expected_version,
                                             judge or actor, Term("withdraw penalties"),
                                             account_id)
        record = prow.record
        if record.judge is None:
            raise UserError("penalty #{seq} was added up automatically (J-6); withdraw one "
                            "of its sources", code="not_withdrawable", seq=seq)
        if not record.active:
            raise ConflictError("penalty #{seq} is already withdrawn", code="withdrawn", seq=seq)
        text = clean_text(reason, field="reason", max_len=300, multiline=False)
        updated = _withdrawn(record, Text(f"; снято главным судьёй ({head.name}): {text}",
                                          f"; withdrawn by the head judge ({head.name}): {text}"))
        _update(conn, prow, updated)
        touch_tournament(conn, row)
        _log(change, tournament_id, "penalty.withdraw", prow, record, updated, reason=text,
             by=head.name)
        _after_change(change, tournament_id, [seq], head)
        return view_of(conn, tournament_id, seq)


def _penalty_to_change(
    conn: Tx, tournament_id: int, seq: int, expected_version: int | None, name: str,
    what: Term, account_id: int | None,
) -> tuple[Mapping[Any, Any], StoredPenalty, ActingJudge]:
    """The tournament's row, penalty #``seq``'s row (at ``expected_version``) and the head
    judge ``name`` who changes it."""
    row = tournament_row(conn, tournament_id)
    refuse_when_finished(row)
    prow = existing_penalty(conn, tournament_id, seq)
    check_version(conn, tournament_id, "penalty", seq, f"penalty #{seq}", expected_version,
                  prow.version)
    head = acting_judge(conn, tournament_id, name, what=what, roles=(Role.HEAD_JUDGE,),
                        account_id=account_id)
    return row, prow, head


def _log(change: Change, tournament_id: int, action: str, prow: StoredPenalty,
         record: PenaltyRecord, updated: PenaltyRecord, **extra: object) -> None:
    """The audit record of a penalty changed from ``record`` to ``updated``."""
    applied = prow.applied_round
    change.log(tournament_id, action, "penalty", record.id,
               record_json(record, applied_round=applied),
               {**record_json(updated, applied_round=applied), **extra})


def _withdrawn(record: PenaltyRecord, why: Text) -> PenaltyRecord:
    return replace(record, status=PenaltyStatus.WITHDRAWN, explanation=record.explanation + why)


def _update(conn: Tx, prow: StoredPenalty, record: PenaltyRecord, *,
            confirmed_by: str | None = None) -> None:
    if not update_penalty(conn, prow, record, confirmed_by=confirmed_by):
        raise ConflictError("penalty #{seq} changed meanwhile; try again",
                            code="stale_version", seq=prow.seq)


_KEPT = Text("; результат тура {round} не изменён: по нему уже составлены пары следующего тура",
             "; the result of round {round} stays: a later round was paired from it")


def _after_change(change: Change, tournament_id: int, changed: Sequence[int],
                  head: ActingJudge) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """After an appeal or a withdrawal: withdraw the automatic penalties that no longer add up
    (J-6), and record again the results that took a changed loss (J-3)."""
    conn = change.conn
    stale = stale_automatic(penalty_records(conn, tournament_id))
    for record in stale:
        prow = existing_penalty(conn, tournament_id, record.id)
        updated = _withdrawn(record, Text("; снято: пенальти, из которых оно сложилось, изменены",
                                          "; withdrawn: the penalties it added up changed"))
        _update(conn, prow, updated)
        _log(change, tournament_id, "penalty.withdraw", prow, record, updated,
             reason="stale accumulation", by=head.name)
    results: list[str] = []
    for seq in sorted({*changed, *(r.id for r in stale)}):
        prow = existing_penalty(conn, tournament_id, seq)
        round_number = prow.applied_round
        if round_number is None:
            continue
        if refresh(change, tournament_id, prow.player, round_number):
            results.append(f"round {round_number}: result of #{prow.player} recorded again")
            continue
        results.append(f"round {round_number}: result of #{prow.player} stays (S-6)")
        record = prow.record
        kept = Text(_KEPT.ru.format(round=round_number), _KEPT.en.format(round=round_number))
        _update(conn, prow, replace(record, explanation=record.explanation + kept))
    return tuple(r.id for r in stale), tuple(results)

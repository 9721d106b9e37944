"""Giving a penalty: escalation, deviations, deferral and the suspension check in one step
(rules J-3, J-5, J-6, J-7).

Terms (Russian in brackets):

- *guide penalty* (пенальти по Уложению): the catalogue default at the rules level, escalated
  for a repeated reason (J-6).
- *deviation* (отступление от Уложения): the judge gives a penalty other than the guide
  penalty, finding it too weak or too harsh. At Professional level and above the judge must
  consult the head judge first (000 Appendix 1); here that is recorded as the head judge's
  confirmation, and an unconfirmed deviation is refused. A deviation by the head judge is
  confirmed by being theirs. At Amateur level deviations are free and still recorded.
- *deferral* (перенос): near the end of a game the judge may find a loss of that game too weak
  and move the game loss to the next game; near the end of a round, a match loss to the next
  match (J-3).
"""

from __future__ import annotations

from collections.abc import Iterable

from turnir.domain.model import PlayerId, RulesLevel
from turnir.domain.penalties.catalogue import Infraction
from turnir.domain.penalties.escalation import escalate
from turnir.domain.penalties.judging import check_may_suspend
from turnir.domain.penalties.ladder import NO_TEXT, Penalty, Text, level_term
from turnir.domain.penalties.records import GivenAt, Judge, Moment, PenaltyRecord
from turnir.errors import InvariantError, Term, UserError


def give_penalty(
    history: Iterable[PenaltyRecord],
    *,
    record_id: int,
    player: PlayerId,
    infraction: Infraction,
    level: RulesLevel,
    given_at: GivenAt,
    judge: Judge,
    penalty: Penalty | None = None,
    confirmed_by_head_judge: bool = False,
    deferred: bool = False,
    note: str = "",
) -> PenaltyRecord:
    """A new penalty record for ``player``'s ``infraction`` (J-1..J-7).

    ``history`` is the tournament's records so far. ``penalty`` is the judge's choice when it
    differs from the guide; ``None`` follows the guide (default, escalated). Refuses a
    suspension the level or the judge does not allow (J-5), an unconfirmed deviation at
    Professional level or above (J-7) and a deferral that does not fit the moment (J-3).
    """
    records = list(history)
    if any(r.id == record_id for r in records):
        raise InvariantError(f"penalty record id {record_id} is already used")
    guide = escalate(records, player=player, infraction=infraction, level=level)
    given = guide.penalty if penalty is None else penalty
    if given is Penalty.SUSPENSION:
        check_may_suspend(level=level, judge=judge)
    deviation = given is not guide.penalty
    confirmed = confirmed_by_head_judge or (deviation and judge.is_head)
    if deviation and level.guide_binding and not confirmed:
        raise UserError(
            "at {level} level the guide prescribes {guide} here; giving {given} instead needs "
            "the head judge's confirmation (J-7)",
            code="deviation_unconfirmed", level=level_term(level), guide=guide.penalty.term,
            given=given.term,
        )
    if deferred:
        _check_deferral(given, given_at)
    explanation = guide.explanation
    if deviation:
        by = Text(" (подтверждено главным судьёй)", " (confirmed by the head judge)") if (
            confirmed) else NO_TEXT
        explanation = explanation + Text(
            f"; судья назначил: {given.name_text.ru}",
            f"; the judge gave a {given.name_text.en} instead",
        ) + by
    if deferred:
        explanation = explanation + (
            Text("; перенесено на следующую партию", "; moved to the next game")
            if given is Penalty.GAME_LOSS
            else Text("; перенесено на следующий матч", "; moved to the next match")
        )
    return PenaltyRecord(
        id=record_id,
        player=player,
        reason=infraction.code,
        penalty=given,
        given_at=given_at,
        guide_penalty=guide.penalty,
        explanation=explanation,
        judge=judge,
        confirmed_by_head_judge=confirmed,
        deferred=deferred,
        note=note.strip(),
    )


def _check_deferral(penalty: Penalty, given_at: GivenAt) -> None:
    """A game loss may be moved on only from a game in progress; a match loss from a match in
    progress (during a game or between its games); nothing else is deferred (J-3)."""
    if penalty is Penalty.GAME_LOSS and given_at.moment is Moment.DURING_GAME:
        return
    if penalty is Penalty.MATCH_LOSS and given_at.moment is not Moment.BETWEEN_MATCHES:
        return
    raise UserError(
        "a {penalty} given {moment} cannot be deferred: only a game loss during a game, or a "
        "match loss during a match, moves on to the next one (J-3)",
        code="bad_deferral", penalty=penalty.term, moment=_MOMENTS[given_at.moment])


_MOMENTS = {
    Moment.DURING_GAME: Term("during a game"),
    Moment.BETWEEN_GAMES: Term("between two games of a match"),
    Moment.BETWEEN_MATCHES: Term("between matches"),
}
"""When a penalty was given, in words for an error message."""

"""Who may do what: suspensions and their register, the head judge as a player, appeals
(rules J-5, J-7, J-8; 000 §11 and Appendix 1).

Terms (Russian in brackets):

- *suspension* (приостановление членства): the heaviest penalty; the player may not play in
  official tournaments (официальные турниры) or receive prizes. Only at Professional level or
  above, only by a head judge who is an official representative of the publisher (J-5). Its
  length is set outside the tournament, by the game's coordinator (координатор игры).
- *suspension register* (реестр приостановлений): entries kept across tournaments (player, from,
  until, reason); registration for an official tournament checks it.
- *day* (день): a calendar day, passed in as its proleptic Gregorian ordinal
  (``datetime.date.toordinal()``), because the pure core reads no clock and imports no
  ``datetime``; the ``until`` day is the last day of the suspension.
- *appeal* (обжалование): a floor judge's ruling may be appealed to the head judge, who upholds
  it, changes it or withdraws it; the head judge's own rulings are final (000 §11).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import Enum
from typing import NewType

from turnir.domain.model import RulesLevel
from turnir.domain.penalties.ladder import Penalty, Text, level_term
from turnir.domain.penalties.records import Judge, PenaltyRecord, PenaltyStatus
from turnir.errors import InvariantError, UserError

Day = NewType("Day", int)
"""A calendar day as ``date.toordinal()``: the domain compares days, the caller converts."""

HEAD_JUDGE_PLAYER_LIMIT = 12
"""With this many participants or more the head judge may not play (J-8)."""


# ----- J-5: suspension --------------------------------------------------------------------


def check_may_suspend(*, level: RulesLevel, judge: Judge) -> None:
    """Refuse a suspension unless the level and the judge allow one (J-5)."""
    if not level.guide_binding:
        raise UserError(
            "a suspension can be given only at Professional level or above (J-5)",
            code="suspension_not_allowed",
        )
    if not (judge.is_head and judge.official_representative):
        raise UserError(
            "{name} cannot give a suspension: only the head judge, and only when an "
            "official representative of the publisher (J-5)", name=judge.name,
            code="suspension_not_allowed",
        )


@dataclass(frozen=True, slots=True)
class Suspension:
    """One entry of the suspension register (J-5)."""

    person: str
    """The player's key in the rating database (stable across tournaments)."""
    start: Day
    """The first day of the suspension."""
    until: Day | None
    """The last day; ``None`` while the coordinator has not yet set the term."""
    reason: Text
    """Why, as recorded in the penalty (J-7)."""
    issued_by: str
    """The head judge who gave it."""
    tournament: str = ""
    """The tournament it was given at."""

    def __post_init__(self) -> None:
        if self.until is not None and self.until < self.start:
            raise UserError("a suspension cannot end before it starts", code="bad_suspension")

    def covers(self, day: Day) -> bool:
        """The player is suspended on ``day``."""
        return self.start <= day and (self.until is None or day <= self.until)


def suspension_entry(
    record: PenaltyRecord, *, person: str, start: Day, until: Day | None = None,
    tournament: str = "",
) -> Suspension:
    """The register entry for a suspension penalty (J-5); the term may be set later."""
    if record.penalty is not Penalty.SUSPENSION or not record.active:
        raise UserError("penalty #{seq} is not an active suspension", code="not_suspension",
                        seq=record.id)
    if record.judge is None:
        raise UserError("a suspension is never automatic (J-6)", code="not_suspension")
    return Suspension(person=person, start=start, until=until, reason=record.explanation,
                      issued_by=record.judge.name, tournament=tournament)


def active_suspension(
    register: Iterable[Suspension], person: str, *, on: Day
) -> Suspension | None:
    """The entry suspending ``person`` on day ``on`` (the one ending last), if any."""
    found = [s for s in register if s.person == person and s.covers(on)]
    if not found:
        return None
    return max(found, key=lambda s: (s.until is None, s.until or 0))


def check_may_register(
    register: Iterable[Suspension], person: str, *, on: Day, official: bool
) -> None:
    """Refuse a suspended player's registration for an official tournament held on ``on`` (J-5).

    Unofficial tournaments are not affected.
    """
    if not official:
        return
    entry = active_suspension(register, person, on=on)
    if entry is None:
        return
    if entry.until is None:
        raise UserError("this player is suspended until the coordinator sets the term and "
                        "cannot play in official tournaments (J-5): {reason}",
                        code="suspended", reason=entry.reason.en)
    raise UserError("this player is suspended and cannot play in official tournaments (J-5): "
                    "{reason}", code="suspended", reason=entry.reason.en)


# ----- J-8: the head judge as a player ------------------------------------------------------


def head_judge_may_play(*, level: RulesLevel, participants: int) -> bool:
    """The head judge may play only at Amateur level with fewer than 12 participants (J-8).

    ``participants`` counts every registered player, the head judge included.
    """
    return level is RulesLevel.AMATEUR and participants < HEAD_JUDGE_PLAYER_LIMIT


def check_head_judge_may_play(*, level: RulesLevel, participants: int) -> None:
    """Refuse when the head judge plays but may not (J-8); call at registration and at start."""
    if level is not RulesLevel.AMATEUR:
        raise UserError(
            "the head judge may play only at Amateur level; this tournament is {level} (J-8)",
            code="head_judge_may_not_play", level=level_term(level),
        )
    if participants >= HEAD_JUDGE_PLAYER_LIMIT:
        raise UserError(
            "the head judge may play only with fewer than {limit} participants; there would "
            "be {participants} (J-8)", code="head_judge_may_not_play",
            limit=HEAD_JUDGE_PLAYER_LIMIT, participants=participants,
        )


# ----- appeals ------------------------------------------------------------------------------


class AppealOutcome(Enum):
    """What the head judge decided on an appeal."""

    UPHELD = "upheld"
    """The ruling stands (оставлено в силе)."""
    CHANGED = "changed"
    """The penalty is changed to another one (изменено)."""
    WITHDRAWN = "withdrawn"
    """The penalty is withdrawn (снято)."""


@dataclass(frozen=True, slots=True)
class Appeal:
    """The record of one appeal against a floor judge's penalty (J-8)."""

    penalty_id: int
    """The appealed penalty record."""
    outcome: AppealOutcome
    """Upheld, changed or withdrawn."""
    decided_by: Judge
    """The head judge."""
    before: Penalty
    """The penalty as the floor judge gave it."""
    changed_to: Penalty | None = None
    """The new penalty when the outcome is ``CHANGED``."""
    note: str = ""
    """The head judge's reasons."""


def decide_appeal(
    record: PenaltyRecord, *, outcome: AppealOutcome, head_judge: Judge, level: RulesLevel,
    changed_to: Penalty | None = None, note: str = "",
) -> tuple[Appeal, PenaltyRecord]:
    """The head judge decides an appeal against ``record``: the appeal and the updated record.

    After a withdrawal or a change, call ``stale_automatic`` on the tournament's records: an
    automatic penalty that this one helped add up may have to be withdrawn too.
    """
    if not head_judge.is_head:
        raise UserError("{name} is not the head judge; only the head judge decides appeals "
                        "(J-8)", code="not_head_judge", name=head_judge.name)
    if record.judge is None:
        raise UserError(
            "penalty #{seq} was added up automatically (J-6); appeal one of its sources",
            code="not_appealable", seq=record.id,
        )
    if record.judge.is_head:
        raise UserError(
            "penalty #{seq} was given by the head judge, whose decisions are final (000 §11)",
            code="final_decision", seq=record.id,
        )
    if not record.active:
        raise UserError("penalty #{seq} is already withdrawn", code="not_appealable",
                        seq=record.id)
    if outcome is AppealOutcome.CHANGED:
        if changed_to is None or changed_to is record.penalty:
            raise UserError("a changed ruling needs a different penalty", code="bad_appeal")
        if changed_to is Penalty.SUSPENSION:
            check_may_suspend(level=level, judge=head_judge)
    elif changed_to is not None:
        raise UserError("only a changed ruling names a new penalty", code="bad_appeal")
    appeal = Appeal(record.id, outcome, head_judge, record.penalty, changed_to, note)
    match outcome:
        case AppealOutcome.UPHELD:
            updated = replace(record, explanation=record.explanation + Text(
                "; оставлено в силе главным судьёй", "; upheld by the head judge on appeal"))
        case AppealOutcome.WITHDRAWN:
            updated = replace(record, status=PenaltyStatus.WITHDRAWN,
                              explanation=record.explanation + Text(
                                  "; снято главным судьёй по апелляции",
                                  "; withdrawn by the head judge on appeal"))
        case AppealOutcome.CHANGED:
            if changed_to is None:
                raise InvariantError("a changed ruling without a new penalty passed the checks")
            updated = replace(
                record, penalty=changed_to, confirmed_by_head_judge=True,
                explanation=record.explanation + Text(
                    f"; по апелляции главный судья заменил на: {changed_to.name_text.ru}",
                    f"; changed on appeal by the head judge to {changed_to.name_text.en}"),
            )
    return appeal, updated

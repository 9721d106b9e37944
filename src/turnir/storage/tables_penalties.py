"""Tables for penalties, appeals, infraction catalogue and the suspension register (issue 5)
on the shared metadata of ``turnir.storage.tables``.

Terms follow ``turnir.domain.penalties``:

- ``judging_settings``: one row per tournament that changed a judging setting: whether it is an
  *official* tournament (J-5; default: Professional level or above), the crystal margin of a
  technical win (S-8) and the penalty-point weights (T-6). No row: the defaults.
- ``infractions``: the tournament's own infraction catalogue (J-7) once the organizer edits it;
  a tournament without rows uses the shipped catalogue (``DEFAULT_CATALOGUE``).
- ``penalties``: every penalty given (J-1..J-7), numbered ``seq`` 1, 2, … per tournament (the
  domain record id), with the reason, the guide's penalty, the penalty given, the explanation
  in Russian and English, the judge, the head judge's confirmation of a deviation, and
  ``applied_round``: the round whose match result took its loss (J-3), ``NULL`` while pending.
- ``appeals``: the head judge's decisions on appeals against floor judges' penalties (J-8).
- ``suspensions``: the suspension register, by person across tournaments (J-5).
- ``game_rulings``: technical results by crystal count (S-8) and decisions on claims after
  time-out (S-9), per game.
- ``reported_results``: the result as the players reported it at the table, kept when penalty
  losses changed it (J-3), so that a correction or an appeal can apply the losses again.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    ForeignKey,
    Index,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from turnir.domain.penalties import (
    AppealOutcome,
    ClaimKind,
    JudgeRole,
    Moment,
    Penalty,
    PenaltyStatus,
    RulingKind,
)
from turnir.storage.tables import (  # the check-constraint and Table helpers are shared
    ENDINGS,
    OUTCOMES,
    SIDES,
    Base,
    _choice,
    _entry_key,
    _tables,
    _version_check,
)

PENALTIES = tuple(p.value for p in Penalty)
DEFAULT_PENALTIES = tuple(p.value for p in Penalty if p is not Penalty.SUSPENSION)
MOMENTS = tuple(m.value for m in Moment)
PENALTY_STATUSES = tuple(s.value for s in PenaltyStatus)
APPEAL_OUTCOMES = tuple(o.value for o in AppealOutcome)
JUDGE_KINDS = tuple(r.value for r in JudgeRole)
RULING_KINDS = tuple(k.value for k in RulingKind)
CLAIM_KINDS = tuple(c.value for c in ClaimKind)


class JudgingSettingsRow(Base):
    """A tournament's judging settings, when any differs from the defaults."""

    __tablename__ = "judging_settings"
    __table_args__ = (
        CheckConstraint("technical_margin >= 1", name="technical_margin"),
        _version_check(),
    )

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    official: Mapped[bool] = mapped_column(Boolean)
    """An official tournament: suspended players cannot register (J-5)."""
    technical_margin: Mapped[int] = mapped_column(default=1)
    """The crystal difference that gives a technical win (S-8)."""
    penalty_points: Mapped[list[int]]
    """The seven penalty-point weights, remark first (T-6)."""
    version: Mapped[int] = mapped_column(default=1)


class InfractionRow(Base):
    """One infraction of a tournament's own catalogue (the organizer's edit)."""

    __tablename__ = "infractions"
    __table_args__ = (
        UniqueConstraint("tournament_id", "code", name="uq_infractions_code"),
        _choice("amateur", DEFAULT_PENALTIES),
        _choice("professional", DEFAULT_PENALTIES),
        _choice("highest", DEFAULT_PENALTIES),
        _version_check(),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    code: Mapped[str] = mapped_column(String(48))
    position: Mapped[int]
    """Display order."""
    name_ru: Mapped[str] = mapped_column(String(200))
    name_en: Mapped[str] = mapped_column(String(200))
    amateur: Mapped[str] = mapped_column(String(40))
    professional: Mapped[str] = mapped_column(String(40))
    highest: Mapped[str] = mapped_column(String(40))
    description_ru: Mapped[str] = mapped_column(String(500), default="")
    description_en: Mapped[str] = mapped_column(String(500), default="")
    version: Mapped[int] = mapped_column(default=1)


class PenaltyRow(Base):
    """One penalty given to one player (J-1..J-7)."""

    __tablename__ = "penalties"
    __table_args__ = (
        UniqueConstraint("tournament_id", "seq", name="uq_penalties_seq"),
        _entry_key("number", "fk_penalties_entry"),
        Index("ix_penalties_player", "tournament_id", "number"),
        _choice("penalty", PENALTIES),
        _choice("guide_penalty", PENALTIES),
        _choice("moment", MOMENTS),
        _choice("status", PENALTY_STATUSES),
        _choice("judge_kind", JUDGE_KINDS, nullable=True),
        CheckConstraint("seq >= 1 AND given_round >= 0 AND given_game >= 0", name="numbers"),
        _version_check(),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    seq: Mapped[int]
    """The penalty's number in its tournament (the domain ``PenaltyRecord.id``)."""
    number: Mapped[int]
    """The penalised player's number in the tournament."""
    reason: Mapped[str] = mapped_column(String(48))
    """The infraction code, or ``accumulation`` for an automatic penalty (J-6)."""
    reason_ru: Mapped[str] = mapped_column(String(200))
    reason_en: Mapped[str] = mapped_column(String(200))
    """The reason's name when the penalty was given (the catalogue may change later)."""
    penalty: Mapped[str] = mapped_column(String(40))
    guide_penalty: Mapped[str] = mapped_column(String(40))
    given_round: Mapped[int]
    moment: Mapped[str] = mapped_column(String(20))
    given_game: Mapped[int] = mapped_column(default=0)
    explanation_ru: Mapped[str] = mapped_column(String(2000))
    explanation_en: Mapped[str] = mapped_column(String(2000))
    judge_id: Mapped[int | None] = mapped_column(ForeignKey("judges.id"))
    """``NULL`` for an automatic penalty."""
    judge_name: Mapped[str] = mapped_column(String(200), default="")
    judge_kind: Mapped[str | None] = mapped_column(String(10))
    """``head`` or ``floor`` when given; ``NULL`` for an automatic penalty."""
    judge_official: Mapped[bool] = mapped_column(Boolean, default=False)
    confirmed_by_head_judge: Mapped[bool] = mapped_column(Boolean, default=False)
    confirmed_by: Mapped[str] = mapped_column(String(200), default="")
    """The head judge who confirmed a deviation (J-7)."""
    deferred: Mapped[bool] = mapped_column(Boolean, default=False)
    sources: Mapped[list[int]] = mapped_column(default=list)
    """For an automatic penalty, the ``seq`` of the three it adds up (J-6)."""
    note: Mapped[str] = mapped_column(String(1000), default="")
    status: Mapped[str] = mapped_column(String(20), default="active")
    applied_round: Mapped[int | None]
    """The round whose match result took this penalty's loss (J-3); ``NULL`` while pending."""
    version: Mapped[int] = mapped_column(default=1)
    created_at: Mapped[datetime]
    created_by: Mapped[str] = mapped_column(String(200))


class AppealRow(Base):
    """The head judge's decision on an appeal against a floor judge's penalty (J-8)."""

    __tablename__ = "appeals"
    __table_args__ = (
        _choice("outcome", APPEAL_OUTCOMES),
        _choice("before_penalty", PENALTIES),
        _choice("changed_to", PENALTIES, nullable=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    penalty_id: Mapped[int] = mapped_column(ForeignKey("penalties.id"))
    outcome: Mapped[str] = mapped_column(String(20))
    judge_id: Mapped[int] = mapped_column(ForeignKey("judges.id"))
    decided_by: Mapped[str] = mapped_column(String(200))
    before_penalty: Mapped[str] = mapped_column(String(40))
    changed_to: Mapped[str | None] = mapped_column(String(40))
    note: Mapped[str] = mapped_column(String(1000), default="")
    at: Mapped[datetime]
    actor: Mapped[str] = mapped_column(String(200))


class SuspensionRow(Base):
    """One entry of the suspension register, kept across tournaments (J-5)."""

    __tablename__ = "suspensions"
    __table_args__ = (
        CheckConstraint("until IS NULL OR until >= start", name="term"),
        _version_check(),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), index=True)
    start: Mapped[date]
    until: Mapped[date | None]
    """The last day; ``NULL`` until the game's coordinator sets the term."""
    reason_ru: Mapped[str] = mapped_column(String(2000))
    reason_en: Mapped[str] = mapped_column(String(2000))
    issued_by: Mapped[str] = mapped_column(String(200))
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"))
    """The tournament it was given at; ``NULL`` for an entry made outside a tournament."""
    penalty_id: Mapped[int | None] = mapped_column(ForeignKey("penalties.id"))
    version: Mapped[int] = mapped_column(default=1)
    created_at: Mapped[datetime]
    created_by: Mapped[str] = mapped_column(String(200))


class GameRulingRow(Base):
    """A judge's ruling on one game: a technical result (S-8) or a claim after time-out (S-9)."""

    __tablename__ = "game_rulings"
    __table_args__ = (
        Index("ix_game_rulings_table", "tournament_id", "round", "table_no"),
        _choice("kind", RULING_KINDS),
        _choice("claim", CLAIM_KINDS, nullable=True),
        _choice("claimant", SIDES, nullable=True),
        _choice("winner", SIDES, nullable=True),
        CheckConstraint("(kind = 'technical' AND crystals_a >= 0 AND crystals_b >= 0 "
                        "AND margin >= 1) OR (kind = 'claim' AND claim IS NOT NULL "
                        "AND claimant IS NOT NULL AND granted IS NOT NULL)", name="shape"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    round: Mapped[int]
    table_no: Mapped[int]
    game: Mapped[int]
    """The game's number among the games played at the table."""
    kind: Mapped[str] = mapped_column(String(20))
    crystals_a: Mapped[int | None]
    crystals_b: Mapped[int | None]
    margin: Mapped[int | None]
    claim: Mapped[str | None] = mapped_column(String(20))
    claimant: Mapped[str | None] = mapped_column(String(1))
    granted: Mapped[bool | None] = mapped_column(Boolean)
    winner: Mapped[str | None] = mapped_column(String(1))
    """The game's winner when decided (``NULL``: a draw, or a refused claim)."""
    reason: Mapped[str | None] = mapped_column(String(30))
    """The game's reason when decided (``technical``, ``decisive_advantage``, …)."""
    judge_id: Mapped[int] = mapped_column(ForeignKey("judges.id"))
    judge_name: Mapped[str] = mapped_column(String(200))
    explanation_ru: Mapped[str] = mapped_column(String(500))
    explanation_en: Mapped[str] = mapped_column(String(500))
    note: Mapped[str] = mapped_column(String(1000), default="")
    at: Mapped[datetime]
    actor: Mapped[str] = mapped_column(String(200))


class ReportedResultRow(Base):
    """The result as reported at the table, when penalty losses changed it (J-3)."""

    __tablename__ = "reported_results"
    __table_args__ = (
        _choice("outcome", OUTCOMES),
        _choice("ending", ENDINGS),
    )

    pairing_id: Mapped[int] = mapped_column(
        ForeignKey("pairings.id", ondelete="CASCADE"), primary_key=True)
    wins_a: Mapped[int]
    wins_b: Mapped[int]
    draws: Mapped[int]
    outcome: Mapped[str] = mapped_column(String(20))
    ending: Mapped[str] = mapped_column(String(20))
    games: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """``{"games": [[winner, reason], …]}`` when reported game by game, else ``NULL``."""


(judging_settings, infractions, penalties, appeals, suspensions, game_rulings,
 reported_results) = _tables(
    JudgingSettingsRow, InfractionRow, PenaltyRow, AppealRow, SuspensionRow, GameRulingRow,
    ReportedResultRow,
)

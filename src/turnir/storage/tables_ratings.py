"""Tables for the rating database: rated tournaments, rating history, current ratings (issue 6)
on the shared metadata of ``turnir.storage.tables``.

Terms follow ``turnir.domain.ratings`` and ``docs/ratings.md``. Every rating is stored as an
integer number of *hundredths* (123.45 is 12345, R-6), so the database never rounds; money is
stored in kopecks. A *person* (``people``) is the player in the rating book.

- ``rating_settings``: the rating database's **Decided** settings (one row, absent = defaults).
- ``rating_tournament_terms``: what a tournament's rating needs beyond its format: boosters of
  a draft, starter constructed (C-2), the professional K (R-1), the entry fee or prize fund
  (R-7), and the players disqualified without prizes (J-4) until the penalties capability
  stores them itself.
- ``rating_base``: the imported rating list every replay starts from.
- ``rating_tournaments``: the submitted (rated) tournaments, in the order of their end (R-6).
- ``rating_history``: one row per participant of a rated tournament: place, the J-4 flag, both
  ratings before, change and after, the R-2 bound, the floor (R-3) and the reset (R-4).
- ``rating_current``: everyone's current ratings, the leaderboard.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, CheckConstraint, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from turnir.domain.ratings import Bound, RatedFormat, WarlockFirstTournament
from turnir.storage.tables import (  # the shared helpers, spelt once
    Base,
    _choice,
    _entry_key,
    _tables,
    _version_check,
)

RATED_FORMATS = tuple(f.value for f in RatedFormat)
BOUNDS = tuple(b.value for b in Bound)
WARLOCK_FIRST = tuple(w.value for w in WarlockFirstTournament)
NEWCOMER_HUNDREDTHS = 10_000
"""100.00, the newcomer rating and the floor (R-1, R-3)."""


class RatingSettingsRow(Base):
    """The rating database's settings (R-5, R-6, J-4); one row with ``id = 1``."""

    __tablename__ = "rating_settings"
    __table_args__ = (
        CheckConstraint("id = 1", name="single_row"),
        CheckConstraint("many_participants >= 4", name="many_participants"),
        _choice("warlock_first_tournament", WARLOCK_FIRST),
        _version_check(),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    many_participants: Mapped[int] = mapped_column(default=32)
    three_booster_k: Mapped[str] = mapped_column(String(20), default="1.8")
    """An exact number as text (``1.8``, ``9/5``)."""
    warlock_first_tournament: Mapped[str] = mapped_column(String(20), default="fixed_100")
    reset_warlock_on_disqualification: Mapped[bool] = mapped_column(Boolean, default=False)
    version: Mapped[int] = mapped_column(default=1)


class RatingTermsRow(Base):
    """A tournament's rating terms; a tournament without a row has the defaults."""

    __tablename__ = "rating_tournament_terms"
    __table_args__ = (
        CheckConstraint("boosters BETWEEN 1 AND 4", name="boosters"),
        CheckConstraint("entry_fee IS NULL OR entry_fee >= 0", name="entry_fee"),
        CheckConstraint("prize_fund IS NULL OR prize_fund >= 0", name="prize_fund"),
        _version_check(),
    )

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    boosters: Mapped[int] = mapped_column(default=4)
    """Boosters of a draft (D-1): 1-4; decides the Warlock K (R-5). Ignored for other formats."""
    starter: Mapped[bool] = mapped_column(Boolean, default=False)
    """Starter constructed (C-2): unrated."""
    professional_k: Mapped[str] = mapped_column(String(20), default="1")
    """K of R-1, an exact positive number as text (``1.4``, ``7/5``)."""
    entry_fee: Mapped[int | None]
    """The entry fee per participant, kopecks (R-7)."""
    prize_fund: Mapped[int | None]
    """The prize fund, kopecks, when it is not entry fee x participants (R-7)."""
    disqualified_without_prizes: Mapped[list[int]] = mapped_column(default=list)
    """Entry numbers disqualified without prizes (J-4, R-4)."""
    version: Mapped[int] = mapped_column(default=1)
    updated_at: Mapped[datetime]
    updated_by: Mapped[str] = mapped_column(String(200))


class RatingBaseRow(Base):
    """One line of the imported rating list: where every replay starts (R-6)."""

    __tablename__ = "rating_base"
    __table_args__ = (
        CheckConstraint(f"professional >= {NEWCOMER_HUNDREDTHS}", name="professional"),
        CheckConstraint(f"warlock IS NULL OR warlock >= {NEWCOMER_HUNDREDTHS}", name="warlock"),
    )

    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), primary_key=True)
    professional: Mapped[int]
    """Hundredths."""
    warlock: Mapped[int | None]
    """Hundredths; ``None``: no Warlock rating yet."""
    imported_at: Mapped[datetime]
    imported_by: Mapped[str] = mapped_column(String(200))


class RatedTournamentRow(Base):
    """A tournament its head judge submitted to the rating book (J-8)."""

    __tablename__ = "rating_tournaments"
    __table_args__ = (
        _choice("rated_format", RATED_FORMATS),
        CheckConstraint("participants >= 4", name="participants"),
        _version_check(),
        Index("ix_rating_tournaments_order", "ended_at", "tournament_id"),
    )

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    ended_at: Mapped[datetime]
    """When the tournament finished: the order of R-6 (ties by ``tournament_id``)."""
    rated_format: Mapped[str] = mapped_column(String(30))
    participants: Mapped[int]
    """U."""
    professional_k: Mapped[str] = mapped_column(String(20))
    warlock_k: Mapped[str] = mapped_column(String(20))
    submitted_at: Mapped[datetime]
    submitted_by: Mapped[str] = mapped_column(String(200))
    version: Mapped[int] = mapped_column(default=1)
    """1 at the first submission, one more with each correction."""


class RatingHistoryRow(Base):
    """One participant of a rated tournament: what it did to both ratings (hundredths)."""

    __tablename__ = "rating_history"
    __table_args__ = (
        UniqueConstraint("tournament_id", "place", name="uq_rating_history_place"),
        _entry_key("number", "fk_rating_history_entry"),
        Index("ix_rating_history_person", "person_id", "tournament_id"),
        CheckConstraint("place >= 1", name="place"),
        _choice("bound", BOUNDS),
        CheckConstraint("professional_after = professional_before + professional_change",
                        name="professional_change"),
        CheckConstraint(f"professional_after >= {NEWCOMER_HUNDREDTHS}", name="professional_floor"),
        CheckConstraint("warlock_after = COALESCE(warlock_before, 0) + warlock_change",
                        name="warlock_change"),
        CheckConstraint(f"warlock_after >= {NEWCOMER_HUNDREDTHS}", name="warlock_floor"),
    )

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("rating_tournaments.tournament_id"), primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), primary_key=True)
    number: Mapped[int]
    """The entry's number in the tournament."""
    place: Mapped[int]
    """M (P-6)."""
    disqualified_without_prizes: Mapped[bool] = mapped_column(Boolean)
    professional_before: Mapped[int]
    professional_change: Mapped[int]
    professional_after: Mapped[int]
    bound: Mapped[str] = mapped_column(String(30))
    """Which R-2 bound applied (``none`` when the formula value stood)."""
    floor_applied: Mapped[bool] = mapped_column(Boolean)
    reset_applied: Mapped[bool] = mapped_column(Boolean)
    warlock_before: Mapped[int | None]
    """``None``: the player's first rated tournament (R-5)."""
    warlock_change: Mapped[int]
    warlock_after: Mapped[int]
    warlock_reset: Mapped[bool] = mapped_column(Boolean)


class RatingCurrentRow(Base):
    """A person's current ratings: the leaderboard (база турнирного рейтинга)."""

    __tablename__ = "rating_current"
    __table_args__ = (
        Index("ix_rating_current_professional", "professional"),
        Index("ix_rating_current_warlock", "warlock"),
        CheckConstraint(f"professional >= {NEWCOMER_HUNDREDTHS}", name="professional"),
        CheckConstraint(f"warlock IS NULL OR warlock >= {NEWCOMER_HUNDREDTHS}", name="warlock"),
        CheckConstraint("tournaments >= 0", name="tournaments"),
    )

    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), primary_key=True)
    professional: Mapped[int]
    warlock: Mapped[int | None]
    tournaments: Mapped[int] = mapped_column(default=0)
    """Rated tournaments played."""
    updated_at: Mapped[datetime]


(rating_settings, rating_terms, rating_base, rating_tournaments, rating_history,
 rating_current) = _tables(
    RatingSettingsRow, RatingTermsRow, RatingBaseRow, RatedTournamentRow, RatingHistoryRow,
    RatingCurrentRow,
)

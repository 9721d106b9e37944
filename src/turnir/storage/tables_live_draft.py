"""Tables of the live booster draft (issue 14) on the shared metadata of
``turnir.storage.tables``.

- ``booster_templates``: a booster template (slots by rarity, ``BoosterTemplate.to_json``) kept
  by the site organizers, by name.
- ``live_drafts``: one draft table of a tournament's live draft: the pick/pass engine's whole
  state (``DraftEngine.to_json``), its version (one more with every stored change), ``live``
  or ``done``, the next deadline (the ticker ``services.live_draft.advance_drafts`` looks for
  the rows due), the players in seat order, the seed string the boosters were drawn from and
  the templates used (so the draft can be replayed and audited).
- ``draft_picks``: every pick of a table in order (1..), written in the same transaction as the
  state it came from: the log always has every pick, never one twice.
- ``draft_replacements``: a judge's replacement of a wrong-edition or promo card in a player's
  pool (D-7; written by ``turnir.storage.draft_replacements_repo``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    ForeignKey,
    Index,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from turnir.storage.tables import Base, _choice, _entry_key, _tables, _version_check

DRAFT_STATES = ("live", "done")
PICK_REASONS = ("pick", "timeout", "away", "dropped", "last")
CARD_TEXT = 200
"""The longest card name, edition or rarity stored (``turnir.domain.cards.MAX_NAME``)."""


class BoosterTemplateRow(Base):
    """A booster template: its slots by rarity and the editions drawn from."""

    __tablename__ = "booster_templates"
    __table_args__ = (_version_check(),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    name_key: Mapped[str] = mapped_column(String(100), unique=True)
    template: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime]
    created_by: Mapped[str] = mapped_column(String(200), default="")
    version: Mapped[int] = mapped_column(default=1)


class LiveDraftRow(Base):
    """One draft table's live draft: the engine's state and what it was drawn from."""

    __tablename__ = "live_drafts"
    __table_args__ = (_choice("status", DRAFT_STATES), _version_check(),
                      CheckConstraint("draft_table >= 1", name="draft_table"),
                      Index("ix_live_drafts_due", "status", "next_deadline"))

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    draft_table: Mapped[int] = mapped_column(primary_key=True)
    state: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    version: Mapped[int] = mapped_column(default=1)
    status: Mapped[str] = mapped_column(String(10), default="live")
    next_deadline: Mapped[datetime | None]
    """The engine's next deadline (UTC); ``None`` when the table is done."""
    players: Mapped[list[int]] = mapped_column(default=list)
    """The entry numbers in seat order (seat 1 first)."""
    seed: Mapped[str] = mapped_column(String(200), default="")
    """The string the table's boosters were drawn from (``random.Random(seed)``)."""
    templates: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    """The booster templates used, one per booster round (``BoosterTemplate.to_json``)."""
    started_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    finished_at: Mapped[datetime | None]


class DraftPickRow(Base):
    """One pick of a draft table, in order."""

    __tablename__ = "draft_picks"
    __table_args__ = (_entry_key("player", "fk_draft_picks_entry"),
                      _choice("reason", PICK_REASONS),
                      CheckConstraint("number >= 1 AND pick >= 1 AND booster_round >= 1",
                                      name="numbers"))

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    draft_table: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    """The pick's number in the table (1..)."""
    player: Mapped[int]
    """The entry number of who picked (or was auto-picked for)."""
    seat: Mapped[int]
    booster_round: Mapped[int]
    booster: Mapped[int]
    pick: Mapped[int]
    """The pick's number in its booster (1..)."""
    card_uid: Mapped[str] = mapped_column(String(20))
    card_name: Mapped[str] = mapped_column(String(CARD_TEXT))
    edition: Mapped[str] = mapped_column(String(CARD_TEXT), default="")
    rarity: Mapped[str] = mapped_column(String(CARD_TEXT), default="")
    auto: Mapped[bool] = mapped_column(Boolean, default=False)
    reason: Mapped[str] = mapped_column(String(10), default="pick")
    at: Mapped[datetime]


class DraftReplacementRow(Base):
    """A judge's replacement of a card in a player's draft pool (D-7)."""

    __tablename__ = "draft_replacements"
    __table_args__ = (_entry_key("number", "fk_draft_replacements_entry"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    number: Mapped[int]
    """The player's entry number."""
    draft_table: Mapped[int]
    booster_round: Mapped[int]
    card_uid: Mapped[str] = mapped_column(String(20), default="")
    """The replaced card's uid in the pool (empty for a tabletop draft, which has none)."""
    old_name: Mapped[str] = mapped_column(String(CARD_TEXT))
    old_edition: Mapped[str] = mapped_column(String(CARD_TEXT), default="")
    old_rarity: Mapped[str] = mapped_column(String(CARD_TEXT), default="")
    new_name: Mapped[str] = mapped_column(String(CARD_TEXT))
    new_edition: Mapped[str] = mapped_column(String(CARD_TEXT), default="")
    new_rarity: Mapped[str] = mapped_column(String(CARD_TEXT), default="")
    reason: Mapped[str] = mapped_column(String(500), default="")
    judge_account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"))
    judge_name: Mapped[str] = mapped_column(String(200), default="")
    at: Mapped[datetime]


booster_templates, live_drafts, draft_picks, draft_replacements = _tables(
    BoosterTemplateRow, LiveDraftRow, DraftPickRow, DraftReplacementRow,
)

"""Tables of constructed play (issue 13) on the shared metadata of ``turnir.storage.tables``.

- ``cards``: the card catalogue (каталог карт), one row per card *and edition* (a reprint is a
  row per edition); ``key`` and ``edition_key`` are ``turnir.domain.cards.card_key`` of the name
  and the edition, unique together.
- ``deck_formats``: a constructed format (формат): name, allowed editions (a JSON list; empty:
  all), deck size and copy limits (C-1), and whether it is a starter format (C-2).
- ``ban_lists``: a format's ban list (список запрещённых карт), the card names as a JSON list,
  in force from ``effective`` (a day), one per format and day.
- ``starter_decks``: a starter format's decks (C-2), their lines as JSON
  (``DeckList.to_json``).
- ``tournament_decks``: a tournament's constructed settings: its format, the planned start
  (``starts_at``, for the ban list in force when round 1 is not paired yet), how many of the
  top decks the organizer published after the event (0: none) and whether it is played online
  (a starter event online checks the players' age in game years, C-2).
- ``decks``: a player's deck for a tournament, one per entry: the lines (JSON), the text as
  pasted, its card count and whether the last check found no problem. Locked once round 1 is
  paired (the services check the rounds); a later change is a judge's, logged in the audit log.
- ``deck_checks``: a deck check drawn by lot (or chosen) for a round, and its outcome.
- ``schedules`` and ``scheduled_events``: a recurring tournament template (daily at local times
  in a time zone) and each event it created, one per schedule and start time (so running the
  schedule twice creates nothing twice).

``accounts.game_age`` (age in game years, C-2) is added by the same migration (0014).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Date,
    ForeignKey,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from turnir.domain.cards import MAX_NAME, Crystal
from turnir.storage.tables import Base, _choice, _entry_key, _tables, _version_check

CRYSTALS = tuple(str(v) for v in Crystal)
EVENT_STATES = ("open", "started", "cancelled")


class CardRow(Base):
    """One card as printed in one edition."""

    __tablename__ = "cards"
    __table_args__ = (
        UniqueConstraint("key", "edition_key", name="uq_cards_key_edition"),
        _choice("crystal", CRYSTALS),
        CheckConstraint("cost >= 0 AND cost <= 99", name="cost"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(MAX_NAME))
    key: Mapped[str] = mapped_column(String(MAX_NAME), index=True)
    edition: Mapped[str] = mapped_column(String(MAX_NAME))
    edition_key: Mapped[str] = mapped_column(String(MAX_NAME))
    number: Mapped[str] = mapped_column(String(MAX_NAME), default="")
    rarity: Mapped[str] = mapped_column(String(MAX_NAME), default="")
    element: Mapped[str] = mapped_column(String(MAX_NAME), default="")
    cost: Mapped[int] = mapped_column(default=0)
    crystal: Mapped[str] = mapped_column(String(10), default="silver")
    type: Mapped[str] = mapped_column(String(MAX_NAME), default="")
    features: Mapped[list[str]] = mapped_column(default=list)
    unique: Mapped[bool] = mapped_column(Boolean, default=False)
    aliases: Mapped[list[str]] = mapped_column(default=list)


class DeckFormatRow(Base):
    """A constructed format (C-1) or a starter format (C-2)."""

    __tablename__ = "deck_formats"
    __table_args__ = (
        CheckConstraint("min_cards >= 1 AND max_cards >= min_cards AND max_cards <= 200",
                        name="deck_size"),
        CheckConstraint("max_copies >= 1 AND max_horde_copies >= max_copies", name="copies"),
        _version_check(),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    name_key: Mapped[str] = mapped_column(String(100), unique=True)
    editions: Mapped[list[str]] = mapped_column(default=list)
    min_cards: Mapped[int] = mapped_column(default=30)
    max_cards: Mapped[int] = mapped_column(default=50)
    max_copies: Mapped[int] = mapped_column(default=3)
    max_horde_copies: Mapped[int] = mapped_column(default=5)
    starter: Mapped[bool] = mapped_column(Boolean, default=False)
    version: Mapped[int] = mapped_column(default=1)
    created_at: Mapped[datetime]
    created_by: Mapped[str] = mapped_column(String(200), default="")


class BanListRow(Base):
    """A format's ban list in force from a day."""

    __tablename__ = "ban_lists"
    __table_args__ = (UniqueConstraint("format_id", "effective", name="uq_ban_lists_day"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    format_id: Mapped[int] = mapped_column(ForeignKey("deck_formats.id", ondelete="CASCADE"))
    effective: Mapped[date] = mapped_column(Date)
    cards: Mapped[list[str]] = mapped_column(default=list)
    created_at: Mapped[datetime]
    created_by: Mapped[str] = mapped_column(String(200), default="")


class StarterDeckRow(Base):
    """One of a starter format's decks (C-2)."""

    __tablename__ = "starter_decks"
    __table_args__ = (UniqueConstraint("format_id", "name_key", name="uq_starter_decks_name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    format_id: Mapped[int] = mapped_column(ForeignKey("deck_formats.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(100))
    name_key: Mapped[str] = mapped_column(String(100))
    lines: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)


class TournamentDecksRow(Base):
    """A tournament's constructed settings: format, planned start, decks published."""

    __tablename__ = "tournament_decks"
    __table_args__ = (CheckConstraint("published_decks >= 0", name="published"),
                      _version_check())

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    format_id: Mapped[int | None] = mapped_column(ForeignKey("deck_formats.id"))
    starts_at: Mapped[datetime | None]
    published_decks: Mapped[int] = mapped_column(default=0)
    online: Mapped[bool] = mapped_column(Boolean, default=False)
    """Played online: a starter constructed event then checks the players' game age (C-2)."""
    version: Mapped[int] = mapped_column(default=1)


class DeckRow(Base):
    """A player's deck for a tournament."""

    __tablename__ = "decks"
    __table_args__ = (_entry_key("number", "fk_decks_entry"),
                      CheckConstraint("total >= 0", name="total"), _version_check())

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    lines: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    source: Mapped[str] = mapped_column(Text, default="")
    """The text as the player pasted it (at most ``turnir.domain.decks.MAX_TEXT`` characters)."""
    total: Mapped[int] = mapped_column(default=0)
    valid: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[datetime]
    updated_by: Mapped[str] = mapped_column(String(200), default="")
    version: Mapped[int] = mapped_column(default=1)


class DeckCheckRow(Base):
    """A deck check in a round: drawn by lot or chosen by a judge, and what it found."""

    __tablename__ = "deck_checks"
    __table_args__ = (_entry_key("number", "fk_deck_checks_entry"),
                      UniqueConstraint("tournament_id", "round", "number",
                                       name="uq_deck_checks_round"),
                      _version_check())

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    round: Mapped[int]
    number: Mapped[int]
    by_lot: Mapped[bool] = mapped_column(Boolean, default=True)
    lot: Mapped[str] = mapped_column(String(200), default="")
    """How the lot was drawn (the seed and the draw), for the audit."""
    drawn_at: Mapped[datetime]
    drawn_by: Mapped[str] = mapped_column(String(200), default="")
    done: Mapped[bool] = mapped_column(Boolean, default=False)
    note: Mapped[str] = mapped_column(String(500), default="")
    version: Mapped[int] = mapped_column(default=1)


class ScheduleRow(Base):
    """A recurring tournament template: daily at local times in a time zone."""

    __tablename__ = "schedules"
    __table_args__ = (CheckConstraint("min_players >= 4", name="min_players"),
                      _version_check())

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    times: Mapped[list[str]] = mapped_column(default=list)
    """Local start times, "HH:MM"."""
    time_zone: Mapped[str] = mapped_column(String(64), default="Europe/Moscow")
    format_id: Mapped[int | None] = mapped_column(ForeignKey("deck_formats.id"))
    settings: Mapped[dict[str, Any]] = mapped_column(default=dict)
    """The created tournaments' settings (best of, rounds, rules level, registration window)."""
    min_players: Mapped[int] = mapped_column(default=4)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime]
    created_by: Mapped[str] = mapped_column(String(200), default="")
    version: Mapped[int] = mapped_column(default=1)


class ScheduledEventRow(Base):
    """One event a schedule created, for one start time."""

    __tablename__ = "scheduled_events"
    __table_args__ = (UniqueConstraint("schedule_id", "starts_at", name="uq_scheduled_events"),
                      _choice("state", EVENT_STATES))

    id: Mapped[int] = mapped_column(primary_key=True)
    schedule_id: Mapped[int] = mapped_column(ForeignKey("schedules.id", ondelete="CASCADE"))
    starts_at: Mapped[datetime]
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"))
    state: Mapped[str] = mapped_column(String(20), default="open")
    message: Mapped[str] = mapped_column(String(500), default="")


(cards, deck_formats, ban_lists, starter_decks, tournament_decks, decks, deck_checks,
 schedules, scheduled_events) = _tables(
    CardRow, DeckFormatRow, BanListRow, StarterDeckRow, TournamentDecksRow, DeckRow,
    DeckCheckRow, ScheduleRow, ScheduledEventRow,
)

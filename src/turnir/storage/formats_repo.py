"""The formats' queries and writes (issue 13): constructed formats, their ban lists and starter
decks, and a tournament's constructed settings (``turnir.storage.tables_decks``).

Everything comes out as the plain records below, so no service picks columns out of a row.
Nothing here commits: the service that calls it owns the transaction. A write guarded by a
version (``update_format``, ``save_tournament_decks``) returns whether the row was still at
that version; the service says what to do when it was not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import RowMapping, delete, func, insert, select, update

from turnir.domain.decks import DeckList
from turnir.storage.audit import AuditEntry, entry_from_row
from turnir.storage.database import Tx
from turnir.storage.tables import audit_log, rounds
from turnir.storage.tables_decks import ban_lists, deck_formats, starter_decks, tournament_decks


@dataclass(frozen=True, slots=True)
class StoredFormat:
    """A ``deck_formats`` row."""

    id: int
    name: str
    editions: tuple[str, ...]
    min_cards: int
    max_cards: int
    max_copies: int
    max_horde_copies: int
    starter: bool
    version: int
    created_at: datetime
    created_by: str


@dataclass(frozen=True, slots=True)
class StoredBanList:
    """A ``ban_lists`` row."""

    id: int
    format_id: int
    effective: date
    cards: tuple[str, ...]
    created_at: datetime
    created_by: str


@dataclass(frozen=True, slots=True)
class StoredStarterDeck:
    """A ``starter_decks`` row, its lines read back."""

    id: int
    format_id: int
    name: str
    deck: DeckList


@dataclass(frozen=True, slots=True)
class StoredTournamentDecks:
    """A ``tournament_decks`` row; ``version`` 0: never stored (the defaults)."""

    tournament_id: int
    format_id: int | None
    starts_at: datetime | None
    published_decks: int
    online: bool
    version: int


FORMAT_VALUES = ("name", "name_key", "editions", "min_cards", "max_cards", "max_copies",
                 "max_horde_copies", "starter")
"""The columns a format's edit may set."""


def _format(row: RowMapping) -> StoredFormat:
    return StoredFormat(
        id=row["id"], name=row["name"], editions=tuple(row["editions"] or ()),
        min_cards=row["min_cards"], max_cards=row["max_cards"], max_copies=row["max_copies"],
        max_horde_copies=row["max_horde_copies"], starter=bool(row["starter"]),
        version=row["version"], created_at=row["created_at"], created_by=row["created_by"])


def all_formats(conn: Tx) -> list[StoredFormat]:
    """Every format, by name."""
    rows = conn.execute(select(deck_formats).order_by(deck_formats.c.name_key)).mappings()
    return [_format(row) for row in rows]


def format_by_id(conn: Tx, format_id: int) -> StoredFormat | None:
    row = conn.execute(select(deck_formats).where(deck_formats.c.id == format_id)
                       ).mappings().first()
    return None if row is None else _format(row)


def format_by_key(conn: Tx, name_key: str) -> StoredFormat | None:
    row = conn.execute(select(deck_formats).where(deck_formats.c.name_key == name_key)
                       ).mappings().first()
    return None if row is None else _format(row)


def insert_format(conn: Tx, values: dict[str, Any], *, at: datetime, by: str) -> int:
    """A new format (``values``: ``FORMAT_VALUES``); its id."""
    done = conn.execute(insert(deck_formats).values(
        version=1, created_at=at, created_by=by,
        **{key: values[key] for key in FORMAT_VALUES}).returning(deck_formats.c.id))
    return int(done.scalar_one())


def update_format(conn: Tx, format_id: int, version: int, values: dict[str, Any]) -> bool:
    """Set some of ``FORMAT_VALUES`` (none: only the version goes up), when the row is still at
    ``version``."""
    done = conn.execute(update(deck_formats).where(
        deck_formats.c.id == format_id, deck_formats.c.version == version).values(
        version=version + 1, **{key: values[key] for key in FORMAT_VALUES if key in values}))
    return done.rowcount == 1


# ----- ban lists ----------------------------------------------------------------------------


def _ban(row: RowMapping) -> StoredBanList:
    return StoredBanList(id=row["id"], format_id=row["format_id"], effective=row["effective"],
                         cards=tuple(row["cards"] or ()), created_at=row["created_at"],
                         created_by=row["created_by"])


def ban_lists_of(conn: Tx, format_ids: Sequence[int]) -> list[StoredBanList]:
    """The ban lists of the formats, by format and day."""
    if not format_ids:
        return []
    rows = conn.execute(select(ban_lists).where(ban_lists.c.format_id.in_(list(format_ids)))
                        .order_by(ban_lists.c.format_id, ban_lists.c.effective)).mappings()
    return [_ban(row) for row in rows]


def put_ban_list(conn: Tx, format_id: int, effective: date, cards: Sequence[str], *,
                 at: datetime, by: str) -> StoredBanList | None:
    """Store the format's ban list of the day, replacing the one of that day; the one it
    replaced (``None``: none)."""
    old = conn.execute(select(ban_lists).where(ban_lists.c.format_id == format_id,
                                               ban_lists.c.effective == effective)
                       ).mappings().first()
    if old is not None:
        conn.execute(delete(ban_lists).where(ban_lists.c.id == old["id"]))
    conn.execute(insert(ban_lists).values(format_id=format_id, effective=effective,
                                          cards=list(cards), created_at=at, created_by=by))
    return None if old is None else _ban(old)


def delete_ban_list(conn: Tx, format_id: int, effective: date) -> StoredBanList | None:
    """Delete the format's ban list of the day; the one deleted (``None``: there was none)."""
    old = conn.execute(select(ban_lists).where(ban_lists.c.format_id == format_id,
                                               ban_lists.c.effective == effective)
                       ).mappings().first()
    if old is None:
        return None
    conn.execute(delete(ban_lists).where(ban_lists.c.id == old["id"]))
    return _ban(old)


# ----- starter decks ------------------------------------------------------------------------


def _starter(row: RowMapping) -> StoredStarterDeck:
    return StoredStarterDeck(id=row["id"], format_id=row["format_id"], name=row["name"],
                             deck=DeckList.from_json(row["lines"] or ()))


def starter_decks_of(conn: Tx, format_ids: Sequence[int]) -> list[StoredStarterDeck]:
    """The starter decks of the formats, by format and name."""
    if not format_ids:
        return []
    rows = conn.execute(select(starter_decks)
                        .where(starter_decks.c.format_id.in_(list(format_ids)))
                        .order_by(starter_decks.c.format_id, starter_decks.c.name_key)
                        ).mappings()
    return [_starter(row) for row in rows]


def put_starter_deck(conn: Tx, format_id: int, name: str, name_key: str, deck: DeckList
                     ) -> StoredStarterDeck | None:
    """Store a starter deck, replacing the format's deck of that name; the one replaced."""
    old = delete_starter_deck(conn, format_id, name_key)
    conn.execute(insert(starter_decks).values(format_id=format_id, name=name,
                                              name_key=name_key, lines=deck.to_json()))
    return old


def delete_starter_deck(conn: Tx, format_id: int, name_key: str) -> StoredStarterDeck | None:
    """Delete the format's starter deck of that name; the one deleted (``None``: none)."""
    old = conn.execute(select(starter_decks).where(starter_decks.c.format_id == format_id,
                                                   starter_decks.c.name_key == name_key)
                       ).mappings().first()
    if old is None:
        return None
    conn.execute(delete(starter_decks).where(starter_decks.c.id == old["id"]))
    return _starter(old)


# ----- a tournament's constructed settings --------------------------------------------------


def tournament_decks_of(conn: Tx, tournament_id: int) -> StoredTournamentDecks:
    """The tournament's constructed settings (version 0 and no format when never set)."""
    row = conn.execute(select(tournament_decks)
                       .where(tournament_decks.c.tournament_id == tournament_id)
                       ).mappings().first()
    if row is None:
        return StoredTournamentDecks(tournament_id=tournament_id, format_id=None,
                                     starts_at=None, published_decks=0, online=False,
                                     version=0)
    return StoredTournamentDecks(
        tournament_id=tournament_id, format_id=row["format_id"], starts_at=row["starts_at"],
        published_decks=row["published_decks"], online=bool(row["online"]),
        version=row["version"])


def save_tournament_decks(conn: Tx, settings: StoredTournamentDecks) -> bool:
    """Store the settings as the version after ``settings.version`` (0: never stored); whether
    the row was still at that version."""
    values: dict[str, Any] = {"format_id": settings.format_id, "starts_at": settings.starts_at,
                              "online": settings.online,
                              "published_decks": settings.published_decks}
    tid = settings.tournament_id
    if settings.version == 0:
        conn.execute(insert(tournament_decks).values(tournament_id=tid, version=1, **values))
        return True
    done = conn.execute(update(tournament_decks).where(
        tournament_decks.c.tournament_id == tid,
        tournament_decks.c.version == settings.version).values(
        version=settings.version + 1, **values))
    return done.rowcount == 1


def first_round_paired_at(conn: Tx, tournament_id: int) -> datetime | None:
    """When the tournament's round 1 was paired (stored in UTC), ``None`` before that."""
    found = conn.execute(select(func.min(rounds.c.created_at))
                         .where(rounds.c.tournament_id == tournament_id, rounds.c.number == 1))
    return found.scalar()


def tournaments_with_format(conn: Tx, format_id: int) -> list[int]:
    """The tournaments that use the format."""
    found = conn.execute(select(tournament_decks.c.tournament_id)
                         .where(tournament_decks.c.format_id == format_id)
                         .order_by(tournament_decks.c.tournament_id))
    return [int(tid) for tid in found.scalars()]


def format_changes(conn: Tx, format_id: int, *, limit: int = 100) -> list[AuditEntry]:
    """The format's audit entries (site-wide: no tournament), the newest first."""
    rows = conn.execute(select(audit_log).where(
        audit_log.c.tournament_id.is_(None), audit_log.c.entity == "deck_format",
        audit_log.c.entity_id == str(format_id)).order_by(audit_log.c.id.desc()).limit(limit)
    ).mappings()
    return [entry_from_row(row) for row in rows]

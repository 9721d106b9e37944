"""What the format pages show (issue 13, ``turnir.web.format_pages``), each read in one call:

- ``formats_page``: every format, and the catalogue's editions for the new-format form;
- ``format_page``: one format (ban lists, which is in force today, starter decks), the
  catalogue's editions for its edit form and its recent changes from the audit log;
- ``tournament_format_page``: a tournament's format, the formats to choose from and whether
  round 1 is paired (the format no longer changes), for its organizer;
- ``format_change_check``: before the organizer changes the format of a tournament that has
  registered decks, how many of them the new format (its ban list on the new rules day) would
  not accept, so the page asks to confirm first.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from turnir.domain.decks import check_deck
from turnir.domain.model import StaffRole
from turnir.errors import Term
from turnir.services.cards import card_catalogue
from turnir.services.common import Database, TournamentInfo, reading, tournament_info
from turnir.services.deck_formats import (
    FormatInfo,
    FormatSummary,
    FormatView,
    TournamentFormatInfo,
    as_utc,
    format_in,
    format_list,
    format_view_in,
    moscow_day,
    moscow_today,
    tournament_format_in,
)
from turnir.services.decks import decks_in
from turnir.services.judges import check_staff
from turnir.storage import formats_repo as repo
from turnir.storage.audit import AuditEntry


@dataclass(frozen=True, slots=True)
class FormatsPage:
    formats: list[FormatSummary]
    editions: tuple[str, ...]
    """The card catalogue's editions (the new-format form offers them)."""


@dataclass(frozen=True, slots=True)
class FormatPage:
    view: FormatView
    editions: tuple[str, ...]
    """The card catalogue's editions, and the format's own ones the catalogue no longer has."""
    changes: list[AuditEntry]
    """Its recent changes, the newest first."""


@dataclass(frozen=True, slots=True)
class TournamentFormatPage:
    info: TournamentInfo
    current: TournamentFormatInfo | None
    choices: list[FormatInfo]
    locked: bool
    """Round 1 is paired: the format no longer changes."""


def formats_page(db: Database) -> FormatsPage:
    return FormatsPage(formats=format_list(db), editions=card_catalogue(db).editions())


def format_page(db: Database, format_id: int, *, changes: int = 20) -> FormatPage:
    editions = card_catalogue(db).editions()
    with reading(db) as tx:
        view = format_view_in(tx, format_id)
        found = repo.format_changes(tx, format_id, limit=changes)
    extra = tuple(e for e in view.format.editions if e not in editions)
    return FormatPage(view=view, editions=editions + extra, changes=found)


def tournament_format_page(db: Database, tournament_id: int, *, account_id: int | None
                           ) -> TournamentFormatPage:
    """For the tournament's organizer (``account_id``; ``None``: the local operator)."""
    with reading(db) as tx:
        info = tournament_info(tx, tournament_id)
        check_staff(tx, tournament_id, account_id, frozenset({StaffRole.ORGANIZER}),
                    what=Term("set the tournament's format"))
        current = tournament_format_in(tx, tournament_id)
        choices = [FormatInfo(id=f.id, name=f.name, starter=f.starter)
                   for f in repo.all_formats(tx)]
        locked = repo.first_round_paired_at(tx, tournament_id) is not None
    return TournamentFormatPage(info=info, current=current, choices=choices, locked=locked)


@dataclass(frozen=True, slots=True)
class FormatChangeCheck:
    """What a change of a tournament's format does to its registered decks."""

    format_name: str
    """The new format's name."""
    decks: int
    """The registered decks."""
    not_legal: int
    """How many of them the new format would not accept (C-1, C-2)."""
    not_legal_now: int
    """How many of them the current format does not accept."""


def format_change_check(db: Database, tournament_id: int, *, account_id: int | None,
                        format_id: int, starts_at: datetime | None
                        ) -> FormatChangeCheck | None:
    """What setting format ``format_id`` (and the planned start ``starts_at``, which gives the
    rules day until round 1 is paired) would do to the tournament's registered decks, each
    checked as the deck pages check it; ``None`` when there is nothing to confirm: no deck is
    registered, or the format stays and no more decks break its rules."""
    catalogue = card_catalogue(db)
    with reading(db) as tx:
        tournament_info(tx, tournament_id)
        check_staff(tx, tournament_id, account_id, frozenset({StaffRole.ORGANIZER}),
                    what=Term("set the tournament's format"))
        current = tournament_format_in(tx, tournament_id)
        new = format_in(tx, format_id)
        decks = list(decks_in(tx, tournament_id).values())
    if not decks:
        return None
    day = moscow_today(db.clock) if starts_at is None else moscow_day(as_utc(starts_at))
    not_legal = sum(not check_deck(d, catalogue, new, on=day).ok for d in decks)
    now = 0 if current is None else sum(
        not check_deck(d, catalogue, current.format, on=current.rules_day).ok for d in decks)
    if current is not None and current.format_id == format_id and not_legal <= now:
        return None
    return FormatChangeCheck(format_name=new.name, decks=len(decks), not_legal=not_legal,
                             not_legal_now=now)

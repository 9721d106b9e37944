"""What the format pages show (issue 13, ``turnir.web.format_pages``), each read in one call:

- ``formats_page``: every format, and the catalogue's editions for the new-format form;
- ``format_page``: one format (ban lists, which is in force today, starter decks), the
  catalogue's editions for its edit form and its recent changes from the audit log;
- ``tournament_format_page``: a tournament's format, the formats to choose from and whether
  round 1 is paired (the format no longer changes), for its organizer.
"""

from __future__ import annotations

from dataclasses import dataclass

from turnir.domain.model import StaffRole
from turnir.errors import Term
from turnir.services.cards import card_catalogue
from turnir.services.common import Database, TournamentInfo, reading, tournament_info
from turnir.services.deck_formats import (
    FormatInfo,
    FormatSummary,
    FormatView,
    TournamentFormatInfo,
    format_list,
    format_view_in,
    tournament_format_in,
)
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

"""Use cases on a tournament's infraction catalogue and judging settings (J-5, J-7, S-8, T-6).

A tournament uses the shipped catalogue (``DEFAULT_CATALOGUE``, Russian and English) until its
organizer or head judge edits it; the first edit copies it into the tournament
(``infractions``). Before round 1 anything may change; once the tournament runs only new
infractions may be added (penalties already given were measured against the defaults as they
were). **Decided**, documented in ``docs/penalties.md``.

The judging settings: whether the tournament is official (J-5; default: Professional level or
above), the crystal margin of a technical win (S-8, default 1) and the penalty-point weights
T-6 compares (default remark 0 … suspension 6).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from turnir.domain.model import RulesLevel, Status
from turnir.domain.model import StaffRole as Role
from turnir.domain.penalties import Catalogue, Infraction, Penalty, PenaltyPoints
from turnir.errors import ConflictError, Term, UserError
from turnir.services.common import (
    Database,
    changing,
    reading,
    refuse_when_finished,
    touch_tournament,
)
from turnir.services.judging import acting_judge
from turnir.storage.database import Tx
from turnir.storage.mappers import tournament_row
from turnir.storage.penalties_repo import (
    catalogue_customised,
    insert_judging_settings,
    store_catalogue,
    update_judging_settings,
)
from turnir.storage.penalty_rows import (
    JudgingSettings,
    infraction_columns,
    judging_settings_of,
    load_catalogue,
)
from turnir.storage.repositories import Change, check_version

_EDITORS = (Role.ORGANIZER, Role.HEAD_JUDGE)


@dataclass(frozen=True, slots=True)
class CatalogueView:
    catalogue: Catalogue
    customised: bool
    """The tournament edited it (otherwise it is the shipped catalogue)."""
    level: RulesLevel
    """The tournament's rules level: ``catalogue.get(code).default(level)`` is the default."""


def get_catalogue(db: Database, tournament_id: int) -> CatalogueView:
    """The infractions a judge picks from (the phone's second step), with their defaults."""
    with reading(db) as conn:
        row = tournament_row(conn, tournament_id)
        return CatalogueView(load_catalogue(conn, tournament_id),
                             catalogue_customised(conn, tournament_id),
                             RulesLevel(row["rules_level"]))


def _as_editor(conn: Tx, tournament_id: int, name: str, what: Term,
               account_id: int | None = None) -> Mapping[Any, Any]:
    """The tournament's row, once ``name`` (or the web account ``account_id``) is found to be
    its organizer or head judge and the tournament is not finished."""
    row = tournament_row(conn, tournament_id)
    refuse_when_finished(row)
    acting_judge(conn, tournament_id, name, what=what, roles=_EDITORS, account_id=account_id)
    return row


def infraction_json(infraction: Infraction) -> dict[str, Any]:
    return infraction_columns(infraction)


def _edit(db: Database, tournament_id: int, *, actor: str, judge: str | None, action: str,
          edit: Callable[[Catalogue], Catalogue], account_id: int | None = None) -> CatalogueView:
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        row = _as_editor(conn, tournament_id, judge or actor, Term("edit the infraction catalogue"),
                         account_id)
        before = load_catalogue(conn, tournament_id)
        after = edit(before)
        adds_only = all(e.code in after and after.get(e.code) == e for e in before)
        if row["status"] != Status.REGISTRATION and not adds_only:
            raise ConflictError("the tournament has started: only new infractions can be "
                                "added to the catalogue now", code="started")
        _store(change, tournament_id, before, after, action)
        return CatalogueView(after, True, RulesLevel(row["rules_level"]))


def _store(change: Change, tournament_id: int, before: Catalogue, after: Catalogue,
           action: str) -> None:
    conn = change.conn
    if not after.infractions:
        raise UserError("the catalogue needs at least one infraction", code="empty_catalogue")
    store_catalogue(conn, tournament_id, before, after)
    old = {e.code: e for e in before}
    for entry in after:
        if old.get(entry.code) != entry:
            change.log(tournament_id, action, "infraction", entry.code,
                       None if entry.code not in old else infraction_columns(old[entry.code]),
                       infraction_columns(entry))
    for code, entry in old.items():
        if code not in after:
            change.log(tournament_id, action, "infraction", code, infraction_columns(entry),
                       None)


def set_infraction(db: Database, tournament_id: int, infraction: Infraction, *, actor: str,
                   judge: str | None = None,
                   account_id: int | None = None) -> CatalogueView:
    """Add an infraction, or replace the one with its code (names, defaults, description)."""

    return _edit(db, tournament_id, actor=actor, judge=judge, action="catalogue.set",
                 edit=lambda c: c.with_infraction(infraction), account_id=account_id)


def set_default(db: Database, tournament_id: int, code: str, level: RulesLevel,
                penalty: Penalty, *, actor: str, judge: str | None = None,
                account_id: int | None = None) -> CatalogueView:
    """Change one default penalty of an infraction (before round 1)."""
    return _edit(db, tournament_id, actor=actor, judge=judge, action="catalogue.set",
                 edit=lambda c: c.with_default(code, level, penalty), account_id=account_id)


def remove_infraction(db: Database, tournament_id: int, code: str, *, actor: str,
                      judge: str | None = None,
                      account_id: int | None = None) -> CatalogueView:
    """Remove an infraction from the catalogue (before round 1)."""
    return _edit(db, tournament_id, actor=actor, judge=judge, action="catalogue.remove",
                 edit=lambda c: c.without(code), account_id=account_id)


# ----- judging settings ---------------------------------------------------------------------


def get_judging_settings(db: Database, tournament_id: int) -> JudgingSettings:
    with reading(db) as conn:
        row = tournament_row(conn, tournament_id)
        return judging_settings_of(conn, tournament_id, row["rules_level"])


def _settings_json(settings: JudgingSettings) -> dict[str, Any]:
    return {"official": settings.official, "technical_margin": settings.technical_margin,
            "penalty_points": settings.points.as_list(), "version": settings.version}


def set_judging_settings(
    db: Database, tournament_id: int, *, actor: str, judge: str | None = None,
    official: bool | None = None, technical_margin: int | None = None,
    penalty_points: PenaltyPoints | None = None, expected_version: int | None = None,
    account_id: int | None = None,
) -> JudgingSettings:
    """Change the judging settings (the organizer or the head judge; ``account_id``: the web
    account acting); ``None`` keeps one."""
    if technical_margin is not None and technical_margin < 1:
        raise UserError("the technical win margin is at least 1 crystal", code="bad_margin")
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        row = _as_editor(conn, tournament_id, judge or actor, Term("change the judging settings"),
                         account_id)
        before = judging_settings_of(conn, tournament_id, row["rules_level"])
        check_version(conn, tournament_id, "judging", tournament_id, "the judging settings",
                      expected_version, before.version)
        after = JudgingSettings(
            official=before.official if official is None else official,
            technical_margin=(before.technical_margin if technical_margin is None
                              else technical_margin),
            points=before.points if penalty_points is None else penalty_points,
            stored=True, version=before.version + 1,
        )
        if (after.official, after.technical_margin, after.points) == (
                before.official, before.technical_margin, before.points):
            return before
        _write_settings(conn, tournament_id, before, _settings_json(after))
        touch_tournament(conn, row)
        change.log(tournament_id, "judging.settings", "judging", tournament_id,
                   _settings_json(before) if before.stored else None, _settings_json(after))
        return after


def _write_settings(conn: Tx, tournament_id: int, before: JudgingSettings,
                    values: dict[str, Any]) -> None:
    if not before.stored:
        insert_judging_settings(conn, tournament_id, values)
    elif not update_judging_settings(conn, tournament_id, before.version, values):
        raise ConflictError("the judging settings changed meanwhile; try again",
                            code="stale_version")

"""Use cases on a whole tournament: create, list, show, finish (P-1, P-4..P-6, S-7)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from turnir.domain.model import Settings, StaffRole
from turnir.domain.tournament import Phase, Tournament, new_tournament
from turnir.errors import ConflictError, UserError
from turnir.services.common import (
    RulesLevel,
    Status,
    TournamentFormat,
    TournamentInfo,
    changing,
    info_from_row,
    reading,
    tournament_info,
)
from turnir.services.deck_formats import DeckChoice, apply_tournament_format
from turnir.services.judges import (
    ORGANIZER_ONLY,
    account_for_staff,
    add_staff_in,
    check_staff,
    list_judges,
)
from turnir.storage import repositories, tournaments_repo
from turnir.storage.database import Database
from turnir.storage.mappers import load_tournament, settings_columns, tournament_row
from turnir.storage.repositories import check_version

SEED_LIMIT = 2**63
"""Seeds are stored as 64-bit integers."""


def check_seed(seed: int) -> int:
    if not -SEED_LIMIT <= seed < SEED_LIMIT:
        raise UserError("the seed {seed} does not fit in 64 bits", code="bad_seed", seed=seed)
    return seed


def settings_json(settings: Settings) -> dict[str, Any]:
    return settings_columns(settings)


def create_tournament(
    db: Database, *, name: str, actor: str, settings: Settings | None = None,
    format: TournamentFormat = TournamentFormat.SWISS,
    rules_level: RulesLevel = RulesLevel.AMATEUR, seed: int | None = None,
    organizer_login: str | None = None, deck: DeckChoice | None = None,
) -> TournamentInfo:
    """A new tournament in registration; the seed is drawn now unless given (P-3 e, T-7).

    ``organizer_login``: the web account that becomes its organizer (the account creating it on
    the web, or ``turnir tournament new --organizer LOGIN``; issue 10 item 1). ``deck``: a
    constructed tournament's deck format, planned start and online flag (issue 13), set in
    the same transaction (``turnir.services.deck_formats.apply_tournament_format``)."""
    chosen = settings or Settings()
    drawn = check_seed(seed if seed is not None else secrets.randbits(48))
    checked = new_tournament(" ".join(name.split()), (), settings=chosen, seed=drawn)
    with changing(db, None, actor) as change:
        tid = tournaments_repo.insert_tournament(
            change.conn, name=checked.name, format=format, rules_level=rules_level,
            settings=chosen, seed=drawn, status=Status.REGISTRATION, undone=(), at=change.at,
            actor=change.actor)
        change.log(tid, "tournament.create", "tournament", tid, None, {
            "name": checked.name, "format": str(format), "rules_level": str(rules_level),
            "seed": drawn, "settings": settings_json(chosen),
        })
        if organizer_login is not None:
            add_staff_in(change, tid, name="", role=StaffRole.ORGANIZER,
                         account=account_for_staff(change.conn, organizer_login))
        if deck is not None:
            apply_tournament_format(change, tid, deck)
        return tournament_info(change.conn, tid)


def find_tournament(db: Database, ref: str | int) -> TournamentInfo:
    """A tournament by number or by its (unique) name."""
    with reading(db) as tx:
        return tournament_info(tx, repositories.find_tournament_id(tx, ref))


def find_tournament_id(db: Database, ref: str | int) -> int:
    """The number of a tournament given by number (``12``, ``#12``) or by its (unique) name;
    ``NotFoundError`` when there is none (for the CLI and the web, which hold no storage)."""
    with reading(db) as tx:
        return repositories.find_tournament_id(tx, ref)


def list_tournaments(db: Database, *, status: Status | None = None) -> list[TournamentInfo]:
    """Every stored tournament, newest first."""
    with reading(db) as tx:
        return [info_from_row(tx, row)
                for row in tournaments_repo.tournament_rows(tx, status=status)]


@dataclass(frozen=True, slots=True)
class TournamentDetails:
    info: TournamentInfo
    tournament: Tournament
    """The whole aggregate as the domain sees it."""


def get_tournament(db: Database, tournament_id: int) -> TournamentDetails:
    """One tournament with its players, rounds and results, in one snapshot."""
    with reading(db) as tx:
        return TournamentDetails(tournament_info(tx, tournament_id),
                                 load_tournament(tx, tournament_id))


def finish_tournament(
    db: Database, tournament_id: int, *, actor: str, expected_version: int | None = None,
    early: bool = False, account_id: int | None = None,
) -> TournamentInfo:
    """Close the tournament: nothing changes in it afterwards (results are final, S-6).

    The last round must have every result; before the planned rounds (and the top) are over,
    only ``early=True`` closes it. A web account (``account_id``) must be its organizer.
    """
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        row = tournament_row(conn, tournament_id)
        check_staff(conn, tournament_id, account_id, ORGANIZER_ONLY,
                    what="finish the tournament")
        check_version(conn, tournament_id, "tournament", tournament_id, "the tournament",
                      expected_version, row["version"])
        if row["status"] == Status.FINISHED:
            raise ConflictError("the tournament is already finished", code="finished")
        t = load_tournament(conn, tournament_id)
        current = t.current_round
        if current is None:
            raise ConflictError("no round has been played yet", code="no_round")
        if not current.finished:
            missing = [str(p.table) for p in current.pairings if not p.finished]
            raise ConflictError(
                "round {round} is not finished: no result at table(s) {tables}",
                code="round_not_finished", round=current.number, tables=", ".join(missing[:10]),
            )
        if t.phase is not Phase.FINISHED and not early:
            raise ConflictError(
                "rounds remain to be played (Swiss rounds or the top); finish early to close "
                "the tournament now",
                code="not_over",
            )
        tournaments_repo.touch(conn, tournament_id, row["version"],
                               {"status": Status.FINISHED.value, "finished_at": change.at})
        change.log(tournament_id, "tournament.finish", "tournament", tournament_id,
                   {"status": row["status"], "version": row["version"]},
                   {"status": Status.FINISHED.value, "version": row["version"] + 1,
                    "early": t.phase is not Phase.FINISHED})
        return tournament_info(conn, tournament_id)


@dataclass(frozen=True, slots=True)
class FinishPreview:
    """What finishing the tournament will do, for the confirmation page (issue 12 item 8)."""

    info: TournamentInfo
    rounds_remain: bool
    """The planned rounds (or the top) are not all played: finishing now is finishing early."""
    open_tables: tuple[int, ...]
    """Tables of the last round without a result (finishing is refused until they have one)."""
    head_judge: bool
    """The tournament has a head judge; without one it cannot be rated."""
    rounds: int
    """Rounds played."""


def finish_preview(db: Database, tournament_id: int) -> FinishPreview:
    """What ``finish_tournament`` would do now, without doing it."""
    with reading(db) as tx:
        info = tournament_info(tx, tournament_id)
        t = load_tournament(tx, tournament_id)
    current = t.current_round
    open_tables = () if current is None else tuple(
        p.table for p in current.pairings if not p.finished)
    head = any(j.role is StaffRole.HEAD_JUDGE for j in list_judges(db, tournament_id))
    return FinishPreview(info, t.phase is not Phase.FINISHED, open_tables, head, len(t.rounds))

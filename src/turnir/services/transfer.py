"""Import and export: the offline tournament file (``docs/formats.md``), players and standings
as CSV.

An imported file is checked whole first (``parse_tournament``: its shape, then every rule the
domain checks) and stored in one transaction: a malformed file leaves the database unchanged.
Exporting a tournament that was imported gives the same file back, byte for byte.
"""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Callable

from turnir.domain.draft.tables import seats_of
from turnir.domain.model import RulesLevel, Status, TournamentFormat
from turnir.domain.text import NAME_LEN, clean_name
from turnir.domain.tournament import Tournament
from turnir.errors import UserError
from turnir.formats.tournament_file import dump_tournament, parse_tournament
from turnir.services.audit_replay import imported_lines
from turnir.services.common import TournamentInfo, changing, reading, tournament_info
from turnir.services.tournaments import check_seed
from turnir.storage import draft_seats_repo, tournaments_repo
from turnir.storage.database import Database
from turnir.storage.mappers import (
    Progress,
    insert_penalties,
    insert_players,
    insert_round,
    load_penalties,
    load_players,
    load_rounds,
    tournament_from_parts,
    tournament_row,
)
from turnir.storage.repositories import people_for


def import_tournament(
    db: Database, text: str, *, actor: str, source: str = "the file", name: str | None = None,
    progress: Progress | None = None,
) -> TournamentInfo:
    """Store a tournament file as a new tournament (all of it, or nothing)."""
    t = parse_tournament(text, source=source)
    if name is not None:
        cleaned = clean_name(name, field="tournament's name", max_len=NAME_LEN, required=False)
        if not cleaned:
            raise UserError("the tournament needs a name", code="bad_name")
        t = Tournament(name=cleaned, settings=t.settings, seed=t.seed,
                       players=t.players, rounds=t.rounds, undone=t.undone,
                       penalties=t.penalties, tables=t.tables)
    check_seed(t.seed)
    total = len(t.players) + sum(len(r.pairings) for r in t.rounds)

    def report(done: int) -> None:
        if progress is not None:
            progress(done, total)

    with changing(db, None, actor) as change:
        conn = change.conn
        tid = tournaments_repo.insert_tournament(
            conn, name=t.name, rules_level=RulesLevel.AMATEUR,
            format=TournamentFormat.DRAFT if t.tables else TournamentFormat.SWISS,
            settings=t.settings, seed=t.seed,
            status=Status.RUNNING if t.rounds else Status.REGISTRATION, undone=t.undone,
            at=change.at, actor=change.actor)
        persons = people_for(conn, [(p.name, p.city, p.club) for p in t.players], change.at)
        insert_players(conn, tid, t.players,
                       {p.id: person for p, person in zip(t.players, persons, strict=True)})
        done = len(t.players)
        report(done)
        insert_penalties(conn, tid, t.penalties)
        draft_seats_repo.replace_seats(conn, tid, seats_of(t.tables))  # T-8: a draft's tables
        for rnd in t.rounds:
            insert_round(conn, tid, rnd, at=change.at, actor=change.actor,
                         progress=_offset(report, done))
            done += len(rnd.pairings)
        change.log(tid, "tournament.import", "tournament", tid, None, {
            "name": t.name, "source": source, "players": len(t.players),
            "rounds": len(t.rounds), "sha256": hashlib.sha256(text.encode()).hexdigest(),
            "lines": imported_lines(t.rounds),  # what `turnir log verify` checks them against
        })
        return tournament_info(conn, tid)


def _offset(report: Callable[[int], None], base: int) -> Progress:
    def progress(done: int, _total: int) -> None:
        report(base + done)

    return progress


def load_for_export(db: Database, tournament_id: int,
                    progress: Progress | None = None) -> Tournament:
    with reading(db) as conn:
        row = tournament_row(conn, tournament_id)
        if progress is not None:
            progress(0, 3)
        players = load_players(conn, tournament_id)
        if progress is not None:
            progress(1, 3)
        round_list = load_rounds(conn, tournament_id)
        if progress is not None:
            progress(2, 3)
        t = tournament_from_parts(row, players, round_list, load_penalties(conn, tournament_id),
                                  draft_seats_repo.draft_tables(conn, tournament_id))
    return t


def export_tournament(db: Database, tournament_id: int, *,
                      progress: Progress | None = None) -> str:
    """The tournament as the offline JSON file."""
    text = dump_tournament(load_for_export(db, tournament_id, progress))
    if progress is not None:
        progress(3, 3)
    return text


def export_players_csv(db: Database, tournament_id: int) -> str:
    """The players as the players CSV (``name,city,club,byes``), ready for ``player import``."""
    t = load_for_export(db, tournament_id)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["name", "city", "club", "byes"])
    for p in t.players:
        writer.writerow([p.name, p.city, p.club, len(p.granted_byes)])
    return out.getvalue()


STANDINGS_COLUMNS = ("place", "number", "name", "points", "matches", "wins", "draws", "losses",
                     "byes", "quality_of_wins", "quality_of_losses", "quality_of_games",
                     "second_order_quality", "lot", "dropped")


def standings_csv(t: Tournament) -> str:
    """Standings with every tiebreak column (T-1..T-7) as CSV."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(STANDINGS_COLUMNS)
    for row in t.standings().rows:
        p = t.player(row.player)
        writer.writerow([row.place, p.id, p.name, row.points, row.matches, row.wins, row.draws,
                         row.losses, row.byes, row.quality_of_wins, row.quality_of_losses,
                         row.quality_of_games, row.second_order_quality, row.lot,
                         "yes" if p.dropped_after is not None else ""])
    return out.getvalue()


def export_standings_csv(db: Database, tournament_id: int) -> str:
    return standings_csv(load_for_export(db, tournament_id))

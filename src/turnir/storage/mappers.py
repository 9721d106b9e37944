"""Mappers between table rows and the domain's frozen records (``turnir.domain``).

``load_tournament`` builds the whole ``Tournament`` aggregate with a handful of Core selects
(no per-row ORM objects: a 2,000-player tournament with 10,000 matches loads in milliseconds);
``insert_tournament`` writes a whole aggregate (an imported file). The smaller helpers turn one
row into one record and back; services use them for the fast paths that do not load the
aggregate (recording a result).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, RowMapping, insert, select

from turnir.domain.model import Pairing, PairingKind, Player, PlayerId, Round, Settings, Stage
from turnir.domain.names import name_parts
from turnir.domain.results import MatchResult, PointsTable
from turnir.domain.standings import PenaltyCounts
from turnir.domain.text import name_key as text_name_key
from turnir.domain.tournament import Tournament
from turnir.errors import NotFoundError
from turnir.storage.draft_seats_repo import draft_tables
from turnir.storage.penalty_rows import combine_counts, recorded_penalty_counts
from turnir.storage.tables import (
    entries,
    granted_byes,
    pairings,
    penalty_counts,
    rounds,
    stages,
    tournaments,
)

Progress = Callable[[int, int], None]
"""``progress(done, total)``, called while a long operation runs."""

# ----- settings and results --------------------------------------------------------------


SETTINGS_COLUMNS = ("points_win", "points_draw", "points_loss", "points_bye", "best_of",
                    "top_best_of", "swiss_rounds", "top_size")
"""The ``tournaments`` columns that hold its ``Settings``: ``settings_from_row`` reads them,
``settings_columns`` writes them (the one mapping; a select that needs the settings selects
these, e.g. ``*(tournaments.c[name] for name in SETTINGS_COLUMNS)``)."""


def settings_from_row(row: Mapping[Any, Any]) -> Settings:
    """The settings held in a row with the ``SETTINGS_COLUMNS``."""
    return Settings(
        points=PointsTable(win=row["points_win"], draw=row["points_draw"],
                           loss=row["points_loss"], bye=row["points_bye"]),
        best_of=row["best_of"],
        top_best_of=row["top_best_of"],
        swiss_rounds=row["swiss_rounds"],
        top_size=row["top_size"],
    )


def settings_columns(settings: Settings) -> dict[str, Any]:
    """The ``SETTINGS_COLUMNS`` values of ``settings``."""
    points = settings.points
    return {
        "points_win": points.win, "points_draw": points.draw, "points_loss": points.loss,
        "points_bye": points.bye, "best_of": settings.best_of,
        "top_best_of": settings.top_best_of, "swiss_rounds": settings.swiss_rounds,
        "top_size": settings.top_size,
    }


def result_from_row(row: Mapping[Any, Any]) -> MatchResult | None:
    """The result columns of a row (``MatchResult.from_columns``); ``None`` without one."""
    return None if row["outcome"] is None else MatchResult.from_columns(row)


_NO_RESULT: dict[str, Any] = {"wins_a": None, "wins_b": None, "draws": None, "outcome": None,
                              "ending": None}


def result_columns(result: MatchResult | None) -> dict[str, Any]:
    """``MatchResult.to_columns``, or the five columns empty without a result."""
    return dict(_NO_RESULT) if result is None else result.to_columns()


def result_json(result: MatchResult | None) -> dict[str, Any] | None:
    """A result for the audit log (``MatchResult.to_json``): its score and every column."""
    return None if result is None else result.to_json()


def pairing_from_row(row: Mapping[Any, Any]) -> Pairing:
    return Pairing(table=row["table_no"], a=row["a"], b=row["b"], kind=PairingKind(row["kind"]),
                   result=result_from_row(row))


def pairing_columns(line: Pairing) -> dict[str, Any]:
    return {"table_no": line.table, "a": line.a, "b": line.b, "kind": line.kind.value,
            **result_columns(line.result)}


def player_json(player: Player) -> dict[str, Any]:
    return {"number": player.id, "name": player.name, "city": player.city, "club": player.club,
            "granted_byes": sorted(player.granted_byes), "joined_round": player.joined_round,
            "dropped_after": player.dropped_after}


def entry_name_parts(player: Player) -> dict[str, str]:
    """The ``surname`` and ``given_name`` columns of a player's entry: as kept apart, else
    read from the name (``turnir.domain.names.name_parts``)."""
    if player.surname:
        return {"surname": player.surname, "given_name": player.given_name}
    surname, given = name_parts(player.name)
    return {"surname": surname, "given_name": given}


def name_key(name: str) -> str:
    """The form names are compared in (``turnir.domain.text.name_key``): NFC, no zero-width
    characters, single spaces, case-folded; the key of a name and of its normal form agree."""
    return text_name_key(name)


# ----- the whole aggregate ---------------------------------------------------------------


def tournament_row(conn: Connection, tournament_id: int) -> RowMapping:
    row = conn.execute(
        select(tournaments).where(tournaments.c.id == tournament_id)
    ).mappings().first()
    if row is None:
        raise NotFoundError("no tournament #{id}", code="unknown_tournament", id=tournament_id)
    return row


def load_players(conn: Connection, tournament_id: int) -> tuple[Player, ...]:
    byes: dict[int, set[int]] = defaultdict(set)
    for number, round_number in conn.execute(
        select(granted_byes.c.number, granted_byes.c.round)
        .where(granted_byes.c.tournament_id == tournament_id)
    ).all():  # .all(): one fetch, not a fetchone per row (psycopg 3)
        byes[number].add(round_number)
    rows = conn.execute(
        select(entries.c.number, entries.c.name, entries.c.city, entries.c.club,
               entries.c.joined_round, entries.c.dropped_after, entries.c.surname,
               entries.c.given_name)
        .where(entries.c.tournament_id == tournament_id)
        .order_by(entries.c.number)
    ).all()
    return tuple(
        Player(id=number, name=name, city=city, club=club,
               granted_byes=frozenset(byes.get(number, ())), joined_round=joined,
               dropped_after=dropped, surname=surname, given_name=given)
        for number, name, city, club, joined, dropped, surname, given in rows
    )


def load_rounds(conn: Connection, tournament_id: int) -> tuple[Round, ...]:
    round_rows = conn.execute(
        select(rounds.c.id, rounds.c.number, rounds.c.lot, rounds.c.edits, stages.c.kind)
        .join(stages, stages.c.id == rounds.c.stage_id)
        .where(rounds.c.tournament_id == tournament_id)
        .order_by(rounds.c.number)
    ).all()
    lines: dict[int, list[Pairing]] = defaultdict(list)
    query = (
        select(pairings.c.round_id, pairings.c.table_no, pairings.c.a, pairings.c.b,
               pairings.c.kind, pairings.c.wins_a, pairings.c.wins_b, pairings.c.draws,
               pairings.c.outcome, pairings.c.ending)
        .where(pairings.c.tournament_id == tournament_id)
        .order_by(pairings.c.round_id, pairings.c.position)
    )
    kinds = {kind.value: kind for kind in PairingKind}
    from_values = MatchResult.from_values
    found = conn.execute(query).all()  # one fetch, not a fetchone per row (psycopg 3)
    for round_id, table, a, b, kind, wins_a, wins_b, draws, outcome, ending in found:
        result = None if outcome is None else from_values(wins_a, wins_b, draws, outcome, ending)
        lines[round_id].append(Pairing(table, a, b, kinds[kind], result))
    return tuple(
        Round(number=number, stage=Stage(kind), pairings=tuple(lines.get(round_id, ())), lot=lot,
              edits=tuple(edits or ()))
        for round_id, number, lot, edits, kind in round_rows
    )


def load_penalties(conn: Connection, tournament_id: int) -> dict[PlayerId, PenaltyCounts]:
    """T-6 counts per player: the imported counts (``penalty_counts``, from a tournament file)
    plus the penalties recorded in the tournament (``penalty_rows``), field by field."""
    rows = conn.execute(
        select(penalty_counts.c.number, penalty_counts.c.match_losses,
               penalty_counts.c.game_losses, penalty_counts.c.penalty_points,
               penalty_counts.c.warnings)
        .where(penalty_counts.c.tournament_id == tournament_id)
    ).all()
    imported = {number: PenaltyCounts(ml, gl, pp, w) for number, ml, gl, pp, w in rows}
    return combine_counts(imported, recorded_penalty_counts(conn, tournament_id))


def load_tournament(conn: Connection, tournament_id: int) -> Tournament:
    """The whole aggregate of one tournament, as the domain sees it."""
    row = tournament_row(conn, tournament_id)
    return tournament_from_parts(row, load_players(conn, tournament_id),
                                 load_rounds(conn, tournament_id),
                                 load_penalties(conn, tournament_id),
                                 draft_tables(conn, tournament_id))


def tournament_from_parts(row: RowMapping, players: tuple[Player, ...],
                          round_list: tuple[Round, ...],
                          penalties: Mapping[PlayerId, PenaltyCounts],
                          tables: Mapping[PlayerId, int] | None = None) -> Tournament:
    """The aggregate from its read parts; ``tables``: the draft tables (T-8), none if empty."""
    return Tournament(
        name=row["name"], settings=settings_from_row(row), seed=row["seed"], players=players,
        rounds=round_list, undone=tuple(row["undone"] or ()), penalties=dict(penalties),
        tables=dict(tables or {}),
    )


# ----- writing ---------------------------------------------------------------------------

_BATCH = 2000


def _batched(rows: Sequence[dict[str, Any]]) -> Iterable[Sequence[dict[str, Any]]]:
    for start in range(0, len(rows), _BATCH):
        yield rows[start:start + _BATCH]


def insert_players(conn: Connection, tournament_id: int, players: Iterable[Player],
                   person_ids: Mapping[PlayerId, int | None], *,
                   checked_in: bool = False) -> None:
    listed = list(players)
    rows = [
        {"tournament_id": tournament_id, "number": p.id, "person_id": person_ids.get(p.id),
         "name": p.name, "name_key": name_key(p.name), **entry_name_parts(p),
         "city": p.city, "club": p.club, "joined_round": p.joined_round,
         "dropped_after": p.dropped_after,
         "checked_in": checked_in, "version": 1}
        for p in listed
    ]
    for batch in _batched(rows):
        conn.execute(insert(entries), batch)
    bye_rows = [{"tournament_id": tournament_id, "number": p.id, "round": r}
                for p in listed for r in sorted(p.granted_byes)]
    for batch in _batched(bye_rows):
        conn.execute(insert(granted_byes), batch)


def stage_id(conn: Connection, tournament_id: int, stage: Stage) -> int:
    """The stage's row, created when its first round is stored."""
    found = conn.execute(
        select(stages.c.id).where(stages.c.tournament_id == tournament_id,
                                  stages.c.kind == stage.value)
    ).scalar()
    if found is not None:
        return int(found)
    position = 1 if stage is Stage.SWISS else 2
    new_id = conn.execute(
        insert(stages).values(tournament_id=tournament_id, kind=stage.value, position=position)
        .returning(stages.c.id)
    ).scalar_one()
    return int(new_id)


def insert_round(conn: Connection, tournament_id: int, rnd: Round, *, at: datetime,
                 actor: str, progress: Progress | None = None) -> int:
    """Store a round and its pairings; returns the round's row id."""
    round_id = int(conn.execute(
        insert(rounds).values(
            tournament_id=tournament_id, stage_id=stage_id(conn, tournament_id, rnd.stage),
            number=rnd.number, lot=rnd.lot, edits=list(rnd.edits), version=1, created_at=at,
            created_by=actor,
        ).returning(rounds.c.id)
    ).scalar_one())
    rows = [
        {"tournament_id": tournament_id, "round_id": round_id, "position": position,
         "version": 1, "updated_by": actor if line.result else None,
         "updated_at": at if line.result else None, **pairing_columns(line)}
        for position, line in enumerate(rnd.pairings, start=1)
    ]
    done = 0
    for batch in _batched(rows):
        conn.execute(insert(pairings), batch)
        done += len(batch)
        if progress is not None:
            progress(done, len(rows))
    return round_id


def insert_penalties(conn: Connection, tournament_id: int,
                     penalties: Mapping[PlayerId, PenaltyCounts]) -> None:
    rows = [
        {"tournament_id": tournament_id, "number": pid, "match_losses": c.match_losses,
         "game_losses": c.game_losses, "penalty_points": c.penalty_points,
         "warnings": c.warnings}
        for pid, c in sorted(penalties.items()) if c != PenaltyCounts()
    ]
    if rows:
        conn.execute(insert(penalty_counts), rows)

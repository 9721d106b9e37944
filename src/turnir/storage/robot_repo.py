"""The statements of the online judge robot (``turnir.services.robot_store``,
``turnir.services.online``, ``turnir.services.robot_tokens``) on the tables of
``turnir.storage.tables_robot``. Like every repository they never commit; the service owns
the transaction.

A robot game comes back as its row (a mapping of the ``robot_games`` columns): the robot's
journal maps it to a setup and a link (``turnir.robot.journal.setup_from_columns``), the
online service to an ``OnlineResult``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, bindparam, case, func, insert, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from turnir.storage.tables import entries, pairings, rounds, stages, tournaments
from turnir.storage.tables_robot import robot_decisions, robot_events, robot_games, robot_tokens

Row = Mapping[Any, Any]
"""A row of ``robot_games`` or ``robot_tokens``, column name → value."""


@contextmanager
def savepoint(conn: Connection) -> Iterator[None]:
    """What the block writes is undone when it raises; the transaction goes on."""
    with conn.begin_nested():
        yield


# ----- tokens ------------------------------------------------------------------------------


def insert_token(conn: Connection, *, token_hash: str, tournament_id: int | None, label: str,
                 at: datetime, actor: str) -> int:
    return int(conn.execute(insert(robot_tokens).values(
        token_hash=token_hash, tournament_id=tournament_id, label=label, created_at=at,
        created_by=actor).returning(robot_tokens.c.id)).scalar_one())


def token_row(conn: Connection, token_id: int) -> Row | None:
    return conn.execute(select(robot_tokens).where(robot_tokens.c.id == token_id)
                        ).mappings().first()


def token_rows(conn: Connection, *, tournament_id: int | None = None,
               revoked: bool = False) -> list[Row]:
    """The tokens (of one tournament when given; the revoked ones too with ``revoked``),
    oldest first."""
    query = select(robot_tokens).order_by(robot_tokens.c.id)
    if tournament_id is not None:
        query = query.where(robot_tokens.c.tournament_id == tournament_id)
    if not revoked:
        query = query.where(robot_tokens.c.revoked_at.is_(None))
    return list(conn.execute(query).mappings())


def revoke_tokens(conn: Connection, ids: Sequence[int], at: datetime, actor: str) -> None:
    if ids:
        conn.execute(update(robot_tokens).where(robot_tokens.c.id.in_(ids))
                     .values(revoked_at=at, revoked_by=actor))


@dataclass(frozen=True, slots=True)
class LiveToken:
    """A live token found by its hash."""

    id: int
    token_hash: str
    tournament_id: int | None


def live_token(conn: Connection, token_hash: str) -> LiveToken | None:
    row = conn.execute(
        select(robot_tokens.c.id, robot_tokens.c.token_hash, robot_tokens.c.tournament_id)
        .where(robot_tokens.c.token_hash == token_hash, robot_tokens.c.revoked_at.is_(None))
    ).first()
    return None if row is None else LiveToken(row.id, row.token_hash, row.tournament_id)


# ----- decisions and events ----------------------------------------------------------------


def decision_body(conn: Connection, decision_id: str) -> dict[str, Any] | None:
    """The kept body of a decision (``turnir.robot.journal.decision_json``)."""
    body: dict[str, Any] | None = conn.execute(
        select(robot_decisions.c.body).where(robot_decisions.c.id == decision_id)).scalar()
    return body


def insert_decision(conn: Connection, values: Mapping[str, Any]) -> bool:
    """Keep a decision unless one with its id is kept already (two workers racing for one
    game's check: the id is unique); whether it was inserted."""
    table = robot_decisions
    statement = (sqlite_insert(table) if conn.dialect.name == "sqlite"
                 else pg_insert(table)).values(**values).on_conflict_do_nothing(
                     index_elements=[table.c.id])
    return bool(conn.execute(statement).rowcount)


def decision_bodies(conn: Connection, *, game_id: str | None = None,
                    offset: int = 0) -> list[dict[str, Any]]:
    """The kept decisions' bodies in the order they were kept (of one game when given),
    from the ``offset``-th on."""
    query = select(robot_decisions.c.body).order_by(robot_decisions.c.seq)
    if game_id is not None:
        query = query.where(robot_decisions.c.game_id == game_id)
    if offset:
        query = query.offset(offset)
    return list(conn.execute(query).scalars())


def count_decisions(conn: Connection) -> int:
    return int(conn.execute(select(func.count()).select_from(robot_decisions)).scalar_one())


def insert_events(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
    """Events of games: ``game_id``, ``seq``, ``kind``, ``at_ms``, ``data`` each."""
    conn.execute(insert(robot_events), list(rows))


def set_last_stages(conn: Connection,
                    stages_passed: Sequence[tuple[str, str, int | None]]) -> None:
    """(game id, stage, next check moment) triples: the last check stage each game has been
    through and when its next one is due."""
    conn.execute(
        update(robot_games).where(robot_games.c.game_id == bindparam("gid"))
        .values(last_stage=bindparam("stage"), next_check_ms=bindparam("next_ms")),
        [{"gid": game_id, "stage": stage, "next_ms": next_ms}
         for game_id, stage, next_ms in stages_passed])


def schedule_rows(conn: Connection, game_ids: Sequence[str]) -> list[Row]:
    """The games' ids, time controls, round starts and end ids (to find their next check)."""
    return list(conn.execute(select(
        robot_games.c.game_id, robot_games.c.time_control, robot_games.c.round_start_ms,
        robot_games.c.end_id).where(robot_games.c.game_id.in_(list(game_ids)))).mappings())


# ----- robot workers: leases on the games' due checks (issue 15) ----------------------------


def _lease_free(now_ms: int) -> Any:
    return or_(robot_games.c.lease_until_ms.is_(None), robot_games.c.lease_until_ms <= now_ms)


def claim_due(conn: Connection, *, owner: str, now_ms: int, until_ms: int,
              limit: int) -> list[tuple[str, str | None]]:
    """Claim up to ``limit`` games whose next check is due and whose lease is free or expired
    (earliest first) for ``owner`` until ``until_ms``: (game id, the previous owner of an
    expired lease) pairs. PostgreSQL: the rows are locked ``FOR UPDATE SKIP LOCKED``, so two
    workers never wait for nor take the same game; SQLite: the write transaction
    (``BEGIN IMMEDIATE``) already serialises the claims. The update repeats the condition."""
    due = (select(robot_games.c.game_id, robot_games.c.lease_owner)
           .where(robot_games.c.next_check_ms <= now_ms, _lease_free(now_ms))
           .order_by(robot_games.c.next_check_ms, robot_games.c.game_id).limit(limit))
    if conn.dialect.name != "sqlite":
        due = due.with_for_update(skip_locked=True)
    found = {gid: was for gid, was in conn.execute(due)}
    if not found:
        return []
    claimed = conn.execute(
        update(robot_games).where(robot_games.c.game_id.in_(list(found)), _lease_free(now_ms))
        .values(lease_owner=owner, lease_until_ms=until_ms)
        .returning(robot_games.c.game_id)).scalars().all()
    return [(gid, found[gid]) for gid in sorted(claimed)]


def renew_leases(conn: Connection, owner: str, game_ids: Sequence[str], until_ms: int) -> int:
    """Extend ``owner``'s leases on the games (those still its own); how many."""
    done = conn.execute(update(robot_games).where(
        robot_games.c.game_id.in_(list(game_ids)), robot_games.c.lease_owner == owner)
        .values(lease_until_ms=until_ms))
    return int(done.rowcount or 0)


def leases_held_by_others(conn: Connection, owner: str, game_ids: Sequence[str]) -> int:
    """How many of the games another worker than ``owner`` holds a lease on (a game whose
    end was recorded holds none)."""
    return int(conn.execute(select(func.count()).select_from(robot_games).where(
        robot_games.c.game_id.in_(list(game_ids)), robot_games.c.lease_owner.is_not(None),
        robot_games.c.lease_owner != owner)).scalar_one())


def release_leases(conn: Connection, owner: str,
                   rows: Sequence[Mapping[str, Any]]) -> None:
    """End ``owner``'s leases: each row ``gid``, ``stage`` (the last stage passed, or
    ``None`` to keep it), ``next_ms`` (the next check), ``owner_after`` and ``until_after``
    (the lease afterwards: empty, or kept a while for a retry). A lease another worker took
    over is left alone."""
    if not rows:
        return
    conn.execute(
        update(robot_games).where(robot_games.c.game_id == bindparam("gid"),
                                  robot_games.c.lease_owner == owner)
        .values(last_stage=func.coalesce(bindparam("stage"), robot_games.c.last_stage),
                next_check_ms=bindparam("next_ms"), lease_owner=bindparam("owner_after"),
                lease_until_ms=bindparam("until_after")),
        [dict(row) for row in rows])


def next_due_ms(conn: Connection, now_ms: int) -> int | None:
    """The earliest moment a game can be claimed: its next check, or the end of the lease
    held on it when that is later (so a waiting worker wakes when a dead worker's lease runs
    out)."""
    until = robot_games.c.lease_until_ms
    claimable = case((and_(until.is_not(None), until > robot_games.c.next_check_ms), until),
                     else_=robot_games.c.next_check_ms)
    found: int | None = conn.execute(select(func.min(claimable)).where(
        robot_games.c.next_check_ms.is_not(None))).scalar()
    return None if found is None else int(found)


def decisions_by_game(conn: Connection, game_ids: Sequence[str]) -> list[dict[str, Any]]:
    """The kept decisions' bodies of the games, in the order they were kept."""
    return list(conn.execute(select(robot_decisions.c.body).where(
        robot_decisions.c.game_id.in_(list(game_ids))).order_by(robot_decisions.c.seq)
    ).scalars())


def kept_games(conn: Connection, game_id: str | None = None, *, since_ms: int | None = None,
               game_ids: Sequence[str] | None = None,
               ) -> tuple[list[Row], dict[str, list[dict[str, Any]]]]:
    """Every kept game's row (or the one, or those of ``game_ids``) in registration order,
    and game id → its events' data in order; ``since_ms``: only the games whose round started
    then or later."""
    games_query = select(robot_games).order_by(robot_games.c.registered_at,
                                               robot_games.c.game_id)
    events_query = select(robot_events.c.game_id, robot_events.c.data).order_by(
        robot_events.c.game_id, robot_events.c.seq)
    if game_id is not None:
        games_query = games_query.where(robot_games.c.game_id == game_id)
        events_query = events_query.where(robot_events.c.game_id == game_id)
    if game_ids is not None:
        games_query = games_query.where(robot_games.c.game_id.in_(list(game_ids)))
        events_query = events_query.where(robot_events.c.game_id.in_(list(game_ids)))
    if since_ms is not None:
        games_query = games_query.where(robot_games.c.round_start_ms >= since_ms)
        events_query = events_query.join(
            robot_games, robot_games.c.game_id == robot_events.c.game_id
        ).where(robot_games.c.round_start_ms >= since_ms)
    rows: list[Row] = list(conn.execute(games_query).mappings().all())
    events: dict[str, list[dict[str, Any]]] = {}
    for gid, data in conn.execute(events_query):
        events.setdefault(gid, []).append(data)
    return rows, events


# ----- games linked to tournament matches --------------------------------------------------


def game_row(conn: Connection, game_id: str) -> Row | None:
    return conn.execute(select(robot_games).where(robot_games.c.game_id == game_id)
                        ).mappings().first()


def insert_game(conn: Connection, values: Mapping[str, Any]) -> None:
    conn.execute(insert(robot_games).values(**values))


def slot_game(conn: Connection, tournament_id: int, round_number: int, table: int,
              game: int) -> str | None:
    """The id of the game registered as game ``game`` of the match, if any."""
    taken: str | None = conn.execute(select(robot_games.c.game_id).where(
        robot_games.c.tournament_id == tournament_id, robot_games.c.round == round_number,
        robot_games.c.table_no == table, robot_games.c.game_number == game)).scalar()
    return taken


def name_keys(conn: Connection, tournament_id: int, numbers: Sequence[int]) -> dict[int, str]:
    """entry number → its name key, for the numbers given."""
    return {int(n): k for n, k in conn.execute(
        select(entries.c.number, entries.c.name_key).where(
            entries.c.tournament_id == tournament_id, entries.c.number.in_(numbers))).all()}


def update_game(conn: Connection, game_id: str, **values: Any) -> None:
    conn.execute(update(robot_games).where(robot_games.c.game_id == game_id).values(**values))


_PAIRING = (
    select(pairings.c.a, pairings.c.b, pairings.c.wins_a, pairings.c.wins_b, pairings.c.draws,
           pairings.c.outcome, pairings.c.ending, stages.c.kind.label("stage"),
           tournaments.c.best_of, tournaments.c.top_best_of)
    .select_from(pairings)
    .join(rounds, rounds.c.id == pairings.c.round_id)
    .join(stages, stages.c.id == rounds.c.stage_id)
    .join(tournaments, tournaments.c.id == rounds.c.tournament_id)
)


def match_of_game(conn: Connection, tournament_id: int, round_number: int,
                  table: int) -> Row | None:
    """The match at the table now: its players, result columns, stage kind and best-ofs."""
    return conn.execute(_PAIRING.where(
        rounds.c.tournament_id == tournament_id, rounds.c.number == round_number,
        pairings.c.table_no == table, pairings.c.kind == "match")).mappings().first()


def _same_match(tournament_id: int, round_number: int, table: int) -> Any:
    return and_(robot_games.c.tournament_id == tournament_id,
                robot_games.c.round == round_number, robot_games.c.table_no == table)


def ended_games_of_match(conn: Connection, tournament_id: int, round_number: int, table: int,
                         *, dismissed: str) -> list[Row]:
    """The match's ended games (not in the state ``dismissed``), by game number."""
    return list(conn.execute(select(robot_games).where(
        _same_match(tournament_id, round_number, table), robot_games.c.end_id.is_not(None),
        robot_games.c.end_state != dismissed).order_by(robot_games.c.game_number)
    ).mappings().all())


def set_match_state(conn: Connection, tournament_id: int, round_number: int, table: int, *,
                    from_states: Sequence[str], state: str, actor: str) -> None:
    """The match's games in one of ``from_states`` go to ``state``, without a problem."""
    conn.execute(update(robot_games).where(
        _same_match(tournament_id, round_number, table),
        robot_games.c.end_state.in_(from_states),
    ).values(end_state=state, problem_code=None, problem=None, handled_by=actor))


def ended_game_rows(conn: Connection, *, tournament_id: int | None = None,
                    state: str | None = None) -> list[Row]:
    """The ended games (of a tournament, in a state), oldest end first."""
    query = select(robot_games).where(robot_games.c.end_id.is_not(None))
    if tournament_id is not None:
        query = query.where(robot_games.c.tournament_id == tournament_id)
    if state is not None:
        query = query.where(robot_games.c.end_state == state)
    return list(conn.execute(query.order_by(robot_games.c.ended_at, robot_games.c.game_id)
                             ).mappings().all())

"""The robot's games and decisions in the database: one object that is both the robot's
``DecisionStore`` and its ``GameJournal`` (``turnir.robot.store``, ``turnir.robot.journal``).

Each call is one short transaction of its own (the robot calls it while it holds its own lock,
so the games stay in step with what is kept). Decisions are keyed by their id: the same
decision again changes nothing, a different one with the same id is refused
(``ConflictError``). Registering a game with a tournament link checks the link against the
tournament (``turnir.services.online.register_online_game``).

One robot process per database: the journal numbers a game's events itself, and two robots
feeding the same games would interleave them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update

from turnir.domain.robot_rules import CheckStage
from turnir.errors import ConflictError
from turnir.robot.decision import Decision
from turnir.robot.game import GameEvent, GameSetup
from turnir.robot.journal import (
    JournaledGame,
    TournamentLink,
    decision_from_json,
    decision_json,
    event_from_json,
    event_json,
    setup_from_columns,
)
from turnir.services.online import link_of, register_online_game
from turnir.storage.database import Database
from turnir.storage.tables_robot import robot_decisions, robot_events, robot_games


class DatabaseRobotStore:
    """``DecisionStore`` and ``GameJournal`` on the tables of ``turnir.storage.tables_robot``."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # --- DecisionStore -----------------------------------------------------------------------

    def add(self, decision: Decision) -> None:
        body = decision_json(decision)
        with self.db.write() as conn:
            known = conn.execute(
                select(robot_decisions.c.body).where(robot_decisions.c.id == decision.id)
            ).scalar()
            if known is not None:
                if decision_from_json(known) != decision:
                    raise ConflictError(f"decision {decision.id} is already recorded "
                                        "differently", code="decision_exists")
                return
            result = decision.result
            conn.execute(insert(robot_decisions).values(
                id=decision.id, game_id=decision.game_id,
                stage=decision.stage.value if decision.stage else None, at_ms=decision.at_ms,
                verdict=decision.verdict.value, rule=decision.rule.value,
                result=None if result is None else result.value, body=body))

    def for_game(self, game_id: str) -> list[Decision]:
        with self.db.read() as conn:
            return [decision_from_json(body) for body in conn.execute(
                select(robot_decisions.c.body).where(robot_decisions.c.game_id == game_id)
                .order_by(robot_decisions.c.seq)).scalars()]

    def since(self, position: int = 0) -> list[Decision]:
        with self.db.read() as conn:
            return [decision_from_json(body) for body in conn.execute(
                select(robot_decisions.c.body).order_by(robot_decisions.c.seq)
                .offset(max(position, 0))).scalars()]

    def __len__(self) -> int:
        with self.db.read() as conn:
            return int(conn.execute(select(func.count()).select_from(robot_decisions)
                                    ).scalar_one())

    # --- GameJournal -------------------------------------------------------------------------

    def register(self, setup: GameSetup, link: TournamentLink | None) -> TournamentLink | None:
        return register_online_game(self.db, setup, link)

    def append(self, game_id: str, first: int, events: Sequence[GameEvent]) -> None:
        if not events:
            return
        rows: list[dict[str, Any]] = []
        for number, event in enumerate(events, start=first):
            data = event_json(event)
            rows.append({"game_id": game_id, "seq": number, "kind": data["type"],
                         "at_ms": event.at_ms, "data": data})
        with self.db.write() as conn:
            conn.execute(insert(robot_events), rows)

    def passed(self, stages: Sequence[tuple[str, CheckStage]]) -> None:
        if not stages:
            return
        with self.db.write() as conn:
            conn.execute(
                update(robot_games).where(robot_games.c.game_id == bindparam("gid"))
                .values(last_stage=bindparam("stage")),
                [{"gid": game_id, "stage": stage.value} for game_id, stage in stages])

    def load(self, game_id: str | None = None, *,
             since_ms: int | None = None) -> list[JournaledGame]:
        """Every kept game (or the one), registration order; ``since_ms``: only the games whose
        round started then or later."""
        games_query = select(robot_games).order_by(robot_games.c.registered_at,
                                                   robot_games.c.game_id)
        events_query = select(robot_events.c.game_id, robot_events.c.data).order_by(
            robot_events.c.game_id, robot_events.c.seq)
        if game_id is not None:
            games_query = games_query.where(robot_games.c.game_id == game_id)
            events_query = events_query.where(robot_events.c.game_id == game_id)
        if since_ms is not None:
            games_query = games_query.where(robot_games.c.round_start_ms >= since_ms)
            events_query = events_query.join(
                robot_games, robot_games.c.game_id == robot_events.c.game_id
            ).where(robot_games.c.round_start_ms >= since_ms)
        with self.db.read() as conn:
            rows = conn.execute(games_query).mappings().all()
            events: dict[str, list[GameEvent]] = {}
            for gid, data in conn.execute(events_query):
                events.setdefault(gid, []).append(event_from_json(data))
        return [JournaledGame(
            setup=setup_from_columns(row), link=link_of(row),
            events=tuple(events.get(row["game_id"], ())),
            last_stage=None if row["last_stage"] is None else CheckStage(row["last_stage"]),
            end_delivered=row["end_id"] is not None) for row in rows]

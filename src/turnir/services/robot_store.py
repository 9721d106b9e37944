"""The robot's games and decisions in the database: one object that is both the robot's
``DecisionStore`` and its ``GameJournal`` (``turnir.robot.store``, ``turnir.robot.journal``).

Each call is one short transaction of its own (the robot calls it while it holds its own lock,
so the games stay in step with what is kept). Decisions are keyed by their id: the same
decision again changes nothing, a different one with the same id is refused
(``ConflictError``). Registering a game with a tournament link checks the link against the
tournament (``turnir.services.online.register_online_game``).

One process takes a game's events (the journal numbers them itself, and two feeding the same
game would interleave them); the checks may run in other processes (``turnir robot work``,
``turnir.services.robot_work``). So that workers find the due games, the store keeps each
game's next check moment (``robot_games.next_check_ms``) on registration and whenever it
records a stage passed; ``record_game_end`` clears it, and the game's lease, when the game
ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from turnir.domain.robot_rules import (
    CheckStage,
    RobotSettings,
    TimeControl,
    check_schedule,
)
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
from turnir.robot.store import decision_exists
from turnir.services.common import Database, changing, reading
from turnir.services.online import ROBOT_ACTOR, link_of, register_online_game
from turnir.storage import robot_repo


class DatabaseRobotStore:
    """``DecisionStore`` and ``GameJournal`` on the tables of ``turnir.storage.tables_robot``."""

    def __init__(self, db: Database, settings: RobotSettings | None = None) -> None:
        self.db = db
        self.settings = settings or RobotSettings()

    # --- DecisionStore -----------------------------------------------------------------------

    def add(self, decision: Decision) -> None:
        body = decision_json(decision)
        with changing(self.db, None, ROBOT_ACTOR) as change:
            known = robot_repo.decision_body(change.conn, decision.id)
            if known is not None:
                if decision_from_json(known) != decision:
                    raise decision_exists(decision)
                return
            result = decision.result
            inserted = robot_repo.insert_decision(change.conn, {
                "id": decision.id, "game_id": decision.game_id,
                "stage": decision.stage.value if decision.stage else None,
                "at_ms": decision.at_ms, "verdict": decision.verdict.value,
                "rule": decision.rule.value, "result": None if result is None else result.value,
                "body": body})
            if not inserted:  # another worker kept one with this id in the meantime
                known = robot_repo.decision_body(change.conn, decision.id)
                if known is None or decision_from_json(known) != decision:
                    raise decision_exists(decision)

    def for_game(self, game_id: str) -> list[Decision]:
        with reading(self.db) as tx:
            return [decision_from_json(body)
                    for body in robot_repo.decision_bodies(tx, game_id=game_id)]

    def since(self, position: int = 0) -> list[Decision]:
        with reading(self.db) as tx:
            return [decision_from_json(body)
                    for body in robot_repo.decision_bodies(tx, offset=max(position, 0))]

    def __len__(self) -> int:
        with reading(self.db) as tx:
            return robot_repo.count_decisions(tx)

    # --- GameJournal -------------------------------------------------------------------------

    def register(self, setup: GameSetup, link: TournamentLink | None) -> TournamentLink | None:
        return register_online_game(self.db, setup, link, settings=self.settings)

    def append(self, game_id: str, first: int, events: Sequence[GameEvent]) -> None:
        if not events:
            return
        rows: list[dict[str, Any]] = []
        for number, event in enumerate(events, start=first):
            data = event_json(event)
            rows.append({"game_id": game_id, "seq": number, "kind": data["type"],
                         "at_ms": event.at_ms, "data": data})
        with changing(self.db, None, ROBOT_ACTOR) as change:
            robot_repo.insert_events(change.conn, rows)

    def passed(self, stages: Sequence[tuple[str, CheckStage]]) -> None:
        if not stages:
            return
        with changing(self.db, None, ROBOT_ACTOR) as change:
            rows = {row["game_id"]: row for row in
                    robot_repo.schedule_rows(change.conn, [g for g, _ in stages])}
            robot_repo.set_last_stages(change.conn, [
                (game_id, stage.value, self._next_after(rows.get(game_id), stage))
                for game_id, stage in stages])

    def _next_after(self, row: Any, stage: CheckStage) -> int | None:
        """When the check after ``stage`` is due (``None``: ended, or no stage left)."""
        if row is None or row["end_id"] is not None:
            return None
        schedule = check_schedule(TimeControl.parse(row["time_control"]),
                                  int(row["round_start_ms"]), self.settings)
        following = schedule.next_after(stage)
        return None if following is None else schedule.at(following)

    def load(self, game_id: str | None = None, *,
             since_ms: int | None = None) -> list[JournaledGame]:
        """Every kept game (or the one), registration order; ``since_ms``: only the games whose
        round started then or later."""
        with reading(self.db) as tx:
            rows, events = robot_repo.kept_games(tx, game_id, since_ms=since_ms)
        return _journaled(rows, events)

    def load_many(self, game_ids: Sequence[str]) -> tuple[list[JournaledGame],
                                                         dict[str, list[Decision]]]:
        """The kept games of ``game_ids`` and their decisions (game id → oldest first), in
        one read."""
        with reading(self.db) as tx:
            rows, events = robot_repo.kept_games(tx, game_ids=game_ids)
            bodies = robot_repo.decisions_by_game(tx, game_ids)
        by_game: dict[str, list[Decision]] = {}
        for body in bodies:
            decision = decision_from_json(body)
            by_game.setdefault(decision.game_id, []).append(decision)
        return _journaled(rows, events), by_game


def _journaled(rows: Sequence[Any], events: dict[str, list[dict[str, Any]]],
               ) -> list[JournaledGame]:
    return [JournaledGame(
        setup=setup_from_columns(row), link=link_of(row),
        events=tuple(event_from_json(data) for data in events.get(row["game_id"], ())),
        last_stage=None if row["last_stage"] is None else CheckStage(row["last_stage"]),
        end_delivered=row["end_id"] is not None) for row in rows]

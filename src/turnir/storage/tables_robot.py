"""Tables for the online judge robot's games and decisions (issue 7)
on the shared metadata of ``turnir.storage.tables``.

Terms: a *robot game* is a chess game the game server registered with the robot, optionally
linked to one game of a tournament match (tournament, round, table, game number; the pairing's
players and which of them plays White are fixed at registration). Its *events* (moves, clock
readings, resignations, flag falls, draw agreements) are kept in order so that a restarted
robot rebuilds the game exactly (``turnir.robot.journal``). A *decision* is the robot's
``Decision`` with the rule and the figures, kept as JSON and keyed by its id.

The *end* of a robot game (its result and reason, from a robot decision or from an event) is
kept on the game's row with what became of it in the tournament (``end_state``):
``no_tournament`` (the game is not linked), ``waiting`` (the match is not decided yet),
``applied`` (the match result was recorded, or was already there), ``unapplied`` (it could not
be recorded: ``problem`` says why; a judge retries or dismisses it), ``dismissed`` (by a judge).

A *robot token* is how the game server proves itself to the robot's HTTP API: only its hash is
kept (``robot_tokens``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    ForeignKey,
    Index,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from turnir.storage.tables import SIDES, Base, BigId, _choice, _tables

END_STATES = ("no_tournament", "waiting", "applied", "unapplied", "dismissed")
CHESS_RESULTS = ("1-0", "0-1", "1/2-1/2")
_LINK = ("tournament_id", "round", "table_no", "game_number", "white_side", "player_a",
         "player_b")
_END = ("result", "end_reason", "end_id", "end_state", "ended_at")


class RobotGame(Base):
    """A game registered with the robot, its tournament link, and its end once it ended."""

    __tablename__ = "robot_games"
    __table_args__ = (
        UniqueConstraint("tournament_id", "round", "table_no", "game_number",
                         name="uq_robot_games_slot"),
        Index("ix_robot_games_match", "tournament_id", "round", "table_no"),
        Index("ix_robot_games_end_state", "end_state"),
        Index("ix_robot_games_next_check_ms", "next_check_ms"),
        CheckConstraint(
            " AND ".join(f"{c} IS NULL" for c in _LINK) + " OR ("
            + " AND ".join(f"{c} IS NOT NULL" for c in _LINK)
            + " AND round >= 1 AND table_no >= 1 AND game_number >= 1)",
            name="link",
        ),
        _choice("white_side", SIDES, nullable=True),
        CheckConstraint(
            " AND ".join(f"{c} IS NULL" for c in _END) + " OR ("
            + " AND ".join(f"{c} IS NOT NULL" for c in _END) + ")",
            name="end",
        ),
        _choice("result", CHESS_RESULTS, nullable=True),
        _choice("end_state", END_STATES, nullable=True),
    )

    game_id: Mapped[str] = mapped_column(String(100), primary_key=True)
    """The game server's id of the game."""
    white: Mapped[str] = mapped_column(String(200))
    black: Mapped[str] = mapped_column(String(200))
    time_control: Mapped[str] = mapped_column(String(20))
    """``base+increment`` (minutes + seconds)."""
    round_start_ms: Mapped[int] = mapped_column(BigInteger)
    started_at_ms: Mapped[int | None] = mapped_column(BigInteger)
    initial_fen: Mapped[str | None] = mapped_column(String(100))
    registered_at: Mapped[datetime]
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"))
    round: Mapped[int | None]
    table_no: Mapped[int | None]
    game_number: Mapped[int | None]
    """The game's number in its match (1, 2, …)."""
    white_side: Mapped[str | None] = mapped_column(String(1))
    """Which player of the pairing plays White: ``a`` or ``b``."""
    player_a: Mapped[int | None]
    """The pairing's players when the game was registered (a re-paired round is noticed)."""
    player_b: Mapped[int | None]
    last_stage: Mapped[str | None] = mapped_column(String(20))
    """The last check stage the game has been through (also when it had no lagger)."""
    result: Mapped[str | None] = mapped_column(String(10))
    """The chess result: ``1-0``, ``0-1`` or ``1/2-1/2``."""
    end_reason: Mapped[str | None] = mapped_column(String(30))
    """How the game ended (``turnir.robot.game.EndReason``)."""
    end_rule: Mapped[str | None] = mapped_column(String(10))
    """The robot's rule when a decision ended it (``A-1`` …)."""
    end_id: Mapped[str | None] = mapped_column(String(120))
    """The decision id that ended it, or ``<game id>/end`` for an end by an event: a second
    delivery with the same id changes nothing."""
    end_state: Mapped[str | None] = mapped_column(String(20))
    problem_code: Mapped[str | None] = mapped_column(String(50))
    problem: Mapped[str | None] = mapped_column(String(500))
    """Why the end could not be recorded in the tournament (``unapplied``), or the judge's
    note (``dismissed``)."""
    ended_at: Mapped[datetime | None]
    """When the end was delivered."""
    handled_by: Mapped[str | None] = mapped_column(String(200))
    """Who applied, retried or dismissed the end last."""
    next_check_ms: Mapped[int | None] = mapped_column(BigInteger)
    """When the game's next check stage is due (ms on the server's timeline); empty once the
    game ended or went through its last stage (migration 0018, robot workers)."""
    lease_owner: Mapped[str | None] = mapped_column(String(100))
    """The robot worker that claimed the game's due check (``turnir robot work``)."""
    lease_until_ms: Mapped[int | None] = mapped_column(BigInteger)
    """Until when the claim holds; an expired one is taken over by another worker."""


class RobotEvent(Base):
    """One event of a robot game, numbered from 0 in the order the robot applied them."""

    __tablename__ = "robot_events"

    game_id: Mapped[str] = mapped_column(
        String(100), ForeignKey("robot_games.game_id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    at_ms: Mapped[int] = mapped_column(BigInteger)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The event (``turnir.robot.journal.event_json``)."""


class RobotDecision(Base):
    """A decision of the robot, with the rule and the figures (``body``)."""

    __tablename__ = "robot_decisions"

    seq: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    """The order decisions were stored in (``GET /decisions?since=N``)."""
    id: Mapped[str] = mapped_column(String(120), unique=True)
    """``<game id>/<stage>`` or ``<game id>/flag``."""
    game_id: Mapped[str] = mapped_column(String(100), index=True)
    stage: Mapped[str | None] = mapped_column(String(20))
    at_ms: Mapped[int] = mapped_column(BigInteger)
    verdict: Mapped[str] = mapped_column(String(40))
    rule: Mapped[str] = mapped_column(String(10))
    result: Mapped[str | None] = mapped_column(String(10))
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The whole decision (``turnir.robot.journal.decision_json``)."""


class RobotToken(Base):
    """A bearer token of the game server for the robot's HTTP API (issue 10 item 4): for the
    whole deployment (``tournament_id`` empty) or for one tournament. Only the SHA-256 of the
    token is kept; the token itself is shown once, when it is created."""

    __tablename__ = "robot_tokens"
    __table_args__ = (
        CheckConstraint("length(token_hash) = 64", name="token_hash"),
        CheckConstraint("revoked_at IS NULL OR revoked_by IS NOT NULL", name="revoked"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    """The SHA-256 of the token, in hex."""
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"), index=True)
    """The one tournament the token is for; empty: every tournament of the deployment that
    allows the robot."""
    label: Mapped[str] = mapped_column(String(200), default="")
    """What the operator calls it (which game server, which event)."""
    created_at: Mapped[datetime]
    created_by: Mapped[str] = mapped_column(String(200))
    revoked_at: Mapped[datetime | None]
    revoked_by: Mapped[str | None] = mapped_column(String(200))


(robot_games, robot_events, robot_decisions, robot_tokens) = _tables(
    RobotGame, RobotEvent, RobotDecision, RobotToken,
)

"""The game server's tokens for the robot's HTTP API (issue 10 item 4; terms in
``turnir.robot.auth``).

The operator creates a token for the whole deployment or for one tournament
(``create_robot_token``: the token is returned once, only its SHA-256 is kept), lists them
(``list_robot_tokens``) and revokes them (``revoke_robot_token``, or every live token of a
tournament with ``revoke_tournament_tokens``); each change leaves an audit record
(``robot.token.create``, ``robot.token.revoke``; never the token nor its hash).
``DatabaseTokens`` is the API's ``TokenVerifier`` on the table: a revoked token stops working
at the next request.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from turnir.domain.text import NAME_LEN, clean_text
from turnir.errors import NotFoundError
from turnir.robot.auth import RobotCredential, new_token, token_hash
from turnir.services.common import Database, Tx, changing, reading
from turnir.storage import robot_repo
from turnir.storage.mappers import tournament_row


@dataclass(frozen=True, slots=True)
class RobotTokenInfo:
    """A robot token as the operator sees it (never the token itself)."""

    id: int
    tournament_id: int | None
    """``None``: for the whole deployment."""
    label: str
    created_at: datetime
    created_by: str
    revoked_at: datetime | None
    revoked_by: str | None

    @property
    def live(self) -> bool:
        return self.revoked_at is None

    @property
    def scope(self) -> str:
        """``deployment`` or ``tournament #T``."""
        return "deployment" if self.tournament_id is None else f"tournament #{self.tournament_id}"


def _utc(value: datetime | None) -> datetime | None:
    if value is not None and value.tzinfo is None:  # SQLite keeps no zone; all times are UTC
        return value.replace(tzinfo=UTC)
    return value


def _info(row: Mapping[Any, Any]) -> RobotTokenInfo:
    created = _utc(row["created_at"])
    assert created is not None
    return RobotTokenInfo(id=row["id"], tournament_id=row["tournament_id"], label=row["label"],
                          created_at=created, created_by=row["created_by"],
                          revoked_at=_utc(row["revoked_at"]), revoked_by=row["revoked_by"])


def _audit_view(info: RobotTokenInfo) -> dict[str, Any]:
    return {"token": info.id, "scope": info.scope, "label": info.label,
            "revoked": info.revoked_at is not None}


def create_robot_token(db: Database, *, actor: str, tournament_id: int | None = None,
                       label: str = "") -> tuple[RobotTokenInfo, str]:
    """A new token for the deployment (``tournament_id`` ``None``) or one tournament; returns
    its record and the token, which is not kept and cannot be shown again."""
    label = clean_text(label, field="label", max_len=NAME_LEN, multiline=False)
    token = new_token()
    with changing(db, tournament_id, actor) as change:
        if tournament_id is not None:
            tournament_row(change.conn, tournament_id)
        token_id = robot_repo.insert_token(change.conn, token_hash=token_hash(token),
                                           tournament_id=tournament_id, label=label,
                                           at=change.at, actor=change.actor)
        info = _token(change.conn, token_id)
        change.log(tournament_id, "robot.token.create", "robot_token", info.id, None,
                   _audit_view(info))
    return info, token


def _token(tx: Tx, token_id: int) -> RobotTokenInfo:
    row = robot_repo.token_row(tx, token_id)
    if row is None:
        raise NotFoundError("no robot token #{token}", code="unknown_token", token=token_id)
    return _info(row)


def list_robot_tokens(db: Database, *, tournament_id: int | None = None,
                      revoked: bool = False) -> list[RobotTokenInfo]:
    """The tokens (of one tournament when given; the revoked ones too with ``revoked``),
    oldest first."""
    with reading(db) as tx:
        if tournament_id is not None:
            tournament_row(tx, tournament_id)
        return [_info(row) for row in robot_repo.token_rows(tx, tournament_id=tournament_id,
                                                           revoked=revoked)]


def revoke_robot_token(db: Database, token_id: int, *, actor: str) -> RobotTokenInfo:
    """Revoke a token: the API refuses it from the next request on. Revoking it again changes
    nothing."""
    with reading(db) as tx:
        tournament_id = _token(tx, token_id).tournament_id
    with changing(db, tournament_id, actor) as change:
        before = _token(change.conn, token_id)
        if not before.live:
            return before
        robot_repo.revoke_tokens(change.conn, [token_id], change.at, change.actor)
        after = _token(change.conn, token_id)
        change.log(tournament_id, "robot.token.revoke", "robot_token", token_id,
                   _audit_view(before), _audit_view(after))
        return after


def revoke_tournament_tokens(db: Database, tournament_id: int, *,
                             actor: str) -> list[RobotTokenInfo]:
    """Revoke every live token of a tournament (say, once it is over); returns them."""
    with changing(db, tournament_id, actor) as change:
        tournament_row(change.conn, tournament_id)
        live = [_info(row) for row in robot_repo.token_rows(change.conn,
                                                           tournament_id=tournament_id)]
        robot_repo.revoke_tokens(change.conn, [t.id for t in live], change.at, change.actor)
        done = [_token(change.conn, t.id) for t in live]
        for before, after in zip(live, done, strict=True):
            change.log(tournament_id, "robot.token.revoke", "robot_token", before.id,
                       _audit_view(before), _audit_view(after))
        return done


class DatabaseTokens:
    """The API's ``TokenVerifier`` on ``robot_tokens``: a live token whose hash is kept."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def verify(self, token: str) -> RobotCredential | None:
        presented = token_hash(token)
        with reading(self.db) as tx:
            row = robot_repo.live_token(tx, presented)
        if row is None or not hmac.compare_digest(row.token_hash, presented):
            return None
        return RobotCredential(row.tournament_id, token_id=row.id)

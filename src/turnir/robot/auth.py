"""Who may call the robot's HTTP API: the game server's bearer token (issue 10 item 4).

Terms:

- a *robot token* is a random secret (``trb_`` and 43 URL-safe characters: 256 bits) that the
  game server sends as ``Authorization: Bearer <token>``. Only its SHA-256 is kept
  (``token_hash``); the token itself is shown once, when the operator creates it;
- a token is for the whole *deployment* (every tournament, and games that name no
  tournament) or for *one tournament* (only games linked to that tournament's matches);
- a *credential* (``RobotCredential``) is what a valid token grants; a ``TokenVerifier``
  turns a token into one, or refuses it (unknown, revoked, malformed).

Whether a tournament lets the robot record its results at all (the organizer's
``robot_allowed``) is checked where games are linked and results recorded
(``turnir.services.online``), whatever the token.

The database's verifier is ``turnir.services.robot_tokens.DatabaseTokens``; ``StaticTokens``
keeps a few token hashes in memory (``turnir robot serve --memory``, tests).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from turnir.errors import UserError

TOKEN_PREFIX = "trb_"
"""Every robot token starts so (it is easy to spot in a configuration file or a leak)."""
MAX_TOKEN_LENGTH = 200
"""A longer ``Authorization`` value is refused without hashing it."""


class RobotUnauthorized(UserError):
    """No token, or not a valid one (the API answers 401)."""

    code = "unauthorized"


class RobotForbidden(UserError):
    """A valid token that does not cover this game or tournament, or a tournament that does not
    let the robot record its results (the API answers 403)."""

    code = "forbidden"


def new_token() -> str:
    """A fresh robot token (256 random bits)."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What is kept of a token: its SHA-256 in hex (a high-entropy secret needs no salt)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def well_formed(token: str) -> bool:
    """A value that could be a robot token (checked before any lookup)."""
    return (token.startswith(TOKEN_PREFIX) and len(token) <= MAX_TOKEN_LENGTH
            and token.isascii() and token.isprintable())


@dataclass(frozen=True, slots=True)
class RobotCredential:
    """What a valid robot token grants."""

    tournament_id: int | None
    """The one tournament the token is for; ``None``: the whole deployment."""
    token_id: int | None = None
    """The token's number in the database (``turnir robot token list``), if kept there."""

    def covers(self, tournament_id: int | None) -> bool:
        """May the token act on a game of ``tournament_id`` (``None``: a game with no
        tournament)?"""
        return self.tournament_id is None or self.tournament_id == tournament_id

    def require(self, tournament_id: int | None, what: str) -> None:
        """Refuse (``RobotForbidden``) what the token does not cover; ``what`` names it."""
        if self.covers(tournament_id):
            return
        if tournament_id is None:
            raise RobotForbidden("{what} is not linked to a tournament; the token is for "
                                 "tournament #{own} only", code="wrong_tournament",
                                 what=what, own=self.tournament_id)
        raise RobotForbidden("{what} belongs to tournament #{tournament}; the token is for "
                             "tournament #{own} only", code="wrong_tournament", what=what,
                             tournament=tournament_id, own=self.tournament_id)


class TokenVerifier(Protocol):
    """Turns a presented token into a credential."""

    def verify(self, token: str) -> RobotCredential | None:
        """The credential of a valid token; ``None`` for an unknown or revoked one."""
        ...


class StaticTokens:
    """A fixed set of tokens held as hashes in memory: ``{hash: tournament id or None}``."""

    def __init__(self, hashes: Mapping[str, int | None]) -> None:
        self._hashes = dict(hashes)

    @classmethod
    def of(cls, token: str, *, tournament_id: int | None = None) -> StaticTokens:
        """One token (for the deployment, or for ``tournament_id``)."""
        if not well_formed(token):
            raise UserError("a robot token starts with {prefix!r} and has at most {max} "
                            "printable characters", code="invalid_token", prefix=TOKEN_PREFIX,
                            max=MAX_TOKEN_LENGTH)
        return cls({token_hash(token): tournament_id})

    def verify(self, token: str) -> RobotCredential | None:
        presented = token_hash(token)
        found: RobotCredential | None = None
        for kept, tournament_id in self._hashes.items():  # every one compared: constant time
            if hmac.compare_digest(kept, presented):
                found = RobotCredential(tournament_id)
        return found


def bearer_token(authorization: str | None) -> str:
    """The token of an ``Authorization: Bearer <token>`` header; ``RobotUnauthorized`` when it
    is missing or not a bearer token."""
    if authorization is None or not authorization.strip():
        raise RobotUnauthorized("the robot's API needs the game server's token: send "
                                "'Authorization: Bearer <token>' (the server's operator "
                                "creates one)", code="unauthorized")
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise RobotUnauthorized("the Authorization header must be 'Bearer <token>'",
                                code="unauthorized")
    return token.strip()


def authenticate(verifier: TokenVerifier, authorization: str | None) -> RobotCredential:
    """The credential of a request's ``Authorization`` header; ``RobotUnauthorized`` (401)
    when there is no token or it is not valid (unknown, revoked, malformed: one answer)."""
    token = bearer_token(authorization)
    credential = verifier.verify(token) if well_formed(token) else None
    if credential is None:
        raise RobotUnauthorized("the robot token is not valid (unknown or revoked)",
                                code="invalid_token")
    return credential

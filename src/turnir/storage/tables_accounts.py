"""Tables for web accounts, roles and sessions (issue 4) on the shared metadata of
``turnir.storage.tables``.

- ``accounts``: a person who logs in to the web app, with one role on this server: organizer,
  head judge, floor judge or player (``docs/web.md``). A player's account names the *person*
  (``people.id``) whose entries it may report for; the password is an argon2 hash.
- ``web_sessions``: a logged-in browser or API client; the key is the SHA-256 of the token the
  client holds (the token itself is never stored).
- ``login_failures``: one row per failed login (неудачный вход) in the last window, shared by
  every worker: the SHA-256 of the login as typed (never the text: people type passwords into
  the login field) and the client's address (an IPv6 client by its /64 network). The login
  rate limit counts them (``turnir.services.login_limits``); rows older than the window are
  pruned at every failure.
- ``result_reports``: a player's report of their own match (сообщение о результате); the
  result is recorded when the opponent reports the same one, and two different reports wait
  for a judge. A report belongs to one pairing *and its two players*: it goes with the pairing
  (``ON DELETE CASCADE``: an undone round takes its reports along) and counts only while the
  pairing still has the same players A and B (a swap makes it stale; the swap also deletes it).
- ``round_timers``: when a round's clock was started and for how long (the timer everyone sees).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, CheckConstraint, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from turnir.domain.accounts import AccountRole
from turnir.storage.tables import Base, BigId, _choice, _entry_key, _tables, _version_check

ACCOUNT_ROLES = ("organizer", "head_judge", "floor_judge", "player")


class Account(Base):
    """A login of the web app with its role (организатор, главный судья, судья, игрок)."""

    __tablename__ = "accounts"
    __table_args__ = (
        _choice("role", tuple(str(r) for r in AccountRole)),
        _version_check(),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    login: Mapped[str] = mapped_column(String(100), unique=True)
    """Case-folded; what the person types to log in."""
    name: Mapped[str] = mapped_column(String(200))
    """Shown on pages and written as the actor of every change the account makes."""
    role: Mapped[str] = mapped_column(String(20))
    person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"), index=True)
    """For a player: the person whose entries the account reports for."""
    password_hash: Mapped[str] = mapped_column(String(300))
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    game_age: Mapped[int | None]
    """An online player's character's age in game years (C-2: starter constructed is for
    characters under 18); ``None``: not given (migration 0014)."""
    created_at: Mapped[datetime]
    version: Mapped[int] = mapped_column(default=1)


class WebSession(Base):
    """A logged-in client: the SHA-256 of its token, whose account, until when."""

    __tablename__ = "web_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]


class LoginFailure(Base):
    """A failed login: which login (as a hash), from where, when."""

    __tablename__ = "login_failures"
    __table_args__ = (
        Index("ix_login_failures_login_key_at", "login_key", "at"),
        Index("ix_login_failures_address_at", "address", "at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    login_key: Mapped[str] = mapped_column(String(64))
    """SHA-256 (hex) of the login as the login form normalises it."""
    address: Mapped[str] = mapped_column(String(64))
    """The client's address (IPv6: its /64 network), as ``client_address`` gives it."""
    at: Mapped[datetime] = mapped_column(index=True)


class ResultReport(Base):
    """A player's report of their own match, bound to the pairing and its two players as they
    were when it was made; the result is stored from that player A's side (``wins_a``…)."""

    __tablename__ = "result_reports"
    __table_args__ = (
        UniqueConstraint("pairing_id", "player", name="uq_result_reports_player"),
        _entry_key("a", "fk_result_reports_a"),
        _entry_key("b", "fk_result_reports_b"),
        CheckConstraint("a <> b AND (player = a OR player = b)", name="player"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    pairing_id: Mapped[int] = mapped_column(ForeignKey("pairings.id", ondelete="CASCADE"))
    """The match reported; deleting it (undoing its round) deletes the report."""
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    a: Mapped[int]
    """Player A of the pairing when the report was made (an entry number)."""
    b: Mapped[int]
    """Player B of the pairing when the report was made."""
    player: Mapped[int]
    """Who reported: ``a`` or ``b``'s entry number."""
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    wins_a: Mapped[int]
    wins_b: Mapped[int]
    draws: Mapped[int]
    outcome: Mapped[str] = mapped_column(String(20))
    ending: Mapped[str] = mapped_column(String(20))
    at: Mapped[datetime]


class RoundTimer(Base):
    """A round's clock: started at ``started_at`` for ``duration_s`` seconds, paused or not."""

    __tablename__ = "round_timers"
    __table_args__ = (CheckConstraint("duration_s > 0", name="duration"),)

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(primary_key=True)
    started_at: Mapped[datetime]
    duration_s: Mapped[int]
    paused_at: Mapped[datetime | None]
    """The clock stands still since then; resuming moves ``started_at`` on by the pause
    (migration 0012)."""


(accounts, web_sessions, login_failures, result_reports, round_timers) = _tables(
    Account, WebSession, LoginFailure, ResultReport, RoundTimer,
)

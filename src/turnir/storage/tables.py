"""The database tables (SQLAlchemy 2 typed declarative); the schema the migrations build.

Terms follow the domain (``turnir.domain.model``): a *person* (человек) is someone across
tournaments (for ratings later); an *entry* (участник турнира) is a person's place in one
tournament, numbered 1, 2, … (the domain ``PlayerId``); a *stage* is the Swiss part or the top
(P-1); a *pairing* is one line of a round: a match at a table or a bye (S-5), with its match
result columns; *games* are the per-game results when they were reported (S-1).

Every editable record carries a ``version`` (optimistic concurrency: an update based on an old
version is refused, see ``docs/storage.md``). ``audit_log`` is append-only: triggers created
by the migrations refuse UPDATE and DELETE on it, on SQLite and on PostgreSQL; its entries are
hash-chained per tournament, so an edit behind the triggers' back shows (``storage.audit``).

Players are referenced by ``(tournament_id, number)`` with composite foreign keys, so a
pairing can only name an entry of its own tournament.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from turnir.domain.games import Side
from turnir.domain.model import (
    PairingKind,
    RulesLevel,
    StaffRole,
    Stage,
    Status,
    TournamentFormat,
)
from turnir.domain.results import MatchEnding, MatchOutcome

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

BigId = BigInteger().with_variant(Integer(), "sqlite")
"""A 64-bit key; SQLite autoincrements only ``INTEGER PRIMARY KEY``."""

# The check constraints spell each enum of the domain from the enum itself (issue 11).
FORMATS = tuple(str(v) for v in TournamentFormat)
RULES_LEVELS = tuple(str(v) for v in RulesLevel)
STATUSES = tuple(str(v) for v in Status)
STAGES = tuple(str(v) for v in Stage)
PAIRING_KINDS = tuple(str(v) for v in PairingKind)
OUTCOMES = tuple(str(v) for v in MatchOutcome)
ENDINGS = tuple(str(v) for v in MatchEnding)
JUDGE_ROLES = tuple(str(v) for v in StaffRole)
SIDES = tuple(str(v) for v in Side)


def _one_of(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


def _choice(column: str, values: tuple[str, ...], *, nullable: bool = False) -> CheckConstraint:
    """The check, named after ``column``, that holds it to one of ``values`` (or ``NULL``)."""
    rule = _one_of(column, values)
    return CheckConstraint(f"{column} IS NULL OR {rule}" if nullable else rule, name=column)


def _version_check() -> CheckConstraint:
    """The check of a row's ``version`` column (optimistic locking starts at 1)."""
    return CheckConstraint("version >= 1", name="version")


def _entry_key(number: str, name: str) -> ForeignKeyConstraint:
    """The foreign key from ``(tournament_id, number)`` to the entry it names."""
    return ForeignKeyConstraint(["tournament_id", number],
                                ["entries.tournament_id", "entries.number"], name=name)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        datetime: DateTime(timezone=True),
        dict[str, Any]: JSON,
        list[int]: JSON,
        list[str]: JSON,
    }


class Person(Base):
    """A person across tournaments (человек), the subject of ratings later."""

    __tablename__ = "people"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    name_key: Mapped[str] = mapped_column(String(200), index=True)
    """``name`` case-folded with single spaces, for look-ups."""
    city: Mapped[str] = mapped_column(String(100), default="")
    club: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime]


class TournamentRow(Base):
    """A tournament: format, rules level, settings (S-7, P-4, P-5), seed and status."""

    __tablename__ = "tournaments"
    __table_args__ = (
        _choice("format", FORMATS),
        _choice("rules_level", RULES_LEVELS),
        _choice("status", STATUSES),
        CheckConstraint("best_of IN (1, 3, 5) AND top_best_of IN (1, 3, 5)", name="best_of"),
        CheckConstraint("top_size >= 0", name="top_size"),
        _version_check(),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), index=True)
    format: Mapped[str] = mapped_column(String(20), default="swiss")
    rules_level: Mapped[str] = mapped_column(String(20), default="amateur")
    points_win: Mapped[int] = mapped_column(default=3)
    points_draw: Mapped[int] = mapped_column(default=1)
    points_loss: Mapped[int] = mapped_column(default=0)
    points_bye: Mapped[int] = mapped_column(default=3)
    best_of: Mapped[int] = mapped_column(default=3)
    top_best_of: Mapped[int] = mapped_column(default=3)
    swiss_rounds: Mapped[int | None]
    """``None``: ceil(log2 N) when the first round is paired (P-4)."""
    top_size: Mapped[int] = mapped_column(default=0)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(20), default="registration")
    undone: Mapped[list[int]] = mapped_column(default=list)
    """Round numbers undone, in order (each undo makes the next lot a new draw)."""
    version: Mapped[int] = mapped_column(default=1)
    created_at: Mapped[datetime]
    created_by: Mapped[str] = mapped_column(String(200), default="")
    finished_at: Mapped[datetime | None]
    robot_allowed: Mapped[bool] = mapped_column(default=False, server_default=text("false"))
    """The organizer lets the online judge robot record this tournament's results (an online
    tournament; ``turnir.services.online``, migration 0008). Off by default."""
    clock_minutes: Mapped[int | None]
    """Pairing a round starts its clock for this many minutes; ``None``: the organizer starts
    it by hand (``turnir.services.round_clock``, migration 0012)."""


class Entry(Base):
    """A participant of one tournament; ``number`` is the domain ``PlayerId``."""

    __tablename__ = "entries"
    __table_args__ = (
        UniqueConstraint("tournament_id", "number", name="uq_entries_number"),
        UniqueConstraint("tournament_id", "name_key", name="uq_entries_name"),
        CheckConstraint("number >= 1", name="number"),
        CheckConstraint("joined_round >= 1", name="joined_round"),
        _version_check(),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    number: Mapped[int]
    person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    name_key: Mapped[str] = mapped_column(String(200))
    """The name case-folded: unique within the tournament."""
    surname: Mapped[str] = mapped_column(String(200), default="", server_default="")
    """The surname kept apart, for lists in surname order (``turnir.domain.names``; issue 12,
    migration 0013: an older entry's is the last word of its name)."""
    given_name: Mapped[str] = mapped_column(String(200), default="", server_default="")
    """The given name kept apart (the rest of the name)."""
    city: Mapped[str] = mapped_column(String(100), default="")
    club: Mapped[str] = mapped_column(String(100), default="")
    joined_round: Mapped[int] = mapped_column(default=1)
    dropped_after: Mapped[int | None]
    checked_in: Mapped[bool] = mapped_column(Boolean, default=False)
    version: Mapped[int] = mapped_column(default=1)


class GrantedBye(Base):
    """A privilege bye granted by the organizer for a round (S-5)."""

    __tablename__ = "granted_byes"
    __table_args__ = (
        _entry_key("number", "fk_granted_byes_entry"),
        CheckConstraint("round >= 1", name="round"),
    )

    tournament_id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    round: Mapped[int] = mapped_column(primary_key=True)


class Drop(Base):
    """A drop (выход из турнира, P-7) or a disqualification: the history, one row each."""

    __tablename__ = "drops"
    __table_args__ = (
        _entry_key("number", "fk_drops_entry"),
        Index("ix_drops_tournament", "tournament_id", "number"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int]
    number: Mapped[int]
    after_round: Mapped[int]
    at: Mapped[datetime]
    actor: Mapped[str] = mapped_column(String(200))
    reason: Mapped[str] = mapped_column(String(500), default="")


class PenaltyCount(Base):
    """Penalty counts per entry as T-6 compares them (kept from imported files)."""

    __tablename__ = "penalty_counts"
    __table_args__ = (
        _entry_key("number", "fk_penalty_counts_entry"),
        CheckConstraint("match_losses >= 0 AND game_losses >= 0 AND penalty_points >= 0 "
                        "AND warnings >= 0", name="non_negative"),
    )

    tournament_id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    match_losses: Mapped[int] = mapped_column(default=0)
    game_losses: Mapped[int] = mapped_column(default=0)
    penalty_points: Mapped[int] = mapped_column(default=0)
    warnings: Mapped[int] = mapped_column(default=0)


class StageRow(Base):
    """A stage of a tournament: the Swiss part or the top (P-1)."""

    __tablename__ = "stages"
    __table_args__ = (
        UniqueConstraint("tournament_id", "kind", name="uq_stages_kind"),
        _choice("kind", STAGES),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    kind: Mapped[str] = mapped_column(String(10))
    position: Mapped[int]


class RoundRow(Base):
    """A round (тур); numbers run 1, 2, … across both stages."""

    __tablename__ = "rounds"
    __table_args__ = (
        UniqueConstraint("tournament_id", "number", name="uq_rounds_number"),
        CheckConstraint("number >= 1", name="number"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    stage_id: Mapped[int] = mapped_column(ForeignKey("stages.id"))
    number: Mapped[int]
    lot: Mapped[str] = mapped_column(String(200))
    """The recorded seed string the round was drawn with (P-3 e)."""
    edits: Mapped[list[str]] = mapped_column(default=list)
    """Manual pairing edits by a judge, in order (P-7)."""
    version: Mapped[int] = mapped_column(default=1)
    created_at: Mapped[datetime]
    created_by: Mapped[str] = mapped_column(String(200), default="")


_RESULT_COLUMNS = ("wins_a", "wins_b", "draws", "outcome", "ending")


class PairingRow(Base):
    """One line of a round: a match at a table or a bye, with the match result when in."""

    __tablename__ = "pairings"
    __table_args__ = (
        UniqueConstraint("round_id", "position", name="uq_pairings_position"),
        Index("ix_pairings_table", "round_id", "table_no"),
        Index("uq_pairings_table", "round_id", "table_no", unique=True,
              sqlite_where=text("table_no > 0"), postgresql_where=text("table_no > 0")),
        _entry_key("a", "fk_pairings_a"),
        _entry_key("b", "fk_pairings_b"),
        _choice("kind", PAIRING_KINDS),
        CheckConstraint(
            "(kind = 'match' AND b IS NOT NULL AND table_no >= 1 AND a <> b) OR "
            "(kind <> 'match' AND b IS NULL AND table_no = 0)",
            name="shape",
        ),
        CheckConstraint(
            " AND ".join(f"{c} IS NULL" for c in _RESULT_COLUMNS)
            + " OR ("
            + " AND ".join(f"{c} IS NOT NULL" for c in _RESULT_COLUMNS)
            + " AND b IS NOT NULL AND wins_a >= 0 AND wins_b >= 0 AND draws >= 0)",
            name="result",
        ),
        _choice("outcome", OUTCOMES, nullable=True),
        _choice("ending", ENDINGS, nullable=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"))
    position: Mapped[int]
    """Order of the line in its round (matches by table, then byes)."""
    table_no: Mapped[int]
    """1 is the top table; 0 for a bye."""
    a: Mapped[int]
    b: Mapped[int | None]
    kind: Mapped[str] = mapped_column(String(20), default="match")
    wins_a: Mapped[int | None]
    wins_b: Mapped[int | None]
    draws: Mapped[int | None]
    outcome: Mapped[str | None] = mapped_column(String(20))
    ending: Mapped[str | None] = mapped_column(String(20))
    version: Mapped[int] = mapped_column(default=1)
    updated_by: Mapped[str | None] = mapped_column(String(200))
    updated_at: Mapped[datetime | None]


class Game(Base):
    """One game of a match, when the games were reported (S-1): winner and reason."""

    __tablename__ = "games"
    __table_args__ = (
        UniqueConstraint("pairing_id", "number", name="uq_games_number"),
        _choice("winner", SIDES, nullable=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    pairing_id: Mapped[int] = mapped_column(ForeignKey("pairings.id", ondelete="CASCADE"))
    number: Mapped[int]
    winner: Mapped[str | None] = mapped_column(String(1))
    """``a``, ``b``, or ``None`` for a drawn game."""
    reason: Mapped[str] = mapped_column(String(30))


class Judge(Base):
    """A member of a tournament's staff (судейская коллегия) and their role: its organizer, head
    judge or a floor judge; J-5 needs the official representative flag.

    ``account_id`` links the row to the web account that acts in this role (issue 10 item 1,
    migration 0010): a web account has the rights of a role in a tournament only through such a
    row. A row without an account is a judge named for the record and for the CLI."""

    __tablename__ = "judges"
    __table_args__ = (
        UniqueConstraint("tournament_id", "name_key", "role", name="uq_judges_role"),
        Index("uq_judges_account", "tournament_id", "account_id", "role", unique=True),
        _choice("role", JUDGE_ROLES),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"))
    name: Mapped[str] = mapped_column(String(200))
    name_key: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(20))
    official_representative: Mapped[bool] = mapped_column(Boolean, default=False)
    version: Mapped[int] = mapped_column(default=1)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), index=True)
    """The web account acting in this role, or ``None`` (a judge named only)."""


class AuditRecord(Base):
    """One change (who, when, what, before and after); append-only and chained: ``seq`` and
    ``digest`` place it in its tournament's chain (``chain`` 0: the server-wide entries), see
    ``turnir.storage.audit`` (migration 0009)."""

    __tablename__ = "audit_log"
    __table_args__ = (
        Index("ix_audit_log_tournament", "tournament_id", "id"),
        Index("ix_audit_log_entity", "tournament_id", "entity", "entity_id"),
        UniqueConstraint("chain", "seq", name="uq_audit_log_chain_seq"),
        CheckConstraint("chain = coalesce(tournament_id, 0)", name="chain"),
        CheckConstraint("seq >= 1", name="seq"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"))
    chain: Mapped[int]
    """The tournament's id, or 0 for a server-wide entry."""
    seq: Mapped[int]
    """1, 2, … within the chain, without gaps."""
    digest: Mapped[str] = mapped_column(String(64))
    """SHA-256 (hex) of the canonical content and the previous entry's digest."""
    at: Mapped[datetime]
    actor: Mapped[str] = mapped_column(String(200))
    action: Mapped[str] = mapped_column(String(50))
    entity: Mapped[str] = mapped_column(String(30))
    entity_id: Mapped[str] = mapped_column(String(100))
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON)


class IdempotencyKey(Base):
    """A request key already answered: the same key again returns the stored answer."""

    __tablename__ = "idempotency_keys"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    action: Mapped[str] = mapped_column(String(50))
    request: Mapped[dict[str, Any]] = mapped_column(JSON)
    response: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[datetime]


def _tables(*models: type[Base]) -> tuple[Table, ...]:
    """The tables of ``models``, in order: ``a, b = _tables(A, B)`` at the end of a module."""
    tables: list[Table] = []
    for model in models:
        table = model.__table__
        if not isinstance(table, Table):  # pragma: no cover - declarative always makes a Table
            raise TypeError(model)
        tables.append(table)
    return tuple(tables)


(people, tournaments, entries, granted_byes, drops, penalty_counts, stages, rounds, pairings,
 games, judges, audit_log, idempotency_keys) = _tables(
    Person, TournamentRow, Entry, GrantedBye, Drop, PenaltyCount, StageRow, RoundRow, PairingRow,
    Game, Judge, AuditRecord, IdempotencyKey,
)


# Tables of later capabilities live in their own modules on the same metadata; importing them
# here makes ``Base.metadata`` complete wherever the schema is used.
from turnir.storage import (  # noqa: E402, F401
    tables_accounts,
    tables_decks,
    tables_draft,
    tables_live_draft,
    tables_penalties,
    tables_ratings,
    tables_robot,
    tables_site,
)

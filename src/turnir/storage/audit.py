"""The audit log (журнал изменений): appending chained entries and reading them back.

Every change leaves one entry (who, when, what, before and after). Entries form *chains*, one
per tournament and one for the server-wide entries (``tournament_id`` NULL, chain 0): each
entry has a sequence number ``seq`` (1, 2, … without gaps within its chain, unique with the
chain) and ``digest``, the SHA-256 (hex) of its canonical content and of the previous entry's
digest in the same chain (``entry_digest``). Rewriting, deleting or inserting an entry breaks
the chain from that entry on; ``turnir.services.audit`` checks it (``turnir log verify``).

Appending reads only the chain's last entry (``seq`` and ``digest``, through the unique index
on ``(chain, seq)``), never the chain. Two writers must not append after the same entry: on
SQLite every write transaction is ``BEGIN IMMEDIATE`` (one writer at a time); on PostgreSQL a
tournament's chain is guarded by the tournament's write lock (``Database.write(lock=…)``, the
``FOR UPDATE`` on its row), taken here when the caller does not hold it already, and the
server-wide chain by a transaction-scoped advisory lock. The unique ``(chain, seq)`` is the
last line of defence: a writer that slipped past the lock fails instead of forking the chain.

The canonical content (``canonical_content``): a JSON object with sorted keys, no whitespace,
UTF-8, of ``tournament`` (id or null), ``seq``, ``action``, ``entity``, ``entity_id``,
``actor``, ``at`` (UTC, ``YYYY-MM-DDTHH:MM:SS.ffffffZ``), ``before``, ``after`` (as stored:
JSON values with their exact types, ``1`` is not ``1.0`` nor ``true``) and ``previous`` (the
previous digest, ``""`` for the first entry). Migration 0009 computed the chains of the entries
written before it with this same function.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, RowMapping, bindparam, func, insert, select

from turnir.storage.database import Database, lock_tournament
from turnir.storage.direct import DirectStatement
from turnir.storage.tables import audit_log, games, pairings, rounds, tournaments

SERVER_CHAIN = 0
"""The chain of the server-wide entries (accounts, ratings, the suspension register)."""
_PG_SERVER_CHAIN_LOCK = 7_413_014
"""The PostgreSQL advisory lock key held while appending to the server-wide chain."""


def chain_of(tournament_id: int | None) -> int:
    """The chain an entry belongs to: its tournament's id, or 0 for a server-wide entry."""
    return SERVER_CHAIN if tournament_id is None else tournament_id


# ----- the canonical content and its digest ------------------------------------------------


def stored_json(value: Any) -> Any:
    """``value`` as it reads back from a JSON column (tuples become lists, keys strings)."""
    return None if value is None else json.loads(json.dumps(value))


def canonical_json(value: Any) -> str:
    """Sorted keys, no whitespace, non-ASCII kept; NaN and infinities refused."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def utc_text(at: datetime) -> str:
    """A moment in UTC to the microsecond; a time without a zone is UTC (SQLite keeps none)."""
    aware = at if at.tzinfo is not None else at.replace(tzinfo=UTC)
    return aware.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def canonical_content(*, tournament_id: int | None, seq: int, action: str, entity: str,
                      entity_id: str, actor: str, at: datetime, before: Any, after: Any,
                      previous: str | None) -> str:
    """What an entry's digest is computed over (see the module docstring)."""
    return canonical_json({
        "tournament": tournament_id, "seq": seq, "action": action, "entity": entity,
        "entity_id": entity_id, "actor": actor, "at": utc_text(at), "before": before,
        "after": after, "previous": previous or "",
    })


def entry_digest(*, tournament_id: int | None, seq: int, action: str, entity: str,
                 entity_id: str, actor: str, at: datetime, before: Any, after: Any,
                 previous: str | None) -> str:
    """SHA-256 (hex) of the entry's canonical content, chained to ``previous``."""
    text = canonical_content(tournament_id=tournament_id, seq=seq, action=action,
                             entity=entity, entity_id=entity_id, actor=actor, at=at,
                             before=before, after=after, previous=previous)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ----- entries -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One line of the audit log."""

    id: int
    tournament_id: int | None
    at: datetime
    actor: str
    action: str
    """What was done: ``result.record``, ``result.correct``, ``round.pair``, …"""
    entity: str
    """What kind of record changed: ``tournament``, ``entry``, ``round``, ``pairing``, …"""
    entity_id: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    seq: int = 0
    """Its place in its chain (1, 2, …)."""
    digest: str = ""
    """SHA-256 of its content and of the previous entry's digest (``entry_digest``)."""
    chain: int = 0
    """Its chain: the tournament's id, 0 for a server-wide entry."""

    def expected_digest(self, previous: str | None) -> str:
        """The digest this entry should have after ``previous``."""
        return entry_digest(tournament_id=self.tournament_id, seq=self.seq,
                            action=self.action, entity=self.entity, entity_id=self.entity_id,
                            actor=self.actor, at=self.at, before=self.before,
                            after=self.after, previous=previous)


def entry_from_row(row: RowMapping) -> AuditEntry:
    at: datetime = row["at"]
    if at.tzinfo is None:  # SQLite keeps no zone; every time stored is UTC
        at = at.replace(tzinfo=UTC)
    return AuditEntry(id=row["id"], tournament_id=row["tournament_id"], at=at,
                      actor=row["actor"], action=row["action"], entity=row["entity"],
                      entity_id=row["entity_id"], before=row["before"], after=row["after"],
                      seq=row["seq"], digest=row["digest"], chain=row["chain"])


_LAST = DirectStatement(
    select(audit_log.c.seq, audit_log.c.digest)
    .where(audit_log.c.chain == bindparam("chain"))
    .order_by(audit_log.c.seq.desc()).limit(1)
)
_INSERT = DirectStatement(insert(audit_log), column_keys=(
    "tournament_id", "chain", "seq", "digest", "at", "actor", "action", "entity", "entity_id",
    "before", "after"))
_LOCK_SERVER = DirectStatement(select(func.pg_advisory_xact_lock(bindparam("key"))))


def lock_chain(conn: Connection, chain: int) -> None:
    """Hold the chain's append lock until the transaction ends (nothing to do on SQLite)."""
    if conn.dialect.name == "sqlite":
        return
    if chain == SERVER_CHAIN:
        _LOCK_SERVER.execute(conn, {"key": _PG_SERVER_CHAIN_LOCK}).fetchall()
    else:
        lock_tournament(conn, chain)  # a tournament's chain: the tournament's write lock


def append_entry(conn: Connection, *, tournament_id: int | None, at: datetime, actor: str,
                 action: str, entity: str, entity_id: object, before: dict[str, Any] | None,
                 after: dict[str, Any] | None, chain_locked: bool = False) -> int:
    """Append one entry at the end of its chain; returns its ``seq``.

    ``chain_locked``: the caller's transaction already holds the chain's lock (the
    tournament's write lock), so it is not taken again.
    """
    chain = chain_of(tournament_id)
    if at.tzinfo is not None:
        at = at.astimezone(UTC)  # stored as UTC: SQLite keeps the wall time without its zone
    if not chain_locked:
        lock_chain(conn, chain)
    last = _LAST.execute(conn, {"chain": chain}).fetchone()
    seq = 1 if last is None else int(last[0]) + 1
    previous = None if last is None else str(last[1])
    key = str(entity_id)
    kept_before, kept_after = stored_json(before), stored_json(after)
    digest = entry_digest(tournament_id=tournament_id, seq=seq, action=action, entity=entity,
                          entity_id=key, actor=actor, at=at, before=kept_before,
                          after=kept_after, previous=previous)
    _INSERT.execute(conn, {
        "tournament_id": tournament_id, "chain": chain, "seq": seq, "digest": digest,
        "at": at, "actor": actor, "action": action, "entity": entity, "entity_id": key,
        "before": kept_before, "after": kept_after,
    })
    return seq


@dataclass(frozen=True, slots=True)
class Change:
    """Who changes what and when, inside one write transaction; appends the audit entries."""

    conn: Connection
    actor: str
    at: datetime
    locked: int | None = None
    """The tournament whose write lock the transaction holds (``services.common.changing``)."""

    def log(self, tournament_id: int | None, action: str, entity: str, entity_id: object,
            before: dict[str, Any] | None, after: dict[str, Any] | None) -> None:
        append_entry(self.conn, tournament_id=tournament_id, at=self.at, actor=self.actor,
                     action=action, entity=entity, entity_id=entity_id, before=before,
                     after=after,
                     chain_locked=tournament_id is not None and tournament_id == self.locked)


# ----- reading -----------------------------------------------------------------------------


_STAMP = DirectStatement(
    select(func.coalesce(func.max(audit_log.c.id), 0))
    .where(audit_log.c.tournament_id == bindparam("tournament_id"))
)
_RAW_STAMP = "SELECT coalesce(max(id), 0) FROM audit_log WHERE tournament_id = ?"


def change_stamp(conn: Connection, tournament_id: int) -> int:
    """The id of the tournament's newest audit entry (0 when it has none): it moves with every
    change to the tournament, whoever makes it."""
    row = _STAMP.execute(conn, {"tournament_id": tournament_id}).fetchone()
    return int(row[0]) if row else 0


MAX_WATCHED = 1000
"""The most tournaments one ``change_stamps`` call reads (the live updates' watcher asks for
the tournaments that have listeners in this process)."""


def change_stamps(conn: Connection, tournament_ids: Iterable[int]) -> dict[int, int]:
    """The change stamps of many tournaments in one statement: id → newest audit id (0 when
    it has no entry); a tournament that does not exist is left out. Each stamp is one look-up
    of the index ``ix_audit_log_tournament`` (the live updates' one query per tick, issue 15)."""
    wanted = sorted({int(t) for t in tournament_ids})[:MAX_WATCHED]
    if not wanted:
        return {}
    newest = (select(func.coalesce(func.max(audit_log.c.id), 0))
              .where(audit_log.c.tournament_id == tournaments.c.id)
              .scalar_subquery())
    rows = conn.execute(select(tournaments.c.id, newest)
                        .where(tournaments.c.id.in_(wanted)))
    return {int(tid): int(stamp) for tid, stamp in rows}


class StampReader:
    """Reads tournaments' change stamps; on an SQLite file through one read-only driver
    connection of its own (a look-up costs microseconds; in WAL mode a statement sees every
    committed change), elsewhere ``None`` (read them in a transaction: ``change_stamp``)."""

    def __init__(self, db: Database) -> None:
        self._lock = threading.Lock()
        self._raw: sqlite3.Connection | None = None
        database = db.engine.url.database if db.is_sqlite else None
        if database and database != ":memory:" and not database.startswith("file:"):
            self._raw = sqlite3.connect(f"file:{database}?mode=ro", uri=True,
                                        check_same_thread=False, isolation_level=None)

    def stamp(self, tournament_id: int) -> int | None:
        """The stamp, or ``None`` when this reader has no connection of its own."""
        if self._raw is None:
            return None
        with self._lock:
            row = self._raw.execute(_RAW_STAMP, (tournament_id,)).fetchone()
        return int(row[0]) if row else 0

    def close(self) -> None:
        if self._raw is not None:
            self._raw.close()
            self._raw = None



def last_change(conn: Connection, tournament_id: int, entity: str,
                entity_id: object) -> AuditEntry | None:
    """The last audit record of a record; for the tournament itself, of anything in it (its
    version counts every change to its players and rounds)."""
    query = select(audit_log).where(audit_log.c.tournament_id == tournament_id)
    if entity != "tournament":
        query = query.where(audit_log.c.entity == entity, audit_log.c.entity_id == str(entity_id))
    row = conn.execute(query.order_by(audit_log.c.id.desc()).limit(1)).mappings().first()
    return None if row is None else entry_from_row(row)


def audit_entries(conn: Connection, tournament_id: int, *, entity: str | None = None,
                  action: str | None = None, since_id: int = 0,
                  limit: int | None = None) -> list[AuditEntry]:
    query = (select(audit_log)
             .where(audit_log.c.tournament_id == tournament_id, audit_log.c.id > since_id)
             .order_by(audit_log.c.id))
    if entity is not None:
        query = query.where(audit_log.c.entity == entity)
    if action is not None:
        query = query.where(audit_log.c.action.startswith(action))
    if limit is not None:
        query = query.limit(limit)
    return [entry_from_row(row) for row in conn.execute(query).mappings()]


def recent_entries(conn: Connection, chain: int, limit: int) -> list[AuditEntry]:
    """The chain's newest ``limit`` entries, newest first."""
    return [entry_from_row(row) for row in conn.execute(
        select(audit_log).where(audit_log.c.chain == chain)
        .order_by(audit_log.c.seq.desc()).limit(limit)).mappings()]


def chain_entries(conn: Connection, chain: int) -> Iterator[AuditEntry]:
    """Every entry of a chain in ``seq`` order (then ``id``, should a seq repeat)."""
    for row in conn.execute(select(audit_log).where(audit_log.c.chain == chain)
                            .order_by(audit_log.c.seq, audit_log.c.id)).mappings():
        yield entry_from_row(row)


def chains(conn: Connection) -> list[int]:
    """Every chain: 0 (server-wide) and every tournament's id, with entries or not."""
    found = {SERVER_CHAIN}
    found.update(int(c) for c in conn.execute(select(audit_log.c.chain).distinct()).scalars())
    found.update(int(t) for t in conn.execute(select(tournaments.c.id)).scalars())
    return sorted(found)


# ----- the stored pairings the log is checked against --------------------------------------


def stored_rounds(conn: Connection, tournament_id: int) -> list[int]:
    """The numbers of the tournament's stored rounds."""
    return [int(n) for n in conn.execute(
        select(rounds.c.number).where(rounds.c.tournament_id == tournament_id)
        .order_by(rounds.c.number)).scalars()]


def stored_lines(conn: Connection, tournament_id: int) -> list[RowMapping]:
    """Every stored pairing of the tournament's rounds, by round and position."""
    return list(conn.execute(
        select(rounds.c.number.label("round"), pairings.c.id, pairings.c.position,
               pairings.c.table_no, pairings.c.a, pairings.c.b, pairings.c.kind,
               pairings.c.wins_a, pairings.c.wins_b, pairings.c.draws, pairings.c.outcome,
               pairings.c.ending, pairings.c.version)
        .join(rounds, rounds.c.id == pairings.c.round_id)
        .where(rounds.c.tournament_id == tournament_id)
        .order_by(rounds.c.number, pairings.c.position)).mappings())


def stored_games(conn: Connection, tournament_id: int) -> dict[int, list[tuple[str | None, str]]]:
    """pairing id → its games (winner, reason) in order."""
    found: dict[int, list[tuple[str | None, str]]] = {}
    for pairing_id, winner, reason in conn.execute(
        select(games.c.pairing_id, games.c.winner, games.c.reason)
        .join(pairings, pairings.c.id == games.c.pairing_id)
        .join(rounds, rounds.c.id == pairings.c.round_id)
        .where(rounds.c.tournament_id == tournament_id)
        .order_by(games.c.pairing_id, games.c.number)):
        found.setdefault(int(pairing_id), []).append((winner, reason))
    return found

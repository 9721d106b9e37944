"""The statements that change a stored round's lines: privilege byes added for a late entry,
a round undone, two players' seats swapped (P-7). They never commit: the service that calls
them owns the transaction.

A whole round is stored by ``turnir.storage.mappers.insert_round`` and read by
``mappers.load_rounds``; one round's row by ``turnir.storage.repositories.round_row``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, delete, insert, select, update

from turnir.domain.model import Pairing
from turnir.storage.mappers import pairing_columns
from turnir.storage.repositories import bump_version
from turnir.storage.tables import pairings, rounds, stages


@dataclass(frozen=True, slots=True)
class StoredLine:
    """One stored line of a round (a match or a bye), in the round's order."""

    id: int
    version: int


def append_lines(conn: Connection, tournament_id: int, round_id: int,
                 lines: Sequence[Pairing], *, actor: str, at: datetime) -> None:
    """Lines added at the end of a stored round."""
    last = conn.execute(
        select(pairings.c.position).where(pairings.c.round_id == round_id)
        .order_by(pairings.c.position.desc()).limit(1)
    ).scalar() or 0
    for offset, line in enumerate(lines, start=1):
        conn.execute(insert(pairings).values(
            tournament_id=tournament_id, round_id=round_id, position=last + offset,
            version=1, updated_by=actor, updated_at=at, **pairing_columns(line),
        ))


def delete_round(conn: Connection, round_id: int) -> None:
    """A round and its lines; its stage too when no other round is in it."""
    conn.execute(delete(pairings).where(pairings.c.round_id == round_id))
    stage_id = conn.execute(select(rounds.c.stage_id).where(rounds.c.id == round_id)).scalar()
    conn.execute(delete(rounds).where(rounds.c.id == round_id))
    still_used = conn.execute(select(rounds.c.id).where(rounds.c.stage_id == stage_id)
                              .limit(1)).first()
    if still_used is None:
        conn.execute(delete(stages).where(stages.c.id == stage_id))


def stored_lines(conn: Connection, round_id: int) -> list[StoredLine]:
    """The round's lines in their order."""
    return [StoredLine(id=int(line_id), version=int(version)) for line_id, version in
            conn.execute(select(pairings.c.id, pairings.c.version)
                         .where(pairings.c.round_id == round_id)
                         .order_by(pairings.c.position))]


def reseat_line(conn: Connection, line: StoredLine, after: Pairing, *, actor: str,
                at: datetime) -> None:
    """A line's players (and kind) set to ``after``'s; its version goes up by one."""
    bump_version(conn, pairings, line.id, line.version,
                 {"a": after.a, "b": after.b, "kind": after.kind.value,
                  "updated_by": actor, "updated_at": at})


def set_edits(conn: Connection, round_id: int, version: int, edits: Sequence[str]) -> None:
    """The round's manual edits (P-7) replaced by ``edits``; its version goes up by one."""
    conn.execute(update(rounds).where(rounds.c.id == round_id).values(
        edits=list(edits), version=version + 1,
    ))

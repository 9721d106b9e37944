"""A database state that many tests share, built once per test process and laid down again in
each test's own fresh database: the rows the builder added to every table (inserted in the
order of the foreign keys, exactly as they were, audit chain and versions included) and, on
PostgreSQL, the sequences moved past them. The tests of the staff's rights built the same two
staffed tournaments for each of their 98 tests (two thirds of their time), the authorization
matrix for each of its 17.

A builder must only add rows: the state of one that changes or deletes a row the fresh
database already had cannot be laid down by inserting, so it is not kept and the builder runs
each time. Its return value is kept with the rows (each test gets a copy), so it must describe the
rows (ids, logins), not hold open objects.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import Integer, func, insert, select, text

from turnir.storage.database import Database
from turnir.storage.tables import Base

T = TypeVar("T")
Rows = dict[str, list[tuple[Any, ...]]]

_BUILT: dict[tuple[str, str], tuple[Rows, Any]] = {}


def _rows(db: Database) -> Rows:
    with db.read() as conn:
        return {table.name: [tuple(row) for row in conn.execute(
                    select(table).order_by(*table.primary_key.columns))]
                for table in Base.metadata.sorted_tables}


def _added(before: Rows, after: Rows) -> Rows | None:
    """The rows ``after`` has beyond ``before``; ``None`` when a row of ``before`` is gone or
    changed."""
    added: Rows = {}
    for name, rows in after.items():
        kept = {repr(row) for row in before.get(name, [])}  # JSON columns hold lists
        if not kept <= {repr(row) for row in rows}:
            return None
        added[name] = [row for row in rows if repr(row) not in kept]
    return added


def _lay_down(db: Database, rows: Rows) -> None:
    with db.engine.begin() as conn:
        for table in Base.metadata.sorted_tables:
            found = rows.get(table.name)
            if not found:
                continue
            names = [column.name for column in table.columns]
            conn.execute(insert(table), [dict(zip(names, row, strict=True)) for row in found])
            if db.is_sqlite:
                continue
            for column in table.primary_key.columns:
                if isinstance(column.type, Integer) and column.autoincrement in (True, "auto"):
                    sequence = conn.execute(text("SELECT pg_get_serial_sequence(:t, :c)"),
                                            {"t": table.name, "c": column.name}).scalar()
                    if sequence is None:
                        continue
                    top = conn.execute(select(func.max(column))).scalar() or 0
                    conn.execute(text("SELECT setval(:s, :v, false)"),
                                 {"s": sequence, "v": top + 1})


def built(db: Database, key: str, build: Callable[[Database], T]) -> T:
    """``build(db)``'s state in ``db`` (a fresh database): built the first time in this
    process for this kind of database, laid down from the kept rows after that; its value."""
    kept = _BUILT.get((db.engine.dialect.name, key))
    if kept is not None:
        _lay_down(db, kept[0])
        value: T = copy.deepcopy(kept[1])  # a test may change its copy
        return value
    before = _rows(db)
    made = build(db)
    added = _added(before, _rows(db))
    if added is not None:
        _BUILT[(db.engine.dialect.name, key)] = (added, copy.deepcopy(made))
    return made

"""Statements for the hot path, compiled once and run straight on the driver's cursor.

Recording a result runs three statements; through SQLAlchemy's execution machinery each costs
about 0.15 ms of CPU even with the compiled cache, five times the work of the database itself
on SQLite. ``DirectStatement`` compiles a Core statement once per dialect (the SQL text, the
parameter order, and SQLAlchemy's own bind processors for its types, so values are stored
exactly as the ordinary path stores them) and executes it on the DBAPI connection underneath a
SQLAlchemy ``Connection``: the transaction, its lock and its error handling stay SQLAlchemy's.

Only plain parameters are supported (no ``IN`` expansion); result rows come back as tuples
without result processing, so select only integers and strings.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement


@dataclass(frozen=True, slots=True)
class _Compiled:
    sql: str
    names: tuple[str, ...] | None
    """Parameter names in order for a positional paramstyle (SQLite ``?``)."""
    processors: Mapping[str, Callable[[Any], Any]]
    defaults: Mapping[str, Any]
    """Values the statement carries itself (literals such as ``kind == 'match'``)."""


@dataclass(eq=False)
class DirectStatement:
    """A Core statement executed on the driver connection (see the module docstring)."""

    statement: ClauseElement
    column_keys: Sequence[str] | None = None
    """For an INSERT or UPDATE without ``.values()``: the columns the parameters set."""
    _by_dialect: dict[str, _Compiled] = field(default_factory=dict, repr=False)

    def _compile(self, dialect: Dialect) -> _Compiled:
        found = self._by_dialect.get(dialect.name)
        if found is not None:
            return found
        compiled = self.statement.compile(
            dialect=dialect,
            column_keys=list(self.column_keys) if self.column_keys is not None else None,
        )
        if not isinstance(compiled, SQLCompiler):  # pragma: no cover - Core always gives one
            raise TypeError(type(compiled))
        processors: dict[str, Callable[[Any], Any]] = {}
        defaults = {name: bind.effective_value for name, bind in compiled.binds.items()
                    if not bind.required}
        for name, bind in compiled.binds.items():
            processor = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if processor is not None:
                processors[name] = processor
        names = tuple(compiled.positiontup) if compiled.positiontup is not None else None
        made = _Compiled(compiled.string, names, processors, defaults)
        self._by_dialect[dialect.name] = made
        return made

    def execute(self, conn: Connection, params: Mapping[str, Any]) -> Any:
        """Run on ``conn``'s driver connection inside its transaction; returns the cursor."""
        compiled = self._compile(conn.dialect)
        values = {**compiled.defaults, **params}
        for name, processor in compiled.processors.items():
            if name in values:
                values[name] = processor(values[name])
        driver = conn.connection.driver_connection
        if driver is None:  # pragma: no cover - a checked-out connection always has one
            raise RuntimeError("the connection is closed")
        cursor = driver.cursor()
        if compiled.names is not None:
            cursor.execute(compiled.sql, tuple(values[name] for name in compiled.names))
        else:
            cursor.execute(compiled.sql, values)
        return cursor

"""Every row of every table, for the portable backup (``docs/backup.md``): the tables of the
schema in dependency order (``Base.metadata.sorted_tables``), their rows read in the caller's
one read transaction, and the restore's statements (empty the tables, insert rows keeping
every id, move PostgreSQL's sequences past them).

The audit log is append-only through triggers (migration 0001); a restore that empties the
database switches the tables' own triggers off inside its transaction and on again before it
commits (``triggers_off``), so nothing outside the restore ever sees them off.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Connection,
    Date,
    DateTime,
    Float,
    Integer,
    LargeBinary,
    Numeric,
    String,
    Table,
    delete,
    func,
    insert,
    null,
    select,
    text,
)
from sqlalchemy.types import TypeEngine

from turnir.formats.backup_file import Row, TableSpec
from turnir.storage.tables import Base

HOUSEKEEPING = frozenset({"site_secrets", "form_tokens"})
"""Tables a running server fills by itself (its form key, the forms already sent): they do
not make a database "not empty" for a restore, which replaces them like the rest."""
_BATCH = 2000


def _tables() -> list[Table]:
    return list(Base.metadata.sorted_tables)


def _table(name: str) -> Table:
    return Base.metadata.tables[name]


def kind_of(column_type: TypeEngine[Any]) -> str:
    """The portable file's kind of a column type (``turnir.formats.backup_file.KINDS``)."""
    checks: tuple[tuple[type[TypeEngine[Any]], str], ...] = (
        (Boolean, "bool"), (Integer, "int"), (DateTime, "datetime"), (Date, "date"),
        (JSON, "json"), (LargeBinary, "bytes"), (Float, "float"), (Numeric, "decimal"),
        (String, "str"))
    for base, kind in checks:
        if isinstance(column_type, base):
            return kind
    raise TypeError(f"no backup kind for the column type {column_type!r}")


def table_specs() -> list[TableSpec]:
    """Every table of the schema as the file describes it, in dependency order."""
    return [TableSpec(t.name, tuple((c.name, kind_of(c.type)) for c in t.columns))
            for t in _tables()]


def row_counts(conn: Connection, specs: Sequence[TableSpec]) -> list[int]:
    """How many rows each table holds, in ``conn``'s snapshot."""
    counts = []
    for spec in specs:
        counts.append(int(conn.execute(select(func.count()).select_from(_table(spec.name)))
                          .scalar_one()))
    return counts


def filled_tables(conn: Connection) -> list[str]:
    """The tables that hold rows, but for the server's housekeeping (``HOUSEKEEPING``)."""
    found = []
    for table in _tables():
        if table.name in HOUSEKEEPING:
            continue
        if conn.execute(select(table.c[next(iter(table.c.keys()))]).limit(1)).first():
            found.append(table.name)
    return found


def rows(conn: Connection, spec: TableSpec) -> Iterator[Row]:
    """The table's rows in primary-key order, each value as stored; a JSON value comes as
    ``(value,)``, SQL NULL as ``None`` (a stored JSON ``null`` is ``(None,)``)."""
    table = _table(spec.name)
    json_columns = [c.name for c in table.columns if kind_of(c.type) == "json"]
    nulls = [table.c[name].is_(None).label(f"{name}__is_null") for name in json_columns]
    query = select(*table.columns, *nulls).order_by(*table.primary_key.columns)
    names = [c.name for c in table.columns]
    for found in conn.execution_options(stream_results=True, max_row_buffer=_BATCH) \
            .execute(query).mappings():
        yield tuple(
            (None if found[f"{name}__is_null"] else (found[name],))
            if name in json_columns else found[name] for name in names)


@contextmanager
def triggers_off(conn: Connection) -> Iterator[None]:
    """The tables' own triggers off for the rest of the block, on again at its end (inside the
    caller's transaction: an error rolls the switch back with everything else)."""
    if conn.dialect.name == "postgresql":
        names = [r[0] for r in conn.execute(text(
            "SELECT DISTINCT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE NOT t.tgisinternal AND n.nspname = current_schema()"))]
        for name in names:
            conn.execute(text(f'ALTER TABLE "{name}" DISABLE TRIGGER USER'))
        yield
        for name in names:
            conn.execute(text(f'ALTER TABLE "{name}" ENABLE TRIGGER USER'))
        return
    triggers = [(r[0], r[1]) for r in conn.execute(text(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND sql IS NOT NULL"))]
    for name, _sql in triggers:
        conn.execute(text(f'DROP TRIGGER "{name}"'))
    yield
    for _name, sql in triggers:
        conn.execute(text(sql))


def empty_all(conn: Connection, *, only: Iterable[str] | None = None) -> None:
    """Delete every row of every table (or of the tables ``only``), the referring tables
    first. The caller has switched the triggers off (``triggers_off``)."""
    chosen = None if only is None else set(only)
    for table in reversed(_tables()):
        if chosen is None or table.name in chosen:
            conn.execute(delete(table))


def insert_rows(conn: Connection, spec: TableSpec, batch: Sequence[Row]) -> None:
    """Insert the rows as the file gives them, keeping every id; a JSON value is ``(value,)``
    and SQL NULL ``None`` (``turnir.formats.backup_file.decode_value``)."""
    if not batch:
        return
    table = _table(spec.name)
    names = [name for name, _kind in spec.columns]
    json_columns = {name for name, kind in spec.columns if kind == "json"}
    values = [{name: (null() if value is None else value[0]) if name in json_columns
               else value for name, value in zip(names, row, strict=True)} for row in batch]
    conn.execute(insert(table), values)


def reset_sequences(conn: Connection) -> None:
    """PostgreSQL: each table's id sequence moved past its highest id (the rows came with
    their ids, which sequences do not see). SQLite keeps no sequence for them."""
    if conn.dialect.name != "postgresql":
        return
    for table in _tables():
        for column in table.primary_key.columns:
            if not isinstance(column.type, Integer):
                continue
            sequence = conn.execute(select(func.pg_get_serial_sequence(
                table.name, column.name))).scalar_one()
            if sequence is None:
                continue
            highest = conn.execute(select(func.max(column))).scalar_one()
            conn.execute(select(func.setval(sequence, highest or 1, highest is not None)))

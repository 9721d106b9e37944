"""A statement is compiled once per process, not once per opened database: every engine of one
kind shares the compiled statements (``turnir.storage.database._SharedStatements``; the suite
opens thousands of databases and compiled each statement anew for every one)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from turnir.storage.database import Database
from turnir.storage.tables import tournaments


def test_a_second_database_of_the_same_kind_reuses_the_compiled_statement(
        tmp_path: Path) -> None:
    first = Database.open(f"sqlite:///{tmp_path / 'a.db'}")
    second = Database.open(f"sqlite:///{tmp_path / 'b.db'}")
    query = select(tournaments.c.id, tournaments.c.name).where(tournaments.c.id == 7)
    try:
        with first.read() as tx:
            tx.execute(query).all()
        with second.read() as tx:
            result = tx.execute(select(tournaments.c.id, tournaments.c.name)
                                .where(tournaments.c.id == 8))
            assert result.all() == []
            dialect = second.engine.dialect
            assert result.context.cache_hit == dialect.CACHE_HIT  # compiled by the first
            assert dialect is not first.engine.dialect
    finally:
        first.close()
        second.close()

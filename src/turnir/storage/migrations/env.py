"""Alembic environment: runs on the connection ``turnir.storage.migrate`` hands over, inside
its transaction (no offline SQL mode)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from turnir.storage.tables import Base

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError("run the migrations with `turnir db upgrade` (turnir.storage.migrate)")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True,
                  compare_type=True)
with context.begin_transaction():
    context.run_migrations()

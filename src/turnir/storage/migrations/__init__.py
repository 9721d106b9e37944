"""Alembic migrations of the turnir database, run by ``turnir.storage.migrate``."""

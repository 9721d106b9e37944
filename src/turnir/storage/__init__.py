"""Storage: SQLAlchemy tables, mappers to the domain, repositories (never commit), migrations.

See ``docs/storage.md``.
"""

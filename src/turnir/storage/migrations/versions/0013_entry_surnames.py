"""Surname and given name kept apart (issue 12, registration): ``entries.surname`` and
``entries.given_name``, so that lists sort by surname (``turnir.domain.names``).

Every entry that exists gets them from its name, read as the sources and the demo write Russian
names, the given name first ("Ольга Волкова": surname "Волкова", given name "Ольга"): the last
word is the surname (a trailing number such as "Иван Петров 2" stays with it), the words before
it the given name. ``_name_parts`` is a frozen copy of ``turnir.domain.names.name_parts``, so
that this migration means the same thing later.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def _name_parts(name: str) -> tuple[str, str]:
    words = name.split()
    if not words:
        return "", ""
    last = len(words) - 1
    while last > 0 and words[last].isdigit():
        last -= 1
    return " ".join(words[last:]), " ".join(words[:last])


def upgrade() -> None:
    # Plain ALTER TABLE … ADD COLUMN: a batch copy of ``entries`` fails on SQLite once other
    # tables' rows reference it.
    op.add_column("entries", sa.Column("surname", sa.String(length=200), server_default="",
                                       nullable=False))
    op.add_column("entries", sa.Column("given_name", sa.String(length=200), server_default="",
                                       nullable=False))
    conn = op.get_bind()
    table = sa.Table("entries", sa.MetaData(), autoload_with=conn)
    for row in conn.execute(sa.select(table.c.id, table.c.name)).all():
        surname, given = _name_parts(row.name)
        conn.execute(sa.update(table).where(table.c.id == row.id)
                     .values(surname=surname, given_name=given))


def downgrade() -> None:
    op.drop_column("entries", "given_name")
    op.drop_column("entries", "surname")

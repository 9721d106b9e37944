"""Names and name keys stored before issue 10 item 8 are brought to today's form: a name
loses its invisible format characters and is put in NFC (``turnir.domain.text.normal_name``),
and its key is the NFKC case-folded normal name (``turnir.domain.text.name_key``). Before,
the key was only case-folded, so a name typed in NFD ("й" as "и" + U+0306, as some keyboards
and files give it) or with a zero-width space kept a key that no name typed today matches:
look-ups by name missed it and a look-alike duplicate passed.

People, entries and judges are rewritten. A row whose new key would equal another row's key
where keys are unique (two entries of one tournament) keeps its old name and key: the two
stay apart, as they were, and the organizer sees both. The two functions are frozen copies of
today's, so that this migration means the same thing later.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def _normal_name(value: str) -> str:
    composed = unicodedata.normalize("NFC", value)
    visible = "".join(c for c in composed if unicodedata.category(c) != "Cf")
    return " ".join(visible.split())


def _name_key(value: str) -> str:
    compatible = unicodedata.normalize("NFKC", _normal_name(value))
    folded = unicodedata.normalize("NFKC", compatible.casefold())
    return " ".join(folded.split())


def _rekey(conn: sa.Connection, table: sa.Table, scope: str | None) -> None:
    rows = conn.execute(sa.select(table.c.id, table.c.name, table.c.name_key,
                                  *([table.c[scope]] if scope else []))).all()
    taken: dict[object, set[str]] = {}
    for row in rows:
        taken.setdefault(row[3] if scope else None, set()).add(row.name_key)
    for row in rows:
        name, key = _normal_name(row.name), _name_key(row.name)
        if (name, key) == (row.name, row.name_key) or not name or len(key) > 200:
            continue
        keys = taken[row[3] if scope else None]
        if scope and key != row.name_key and key in keys:
            continue  # a look-alike of another entry of the tournament: both stay
        keys.discard(row.name_key)
        keys.add(key)
        conn.execute(sa.update(table).where(table.c.id == row.id)
                     .values(name=name, name_key=key))


def upgrade() -> None:
    conn = op.get_bind()
    meta = sa.MetaData()
    for name, scope in (("people", None), ("entries", "tournament_id"),
                        ("judges", None)):
        _rekey(conn, sa.Table(name, meta, autoload_with=conn), scope)


def downgrade() -> None:
    """Nothing to undo: names and keys stay in today's form (the old code reads them too)."""

"""Migration 0013 (issue 12, registration): the entries of an older database get their surname
and given name from their name, read given name first ("Ольга Волкова": surname "Волкова"),
as ``turnir.domain.names.name_parts`` reads a name typed in one field today."""

from __future__ import annotations

import shutil
from pathlib import Path

from sqlalchemy import select

from tests.storage.test_upgrade import RELEASE_0005
from turnir.domain.names import name_parts
from turnir.storage.database import Database
from turnir.storage.migrate import upgrade
from turnir.storage.tables import entries


def test_older_entries_get_their_surname_from_their_name(tmp_path: Path) -> None:
    copy = tmp_path / "turnir.db"
    shutil.copy(RELEASE_0005, copy)
    db = Database.open(f"sqlite:///{copy}", migrate=False)
    try:
        upgrade(db)
        with db.read() as conn:
            rows = conn.execute(select(entries.c.name, entries.c.surname,
                                       entries.c.given_name)).all()
        assert rows
        for name, surname, given in rows:
            assert surname and (surname, given) == name_parts(name)
            assert name == f"{given} {surname}".strip()
    finally:
        db.close()

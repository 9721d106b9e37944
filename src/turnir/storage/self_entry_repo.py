"""The statements a player's own entry needs (``turnir.services.self_entry``): the person an
account plays as, read and linked. Like every repository they never commit; the service owns
the transaction."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, select, update

from turnir.storage.tables import people
from turnir.storage.tables_accounts import accounts


@dataclass(frozen=True, slots=True)
class StoredPerson:
    """A person as an entry names them."""

    id: int
    name: str
    city: str
    club: str


def person(conn: Connection, person_id: int) -> StoredPerson | None:
    row = conn.execute(select(people.c.id, people.c.name, people.c.city, people.c.club)
                       .where(people.c.id == person_id)).first()
    if row is None:
        return None
    return StoredPerson(int(row.id), str(row.name), str(row.city or ""), str(row.club or ""))


def account_person(conn: Connection, account_id: int) -> int | None:
    """The person an account plays as, read in the transaction (``None``: none linked)."""
    value = conn.execute(select(accounts.c.person_id).where(accounts.c.id == account_id)
                         .with_for_update()).scalar()
    return None if value is None else int(value)


def link_person(conn: Connection, account_id: int, person_id: int) -> None:
    """Name the person an account plays as (only when it names none yet)."""
    conn.execute(update(accounts)
                 .where(accounts.c.id == account_id, accounts.c.person_id.is_(None))
                 .values(person_id=person_id, version=accounts.c.version + 1))


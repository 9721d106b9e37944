"""The deployment's kept secrets (``site_secrets``, issue 15): values every web worker and
every restart must agree on, drawn once by the first process that needs them and read by all
the others.

The only one today is ``"csrf"``: the key that signs the CSRF tokens
(``turnir.web.security``) when ``TURNIR_SECRET_KEY`` is not given. Drawn at random (32 bytes),
it is kept with "first writer wins": two workers starting together both draw one, one of them
is kept, and both use the kept one. So forms rendered by one worker are accepted by another,
and forms rendered before a restart still are after it. Whoever can read the database can
forge CSRF tokens with it; whoever can read the database can do much worse already.
"""

from __future__ import annotations

import secrets

from turnir.services.common import Database, changing, reading
from turnir.storage.site_repo import keep_secret, read_secret

CSRF = "csrf"
KEEPER = "site secrets"
"""Who keeps the secrets (their writes leave no audit entry)."""


def site_secret(db: Database, name: str) -> str:
    """The secret kept under ``name``, drawn and kept now when there is none yet."""
    with reading(db) as tx:
        found = read_secret(tx, name)
    if found is not None:
        return found
    with changing(db, None, KEEPER) as change:
        return keep_secret(change.conn, name, secrets.token_urlsafe(32), change.at)


def csrf_key(db: Database) -> str:
    """The key that signs the CSRF tokens when ``TURNIR_SECRET_KEY`` is not given."""
    return site_secret(db, CSRF)


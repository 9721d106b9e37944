"""Issue 10 item 1 from the command line: the operator (shell access: the administrator) makes
a login a tournament's organizer at creation, links staff to logins, lists and unlinks them;
the CLI itself is never refused for lack of a role."""

from __future__ import annotations

import pytest

from tests.cli.test_db_cli import ok, run
from turnir.services.accounts import AccountRole, create_account, find_account, make_hasher
from turnir.services.judges import JudgeRole, staff_role
from turnir.storage.database import Database
from turnir.storage.repositories import find_tournament_id


@pytest.fixture
def env(database_url: str) -> dict[str, str]:
    return {"TURNIR_DATABASE_URL": database_url, "TURNIR_ACTOR": "Оператор"}


def test_item1_cli_links_logins_to_the_staff(env: dict[str, str]) -> None:
    db = Database.open(env["TURNIR_DATABASE_URL"])
    try:
        for login, role in (("anna", AccountRole.ORGANIZER), ("boris", AccountRole.HEAD_JUDGE)):
            create_account(db, login=login, name=login.title(), password="x" * 10, role=role,
                           actor="test", hasher=make_hasher(fast=True))
        ok(env, "tournament", "new", "Кубок", "--organizer", "anna")
        ok(env, "judge", "add", "Кубок", "Борис Главный", "--role", "head_judge")
        out = ok(env, "judge", "add", "Кубок", "Борис Главный", "--role", "head_judge",
                 "--account", "boris")
        assert "login boris" in out
        with db.read() as conn:
            tid = find_tournament_id(conn, "Кубок")
        anna, boris = find_account(db, "anna"), find_account(db, "boris")
        assert anna is not None and boris is not None
        assert staff_role(db, tid, anna.id) is JudgeRole.ORGANIZER
        assert staff_role(db, tid, boris.id) is JudgeRole.HEAD_JUDGE
        listed = ok(env, "judge", "list", "Кубок")
        assert "organizer: Anna, login anna" in listed
        assert "head judge: Борис Главный, login boris" in listed
        number = next(line.split()[0][1:] for line in listed.splitlines() if "boris" in line)
        assert "without a login" in ok(env, "judge", "unlink", "Кубок", number)
        assert staff_role(db, tid, boris.id) is None
        code, out = run(env, "judge", "add", "Кубок", "--account", "nobody")
        assert code == 2 and "no account 'nobody'" in out
        code, out = run(env, "judge", "add", "Кубок")
        assert code == 2 and "--account" in out
    finally:
        db.close()

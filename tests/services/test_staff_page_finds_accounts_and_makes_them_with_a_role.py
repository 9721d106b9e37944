"""Issue 12, the staff page's services on SQLite and PostgreSQL (``turnir.services.staff_page``):
finding accounts by name or login (ё = е, any word order, players' accounts left out, at most
the limit), and a new account made from the page with its staff role in one transaction."""

from __future__ import annotations

import pytest

from tests.services.builders import ORGANIZER, event
from turnir.domain.model import StaffRole
from turnir.errors import ForbiddenError, UserError
from turnir.services.accounts import AccountRole, create_account, find_account, make_hasher
from turnir.services.judges import add_judge, list_judges, staff_role
from turnir.services.players import list_players
from turnir.services.staff_page import ABILITIES, create_account_here, search_accounts
from turnir.storage.database import Database

FAST = make_hasher(fast=True)


def _account(db: Database, login: str, name: str,
             role: AccountRole = AccountRole.FLOOR_JUDGE, person: int | None = None) -> int:
    return create_account(db, login=login, name=name, password="x" * 10, role=role,
                          person_id=person, actor="test", hasher=FAST).id


def test_search_reads_yo_as_ye_any_word_order_and_leaves_players_out(db: Database) -> None:
    tid = event(db, 2)
    _account(db, "pkov", "Пётр Ковалёв")
    _account(db, "ikov", "Иван Ковалев")
    _account(db, "gone", "Павел Ковалёв")
    person = list_players(db, tid)[0].person_id
    _account(db, "kovplayer", "Игрок Ковалёв", AccountRole.PLAYER, person)
    found = search_accounts(db, tid, "КОВАЛЕВ")
    assert [a.login for a in found.accounts] == ["ikov", "gone", "pkov"] and not found.more
    assert [a.login for a in search_accounts(db, tid, "ковалёв пётр").accounts] == ["pkov"]
    assert [a.login for a in search_accounts(db, tid, "ikov").accounts] == ["ikov"]
    assert search_accounts(db, tid, "  ").accounts == []
    add_judge(db, tid, role=StaffRole.FLOOR_JUDGE, login="pkov", actor=ORGANIZER)
    [pkov] = search_accounts(db, tid, "пётр").accounts
    assert pkov.roles_here == (StaffRole.FLOOR_JUDGE,)


def test_search_shows_at_most_the_limit(db: Database) -> None:
    tid = event(db, 0)
    for i in range(7):
        _account(db, f"j{i}", f"Судья {i}")
    found = search_accounts(db, tid, "судья", limit=5)
    assert len(found.accounts) == 5 and found.more
    assert not search_accounts(db, tid, "судья", limit=7).more


def test_a_new_account_and_its_staff_role_are_made_together_or_not_at_all(db: Database) -> None:
    tid = event(db, 2)
    org = _account(db, "org", "Орг", AccountRole.ORGANIZER)
    add_judge(db, tid, role=StaffRole.ORGANIZER, login="org", actor=ORGANIZER)
    _account(db, "head", "Главный")
    add_judge(db, tid, role=StaffRole.HEAD_JUDGE, login="head", actor=ORGANIZER)
    with pytest.raises(UserError) as second_head:
        create_account_here(db, tid, login="head2", name="Второй главный", password="x" * 10,
                            role=AccountRole.HEAD_JUDGE, staff_role=StaffRole.HEAD_JUDGE,
                            actor="Орг", account_id=org, hasher=FAST)
    assert second_head.value.code == "duplicate_judge" and find_account(db, "head2") is None
    made, judge = create_account_here(
        db, tid, login="floor2", name="Судья Два", password="x" * 10,
        role=AccountRole.FLOOR_JUDGE, staff_role=StaffRole.FLOOR_JUDGE, actor="Орг",
        account_id=org, hasher=FAST)
    assert judge is not None and judge.login == "floor2"
    assert staff_role(db, tid, made.id) is StaffRole.FLOOR_JUDGE
    player, none = create_account_here(db, tid, login="p2", name="Игрок", password="x" * 10,
                                       player=2, actor="Орг", account_id=org, hasher=FAST)
    assert none is None and player.role is AccountRole.PLAYER
    assert player.person_id == list_players(db, tid)[1].person_id
    with pytest.raises(UserError) as unknown:
        create_account_here(db, tid, login="p9", name="Игрок", password="x" * 10, player=9,
                            actor="Орг", account_id=org, hasher=FAST)
    assert unknown.value.code == "unknown_player"


def test_only_an_organizer_of_the_site_and_of_the_tournament_makes_accounts(
        db: Database) -> None:
    tid = event(db, 0)
    other = event(db, 0, name="Другой")
    org = _account(db, "org", "Орг", AccountRole.ORGANIZER)
    add_judge(db, other, role=StaffRole.ORGANIZER, login="org", actor=ORGANIZER)
    with pytest.raises(ForbiddenError):  # the organizer of another tournament
        create_account_here(db, tid, login="x1", name="X", password="x" * 10,
                            role=AccountRole.FLOOR_JUDGE, actor="Орг", account_id=org,
                            hasher=FAST)
    judge = _account(db, "floororg", "Судья-организатор")
    add_judge(db, tid, role=StaffRole.ORGANIZER, login="floororg", actor=ORGANIZER)
    with pytest.raises(ForbiddenError):  # a judge's account, organizer of this tournament
        create_account_here(db, tid, login="x2", name="X", password="x" * 10,
                            role=AccountRole.ORGANIZER, actor="Судья", account_id=judge,
                            hasher=FAST)
    assert find_account(db, "x1") is None and find_account(db, "x2") is None
    assert [j.login for j in list_judges(db, tid)] == ["floororg"]


def test_the_roles_table_is_what_the_services_check() -> None:
    by_key = {a.key: a.roles for a in ABILITIES}
    assert by_key["penalties"] == {StaffRole.HEAD_JUDGE, StaffRole.FLOOR_JUDGE}
    assert by_key["technical"] == {StaffRole.HEAD_JUDGE}
    assert by_key["staff"] == {StaffRole.ORGANIZER}
    assert by_key["results"] == set(StaffRole)

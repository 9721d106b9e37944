"""Issue 10 item 1 in the services, on SQLite and PostgreSQL: roles are per tournament. A web
account acts in a tournament only through a staff row of that tournament linked to it; every
use case that changes what only staff may change refuses an account of another tournament's
staff (and leaves the database unchanged), while the local operator (the CLI, no account) is
never refused."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from tests.services.builders import ORGANIZER, snapshot
from tests.services.penalty_builders import FLOOR, HEAD, give, judged_event, line_of
from tests.snapshots import built
from turnir.domain.penalties import AppealOutcome
from turnir.domain.results import parse_result
from turnir.errors import ForbiddenError, NotFoundError, UserError
from turnir.formats.players_csv import PlayerLine
from turnir.services.accounts import AccountRole, create_account, make_hasher
from turnir.services.judges import (
    JudgeRole,
    NotStaffError,
    add_judge,
    list_judges,
    remove_staff,
    staff_role,
)
from turnir.services.online import set_robot_allowed
from turnir.services.penalties import give_penalty, list_penalties, preview_penalty
from turnir.services.penalty_appeals import decide_appeal, withdraw_penalty
from turnir.services.players import (
    check_in,
    drop_player,
    late_entry,
    list_players,
    register_player,
    register_players,
)
from turnir.services.queries import audit_log
from turnir.services.results import record_result
from turnir.services.round_clock import start_timer
from turnir.services.rounds import current_round, start_round, undo_round
from turnir.services.tournaments import create_tournament, finish_tournament
from turnir.storage.database import Database

FAST = make_hasher(fast=True)


def account(db: Database, login: str, role: AccountRole = AccountRole.FLOOR_JUDGE,
            name: str | None = None) -> int:
    return create_account(db, login=login, name=name or login.title(), password="x" * 10,
                          role=role, actor="test", hasher=FAST).id


@dataclass
class Two:
    """Tournament A (round 1 paired, one penalty given) and B (the same), each with a staff of
    its own logins: ``a_org``/``a_head``/``a_floor`` and ``b_org``/``b_head``/``b_floor``."""

    a: int
    b: int
    ids: dict[str, int]


def _staffed(db: Database, name: str, prefix: str, ids: dict[str, int]) -> int:
    tid = judged_event(db, 8, rounds=3, name=name)
    for role, who, judge in ((JudgeRole.ORGANIZER, "org", ORGANIZER),
                             (JudgeRole.HEAD_JUDGE, "head", HEAD),
                             (JudgeRole.FLOOR_JUDGE, "floor", FLOOR)):
        login = f"{prefix}_{who}"
        ids[login] = account(db, login, name=f"{judge} ({prefix})")
        add_judge(db, tid, name=judge, role=role, login=login, actor=ORGANIZER)
    start_round(db, tid, actor=ORGANIZER)
    give(db, tid, 1, "slow_play")
    return tid


def _two(db: Database) -> Two:
    ids: dict[str, int] = {}
    return Two(_staffed(db, "Кубок A", "a", ids), _staffed(db, "Кубок B", "b", ids), ids)


@pytest.fixture
def two(db: Database) -> Two:
    """Two staffed tournaments, built once per process and database kind (tests.snapshots)."""
    return built(db, "test_staff.two", _two)


def _open_table(db: Database, tid: int) -> int:
    return next(p.table for p in current_round(db, tid).round.pairings
                if p.b is not None and p.result is None)


Change = Callable[[Database, int, int], object]
"""A use case called in tournament ``tid`` as the web account ``account_id``."""

CHANGES: dict[str, Change] = {
    "record_result": lambda db, tid, who: record_result(
        db, tid, 1, _open_table(db, tid), parse_result("2-0"), actor="X", account_id=who),
    "correct_result": lambda db, tid, who: record_result(
        db, tid, 1, line_of(db, tid, 1).table, parse_result("0-2"), actor="X",
        correction=True, account_id=who),
    "drop_player": lambda db, tid, who: drop_player(db, tid, 2, actor="X", account_id=who),
    "start_round": lambda db, tid, who: start_round(db, tid, actor="X", account_id=who),
    "undo_round": lambda db, tid, who: undo_round(db, tid, actor="X", account_id=who),
    "start_timer": lambda db, tid, who: start_timer(db, tid, 1, minutes=30, actor="X",
                                                    account_id=who),
    "finish": lambda db, tid, who: finish_tournament(db, tid, actor="X", early=True,
                                                     account_id=who),
    "late_entry": lambda db, tid, who: late_entry(db, tid, name="Поздний", actor="X",
                                                  account_id=who),
    "give_penalty": lambda db, tid, who: give_penalty(db, tid, player=3, reason="slow_play",
                                                      actor="X", account_id=who),
    "decide_appeal": lambda db, tid, who: decide_appeal(
        db, tid, 1, outcome=AppealOutcome.UPHELD, actor="X", account_id=who),
    "withdraw_penalty": lambda db, tid, who: withdraw_penalty(
        db, tid, 1, reason="ошибка", actor="X", account_id=who),
    "add_staff": lambda db, tid, who: add_judge(db, tid, name="Новый Судья",
                                                role=JudgeRole.FLOOR_JUDGE, actor="X",
                                                account_id=who),
    "remove_staff": lambda db, tid, who: remove_staff(
        db, tid, next(j.id for j in list_judges(db, tid) if j.role is JudgeRole.FLOOR_JUDGE),
        actor="X", account_id=who),
    "set_robot_allowed": lambda db, tid, who: set_robot_allowed(db, tid, True, actor="X",
                                                                account_id=who),
}
"""What only staff may do in a running tournament (registration is below)."""


@pytest.mark.parametrize("who", ["a_org", "a_head", "a_floor"])
@pytest.mark.parametrize("change", sorted(CHANGES))
def test_item1_services_refuse_the_staff_of_another_tournament(
        db: Database, two: Two, who: str, change: str) -> None:
    before = snapshot(db)
    with pytest.raises(NotStaffError) as refused:
        CHANGES[change](db, two.b, two.ids[who])
    assert refused.value.code == "not_staff" and f"tournament #{two.b}" in refused.value.message
    assert snapshot(db) == before


def test_item1_registration_refuses_the_staff_of_another_tournament(db: Database) -> None:
    ids = {"a": account(db, "a", AccountRole.ORGANIZER), "b": account(db, "b")}
    a = create_tournament(db, name="A", actor="A", organizer_login="a").id
    b = create_tournament(db, name="B", actor="B", organizer_login="b").id
    before = snapshot(db)
    for call in (
        lambda: register_player(db, b, name="Игрок", actor="A", account_id=ids["a"]),
        lambda: register_players(db, b, [PlayerLine("Игрок", "")], actor="A",
                                 account_id=ids["a"]),
        lambda: check_in(db, b, 1, actor="A", account_id=ids["a"]),
    ):
        with pytest.raises(NotStaffError):
            call()
    assert snapshot(db) == before
    register_player(db, a, name="Игрок", actor="A", account_id=ids["a"])
    check_in(db, a, 1, actor="A", account_id=ids["a"])
    assert list_players(db, a)[0].checked_in and list_players(db, b) == []


def test_item1_each_role_does_what_it_did_but_only_in_its_tournament(db: Database,
                                                                     two: Two) -> None:
    ids = two.ids
    # a floor judge records and corrects, and gives penalties: in A
    record_result(db, two.a, 1, _open_table(db, two.a), parse_result("2-1"), actor="F",
                  account_id=ids["a_floor"])
    give_penalty(db, two.a, player=4, reason="slow_play", actor="F", account_id=ids["a_floor"])
    assert list_penalties(db, two.a)[-1].judge == FLOOR
    # but does not drop players (the head judge's) nor pair rounds (the organizer's)
    for call in (lambda: drop_player(db, two.a, 2, actor="F", account_id=ids["a_floor"]),
                 lambda: undo_round(db, two.a, actor="F", account_id=ids["a_floor"])):
        with pytest.raises(ForbiddenError) as refused:
            call()
        assert refused.value.code == "forbidden"
    drop_player(db, two.a, 2, actor="H", account_id=ids["a_head"])
    decide_appeal(db, two.a, 1, outcome=AppealOutcome.UPHELD, actor="H",
                  account_id=ids["a_head"])
    start_timer(db, two.a, 1, minutes=40, actor="O", account_id=ids["a_org"])
    assert list_players(db, two.a)[1].dropped_after == 1
    # the CLI (no account: the local operator) is never refused
    drop_player(db, two.b, 3, actor="Оператор")
    assert list_players(db, two.b)[2].dropped_after == 1


def test_item1_the_penalty_judge_of_an_account_is_its_linked_row_not_its_name(
        db: Database, two: Two) -> None:
    """An account named like B's head judge is nobody in B: names do not count."""
    impostor = account(db, "impostor", name=HEAD)
    with pytest.raises(NotStaffError):
        preview_penalty(db, two.b, player=1, reason="slow_play", judge=HEAD,
                        account_id=impostor)
    # B's head judge account acts as B's head judge whatever the name it is logged in with
    outcome = give_penalty(db, two.b, player=2, reason="slow_play", actor="кто угодно",
                           account_id=two.ids["b_head"])
    assert outcome.penalty.judge == HEAD


def test_item1_one_answer_to_what_role_an_account_has(db: Database, two: Two) -> None:
    ids = two.ids
    assert staff_role(db, two.a, ids["a_org"]) is JudgeRole.ORGANIZER
    assert staff_role(db, two.a, ids["a_floor"]) is JudgeRole.FLOOR_JUDGE
    assert staff_role(db, two.b, ids["a_org"]) is None
    add_judge(db, two.b, role=JudgeRole.FLOOR_JUDGE, login="a_org", actor=ORGANIZER)
    assert staff_role(db, two.b, ids["a_org"]) is JudgeRole.FLOOR_JUDGE
    with pytest.raises(NotFoundError):
        staff_role(db, 999, ids["a_org"])


def test_item1_the_creator_of_a_tournament_is_its_organizer(db: Database) -> None:
    who = account(db, "maker", AccountRole.ORGANIZER, name="Создатель")
    info = create_tournament(db, name="Новый", actor="Создатель", organizer_login="maker")
    assert [(j.role, j.login) for j in list_judges(db, info.id)] == [
        (JudgeRole.ORGANIZER, "maker")]
    assert staff_role(db, info.id, who) is JudgeRole.ORGANIZER
    assert audit_log(db, info.id, action="judge.add")[-1].after["account"] == "maker"
    # from the CLI without --organizer: no staff, the operator runs it
    plain = create_tournament(db, name="Без логина", actor="Оператор")
    assert list_judges(db, plain.id) == []


def test_item1_staff_logins_are_linked_and_removed_by_the_organizer(db: Database,
                                                                    two: Two) -> None:
    ids = two.ids
    named = add_judge(db, two.a, name="Судья Без Логина", role=JudgeRole.FLOOR_JUDGE,
                      actor=ORGANIZER)
    assert named.login is None
    linked = account(db, "late", name="Судья Без Логина")
    # the organizer links the named judge to the login (the same row, not a second one)
    again = add_judge(db, two.a, role=JudgeRole.FLOOR_JUDGE, login="late", actor="O",
                      account_id=ids["a_org"])
    assert again.id == named.id and again.login == "late"
    assert staff_role(db, two.a, linked) is JudgeRole.FLOOR_JUDGE
    with pytest.raises(UserError, match="already floor judge"):
        add_judge(db, two.a, role=JudgeRole.FLOOR_JUDGE, login="late", actor="O")
    # a floor judge cannot change the staff; the organizer takes the login off
    with pytest.raises(ForbiddenError):
        remove_staff(db, two.a, named.id, actor="F", account_id=ids["a_floor"])
    remove_staff(db, two.a, named.id, actor="O", account_id=ids["a_org"])
    assert staff_role(db, two.a, linked) is None
    assert any(j.id == named.id and j.login is None for j in list_judges(db, two.a))
    # the last organizer with a login stays; a player's login is refused
    organizer_row = next(j for j in list_judges(db, two.a) if j.role is JudgeRole.ORGANIZER)
    with pytest.raises(UserError) as last:
        remove_staff(db, two.a, organizer_row.id, actor="O")
    assert last.value.code == "last_staff_organizer"
    person = list_players(db, two.a)[0].person_id
    create_account(db, login="p1", name="Игрок", password="x" * 10, role=AccountRole.PLAYER,
                   person_id=person, actor="test", hasher=FAST)
    with pytest.raises(UserError) as player:
        add_judge(db, two.a, role=JudgeRole.FLOOR_JUDGE, login="p1", actor="O")
    assert player.value.code == "player_account"
    with pytest.raises(NotFoundError):
        add_judge(db, two.a, role=JudgeRole.FLOOR_JUDGE, login="nobody", actor="O")


def test_item1_staff_can_be_added_after_the_end(db: Database, two: Two) -> None:
    """Nothing changes in a finished tournament, but its judges' pages stay readable by the
    staff it has then (a head judge writing the report afterwards)."""
    for line in current_round(db, two.a).round.pairings:
        if line.b is not None and line.result is None:
            record_result(db, two.a, 1, line.table, parse_result("2-0"), actor=ORGANIZER)
    finish_tournament(db, two.a, actor=ORGANIZER, early=True)
    late = account(db, "after")
    add_judge(db, two.a, role=JudgeRole.FLOOR_JUDGE, login="after", actor=ORGANIZER)
    assert staff_role(db, two.a, late) is JudgeRole.FLOOR_JUDGE

"""A player enters an online tournament themselves (issue 13, ``services.self_entry``), on both
databases: the entry is made by the one registration path (so C-2's age check applies), and
it is refused for a tournament that is not online, after registration, a second time, for a
character of 18 game years or more in an online starter event, and for a staff account."""

from __future__ import annotations

import pytest

from tests.services.builders import ORGANIZER, event
from tests.services.test_game_age import AT, a_format, player_account, starter_event
from turnir.domain.accounts import AccountRole
from turnir.errors import ConflictError, ForbiddenError, UserError
from turnir.services.accounts import AccountInfo, create_account, find_account, make_hasher
from turnir.services.audit import log_page
from turnir.services.deck_formats import set_tournament_format
from turnir.services.game_age import set_own_game_age
from turnir.services.players import list_players
from turnir.services.rounds import start_round
from turnir.services.self_entry import enter_myself, my_entry
from turnir.services.tournaments import create_tournament
from turnir.storage.database import Database
from turnir.storage.tables_accounts import accounts

PASSWORD = "correct horse 12"


def account(db: Database, login: str) -> AccountInfo:
    found = find_account(db, login)
    assert found is not None
    return found


def online_event(db: Database, *, starter: bool = False, players: int = 0) -> int:
    """An online tournament in registration (``players`` registered by the organizer)."""
    tid = event(db, players, name=f"Онлайн {'старт' if starter else 'конструктед'}")
    set_tournament_format(db, tid, actor=ORGANIZER, account_id=None, online=True,
                          format_id=a_format(db, starter=starter,
                                             name="Стартовый" if starter else "Открытый"))
    return tid


def test_a_player_enters_an_online_tournament_as_their_own_person(db: Database) -> None:
    tid = online_event(db)
    person = player_account(db, "ivan", "Иван Онлайнов", None)
    ivan = account(db, "ivan")
    assert my_entry(db, tid, ivan) is not None and my_entry(db, tid, ivan).can_enter  # type: ignore[union-attr]
    entry = enter_myself(db, tid, account=ivan)
    assert (entry.name, entry.person_id) == ("Иван Онлайнов", person)
    assert [p.person_id for p in list_players(db, tid)] == [person]
    shown = my_entry(db, tid, ivan)
    assert shown is not None and not shown.can_enter and shown.number == entry.number
    assert shown.decks and not shown.starter
    logged = [e for e in log_page(db, tid).entries if e.action == "player.register"]
    assert logged[0].actor == "Иван Онлайнов" and logged[0].after == {
        **(logged[0].after or {}), "self_entry": True, "person_id": person}


def test_c2_an_online_starter_event_takes_a_character_under_18(db: Database) -> None:
    tid = starter_event(db, online=True)
    player_account(db, "young", "Юный Игрок", 12)
    young = account(db, "young")
    shown = my_entry(db, tid, young)
    assert shown is not None and shown.starter and shown.game_age == 12
    assert enter_myself(db, tid, account=young).number == 1


def test_c2_refused_for_18_game_years_or_no_age_and_nothing_is_stored(db: Database) -> None:
    tid = starter_event(db, online=True)
    player_account(db, "adult", "Взрослый Игрок", 18)
    with pytest.raises(UserError) as refused:
        enter_myself(db, tid, account=account(db, "adult"))
    assert refused.value.code == "game_age" and "is 18" in refused.value.message
    player_account(db, "ageless", "Игрок Без Возраста", None)
    with pytest.raises(UserError, match="gives no age in game years"):
        enter_myself(db, tid, account=account(db, "ageless"))
    assert list_players(db, tid) == []
    set_own_game_age(db, account(db, "ageless").id, 17, actor="Игрок Без Возраста")
    assert enter_myself(db, tid, account=account(db, "ageless")).name == "Игрок Без Возраста"


def test_refused_when_the_tournament_is_not_online(db: Database) -> None:
    tabletop = starter_event(db, online=False)
    plain = create_tournament(db, name="Кубок клуба", actor=ORGANIZER).id
    player_account(db, "ivan", "Иван Настольный", 12)
    ivan = account(db, "ivan")
    for tid in (tabletop, plain):
        assert my_entry(db, tid, ivan) is None  # no button
        with pytest.raises(ForbiddenError) as refused:
            enter_myself(db, tid, account=ivan)
        assert refused.value.code == "not_online"
        assert list_players(db, tid) == []


def test_refused_once_round_1_is_paired(db: Database) -> None:
    tid = online_event(db, players=4)
    start_round(db, tid, actor=ORGANIZER)
    player_account(db, "late", "Поздний Игрок", None)
    with pytest.raises(ConflictError) as refused:
        enter_myself(db, tid, account=account(db, "late"))
    assert refused.value.code == "registration_closed"
    assert my_entry(db, tid, account(db, "late")) is None
    assert len(list_players(db, tid)) == 4


def test_refused_the_second_time(db: Database) -> None:
    tid = online_event(db)
    player_account(db, "ivan", "Иван Дважды", None)
    enter_myself(db, tid, account=account(db, "ivan"))
    with pytest.raises(ConflictError) as refused:
        enter_myself(db, tid, account=account(db, "ivan"))
    assert refused.value.code == "already_entered" and "#1" in refused.value.message
    assert len(list_players(db, tid)) == 1


@pytest.mark.parametrize("role", [AccountRole.ORGANIZER, AccountRole.HEAD_JUDGE,
                                  AccountRole.FLOOR_JUDGE])
def test_refused_for_a_staff_account(db: Database, role: AccountRole) -> None:
    tid = online_event(db)
    staff = create_account(db, login="staff", name="Судья Сидоров", password=PASSWORD,
                           actor=ORGANIZER, role=role, hasher=make_hasher(fast=True))
    assert my_entry(db, tid, staff) is None
    with pytest.raises(ForbiddenError) as refused:
        enter_myself(db, tid, account=staff)
    assert refused.value.code == "not_a_player"
    assert list_players(db, tid) == []


def test_a_player_account_without_a_person_gets_a_new_one_linked(db: Database) -> None:
    """Not someone else's person of the same name: a new one, linked to the account."""
    tid = online_event(db)
    namesake = player_account(db, "other", "Иван Тёзкин", None)
    with db.write() as conn:  # an old account that names no person (before issue 12)
        orphan_id = conn.execute(accounts.insert().values(
            login="orphan", name="Иван Тёзкин", role="player", person_id=None,
            password_hash="x", active=True, created_at=AT).returning(accounts.c.id)).scalar_one()
    orphan = AccountInfo(id=orphan_id, login="orphan", name="Иван Тёзкин",
                         role=AccountRole.PLAYER, person_id=None, active=True)
    entry = enter_myself(db, tid, account=orphan)
    assert entry.person_id is not None and entry.person_id != namesake
    assert account(db, "orphan").person_id == entry.person_id
    with pytest.raises(ConflictError, match="already registered"):
        enter_myself(db, tid, account=account(db, "orphan"))

"""The judges' deck tools (issue 13, ``turnir.services.deck_checks``): random deck checks drawn
by lot from the recorded seed (the same lot gives the same draw), a chosen player, a check
marked done, all in the audit log; the decks list and the counting view (element, cost, type);
only the tournament's staff, never another tournament's judge nor a player."""

from __future__ import annotations

import pytest

from tests.services.builders import ORGANIZER, event, snapshot
from tests.services.test_reports import players
from turnir.domain.deck_lots import draw_by_lot
from turnir.domain.model import StaffRole
from turnir.domain.results import parse_result
from turnir.errors import ConflictError, ForbiddenError, UserError
from turnir.services.accounts import AccountRole, create_account, make_hasher
from turnir.services.cards import import_cards
from turnir.services.common import changing
from turnir.services.deck_checks import (
    add_deck_check,
    deck_checks_page,
    deck_count,
    decks_page,
    draw_deck_checks,
    finish_deck_check,
    list_deck_checks,
    lot_parts,
)
from turnir.services.deck_formats import set_tournament_format
from turnir.services.decks import register_deck
from turnir.services.judges import add_judge
from turnir.services.queries import audit_log
from turnir.services.results import record_result
from turnir.services.rounds import current_round, start_round
from turnir.services.tournaments import finish_tournament
from turnir.storage import formats_repo
from turnir.storage.database import Database

EDITION = "Выпуск судей"
CATALOGUE = ("name;edition;element;cost;crystal;type;features\n"
             "Лесной страж;Выпуск судей;Лес;2;silver;Существо;\n"
             "Лесная фея;Выпуск судей;Лес;1;silver;Существо;\n"
             "Дубовый щит;Выпуск судей;Лес;2;silver;Артефакт;\n"
             "Горный тролль;Выпуск судей;Горы;5;gold;Существо;\n"
             "Гном-рудокоп;Выпуск судей;Горы;1;silver;Существо;Орда\n"
             "Ледяной пик;Выпуск судей;Горы;1;silver;Местность;\n"
             "Тёмный маг;Выпуск судей;Тьма;4;gold;Существо;\n"
             "Болотный змей;Выпуск судей;Болота;3;silver;Существо;\n"
             "Речная нимфа;Выпуск судей;Болота;2;silver;Существо;\n"
             "Огненный дух;Выпуск судей;Степи;3;silver;Существо;\n"
             "Степной волк;Выпуск судей;Степи;2;silver;Существо;\n")
DECK = ("3 Горный тролль\n3 Лесной страж\n3 Лесная фея\n3 Дубовый щит\n5 Гном-рудокоп\n"
        "3 Ледяной пик\n3 Тёмный маг\n3 Болотный змей\n3 Речная нимфа\n3 Огненный дух\n"
        "2 Степной волк")
"""A legal 34-card deck of the catalogue above (C-1)."""


def catalogue_and_format(db: Database) -> int:
    """The test catalogue and a format with no ban list; the format's id."""
    import_cards(db, actor=ORGANIZER, account_id=None, data=CATALOGUE.encode(),
                 filename="cards.csv")
    with changing(db, None, ORGANIZER) as change:
        return formats_repo.insert_format(change.conn, {
            "name": "Судейский", "name_key": "судейский", "editions": [], "min_cards": 30,
            "max_cards": 50, "max_copies": 3, "max_horde_copies": 5, "starter": False,
        }, at=change.at, by=ORGANIZER)


def judge_account(db: Database, tid: int, login: str,
                  role: StaffRole = StaffRole.FLOOR_JUDGE) -> int:
    account = create_account(db, login=login, name=login.title(), password="x" * 10,
                             role=AccountRole(role.value), actor=ORGANIZER,
                             hasher=make_hasher(fast=True))
    add_judge(db, tid, role=role, login=login, actor=ORGANIZER)
    return account.id


def constructed(db: Database, count: int = 9, *, format_id: int | None = None,
                name: str = "Констрактед", seed: int = 7) -> int:
    """A constructed tournament with ``count`` players, every deck but the last registered
    (player 2's with an unknown card), round 1 paired (an odd count: a bye)."""
    format_id = format_id or catalogue_and_format(db)
    tid = event(db, count, name=name, seed=seed)
    set_tournament_format(db, tid, actor=ORGANIZER, account_id=None, format_id=format_id)
    for number in range(1, count):
        text = DECK + ("\n1 Неизвестный дракон" if number == 2 else "")
        register_deck(db, tid, number, text=text, actor=ORGANIZER, account_id=None)
    start_round(db, tid, actor=ORGANIZER)
    return tid


@pytest.fixture
def tid(db: Database) -> int:
    return constructed(db)


def _bye(db: Database, tid: int) -> int:
    """The player with the bye in the current round."""
    return next(p.a for p in current_round(db, tid).round.pairings if p.b is None)


def test_a_draw_by_lot_takes_players_at_a_table_and_records_its_lot(db: Database,
                                                                     tid: int) -> None:
    judge = judge_account(db, tid, "floor")
    drawn = draw_deck_checks(db, tid, count=3, actor="Floor", account_id=judge)
    assert len(drawn) == 3 and all(c.by_lot and not c.done for c in drawn)
    assert {c.lot for c in drawn} == {"7/deck-checks/round/1/draw/1"}
    assert all(c.table is not None and c.drawn_by == "Floor" for c in drawn)
    bye = _bye(db, tid)
    assert bye not in {c.number for c in drawn}  # a bye has no table and no game
    logged = audit_log(db, tid, action="deck.check_draw")
    assert [e.after["number"] for e in logged if e.after] == [c.number for c in drawn]
    assert all(e.actor == "Floor" for e in logged)


def test_the_same_lot_gives_the_same_draw(db: Database, tid: int) -> None:
    """Drawn again from the recorded lot (the seed, the round, the draw), the same decks."""
    drawn = draw_deck_checks(db, tid, count=3, actor=ORGANIZER, account_id=None)
    seated = [s.number for s in deck_checks_page(db, tid, account_id=None).left] + \
        [c.number for c in drawn]
    again = draw_by_lot(seated, 3, seed=7, round_number=1, draw=1)
    assert again.numbers == tuple(c.number for c in drawn)
    # the same tournament again from the same seed draws the same players
    twin = constructed(db, format_id=_format_id(db), name="Близнец")
    assert tuple(c.number for c in draw_deck_checks(db, twin, count=3, actor=ORGANIZER,
                                                    account_id=None)) == again.numbers


def _format_id(db: Database) -> int:
    with db.read() as tx:
        found = formats_repo.format_by_key(tx, "судейский")
    assert found is not None
    return found.id


def test_a_second_draw_skips_the_checked_players_until_none_is_left(db: Database,
                                                                     tid: int) -> None:
    first = draw_deck_checks(db, tid, count=3, actor=ORGANIZER, account_id=None)
    second = draw_deck_checks(db, tid, count=10, actor=ORGANIZER, account_id=None)
    assert {c.lot for c in second} == {"7/deck-checks/round/1/draw/2"}
    assert len(second) == 5 and not {c.number for c in first} & {c.number for c in second}
    before = snapshot(db)
    with pytest.raises(UserError) as refused:
        draw_deck_checks(db, tid, count=1, actor=ORGANIZER, account_id=None)
    assert refused.value.code == "no_decks_left" and snapshot(db) == before


def test_draws_are_in_the_current_round_only(db: Database, tid: int) -> None:
    with pytest.raises(ConflictError, match="current round"):
        draw_deck_checks(db, tid, count=1, actor=ORGANIZER, account_id=None, round_number=2)
    assert draw_deck_checks(db, tid, count=1, actor=ORGANIZER, account_id=None,
                            round_number=1)


def test_a_judge_adds_a_chosen_player_once_a_round(db: Database, tid: int) -> None:
    chosen = add_deck_check(db, tid, "Игрок 03", actor=ORGANIZER, account_id=None)
    assert (chosen.number, chosen.by_lot, chosen.lot) == (3, False, "")
    with pytest.raises(ConflictError, match="already checked"):
        add_deck_check(db, tid, 3, actor=ORGANIZER, account_id=None)
    with pytest.raises(UserError, match="does not play at a table"):
        add_deck_check(db, tid, _bye(db, tid), actor=ORGANIZER, account_id=None)
    assert 3 not in {c.number for c in draw_deck_checks(db, tid, count=7, actor=ORGANIZER,
                                                        account_id=None)}
    assert audit_log(db, tid, action="deck.check_add")[-1].after["by_lot"] is False


def test_a_check_is_marked_done_with_a_note_and_logged(db: Database, tid: int) -> None:
    judge = judge_account(db, tid, "floor")
    [check] = draw_deck_checks(db, tid, count=1, actor=ORGANIZER, account_id=None)
    done = finish_deck_check(db, tid, check.id, note="  совпадает со списком ",
                             actor="Floor", account_id=judge)
    assert done.done and done.note == "совпадает со списком"
    [entry] = audit_log(db, tid, action="deck.check_done")
    assert entry.before and entry.after and entry.before["done"] is False
    assert entry.after["note"] == "совпадает со списком" and entry.actor == "Floor"
    finish_deck_check(db, tid, check.id, note="совпадает со списком", actor="Floor",
                      account_id=judge)  # the same again changes nothing
    assert len(audit_log(db, tid, action="deck.check_done")) == 1
    assert [c.done for c in list_deck_checks(db, tid, account_id=judge)] == [True]
    with pytest.raises(UserError, match="no deck check #999"):
        finish_deck_check(db, tid, 999, note="", actor=ORGANIZER, account_id=None)


def test_another_tournaments_judge_and_a_player_are_refused(db: Database, tid: int) -> None:
    other = event(db, 4, name="Другой турнир")
    stranger = judge_account(db, other, "stranger", StaffRole.HEAD_JUDGE)
    player = players(db, tid)[1].id
    before = snapshot(db)
    for account in (stranger, player):
        with pytest.raises(ForbiddenError):
            draw_deck_checks(db, tid, count=2, actor="Кто-то", account_id=account)
        with pytest.raises(ForbiddenError):
            add_deck_check(db, tid, 1, actor="Кто-то", account_id=account)
        for read in (deck_checks_page, list_deck_checks, decks_page):
            with pytest.raises(ForbiddenError):
                read(db, tid, account_id=account)
        with pytest.raises(ForbiddenError):
            deck_count(db, tid, 1, account_id=account)
    assert snapshot(db) == before


def test_a_finished_tournament_takes_no_new_check(db: Database, tid: int) -> None:
    [check] = draw_deck_checks(db, tid, count=1, actor=ORGANIZER, account_id=None)
    for line in current_round(db, tid).round.pairings:
        if line.b is not None:
            record_result(db, tid, 1, line.table, parse_result("2-0"), actor=ORGANIZER)
    finish_tournament(db, tid, actor=ORGANIZER, early=True)
    with pytest.raises(ConflictError, match="finished"):
        draw_deck_checks(db, tid, count=1, actor=ORGANIZER, account_id=None)
    with pytest.raises(ConflictError, match="finished"):
        finish_deck_check(db, tid, check.id, note="", actor=ORGANIZER, account_id=None)
    assert deck_checks_page(db, tid, account_id=None).finished


def test_the_decks_list_shows_every_player_and_their_decks_status(db: Database,
                                                                  tid: int) -> None:
    judge = judge_account(db, tid, "floor")
    page = decks_page(db, tid, account_id=judge)
    assert page.format_name == "Судейский" and page.locked
    by_number = {d.number: d for d in page.decks}
    assert len(by_number) == 9
    assert (by_number[1].registered, by_number[1].valid, by_number[1].total) == (True, True, 34)
    assert (by_number[2].valid, by_number[2].problems) == (False, 1)
    assert not by_number[9].registered
    no_format = event(db, 4, name="Без формата")
    assert decks_page(db, no_format, account_id=None).format_name is None


def test_the_count_view_sorts_by_element_cost_and_type_with_group_counts(db: Database,
                                                                          tid: int) -> None:
    judge = judge_account(db, tid, "floor")
    counted = deck_count(db, tid, 2, account_id=judge)
    elements = [g.element for g in counted.groups]
    assert elements == sorted(elements, key=str.casefold)
    forest = next(g for g in counted.groups if g.element == "Лес")
    assert [(c.name, n) for c, n in forest.cards] == [
        ("Лесная фея", 3), ("Дубовый щит", 3), ("Лесной страж", 3)]  # cost, then type
    assert forest.total == 9
    assert sum(g.total for g in counted.groups) == 34
    assert counted.unknown == (("Неизвестный дракон", 1),) and counted.total == 35


def test_a_lot_reads_back_as_its_round_and_draw_for_people(db: Database, tid: int) -> None:
    assert lot_parts("7/deck-checks/round/2/draw/3") == (2, 3)
    assert lot_parts("-5/deck-checks/round/12/draw/1") == (12, 1)
    for odd in ("", "7/deck-checks/round/2", "7/deck-checks/round/²/draw/1", "абв",
                "7/deck-checks/round/2/draw/3/x"):
        assert lot_parts(odd) is None
    drawn = draw_deck_checks(db, tid, count=1, actor=ORGANIZER, account_id=None)
    chosen = add_deck_check(db, tid, next(s.number for s in deck_checks_page(
        db, tid, account_id=None).left), actor=ORGANIZER, account_id=None)
    assert drawn[0].lot_parts == (1, 1) and drawn[0].lot == "7/deck-checks/round/1/draw/1"
    assert chosen.lot_parts is None

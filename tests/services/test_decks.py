"""Deck registration and its check (issue 13, ``turnir.services.decks``; C-1, C-2): every
problem of a deck reported together, the lock when round 1 is paired, who may see and change a
deck (the entry's player, the tournament's judges and organizer; nobody else), the judge's
change after the lock logged with the lines before and after."""

from __future__ import annotations

from datetime import date

import pytest

from tests.services.builders import ORGANIZER, event, play_round
from tests.services.test_reports import players
from turnir.domain.decks import ProblemKind
from turnir.domain.model import StaffRole, Status
from turnir.errors import ConflictError, ForbiddenError, UserError
from turnir.formats.players_csv import PlayerLine
from turnir.i18n import error_text
from turnir.services.accounts import AccountRole, create_account, find_account, make_hasher
from turnir.services.cards import import_cards
from turnir.services.deck_formats import set_tournament_format
from turnir.services.decks import (
    check_deck_text,
    deck_in,
    deck_view,
    decks_in,
    decks_locked,
    list_decks,
    plays_in,
    register_deck,
)
from turnir.services.demo import DEMO_FINISHED, DEMO_NAME, seed_accounts, seed_tournaments
from turnir.services.demo_decks import DEMO_CONSTRUCTED, DEMO_STARTER
from turnir.services.demo_drafts import DEMO_DRAFT
from turnir.services.demo_live_draft import DEMO_LIVE_DRAFT
from turnir.services.format_edits import create_format, find_format, set_ban_list
from turnir.services.judges import add_judge, staff_role
from turnir.services.players import register_players
from turnir.services.queries import audit_log
from turnir.services.rounds import start_round
from turnir.services.tournaments import create_tournament, finish_tournament, list_tournaments
from turnir.storage.database import Database

EDITION = "Пробный выпуск"
CARDS = ("Лесной страж", "Горный тролль", "Речная нимфа", "Степной волк", "Болотный змей",
         "Ледяной великан", "Огненный дух", "Тёмный маг", "Светлый жрец", "Пещерный гном",
         "Воздушный змей", "Каменный голем")
HORDE = "Гоблин-налётчик"
BANNED = "Запретный дракон"
CATALOGUE = ("name;edition;element;cost;crystal;type;features\n"
             + "".join(f"{name};{EDITION};Лес;{i % 6 + 1};silver;Существо;\n"
                       for i, name in enumerate(CARDS))
             + f"{HORDE};{EDITION};Горы;2;gold;Существо;Орда\n"
             + f"{BANNED};{EDITION};Тьма;9;gold;Существо;\n")
BAN_DAY = date(2020, 1, 1)
LEGAL = "\n".join(f"3 {name}" for name in CARDS[:10]) + f"\n5 {HORDE}"
"""A legal 35-card deck: ten cards three times, and five of the Horde card (C-1)."""


def seed_catalogue(db: Database) -> int:
    """The test catalogue and the format «Тестовый» banning one card; the format's id."""
    import_cards(db, actor=ORGANIZER, account_id=None, data=CATALOGUE.encode(),
                 filename="cards.csv")
    format_id = create_format(db, actor=ORGANIZER, account_id=None, name="Тестовый").id
    set_ban_list(db, format_id, actor=ORGANIZER, account_id=None, effective=BAN_DAY,
                 cards=[BANNED])
    return format_id


def constructed(db: Database, players_count: int = 6) -> tuple[int, int]:
    """A constructed tournament in registration with its format set; (its id, the format)."""
    format_id = seed_catalogue(db)
    tid = event(db, players_count)
    set_tournament_format(db, tid, actor=ORGANIZER, account_id=None, format_id=format_id)
    return tid, format_id


def staff_account(db: Database, tid: int, login: str, role: StaffRole) -> int:
    account = create_account(db, login=login, name=login.title(), password="x" * 10,
                             role=AccountRole(role.value), actor=ORGANIZER,
                             hasher=make_hasher(fast=True))
    add_judge(db, tid, role=role, login=login, actor=ORGANIZER)
    return account.id


def test_c1_every_problem_of_a_deck_is_reported_together(db: Database) -> None:
    format_id = seed_catalogue(db)
    text = (f"4 {CARDS[0]}\n6 {HORDE}\n1 {BANNED}\n2 Лесной страш\n0 {CARDS[2]}\n"
            f"3 {CARDS[1]} [Другой выпуск]")
    check = check_deck_text(db, text=text, format_id=format_id)
    kinds = [(p.kind, p.rule, p.line) for p in check.problems]
    assert kinds == [
        (ProblemKind.COPIES, "C-1", 1), (ProblemKind.HORDE_COPIES, "C-1", 2),
        (ProblemKind.BANNED, "C-1", 3), (ProblemKind.UNKNOWN_CARD, "C-1", 4),
        (ProblemKind.SYNTAX, "", 5), (ProblemKind.WRONG_EDITION, "C-1", 6),
        (ProblemKind.SIZE, "C-1", None)]
    unknown = next(p for p in check.problems if p.kind is ProblemKind.UNKNOWN_CARD)
    assert unknown.suggestions[0] == CARDS[0]
    russian = [error_text(p.error, "ru") for p in check.problems]
    assert any(BANNED in m and "запрещ" in m for m in russian), russian
    assert check_deck_text(db, text=LEGAL, format_id=format_id).ok
    # the ban list takes effect on its day: the day before, the card is allowed
    earlier = check_deck_text(db, text=f"1 {BANNED}", format_id=format_id,
                              on=date(2019, 12, 31))
    assert ProblemKind.BANNED not in {p.kind for p in earlier.problems}


def test_a_player_registers_their_own_deck_stored_even_when_it_breaks_a_rule(
        db: Database) -> None:
    tid, _ = constructed(db)
    accounts = players(db, tid)
    bad = register_deck(db, tid, 1, text=f"{LEGAL}\n1 {BANNED}", actor="Игрок 1",
                        account_id=accounts[1].id)
    assert (bad.registered, bad.valid, bad.total, bad.version, bad.locked) == (
        True, False, 36, 1, False)
    assert [p.kind for p in bad.problems] == [ProblemKind.BANNED]
    fixed = register_deck(db, tid, 1, text=LEGAL, actor="Игрок 1", account_id=accounts[1].id,
                          expected_version=1)
    assert (fixed.valid, fixed.version, fixed.problems) == (True, 2, ())
    with pytest.raises(ConflictError):  # based on the first version: changed since
        register_deck(db, tid, 1, text=LEGAL, actor="Игрок 1", account_id=accounts[1].id,
                      expected_version=1)
    seen = deck_view(db, tid, 1, account_id=accounts[1].id)
    assert (seen.text, seen.valid, seen.can_change, seen.staff) == (LEGAL, True, True, False)
    empty = deck_view(db, tid, 2, account_id=accounts[2].id)
    assert (empty.registered, empty.version, empty.lines, empty.tournament_id) == (
        False, 0, (), tid)
    with db.read() as tx:
        assert deck_in(tx, tid, 1) is not None and deck_in(tx, tid, 2) is None
        assert set(decks_in(tx, tid)) == {1}
        assert decks_in(tx, tid)[1].total == 35
    actions = [(e.action, e.actor) for e in audit_log(db, tid, action="deck")]
    assert actions == [("deck.register", "Игрок 1"), ("deck.register", "Игрок 1")]


def test_a_player_cannot_see_or_change_another_players_deck(db: Database) -> None:
    tid, _ = constructed(db)
    accounts = players(db, tid)
    register_deck(db, tid, 1, text=LEGAL, actor="Игрок 1", account_id=accounts[1].id)
    with pytest.raises(ForbiddenError) as refused:
        deck_view(db, tid, 1, account_id=accounts[2].id)
    assert refused.value.code == "not_your_deck"
    with pytest.raises(ForbiddenError):
        register_deck(db, tid, 1, text="", actor="Игрок 2", account_id=accounts[2].id)
    with pytest.raises(ForbiddenError):
        list_decks(db, tid, account_id=accounts[1].id)
    assert deck_view(db, tid, 1, account_id=accounts[1].id).text == LEGAL


def test_the_deck_locks_at_round_1_the_player_is_refused_and_a_judge_change_is_logged(
        db: Database) -> None:
    tid, _ = constructed(db)
    accounts = players(db, tid)
    judge = staff_account(db, tid, "floor", StaffRole.FLOOR_JUDGE)
    register_deck(db, tid, 3, text=LEGAL, actor="Игрок 3", account_id=accounts[3].id)
    with db.read() as tx:
        assert not decks_locked(tx, tid)
    start_round(db, tid, actor=ORGANIZER)
    with db.read() as tx:
        assert decks_locked(tx, tid)
    with pytest.raises(ConflictError) as refused:
        register_deck(db, tid, 3, text=LEGAL, actor="Игрок 3", account_id=accounts[3].id)
    assert refused.value.code == "deck_locked"
    assert "ask a judge" in str(refused.value)
    assert "судь" in error_text(refused.value, "ru")
    view = deck_view(db, tid, 3, account_id=accounts[3].id)
    assert (view.locked, view.can_change) == (True, False)
    changed = f"2 {CARDS[0]}\n" + "\n".join(f"3 {n}" for n in CARDS[1:10]) + f"\n5 {HORDE}" \
              + f"\n1 {CARDS[10]}"
    after = register_deck(db, tid, 3, text=changed, actor="Судья Ильина", account_id=judge)
    assert (after.valid, after.total, after.version) == (True, 35, 2)
    entry = audit_log(db, tid, action="deck.judge_change")[-1]
    assert entry.actor == "Судья Ильина" and entry.entity_id == "3"
    assert entry.before is not None and entry.after is not None
    assert {"count": 3, "name": CARDS[0], "edition": None} in entry.before["lines"]
    assert {"count": 2, "name": CARDS[0], "edition": None} in entry.after["lines"]
    summary = {s.number: s for s in list_decks(db, tid, account_id=judge)}
    assert len(summary) == 6 and summary[3].registered and summary[3].valid
    assert not summary[1].registered and summary[1].total == 0


def test_another_tournaments_judge_is_refused(db: Database) -> None:
    tid, _ = constructed(db)
    other = create_tournament(db, name="Другой турнир", actor=ORGANIZER).id
    stranger = staff_account(db, other, "elsewhere", StaffRole.HEAD_JUDGE)
    for action in (lambda: deck_view(db, tid, 1, account_id=stranger),
                   lambda: list_decks(db, tid, account_id=stranger),
                   lambda: register_deck(db, tid, 1, text=LEGAL, actor="Чужой",
                                         account_id=stranger)):
        with pytest.raises(ForbiddenError):
            action()
    head = staff_account(db, tid, "head", StaffRole.HEAD_JUDGE)
    assert register_deck(db, tid, 1, text=LEGAL, actor="Главный", account_id=head).valid


def test_no_format_and_a_finished_tournament_refuse_decks(db: Database) -> None:
    seed_catalogue(db)
    tid = event(db, 4)
    with pytest.raises(UserError) as refused:
        register_deck(db, tid, 1, text=LEGAL, actor=ORGANIZER, account_id=None)
    assert refused.value.code == "no_deck_format"
    with pytest.raises(UserError):
        deck_view(db, tid, 1, account_id=None)
    done, _ = constructed_again(db)
    play_round(db, done)
    finish_tournament(db, done, actor=ORGANIZER, early=True)
    with pytest.raises(ConflictError) as finished:
        register_deck(db, done, 1, text=LEGAL, actor=ORGANIZER, account_id=None)
    assert finished.value.code == "finished"
    assert not deck_view(db, done, 1, account_id=None).can_change


def constructed_again(db: Database) -> tuple[int, int]:
    """A second constructed tournament on the catalogue and format already seeded."""
    tid = event(db, 4, name="Второй турнир")
    format_id = find_format(db, "тестовый")
    set_tournament_format(db, tid, actor=ORGANIZER, account_id=None, format_id=format_id)
    return tid, format_id


def test_a_text_too_long_is_refused_before_anything_changes(db: Database) -> None:
    tid, _ = constructed(db)
    with pytest.raises(UserError) as refused:
        register_deck(db, tid, 1, text="1 Лесной страж\n" * 2_000, actor=ORGANIZER,
                      account_id=None)
    assert refused.value.code == "bad_deck"
    assert audit_log(db, tid, action="deck") == []


def test_the_demo_has_a_constructed_tournament_to_try_deck_registration(db: Database) -> None:
    running = seed_tournaments(db)
    logins = {d.login for d in seed_accounts(db, running, make_hasher(fast=True))}
    seed_accounts(db, running, make_hasher(fast=True))  # a second start adds nothing
    ids = {t.name: t for t in list_tournaments(db)}
    assert {DEMO_NAME, DEMO_FINISHED, DEMO_CONSTRUCTED, DEMO_STARTER} <= set(ids)
    drafts = {DEMO_DRAFT, DEMO_LIVE_DRAFT}  # issue 14 adds the draft demos
    assert len(set(ids) - drafts) == 4 and ids[DEMO_STARTER].status is Status.FINISHED
    constructed_id = ids[DEMO_CONSTRUCTED].id
    decks = list_decks(db, constructed_id, account_id=None)
    assert [d.registered for d in decks] == [True] * 8 + [False]
    assert [d.number for d in decks if d.registered and not d.valid] == [4]
    player = find_account(db, "player1")
    assert "player1" in logins and player is not None
    mine = deck_view(db, constructed_id, 9, account_id=player.id)
    assert not mine.registered and mine.can_change
    floor = find_account(db, "floor")
    assert floor is not None
    assert staff_role(db, constructed_id, floor.id) is StaffRole.FLOOR_JUDGE
    kinds = [p.kind for p in deck_view(db, constructed_id, 4, account_id=floor.id).problems]
    assert kinds == [ProblemKind.COPIES, ProblemKind.BANNED]


def test_deck_lines_are_stored_under_the_catalogues_names_unknown_ones_as_typed(
        db: Database) -> None:
    tid, _ = constructed(db)
    accounts = players(db, tid)
    judge = staff_account(db, tid, "floor", StaffRole.FLOOR_JUDGE)
    latin = CARDS[4].replace("о", "o")  # «Бoлотный змей» with a Latin «o»
    typed = LEGAL.replace(f"3 {CARDS[4]}", f"3 {latin}").replace(
        f"3 {CARDS[5]}", f"3 {CARDS[5].upper()} [пробный ВЫПУСК]") + "\n1 Неведомая тварь"
    view = register_deck(db, tid, 1, text=typed, actor="Игрок 1", account_id=accounts[1].id)
    names = {line.name: line.edition for line in view.lines}
    assert latin not in names and names[CARDS[4]] is None and names[CARDS[5]] == EDITION
    assert names["Неведомая тварь"] is None  # unknown: kept as typed
    assert view.text == typed  # the list in the form stays as it was pasted
    with db.read() as tx:
        stored = deck_in(tx, tid, 1)
    assert stored is not None and {line.name for line in stored.lines} == set(names)
    start_round(db, tid, actor=ORGANIZER)
    # a judge's change of spelling only: the same lines before and after in the audit record
    register_deck(db, tid, 1, text=typed.replace(latin, CARDS[4]), actor="Судья",
                  account_id=judge)
    entry = audit_log(db, tid, action="deck.judge_change")[-1]
    assert entry.before is not None and entry.after is not None
    assert entry.before["lines"] == entry.after["lines"]


def test_a_judges_change_after_the_lock_is_shown_to_the_player_with_the_reason(
        db: Database) -> None:
    tid, _ = constructed(db)
    accounts = players(db, tid)
    judge = staff_account(db, tid, "floor", StaffRole.FLOOR_JUDGE)
    register_deck(db, tid, 2, text=LEGAL, actor="Игрок 2", account_id=accounts[2].id)
    mine = deck_view(db, tid, 2, account_id=accounts[2].id)
    assert (mine.judge_change, mine.reason) == (False, "")
    register_deck(db, tid, 2, text=LEGAL, actor="Судья Ильина", account_id=judge,
                  expected_version=1)  # a judge before round 1: an ordinary registration
    assert not deck_view(db, tid, 2, account_id=accounts[2].id).judge_change
    start_round(db, tid, actor=ORGANIZER)
    with pytest.raises(UserError):  # a reason longer than 500 characters
        register_deck(db, tid, 2, text=LEGAL, actor="Судья Ильина", account_id=judge,
                      reason="п" * 501)
    changed = register_deck(db, tid, 2, text=LEGAL.replace("3 ", "2 ", 1) + f"\n1 {CARDS[10]}",
                            actor="Судья Ильина", account_id=judge,
                            reason="  Опечатка в листе\r\nрегистрации  ")
    assert (changed.judge_change, changed.reason) == (True, "Опечатка в листе\nрегистрации")
    mine = deck_view(db, tid, 2, account_id=accounts[2].id)
    assert (mine.judge_change, mine.updated_by, mine.reason) == (
        True, "Судья Ильина", "Опечатка в листе\nрегистрации")
    entry = audit_log(db, tid, action="deck.judge_change")[-1]
    assert entry.after is not None and entry.after["reason"] == "Опечатка в листе\nрегистрации"


def test_plays_in_says_whether_a_person_has_an_entry_in_the_tournament(db: Database) -> None:
    tid, _ = constructed(db)
    accounts = players(db, tid)
    other = event(db, 0, name="Другой турнир")
    outsider = register_players(db, other, [PlayerLine("Посторонний игрок", "Тверь")],
                                actor=ORGANIZER)[0].person_id
    assert plays_in(db, tid, accounts[1].person_id) and plays_in(db, other, outsider)
    assert not plays_in(db, tid, outsider) and not plays_in(db, tid, None)

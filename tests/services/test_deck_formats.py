"""Issue 13 formats in the services, on SQLite and PostgreSQL: a tournament uses the ban list in
force on its rules day (C-1: round 1's Moscow day, else the planned start's, else today); a
starter format makes the event unrated (C-2: the ratings refuse it); only site organizers edit
formats and only the tournament's organizer sets its format; bad input (an unknown card in a
ban list, a bad date, a duplicate name, an illegal starter deck) is refused with every problem
named and nothing stored."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from tests.services.builders import ORGANIZER, play_round, snapshot
from turnir.clock import ManualClock
from turnir.domain.model import Settings
from turnir.errors import ConflictError, ForbiddenError, UserError
from turnir.formats.players_csv import PlayerLine
from turnir.services.accounts import AccountRole, create_account, make_hasher
from turnir.services.cards import load_sample_cards
from turnir.services.common import TournamentFormat
from turnir.services.deck_formats import (
    deck_format,
    format_changes,
    format_choices,
    format_view,
    set_tournament_format,
    tournament_format,
)
from turnir.services.demo_formats import STARTER_DECKS, seed_demo_formats
from turnir.services.format_edits import (
    DeckProblemsError,
    FormatLimits,
    UnknownCardsError,
    create_format,
    delete_ban_list,
    edit_format,
    set_ban_list,
    set_starter_deck,
)
from turnir.services.judges import JudgeRole, NotStaffError, add_judge
from turnir.services.players import register_players
from turnir.services.queries import audit_log
from turnir.services.rating_terms import set_rating_terms, tournament_rating_terms
from turnir.services.ratings import submit_tournament
from turnir.services.tournaments import create_tournament, finish_tournament
from turnir.storage.database import Database

FAST = make_hasher(fast=True)
EDITION = "Образец: Начало"


def account(db: Database, login: str, role: AccountRole) -> int:
    return create_account(db, login=login, name=login.title(), password="x" * 10, role=role,
                          actor="test", hasher=FAST).id


def constructed(db: Database, players: int = 4, *, name: str = "Кубок констрактеда") -> int:
    info = create_tournament(db, name=name, actor=ORGANIZER, seed=3,
                             format=TournamentFormat.CONSTRUCTED,
                             settings=Settings(swiss_rounds=3, top_size=0, best_of=3))
    register_players(db, info.id, [PlayerLine(f"Игрок {i}", "Москва")
                                   for i in range(1, players + 1)], actor=ORGANIZER)
    return info.id


@pytest.fixture
def cards(db: Database) -> Database:
    load_sample_cards(db, actor=ORGANIZER)
    return db


def test_c1_the_ban_list_in_force_on_the_start_day_applies(cards: Database) -> None:
    db = cards
    fid = create_format(db, actor=ORGANIZER, account_id=None, name="Стандарт").id
    set_ban_list(db, fid, actor=ORGANIZER, account_id=None, effective="2026-01-01",
                 cards=["Лавина"])
    set_ban_list(db, fid, actor=ORGANIZER, account_id=None, effective="2026-03-01",
                 cards=["дракон ледника", "Волчья стая"])
    assert [b.effective for b in deck_format(db, fid).ban_lists] == [date(2026, 1, 1),
                                                                    date(2026, 3, 1)]
    tid = constructed(db)
    # 2026-02-28 22:30 UTC is 01:30 on 1 March in Moscow: the March list applies (C-1).
    info = set_tournament_format(db, tid, actor=ORGANIZER, account_id=None, format_id=fid,
                                 starts_at=datetime(2026, 2, 28, 22, 30, tzinfo=UTC))
    assert (info.rules_day, info.rules_day_from) == (date(2026, 3, 1), "starts_at")
    assert info.ban_list is not None
    assert info.ban_list.cards == ("Дракон ледника", "Волчья стая")
    # A start without a zone is Moscow time: 23:30 on 28 February keeps the January list.
    info = set_tournament_format(db, tid, actor=ORGANIZER, account_id=None, format_id=fid,
                                 starts_at=datetime(2026, 2, 28, 23, 30))
    assert info.rules_day == date(2026, 2, 28)
    assert info.ban_list is not None and info.ban_list.cards == ("Лавина",)
    # Round 1 paired on 5 January (Moscow) fixes the rules day, whatever the planned start.
    db.clock = ManualClock(datetime(2026, 1, 5, 12, 0, tzinfo=UTC))
    play_round(db, tid)
    info = tournament_format(db, tid)
    assert info is not None and info.locked
    assert (info.rules_day, info.rules_day_from) == (date(2026, 1, 5), "round_1")


def test_no_planned_start_uses_today(cards: Database) -> None:
    db = cards
    fid = create_format(db, actor=ORGANIZER, account_id=None, name="Стандарт").id
    tid = constructed(db)
    set_tournament_format(db, tid, actor=ORGANIZER, account_id=None, format_id=fid)
    db.clock = ManualClock(datetime(2026, 6, 30, 21, 5, tzinfo=UTC))
    info = tournament_format(db, tid)
    assert info is not None
    assert (info.rules_day, info.rules_day_from) == (date(2026, 7, 1), "today")
    assert info.ban_list is None


def test_the_format_is_locked_once_round_1_is_paired(cards: Database) -> None:
    db = cards
    fid = create_format(db, actor=ORGANIZER, account_id=None, name="Стандарт").id
    tid = constructed(db)
    assert tournament_format(db, tid) is None
    set_tournament_format(db, tid, actor=ORGANIZER, account_id=None, format_id=fid)
    play_round(db, tid)
    before = snapshot(db)
    with pytest.raises(ConflictError, match="decks are locked"):
        set_tournament_format(db, tid, actor=ORGANIZER, account_id=None, format_id=fid,
                              online=True)
    assert snapshot(db) == before


def test_c2_a_starter_format_makes_the_event_unrated(cards: Database) -> None:
    db = cards
    demo = seed_demo_formats(db)
    tid = constructed(db)
    add_judge(db, tid, name="Главный Судья", role=JudgeRole.HEAD_JUDGE, actor=ORGANIZER)
    info = set_tournament_format(db, tid, actor=ORGANIZER, account_id=None,
                                 format_id=demo.starter_id, online=True)
    assert info.starter and info.online
    assert len(info.format.starter_decks) == len(STARTER_DECKS)
    assert tournament_rating_terms(db, tid).starter
    assert "rating.terms" in {e.action for e in audit_log(db, tid)}
    with pytest.raises(ConflictError, match="decides whether it is starter constructed"):
        set_rating_terms(db, tid, actor=ORGANIZER, starter=False)  # one source of truth
    set_rating_terms(db, tid, actor=ORGANIZER, starter=True, boosters=2)
    # Back to a normal format: rated again (one source of truth, the rating terms).
    set_tournament_format(db, tid, actor=ORGANIZER, account_id=None, format_id=demo.standard_id)
    assert not tournament_rating_terms(db, tid).starter
    set_tournament_format(db, tid, actor=ORGANIZER, account_id=None,
                          format_id=demo.starter_id)
    for _ in range(3):
        play_round(db, tid)
    finish_tournament(db, tid, actor=ORGANIZER)
    with pytest.raises(UserError, match="starter constructed, which does not change the "
                                        "ratings"):
        submit_tournament(db, tid, actor="Главный Судья")


def test_only_site_organizers_edit_formats(cards: Database) -> None:
    db = cards
    ids = {login: account(db, login, role) for login, role in (
        ("org", AccountRole.ORGANIZER), ("head", AccountRole.HEAD_JUDGE),
        ("floor", AccountRole.FLOOR_JUDGE))}
    before = snapshot(db)
    for refused in ("head", "floor"):
        with pytest.raises(ForbiddenError):
            create_format(db, actor="x", account_id=ids[refused], name="Мой формат")
    assert snapshot(db) == before
    fid = create_format(db, actor="Org", account_id=ids["org"], name="Мой формат",
                        editions=[EDITION.upper()]).id
    assert deck_format(db, fid).editions == (EDITION,)
    for refused in ("head", "floor"):
        with pytest.raises(ForbiddenError):
            set_ban_list(db, fid, actor="x", account_id=ids[refused], effective="2030-01-01",
                         cards=["Лавина"])
    set_ban_list(db, fid, actor="Org", account_id=ids["org"], effective="2030-01-01",
                 cards=["Лавина"])
    logged = format_changes(db, fid)
    assert [(e.action, e.actor) for e in logged] == [("format.ban_list", "Org"),
                                                    ("format.create", "Org")]


def test_only_the_tournaments_organizer_sets_its_format(cards: Database) -> None:
    db = cards
    ids = {login: account(db, login, role) for login, role in (
        ("org", AccountRole.ORGANIZER), ("other", AccountRole.ORGANIZER),
        ("head", AccountRole.HEAD_JUDGE))}
    fid = create_format(db, actor=ORGANIZER, account_id=None, name="Стандарт").id
    tid = constructed(db)
    add_judge(db, tid, role=JudgeRole.ORGANIZER, login="org", actor=ORGANIZER)
    add_judge(db, tid, role=JudgeRole.HEAD_JUDGE, login="head", actor=ORGANIZER)
    before = snapshot(db)
    for refused in ("other", "head"):
        with pytest.raises(NotStaffError):
            set_tournament_format(db, tid, actor="x", account_id=ids[refused], format_id=fid)
    assert snapshot(db) == before
    info = set_tournament_format(db, tid, actor="Org", account_id=ids["org"], format_id=fid)
    assert info.format.name == "Стандарт"


def test_unknown_cards_in_a_ban_list_are_refused_together_with_suggestions(
        cards: Database) -> None:
    db = cards
    fid = create_format(db, actor=ORGANIZER, account_id=None, name="Стандарт").id
    before = snapshot(db)
    with pytest.raises(UnknownCardsError) as refused:
        set_ban_list(db, fid, actor=ORGANIZER, account_id=None, effective="2030-01-01",
                     cards=["Лавина", "Дракон ледникка", "Совсем не карта"])
    assert [name for name, _ in refused.value.unknown] == ["Дракон ледникка",
                                                           "Совсем не карта"]
    assert "Дракон ледника" in refused.value.unknown[0][1]
    assert "Дракон ледникка" in refused.value.message
    assert "Совсем не карта" in refused.value.message
    assert snapshot(db) == before


@pytest.mark.parametrize("day", ["2026-13-01", "01.02.2026", "", "завтра"])
def test_a_bad_day_is_refused(cards: Database, day: str) -> None:
    db = cards
    fid = create_format(db, actor=ORGANIZER, account_id=None, name="Стандарт").id
    before = snapshot(db)
    with pytest.raises(UserError, match="is not a day"):
        set_ban_list(db, fid, actor=ORGANIZER, account_id=None, effective=day,
                     cards=["Лавина"])
    assert snapshot(db) == before


def test_a_duplicate_name_and_bad_limits_are_refused(cards: Database) -> None:
    db = cards
    create_format(db, actor=ORGANIZER, account_id=None, name="Стандарт")
    before = snapshot(db)
    with pytest.raises(ConflictError, match="already"):
        create_format(db, actor=ORGANIZER, account_id=None, name="  СТАНДАРТ ")
    with pytest.raises(UserError, match="no edition"):
        create_format(db, actor=ORGANIZER, account_id=None, name="Другой",
                      editions=["Нет такого выпуска"])
    with pytest.raises(UserError, match="cards"):
        create_format(db, actor=ORGANIZER, account_id=None, name="Другой",
                      limits=FormatLimits(min_cards=40, max_cards=30))
    assert snapshot(db) == before
    assert [f.name for f in format_choices(db)] == ["Стандарт"]


def test_a_ban_list_in_force_no_longer_changes_and_a_future_one_may_go(
        cards: Database) -> None:
    db = cards
    fid = create_format(db, actor=ORGANIZER, account_id=None, name="Стандарт").id
    past, future = date.today() - timedelta(days=30), date.today() + timedelta(days=30)
    set_ban_list(db, fid, actor=ORGANIZER, account_id=None, effective=past, cards=["Лавина"])
    set_ban_list(db, fid, actor=ORGANIZER, account_id=None, effective=future, cards=["Йети"])
    view = format_view(db, fid)
    assert view.in_force is not None and view.in_force.effective == past
    assert [b.future for b in view.ban_lists] == [True, False]
    with pytest.raises(ConflictError, match="taken effect"):
        set_ban_list(db, fid, actor=ORGANIZER, account_id=None, effective=past, cards=[])
    with pytest.raises(ConflictError, match="taken effect"):
        delete_ban_list(db, fid, actor=ORGANIZER, account_id=None, effective=past)
    set_ban_list(db, fid, actor=ORGANIZER, account_id=None, effective=future,
                 cards=["Йети", "Лавина"])
    assert deck_format(db, fid).ban_list_on(future).cards == ("Йети", "Лавина")  # type: ignore[union-attr]
    delete_ban_list(db, fid, actor=ORGANIZER, account_id=None, effective=future)
    assert [b.effective for b in deck_format(db, fid).ban_lists] == [past]


def test_starter_decks_are_legal_decks_of_a_starter_format(cards: Database) -> None:
    db = cards
    plain = create_format(db, actor=ORGANIZER, account_id=None, name="Стандарт").id
    starter = create_format(db, actor=ORGANIZER, account_id=None, name="Стартер",
                            starter=True).id
    text = STARTER_DECKS[0][1]
    with pytest.raises(UserError, match="not a starter format"):
        set_starter_deck(db, plain, actor=ORGANIZER, account_id=None, name="Степи", text=text)
    before = snapshot(db)
    with pytest.raises(DeckProblemsError) as refused:
        set_starter_deck(db, starter, actor=ORGANIZER, account_id=None, name="Плохая",
                         text="3 Лавина\n2 Нет такой карты\n5 Йети")
    kinds = {p.kind.value for p in refused.value.problems}
    assert {"unknown_card", "copies", "size"} <= kinds
    assert snapshot(db) == before
    deck = set_starter_deck(db, starter, actor=ORGANIZER, account_id=None, name="Степи",
                            text=text.lower())
    assert 30 <= deck.total <= 40
    assert deck_format(db, starter).starter_decks[0].deck.lines[0].name[0].isupper()


def test_the_starter_flag_does_not_change_while_a_tournament_uses_the_format(
        cards: Database) -> None:
    db = cards
    fid = create_format(db, actor=ORGANIZER, account_id=None, name="Стартер",
                        starter=True).id
    edit_format(db, fid, actor=ORGANIZER, account_id=None, name="Стартер", editions=[],
                starter=False, limits=FormatLimits(), expected_version=1)
    edit_format(db, fid, actor=ORGANIZER, account_id=None, name="Стартер", editions=[],
                starter=True, limits=FormatLimits())
    tid = constructed(db)
    set_tournament_format(db, tid, actor=ORGANIZER, account_id=None, format_id=fid)
    with pytest.raises(ConflictError, match="starter flag"):
        edit_format(db, fid, actor=ORGANIZER, account_id=None, name="Стартер", editions=[],
                    starter=False, limits=FormatLimits())
    with pytest.raises(ConflictError, match="reload"):
        edit_format(db, fid, actor=ORGANIZER, account_id=None, name="Стартер 2", editions=[],
                    starter=True, limits=FormatLimits(), expected_version=1)
    assert deck_format(db, fid).starter


def test_a_format_change_names_the_decks_it_breaks_and_logs_both_formats(cards: Database
                                                                          ) -> None:
    """QA 13 item 7: before the change, how many of the registered decks the new format (and
    its ban list on the new planned start day) would not accept; the log keeps both names."""
    from turnir.services.deck_format_pages import format_change_check
    from turnir.services.decks import register_deck

    db = cards
    ids = seed_demo_formats(db)
    tid = constructed(db, 3)
    assert format_change_check(db, tid, account_id=None, format_id=ids.starter_id,
                               starts_at=None) is None  # no format, no deck: nothing to ask
    set_tournament_format(db, tid, actor=ORGANIZER, account_id=None, format_id=ids.standard_id,
                          starts_at=datetime(2030, 5, 1, 15, 15))
    forest = STARTER_DECKS[1][1]
    register_deck(db, tid, 1, text=forest, actor=ORGANIZER, account_id=None)
    register_deck(db, tid, 2, text=forest + "\n1 Степной разведчик", actor=ORGANIZER,
                  account_id=None)
    check = format_change_check(db, tid, account_id=None, format_id=ids.starter_id,
                                starts_at=None)
    assert check is not None
    assert (check.format_name, check.decks, check.not_legal, check.not_legal_now) == (
        "Стартерный констрактед (образец)", 2, 1, 0)
    assert format_change_check(db, tid, account_id=None, format_id=ids.standard_id,
                               starts_at=datetime(2030, 6, 1, 12, 0)) is None
    other = account(db, "other", AccountRole.ORGANIZER)
    with pytest.raises(ForbiddenError):
        format_change_check(db, tid, account_id=other, format_id=ids.starter_id, starts_at=None)
    set_tournament_format(db, tid, actor=ORGANIZER, account_id=None, format_id=ids.starter_id,
                          online=True)
    first, second = audit_log(db, tid, action="format.tournament")
    assert first.before is None and first.after is not None
    assert (first.after["format"], first.after["starts_at"]) == ("Стандарт (образец)",
                                                                 "2030-05-01 12:15")
    assert second.before is not None and second.after is not None
    assert (second.before["format"], second.after["format"]) == (
        "Стандарт (образец)", "Стартерный констрактед (образец)")
    assert (second.before["online"], second.after["online"], second.after["starts_at"]) == (
        False, True, None)

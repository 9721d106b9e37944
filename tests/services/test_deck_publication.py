"""Publishing the top decks and the metagame (issue 13, ``turnir.services.deck_publication``):
only the tournament's organizer, only after the finish, only the top N lists by final place
(P-6) become public; 0 withdraws; the metagame summarises every ranked player's deck once the
tournament is finished. On both databases."""

from __future__ import annotations

import pytest

from tests.services.builders import ORGANIZER, event, play_round
from tests.services.test_decks import staff_account
from tests.services.test_reports import players
from turnir.domain.cards import Crystal
from turnir.domain.model import StaffRole
from turnir.errors import ConflictError, ForbiddenError, NotFoundError, UserError
from turnir.i18n import error_text
from turnir.services.cards import import_cards
from turnir.services.deck_formats import set_tournament_format
from turnir.services.deck_publication import (
    metagame,
    publish_top_decks,
    published_decks,
    top_decks_page,
)
from turnir.services.decks import register_deck
from turnir.services.format_edits import create_format
from turnir.services.queries import audit_log, get_standings
from turnir.services.tournaments import finish_tournament
from turnir.storage.database import Database

EDITION = "Пробный выпуск"
FOREST = [f"Лесной зверь {n}" for n in range(1, 11)]
MOUNTAIN = [f"Горный воин {n}" for n in range(1, 11)]
NEUTRAL = [f"Странник {n}" for n in range(1, 11)]
SIGNATURE = [f"Тёмная тайна {n}" for n in range(1, 6)]
"""One card only the deck of entry ``n`` plays: a published list shows it, an unpublished
one never does."""
CATALOGUE = ("name;edition;element;cost;crystal;type;features\n" + "".join(
    f"{name};{EDITION};{element};{n % 7 + 1};{'gold' if element == 'Тьма' else 'silver'};"
    "Существо;\n"
    for element, names in (("Леса", FOREST), ("Горы", MOUNTAIN), ("Нейтральная", NEUTRAL),
                           ("Тьма", SIGNATURE))
    for n, name in enumerate(names)))


def lines(names: list[str], copies: int = 3) -> str:
    return "\n".join(f"{copies} {name}" for name in names)


DECKS = {
    1: lines(FOREST) + f"\n1 {SIGNATURE[0]}",                           # Леса
    2: lines(MOUNTAIN[:6]) + "\n" + lines(FOREST[:3]) + f"\n1 {SIGNATURE[1]}",  # Горы
    3: lines(FOREST[:5]) + "\n" + lines(MOUNTAIN[:5]) + f"\n1 {SIGNATURE[2]}",  # a tie
    4: lines(NEUTRAL) + f"\n1 {SIGNATURE[3]}",                         # Тьма: 1 card
    5: lines(FOREST[:9]) + "\n3 Незнакомая карта" + f"\n1 {SIGNATURE[4]}",
}
"""Entry 6 registers no deck."""


def constructed_event(db: Database, format_name: str = "Публикация", *, top: int = 0) -> int:
    """Six players, a format, five decks registered; two rounds played, not finished."""
    import_cards(db, actor=ORGANIZER, account_id=None, data=CATALOGUE.encode(),
                 filename="cards.csv")
    format_id = create_format(db, actor=ORGANIZER, account_id=None, name=format_name).id
    tid = event(db, 6, rounds=2, top=top)
    set_tournament_format(db, tid, actor=ORGANIZER, account_id=None, format_id=format_id)
    for number, text in DECKS.items():
        register_deck(db, tid, number, text=text, actor=ORGANIZER, account_id=None)
    play_round(db, tid, seed=3)
    play_round(db, tid, seed=4)
    return tid


def places(db: Database, tid: int) -> list[int]:
    return [int(pid) for pid in get_standings(db, tid).tournament.final_places()]


def test_decks_are_published_only_after_the_finish(db: Database) -> None:
    tid = constructed_event(db)
    with pytest.raises(ConflictError) as caught:
        publish_top_decks(db, tid, 3, actor=ORGANIZER, account_id=None)
    assert caught.value.code == "not_finished"
    assert error_text(caught.value, "ru") == \
        "колоды ТОПа турнира «Кубок клуба» публикуются после его завершения"
    assert published_decks(db, tid) == []
    with pytest.raises(ConflictError, match="shown once the tournament is finished"):
        metagame(db, tid)
    page = top_decks_page(db, tid, account_id=None)
    assert (page.finished, page.published, page.decks, page.constructed) == (
        False, 0, (), True)


def test_the_organizer_publishes_the_top_decks_by_final_place(db: Database) -> None:
    tid = constructed_event(db)
    finish_tournament(db, tid, actor=ORGANIZER)
    order = places(db, tid)
    assert published_decks(db, tid) == []  # not published yet: nothing public
    organizer = staff_account(db, tid, "org", StaffRole.ORGANIZER)
    assert publish_top_decks(db, tid, 3, actor="Org", account_id=organizer) == 3
    shown = published_decks(db, tid)
    assert [(d.place, d.number) for d in shown] == [(1, order[0]), (2, order[1]),
                                                    (3, order[2])]
    names = {line.name for d in shown for line in d.lines}
    for number in range(1, 6):
        signature = SIGNATURE[number - 1]
        assert (signature in names) is (number in order[:3]), number
    for published in shown:
        if not published.registered:  # entry 6
            assert (published.number, published.lines, published.total) == (6, (), 0)
            continue
        assert published.total == sum(line.count for line in published.lines)
        keys = [(line.cost is None, line.element, line.cost or 0, line.name)
                for line in published.lines]
        assert keys == sorted(keys)  # sorted for reading: element, cost, type, name
    by_number = {d.number: d for d in shown}
    if 3 in by_number:
        assert by_number[3].elements == ("Горы", "Леса")
    if 4 in by_number:
        assert by_number[4].elements == ("Тьма",)  # the neutral cards do not count
    entries = audit_log(db, tid, action="deck.publish")
    assert [(e.actor, e.before, e.after) for e in entries] == [
        ("Org", {"published": 0}, {"published": 3})]


def test_publishing_again_changes_the_count_and_zero_withdraws(db: Database) -> None:
    tid = constructed_event(db)
    finish_tournament(db, tid, actor=ORGANIZER)
    publish_top_decks(db, tid, 2, actor=ORGANIZER, account_id=None)
    publish_top_decks(db, tid, 2, actor=ORGANIZER, account_id=None)  # unchanged: not logged
    publish_top_decks(db, tid, 6, actor=ORGANIZER, account_id=None)
    assert len(published_decks(db, tid)) == 6
    assert publish_top_decks(db, tid, 0, actor=ORGANIZER, account_id=None) == 0
    assert published_decks(db, tid) == []
    page = top_decks_page(db, tid, account_id=None)
    assert (page.finished, page.published, page.decks, page.ranked) == (True, 0, (), 6)
    assert [e.after for e in audit_log(db, tid, action="deck.publish")] == [
        {"published": 2}, {"published": 6}, {"published": 0}]
    with pytest.raises(UserError, match="6 ranked players") as caught:
        publish_top_decks(db, tid, 7, actor=ORGANIZER, account_id=None)
    assert error_text(caught.value, "ru") == (
        "колод можно опубликовать не больше, чем игроков с итоговым местом: 6")
    with pytest.raises(UserError, match="from 0 to 1000"):
        publish_top_decks(db, tid, -1, actor=ORGANIZER, account_id=None)


def test_only_the_tournament_s_organizer_publishes(db: Database) -> None:
    tid = constructed_event(db)
    finish_tournament(db, tid, actor=ORGANIZER)
    judge = staff_account(db, tid, "head", StaffRole.HEAD_JUDGE)
    player = players(db, tid)[1]
    other = constructed_event(db, "Другой формат")
    stranger = staff_account(db, other, "other-org", StaffRole.ORGANIZER)
    for account_id in (judge, player.id, stranger):
        with pytest.raises(ForbiddenError):
            publish_top_decks(db, tid, 3, actor="Кто-то", account_id=account_id)
    with pytest.raises(ForbiddenError) as caught:
        publish_top_decks(db, tid, 3, actor="Кто-то", account_id=judge)
    assert "публиковать колоды ТОПа может только его организатор" in error_text(
        caught.value, "ru")
    assert published_decks(db, tid) == []
    assert audit_log(db, tid, action="deck.publish") == []
    page = top_decks_page(db, tid, account_id=judge)
    assert page.may_publish is False
    organizer = staff_account(db, tid, "org2", StaffRole.ORGANIZER)
    assert top_decks_page(db, tid, account_id=organizer).may_publish is True


def test_a_tournament_without_a_format_has_no_decks_to_publish(db: Database) -> None:
    tid = event(db, 4, rounds=1)
    play_round(db, tid)
    finish_tournament(db, tid, actor=ORGANIZER)
    with pytest.raises(UserError) as caught:
        publish_top_decks(db, tid, 2, actor=ORGANIZER, account_id=None)
    assert caught.value.code == "no_deck_format"
    with pytest.raises(NotFoundError):
        metagame(db, tid)
    assert top_decks_page(db, tid, account_id=None).constructed is False


def test_the_metagame_of_every_ranked_deck(db: Database) -> None:
    tid = constructed_event(db)
    finish_tournament(db, tid, actor=ORGANIZER)
    order = places(db, tid)
    game = metagame(db, tid)  # public without a publication
    assert game.decks == 5
    shares = {s.elements: (s.decks, s.best_place) for s in game.elements}
    place_of = {number: place for place, number in enumerate(order, start=1)}
    assert shares == {
        ("Леса",): (2, min(place_of[1], place_of[5])),
        ("Горы",): (1, place_of[2]),
        ("Горы", "Леса"): (1, place_of[3]),
        ("Тьма",): (1, place_of[4]),
    }
    assert game.elements[0].elements == ("Леса",)
    top = {c.name: (c.decks, c.copies) for c in game.cards}
    assert len(game.cards) == 20
    assert top[FOREST[0]] == (4, 12)  # decks 1, 2, 3 and 5
    assert game.cards[0].name == FOREST[0]
    assert all(c.decks >= 1 for c in game.cards)


def test_the_form_offers_the_top_size_else_a_top_8_never_more_than_the_players(
        db: Database) -> None:
    tid = constructed_event(db)
    finish_tournament(db, tid, actor=ORGANIZER)
    assert top_decks_page(db, tid, account_id=None).suggested == 6  # a top 8 of 6 players
    topped = constructed_event(db, "С ТОПом", top=4)
    finish_tournament(db, topped, actor=ORGANIZER, early=True)
    page = top_decks_page(db, topped, account_id=None)
    assert (page.ranked, page.suggested) == (6, 4)  # the tournament's top of 4 (P-5)


def test_a_published_line_says_the_kind_of_crystal_it_costs(db: Database) -> None:
    tid = constructed_event(db)
    finish_tournament(db, tid, actor=ORGANIZER)
    publish_top_decks(db, tid, 6, actor=ORGANIZER, account_id=None)
    crystals = {line.name: line.crystal for d in published_decks(db, tid) for line in d.lines}
    assert {crystals[name] for name in SIGNATURE} == {Crystal.GOLD}
    assert crystals[FOREST[0]] is Crystal.SILVER
    assert crystals["Незнакомая карта"] is None  # not in the catalogue: no cost, no crystal

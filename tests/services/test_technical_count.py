"""The S-8 technical result from the cards each player controls (issue 13,
``turnir.services.technical_count``): the cards looked up in the catalogue (case, ё/е, Latin
look-alikes), their costs summed with a gold crystal counting as a silver one, unknown names
listed with suggestions, and the outcome proposed by the tournament's threshold; only the
tournament's staff count, nothing is stored."""

from __future__ import annotations

import pytest

from tests.services.builders import ORGANIZER, event, snapshot
from tests.services.test_deck_checks import DECK, catalogue_and_format, constructed, judge_account
from tests.services.test_reports import players
from turnir.domain.games import Side
from turnir.domain.model import StaffRole
from turnir.domain.penalties import CrystalCount
from turnir.errors import ForbiddenError, UserError
from turnir.services.decks import register_deck
from turnir.services.judges import add_judge
from turnir.services.penalty_catalogue import set_judging_settings
from turnir.services.rounds import current_round
from turnir.services.technical_count import (
    MAX_CARDS_TEXT,
    count_crystals,
    crystal_picker,
    with_card,
)
from turnir.storage.database import Database


@pytest.fixture
def tid(db: Database) -> int:
    catalogue_and_format(db)
    return event(db, 4, name="Технический")


def test_s8_gold_counts_as_silver_and_copies_multiply(db: Database, tid: int) -> None:
    count = count_crystals(db, tournament_id=tid, cards_a="2 Горный тролль\nЛесная фея",
                           cards_b="Тёмный маг\n1 Болотный змей\nЛедяной пик")
    assert (count.a.total, count.a.gold, count.a.silver) == (11, 10, 1)
    assert count.a.crystals == CrystalCount(silver=1, gold=10)
    assert (count.b.total, count.b.gold, count.b.silver) == (8, 4, 4)
    assert count.margin == 1 and count.winner is Side.A and count.complete


def test_s8_lookups_ignore_case_yo_and_latin_look_alikes_and_merge_lines(
        db: Database, tid: int) -> None:
    # "горный тpолль" with a Latin "p", "Темный" with е for ё, two lines of one card
    count = count_crystals(db, tournament_id=tid, cards_a="горный тpолль\n1 ГОРНЫЙ ТРОЛЛЬ",
                           cards_b="1 темный маг [Выпуск судей]")
    assert [(c.name, n) for c, n in count.a.cards] == [("Горный тролль", 2)]
    assert count.a.total == 10 and count.b.total == 4


def test_s8_unknown_names_are_listed_with_suggestions_and_bad_lines_reported(
        db: Database, tid: int) -> None:
    count = count_crystals(db, tournament_id=tid, cards_a="2 Горный трол\nЛесная фея",
                           cards_b="0 Тёмный маг")
    [unknown] = count.a.unknown
    assert (unknown.name, unknown.count, unknown.line) == ("Горный трол", 2, 1)
    assert unknown.suggestions[0] == "Горный тролль"
    assert count.a.total == 1 and not count.complete  # only what was found is counted
    assert count.b.problems and count.b.total == 0


def test_s8_within_the_threshold_the_proposal_is_a_draw(db: Database, tid: int) -> None:
    add_judge(db, tid, name="Главный Судья", role=StaffRole.HEAD_JUDGE, actor=ORGANIZER)
    set_judging_settings(db, tid, actor="Главный Судья", technical_margin=3)
    count = count_crystals(db, tournament_id=tid, cards_a="Горный тролль",
                           cards_b="Болотный змей")  # 5 against 3: two ahead, three needed
    assert count.margin == 3 and count.winner is None
    count = count_crystals(db, tournament_id=tid, cards_a="Лесная фея",
                           cards_b="Горный тролль\nЛесная фея")
    assert count.winner is Side.B


def test_the_picker_adds_a_found_card_to_one_players_list(db: Database, tid: int) -> None:
    picked = crystal_picker(db, tid, account_id=None, cards_a="2 Лесная фея", cards_b="",
                            query="тролль", add=(Side.B, "Горный тролль"))
    assert picked.cards_b == "1 Горный тролль" and picked.cards_a == "2 Лесная фея"
    assert [c.name for c in picked.found] == ["Горный тролль"]
    assert picked.count is not None and picked.count.b.total == 5 and picked.count.a.total == 2
    empty = crystal_picker(db, tid, account_id=None, cards_a=" ", cards_b="")
    assert empty.count is None and empty.found == []
    assert with_card("1 A\n", "  Б\nв ") == "1 A\n1 Б в"


def test_a_floor_judge_counts_another_tournaments_judge_and_a_player_do_not(
        db: Database, tid: int) -> None:
    floor = judge_account(db, tid, "floor")
    assert count_crystals(db, tournament_id=tid, cards_a="Лесная фея", cards_b="",
                          account_id=floor).a.total == 1
    other = event(db, 4, name="Чужой")
    stranger = judge_account(db, other, "stranger", StaffRole.HEAD_JUDGE)
    player = players(db, tid)[1].id
    before = snapshot(db)
    for account in (stranger, player):
        with pytest.raises(ForbiddenError):
            count_crystals(db, tournament_id=tid, cards_a="Лесная фея", cards_b="",
                           account_id=account)
    assert snapshot(db) == before


def test_too_long_a_list_is_refused(db: Database, tid: int) -> None:
    with pytest.raises(UserError, match="longer than"):
        count_crystals(db, tournament_id=tid, cards_a="Лесная фея\n" * MAX_CARDS_TEXT,
                       cards_b="")


def _seats(db: Database, tid: int) -> dict[int, tuple[int, int]]:
    """Round 1's tables: table number → (player A, player B)."""
    return {p.table: (p.a, p.b) for p in current_round(db, tid).round.pairings
            if p.b is not None}


def test_s8_a_card_beyond_the_players_registered_deck_is_counted_and_flagged(
        db: Database) -> None:
    tid = constructed(db, 4)  # decks 1–3 registered, player 4 has none; round 1 paired
    seats = _seats(db, tid)
    table, (a, _) = next((t, ab) for t, ab in seats.items() if 4 not in ab)
    # player A's deck: no «Тёмный маг», «Горный тролль» typed with a Latin "p" (3 copies)
    register_deck(db, tid, a, text=DECK.replace("3 Тёмный маг\n", "").replace(
        "Горный тролль", "Гоpный тролль"), actor=ORGANIZER, account_id=None)
    count = count_crystals(db, tournament_id=tid, round_number=1, table=table,
                           cards_a="Тёмный маг\n4 горный тролль\n3 Лесная фея",
                           cards_b="Тёмный маг\n3 Горный тролль")
    assert count.a.has_deck and count.b.has_deck
    assert [(x.card.name, x.counted, x.in_deck) for x in count.a.not_in_deck] == [
        ("Тёмный маг", 1, 0), ("Горный тролль", 4, 3)]
    assert count.a.total == 4 + 20 + 3  # still counted
    assert count.b.not_in_deck == () and count.proposed
    [(other, (c, _))] = [(t, ab) for t, ab in seats.items() if 4 in ab]
    without = count_crystals(db, tournament_id=tid, round_number=1, table=other,
                             cards_a="Тёмный маг", cards_b="Тёмный маг")
    no_deck, has_deck = (without.a, without.b) if c == 4 else (without.b, without.a)
    assert not no_deck.has_deck and no_deck.not_in_deck == ()  # no deck: nothing compared
    assert has_deck.has_deck and has_deck.not_in_deck == ()
    assert count_crystals(db, tournament_id=tid, cards_a="Тёмный маг",
                          cards_b="").a.not_in_deck == ()  # no table: nothing compared


def test_s8_with_a_card_unknown_or_a_line_unread_no_outcome_is_proposed(
        db: Database, tid: int) -> None:
    assert count_crystals(db, tournament_id=tid, cards_a="Горный тролль",
                          cards_b="Лесная фея").proposed
    unknown = count_crystals(db, tournament_id=tid, cards_a="Горный тролль",
                             cards_b="Лесная фея\nГоллем")
    assert not unknown.proposed and unknown.b.unknown
    unread = count_crystals(db, tournament_id=tid, cards_a="Горный тролль",
                            cards_b="0 Лесная фея")
    assert not unread.proposed and unread.b.problems and not unread.b.unknown

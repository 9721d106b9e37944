"""After the draft (issue 14, ``turnir.services.draft_decks``): the deck or hand from a live
pool (D-6) stored in the ``decks`` table like a constructed deck, the tabletop draft's typed
deck checked by D-6/D-1 (not C-1), who may save when, and the judges' D-7 replacements. On
SQLite and PostgreSQL (the ``db`` fixture)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.services.builders import ORGANIZER, play_round
from tests.services.test_decks import staff_account
from tests.services.test_reports import players
from turnir.domain.draft.plan import DraftProfile, make_plan
from turnir.domain.model import StaffRole, TournamentFormat
from turnir.errors import ConflictError, ForbiddenError, NotFoundError, UserError
from turnir.formats.players_csv import PlayerLine
from turnir.i18n import error_text
from turnir.services.cards import card_catalogue, import_cards, sample_cards_bytes
from turnir.services.decks import deck_view, list_decks, register_deck
from turnir.services.draft_decks import (
    Reported,
    pool_deck,
    pool_players,
    record_replacement,
    replacements,
    save_pool_deck,
    save_typed_deck,
)
from turnir.services.draft_setup import seat_draft, set_draft_plan
from turnir.services.live_draft import advance_drafts, draft_pool, start_live_draft
from turnir.services.players import register_players
from turnir.services.queries import audit_log
from turnir.services.tournaments import create_tournament
from turnir.storage.database import Database

LATER = datetime.now(UTC) + timedelta(days=1)


def draft_event(db: Database, *, twelves: int = 0, sevens: int = 0,
                profile: DraftProfile = DraftProfile.ONLINE, count: int = 6,
                live: bool = True) -> int:
    """A draft tournament with the sample catalogue, its plan and seating; a live one drafted
    to the end (every pick made by the timer: the ticker run a day later)."""
    import_cards(db, actor=ORGANIZER, account_id=None, data=sample_cards_bytes(),
                 filename="cards.csv")
    tid = create_tournament(db, name="Драфт клуба", actor=ORGANIZER, seed=5,
                            format=TournamentFormat.DRAFT).id
    register_players(db, tid, [PlayerLine(f"Игрок {i:02d}", "Москва")
                               for i in range(1, count + 1)], actor=ORGANIZER)
    set_draft_plan(db, tid, actor=ORGANIZER, account_id=None,
                   plan=make_plan(twelves=twelves, sevens=sevens, profile=profile))
    seat_draft(db, tid, actor=ORGANIZER, account_id=None, method="lot")
    if live:
        start_live_draft(db, tid, actor=ORGANIZER, account_id=None)
        while advance_drafts(db, now=LATER):
            pass
    return tid


def test_d6_a_deck_from_the_pool_is_stored_and_listed_for_the_judges(db: Database) -> None:
    tid = draft_event(db, sevens=4)
    accounts = players(db, tid)
    view = pool_deck(db, tid, 1, account_id=accounts[1].id)
    assert (view.live, view.ready, view.rule.pool, view.rule.all_cards, view.saved) == (
        True, True, 28, False, False)
    uids = [card.uid for group in view.groups for card in group.cards]
    assert len(uids) == 28 and all(card.element for g in view.groups for card in g.cards)
    short = save_pool_deck(db, tid, 1, actor="Игрок 01", account_id=accounts[1].id,
                           uids=uids[:19], expected_version=0)
    assert (short.saved, short.valid, short.chosen) == (True, False, 19)
    assert "не меньше 20" in error_text(short.problems[0].error, "ru")
    good = save_pool_deck(db, tid, 1, actor="Игрок 01", account_id=accounts[1].id,
                          uids=uids[:22], expected_version=1)
    assert (good.valid, good.chosen, good.version) == (True, 22, 2)
    assert sum(c.chosen for g in good.groups for c in g.cards) == 22
    listed = {d.number: d for d in list_decks(db, tid, account_id=None)}
    assert (listed[1].registered, listed[1].valid, listed[1].total) == (True, True, 22)
    assert deck_view(db, tid, 1, account_id=None).valid
    with pytest.raises(ConflictError):  # based on an old version
        save_pool_deck(db, tid, 1, actor="Игрок 01", account_id=accounts[1].id,
                       uids=uids[:22], expected_version=1)
    with pytest.raises(UserError, match="not in this player's pool"):
        other = [c.uid for g in pool_deck(db, tid, 2, account_id=None).groups
                 for c in g.cards]
        save_pool_deck(db, tid, 1, actor="Игрок 01", account_id=accounts[1].id,
                       uids=[*uids[:20], *(u for u in other if u not in uids)][:21])
    actions = [e.action for e in audit_log(db, tid, action="deck")]
    assert actions.count("deck.register") == 2


def test_d6_online_two_boosters_all_cards_saved_whole(db: Database) -> None:
    tid = draft_event(db, sevens=2)
    accounts = players(db, tid)
    view = pool_deck(db, tid, 3, account_id=accounts[3].id)
    assert view.rule.all_cards and view.rule.pool == 14
    saved = save_pool_deck(db, tid, 3, actor="Игрок 03", account_id=accounts[3].id, uids=[])
    assert (saved.valid, saved.chosen) == (True, 14)


def test_deck_roles_player_until_round_one_then_judges_logged(db: Database) -> None:
    tid = draft_event(db, sevens=1)
    accounts = players(db, tid)
    judge = staff_account(db, tid, "floor", StaffRole.FLOOR_JUDGE)
    with pytest.raises(ForbiddenError):
        pool_deck(db, tid, 2, account_id=accounts[1].id)
    with pytest.raises(ForbiddenError):
        save_pool_deck(db, tid, 2, actor="Игрок 01", account_id=accounts[1].id, uids=[])
    hand = save_pool_deck(db, tid, 1, actor="Игрок 01", account_id=accounts[1].id, uids=[])
    assert (hand.rule.use.value, hand.valid, hand.chosen) == ("hand", True, 7)
    assert {p.number for p in pool_players(db, tid, account_id=judge)} == set(range(1, 7))
    with pytest.raises(ForbiddenError):
        pool_players(db, tid, account_id=accounts[1].id)
    play_round(db, tid)
    with pytest.raises(ConflictError, match="locked"):
        save_pool_deck(db, tid, 1, actor="Игрок 01", account_id=accounts[1].id, uids=[])
    assert save_pool_deck(db, tid, 2, actor="Floor", account_id=judge, uids=[]).locked
    assert [e.action for e in audit_log(db, tid, action="deck")][-1] == "deck.judge_change"


def test_d6_d1_tabletop_typed_deck_checked_by_draft_rules(db: Database) -> None:
    tid = draft_event(db, twelves=2, profile=DraftProfile.TABLETOP, count=8, live=False)
    accounts = players(db, tid)
    view = pool_deck(db, tid, 1, account_id=accounts[1].id)
    assert not view.live and not view.groups
    card = next(line.split(";")[0] for line in sample_cards_bytes().decode().splitlines()[1:])
    typed = save_typed_deck(db, tid, 1, text=f"21 {card}", actor="Игрок 01",
                            account_id=accounts[1].id)
    assert (typed.valid, typed.total) == (True, 21)  # 21 copies: no copy limit (D-1)
    short = register_deck(db, tid, 1, text=f"5 {card}", actor="Игрок 01",
                          account_id=accounts[1].id, expected_version=1)
    assert [p.rule for p in short.problems] == ["D-6"]
    with pytest.raises(ConflictError):
        save_pool_deck(db, tid, 1, actor="Игрок 01", account_id=accounts[1].id, uids=[])


def test_typed_deck_refused_in_a_live_draft(db: Database) -> None:
    tid = draft_event(db, sevens=4)
    with pytest.raises(ConflictError, match="pool"):
        register_deck(db, tid, 1, text="1 Что-то", actor=ORGANIZER, account_id=None)


def test_d7_judge_replaces_a_card_swapped_in_the_pool(db: Database) -> None:
    tid = draft_event(db, sevens=4)
    accounts = players(db, tid)
    judge = staff_account(db, tid, "head", StaffRole.HEAD_JUDGE)
    pool = draft_pool(db, tid, 1, account_id=None)
    old = pool[0]
    catalogue = card_catalogue(db)
    new = next(c for c in catalogue.cards if c.rarity == old.rarity and c.name != old.name)
    wrong = next(c for c in catalogue.cards if c.rarity != old.rarity)
    with pytest.raises(UserError, match="same rarity"):
        record_replacement(db, tid, Reported(number=1, booster_round=1, old_name=old.name,
                                             new_name=wrong.name, new_edition=wrong.edition),
                           actor="Head", account_id=judge)
    with pytest.raises(ForbiddenError):
        record_replacement(db, tid, Reported(number=1, booster_round=1, old_name=old.name,
                                             new_name=new.name, new_edition=new.edition),
                           actor="Игрок 01", account_id=accounts[1].id)
    with pytest.raises(NotFoundError):
        record_replacement(db, tid, Reported(number=1, booster_round=1, old_name="Нет такой",
                                             new_name=new.name), actor="Head", account_id=judge)
    line = record_replacement(db, tid, Reported(
        number=1, booster_round=1, old_name=old.name, old_edition=old.edition,
        new_name=new.name, new_edition=new.edition, reason="промо-карта"),
        actor="Head", account_id=judge)
    assert (line.in_pool, line.old_rarity, line.new_name, line.judge) == (
        True, old.rarity, new.name, "Head")
    swapped = [c for g in pool_deck(db, tid, 1, account_id=None).groups for c in g.cards
               if c.uid == old.uid]
    assert (swapped[0].name, swapped[0].replaced) == (new.name, True)
    assert [r.id for r in replacements(db, tid, account_id=judge)] == [line.id]
    assert [r.id for r in replacements(db, tid, account_id=accounts[1].id)] == [line.id]
    assert replacements(db, tid, account_id=accounts[2].id) == []
    logged = audit_log(db, tid, action="deck")
    assert logged[-1].action == "deck.draft_replacement"


def test_d7_a_replaced_card_in_the_saved_deck_is_replaced_there_too(db: Database) -> None:
    tid = draft_event(db, sevens=4)
    view = pool_deck(db, tid, 1, account_id=None)
    cards = [c for g in view.groups for c in g.cards]
    save_pool_deck(db, tid, 1, actor=ORGANIZER, account_id=None,
                   uids=[c.uid for c in cards[:20]])
    old = cards[0]
    new = next(c for c in card_catalogue(db).cards
               if c.rarity == old.rarity and c.name != old.name
               and c.name not in {x.name for x in cards})
    record_replacement(db, tid, Reported(number=1, booster_round=1, old_name=old.name,
                                         old_edition=old.edition, new_name=new.name,
                                         new_edition=new.edition, reason="не тот выпуск"),
                       actor=ORGANIZER, account_id=None)
    deck = deck_view(db, tid, 1, account_id=None)
    assert new.name in {line.name for line in deck.lines} and deck.total == 20
    assert (deck.judge_change, deck.reason) == (True, "не тот выпуск")
    after = pool_deck(db, tid, 1, account_id=None)
    assert (after.chosen, after.valid) == (20, True)
    assert [c.name for g in after.groups for c in g.cards if c.chosen].count(new.name) == 1


def test_d7_tabletop_replacement_needs_the_reported_rarity(db: Database) -> None:
    tid = draft_event(db, twelves=2, profile=DraftProfile.TABLETOP, count=8, live=False)
    new = card_catalogue(db).cards[0]
    with pytest.raises(UserError, match="rarity"):
        record_replacement(db, tid, Reported(number=2, booster_round=2, old_name="Промо",
                                             new_name=new.name), actor=ORGANIZER,
                           account_id=None)
    line = record_replacement(db, tid, Reported(number=2, booster_round=2, old_name="Промо",
                                                old_rarity=new.rarity, new_name=new.name),
                              actor=ORGANIZER, account_id=None)
    assert (line.in_pool, line.booster_round, line.player) == (False, 2, "Игрок 02")


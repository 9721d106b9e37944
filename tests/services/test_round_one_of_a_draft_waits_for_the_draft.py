"""Round 1 of a draft waits for the draft (issue 14 QA, D-2): pairing is refused before the
seating and while a started live draft is not over; a live draft refuses to start while a
player still in has no seat or once round 1 is paired; the wizard points to the «Драфт»
page instead of offering the pairing."""

from __future__ import annotations

import pytest

from tests.services.builders import ORGANIZER
from tests.services.draft_builders import DRAFT_ORGANIZER, draft_event
from tests.services.test_live_draft import _draft_event
from turnir.domain.model import Settings, TournamentFormat
from turnir.errors import ConflictError
from turnir.formats.players_csv import PlayerLine
from turnir.services.draft_setup import draft_page, seat_draft
from turnir.services.live_draft import start_live_draft
from turnir.services.players import register_players
from turnir.services.round_wizard import Step, round_wizard
from turnir.services.rounds import start_round
from turnir.services.tournaments import create_tournament
from turnir.storage.database import Database


def test_d2_round_one_of_a_draft_is_refused_until_the_players_are_seated(
        db: Database) -> None:
    tid = draft_event(db, 16)
    assert round_wizard(db, tid).step is Step.DRAFT
    assert round_wizard(db, tid).draft_blocker == "seat"
    with pytest.raises(ConflictError, match="Draft page") as refused:
        start_round(db, tid, actor=DRAFT_ORGANIZER)
    assert refused.value.code == "draft_not_seated"
    seat_draft(db, tid, actor=DRAFT_ORGANIZER, method="lot")
    assert round_wizard(db, tid).step is Step.PAIR
    assert len(start_round(db, tid, actor=DRAFT_ORGANIZER).round.pairings) == 8


def test_d2_a_player_added_after_the_seating_blocks_the_live_draft_until_seated_again(
        db: Database) -> None:
    tid, _ = _draft_event(db, 8)
    register_players(db, tid, [PlayerLine("Опоздавший Игрок", "Москва")], actor=ORGANIZER)
    assert draft_page(db, tid, account_id=None).unseated == ("Опоздавший Игрок",)
    with pytest.raises(ConflictError, match="Опоздавший Игрок") as refused:
        start_live_draft(db, tid, actor=ORGANIZER, account_id=None)
    assert refused.value.code == "draft_unseated"
    seat_draft(db, tid, actor=ORGANIZER, method="lot")
    assert draft_page(db, tid, account_id=None).unseated == ()
    start_live_draft(db, tid, actor=ORGANIZER, account_id=None)
    assert draft_page(db, tid, account_id=None).unseated == ()


def test_round_one_waits_for_a_started_live_draft_to_finish(db: Database) -> None:
    tid, _ = _draft_event(db, 8)
    start_live_draft(db, tid, actor=ORGANIZER, account_id=None)
    wizard = round_wizard(db, tid)
    assert wizard.step is Step.DRAFT and wizard.draft_blocker == "live"
    with pytest.raises(ConflictError) as refused:
        start_round(db, tid, actor=ORGANIZER)
    assert refused.value.code == "draft_not_done"


def test_a_live_draft_is_not_started_after_round_one_is_paired(db: Database) -> None:
    tid, _ = _draft_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    with pytest.raises(ConflictError) as refused:
        start_live_draft(db, tid, actor=ORGANIZER, account_id=None)
    assert refused.value.code == "draft_round_paired"


def test_a_draft_without_a_plan_pairs_as_one_table_as_before(db: Database) -> None:
    """**Decided**: an event recorded only for its results (no draft plan: the CLI, an import)
    is not held up; the web wizard still points its organizer to the «Драфт» page."""
    info = create_tournament(db, name="Драфт для рейтинга", actor=ORGANIZER, seed=5,
                             format=TournamentFormat.DRAFT, settings=Settings(swiss_rounds=3))
    tid = info.id
    register_players(db, tid, [PlayerLine(f"Игрок {i:02d}", "Москва") for i in range(1, 9)],
                     actor=ORGANIZER)
    assert round_wizard(db, tid).draft_blocker == "seat"
    assert len(start_round(db, tid, actor=ORGANIZER).round.pairings) == 4

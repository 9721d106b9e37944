"""The draft setup service (``turnir.services.draft_setup``): the plan (D-1, D-8, R-5), the
seating by lot and by standings (D-2, D-3), who may do it, the audit and the recorded seed, and
that the stored seating makes the tournament pair inside each table (T-8)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tests.services.builders import play_round, snapshot
from tests.services.draft_builders import DRAFT_ORGANIZER, draft_event
from tests.services.test_decks import staff_account as account
from turnir.domain.draft.plan import DraftProfile, make_plan
from turnir.domain.draft.seating import seat_by_lot
from turnir.domain.model import RulesLevel, StaffRole
from turnir.errors import ConflictError, ForbiddenError, UserError
from turnir.services.common import reading
from turnir.services.draft_setup import (
    draft_page,
    draft_plan,
    draft_seating,
    plan_in,
    seat_draft,
    seating_in,
    set_draft_plan,
)
from turnir.services.queries import audit_log
from turnir.services.rating_terms import tournament_rating_terms
from turnir.services.rounds import start_round
from turnir.services.tournaments import find_tournament
from turnir.storage.database import Database
from turnir.storage.mappers import load_tournament


def test_d1_r5_plan_sets_the_rating_boosters_and_amateur_level(db: Database) -> None:
    tid = draft_event(db, 8, twelves=4, level=RulesLevel.PROFESSIONAL)
    assert find_tournament(db, tid).rules_level is RulesLevel.PROFESSIONAL
    assert tournament_rating_terms(db, tid).boosters == 4
    plan = make_plan(twelves=1, sevens=1, profile=DraftProfile.TABLETOP)
    set_draft_plan(db, tid, actor=DRAFT_ORGANIZER, plan=plan)
    assert draft_plan(db, tid) == plan
    assert tournament_rating_terms(db, tid).boosters == 2
    assert find_tournament(db, tid).rules_level is RulesLevel.AMATEUR
    with reading(db) as tx:
        assert plan_in(tx, tid) == plan
    actions = [e.action for e in audit_log(db, tid)]
    assert actions.count("draft.plan") == 2
    assert "rating.terms" in actions


def test_d2_seating_by_lot_is_drawn_from_the_recorded_seed(db: Database) -> None:
    tid = draft_event(db, 33)
    view = seat_draft(db, tid, actor=DRAFT_ORGANIZER, method="lot", tables=4)
    assert [len(t.seats) for t in view.tables] == [9, 8, 8, 8]
    assert view.seed == "14/draft/seating/1" and view.method == "lot"
    expected = seat_by_lot(list(range(1, 34)), DraftProfile.TABLETOP,
                           random.Random(view.seed), tables=4)
    assert tuple(tuple(s.number for s in t.seats) for t in view.tables) == expected.tables
    assert draft_seating(db, tid) == view
    with reading(db) as tx:
        assert seating_in(tx, tid) == expected
        assert load_tournament(tx, tid).tables == {
            pid: table for table, players in enumerate(expected.tables, start=1)
            for pid in players}
    again = seat_draft(db, tid, actor=DRAFT_ORGANIZER, method="lot")
    assert again.seed == "14/draft/seating/2" and again.tables != view.tables
    logged = [e for e in audit_log(db, tid) if e.action == "draft.seat"]
    assert [e.after["seed"] for e in logged] == [view.seed, again.seed]


def test_t8_a_seated_draft_pairs_round_one_inside_each_table(db: Database) -> None:
    tid = draft_event(db, 16)
    seat_draft(db, tid, actor=DRAFT_ORGANIZER, method="lot", tables=2)
    with reading(db) as tx:
        tables = load_tournament(tx, tid).tables
    view = start_round(db, tid, actor=DRAFT_ORGANIZER)
    matches = [p for p in view.round.pairings if p.b is not None]
    assert len(matches) == 8
    assert all(tables[p.a] == tables[p.b] for p in matches)
    with pytest.raises(ConflictError, match="round 1 is already paired"):
        seat_draft(db, tid, actor=DRAFT_ORGANIZER, method="lot")


def test_d3_seating_by_standings_after_a_finished_round(db: Database) -> None:
    tid = draft_event(db, 16, rounds=4)
    with pytest.raises(ConflictError, match="needs a played round"):
        seat_draft(db, tid, actor=DRAFT_ORGANIZER, method="standings")
    seat_draft(db, tid, actor=DRAFT_ORGANIZER, method="lot")  # round 1 needs a seating (D-2)
    play_round(db, tid, "2-0")
    with reading(db) as tx:
        order = load_tournament(tx, tid).standings().order()
    view = seat_draft(db, tid, actor=DRAFT_ORGANIZER, method="standings", tables=2)
    assert {s.number for s in view.tables[0].seats} == set(order[:8])
    assert {s.number for s in view.tables[1].seats} == set(order[8:])


def test_p5_seating_refuses_a_top_that_cannot_take_two_from_each_table(db: Database) -> None:
    tid = draft_event(db, 33, top=4)
    before = snapshot(db)
    with pytest.raises(UserError, match="at least two"):
        seat_draft(db, tid, actor=DRAFT_ORGANIZER, method="lot", tables=4)
    assert snapshot(db) == before


def test_only_the_tournaments_organizer_sets_the_plan_and_seats(db: Database) -> None:
    tid = draft_event(db, 8)
    head = account(db, tid, "head", StaffRole.HEAD_JUDGE)
    organizer = account(db, tid, "boss", StaffRole.ORGANIZER)
    plan = make_plan(twelves=3, sevens=0, profile=DraftProfile.TABLETOP)
    with pytest.raises(ForbiddenError):
        set_draft_plan(db, tid, actor="Head", account_id=head, plan=plan)
    with pytest.raises(ForbiddenError):
        seat_draft(db, tid, actor="Head", account_id=head, method="lot")
    set_draft_plan(db, tid, actor="Boss", account_id=organizer, plan=plan)
    seat_draft(db, tid, actor="Boss", account_id=organizer, method="lot")
    page = draft_page(db, tid, account_id=organizer)
    assert page.manage and page.plan == plan and page.seating is not None
    assert page.table_counts == (1,)
    assert not draft_page(db, tid, account_id=head).manage


def test_seating_needs_a_plan_a_known_method_and_a_draft_tournament(db: Database) -> None:
    from tests.services.builders import event

    tid = event(db, 8)
    plan = make_plan(twelves=4, sevens=0, profile=DraftProfile.TABLETOP)
    with pytest.raises(ConflictError, match="not a draft"):
        set_draft_plan(db, tid, actor=DRAFT_ORGANIZER, plan=plan)
    with pytest.raises(UserError, match="by lot or by standings"):
        seat_draft(db, tid, actor=DRAFT_ORGANIZER, method="random")
    draft = draft_event(db, 3)
    with pytest.raises(UserError, match="at least 4 players"):
        seat_draft(db, draft, actor=DRAFT_ORGANIZER, method="lot")


def test_demo_draft_is_33_players_on_4_tables_with_round_2_under_way(db: Database) -> None:
    from turnir.services.demo_drafts import seed_draft_demo

    tid = seed_draft_demo(db)
    assert seed_draft_demo(db) == tid  # seeding again creates nothing twice
    view = draft_seating(db, tid)
    assert view is not None and [len(t.seats) for t in view.tables] == [9, 8, 8, 8]
    with reading(db) as tx:
        t = load_tournament(tx, tid)
    assert len(t.rounds) == 2 and not t.rounds[-1].finished
    assert t.swiss_rounds_planned == 4
    assert all(t.tables[p.a] == t.tables[p.b] for r in t.rounds for p in r.pairings
               if p.b is not None)


def test_t8_an_exported_draft_keeps_its_tables_and_imports_as_a_draft(db: Database) -> None:
    from turnir.formats.tournament_file import dump_tournament, parse_tournament
    from turnir.services.transfer import export_tournament, import_tournament

    tid = draft_event(db, 16)
    seat_draft(db, tid, actor=DRAFT_ORGANIZER, method="lot", tables=2)
    play_round(db, tid, "2-0")
    text = export_tournament(db, tid)
    with reading(db) as tx:
        original = load_tournament(tx, tid)
    parsed = parse_tournament(text)
    assert parsed.tables == original.tables and len(set(parsed.tables.values())) == 2
    assert dump_tournament(parsed) == text
    info = import_tournament(db, text, actor=DRAFT_ORGANIZER, name="Копия драфта")
    assert info.format.value == "draft"
    with reading(db) as tx:
        copy = load_tournament(tx, info.id)
    assert copy.tables == original.tables
    assert copy.standings().order() == original.standings().order()
    # a tournament without draft tables writes no "tables" key (files as before issue 14)
    assert '"tables"' not in dump_tournament(replace(original, tables={}))

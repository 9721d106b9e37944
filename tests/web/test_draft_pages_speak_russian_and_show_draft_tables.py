"""The draft pages after the issue 14 walk-through (QA): the plan form names a refused field by
its Russian label, the «Драфт» tab is on every tournament page, the live draft's refused
start is a message on its own page, the draft page speaks Russian about its seed, its timers
and its pool, warns about an unseated late player, and the standings and pairings show the
draft tables."""

from __future__ import annotations

import re
from typing import Any

from tests.services.draft_builders import draft_event
from tests.web.conftest import Clients
from tests.web.test_organizer_plans_and_seats_a_draft import CSRF, PLAN, RU, staff
from turnir.domain.draft.plan import DraftProfile
from turnir.formats.players_csv import PlayerLine
from turnir.services.cards import load_sample_cards
from turnir.services.draft_setup import draft_plan, seat_draft
from turnir.services.live_draft import start_live_draft
from turnir.services.players import register_players
from turnir.services.rounds import start_round
from turnir.storage.database import Database


def _token(client: Any, tid: int) -> str:
    found = CSRF.search(client.get(f"/t/{tid}/draft", headers=RU).text)
    assert found
    return found.group(1)


def test_the_plan_form_names_a_refused_field_by_its_russian_label(
        clients: Clients, web_db: Database) -> None:
    tid = draft_event(web_db, 16)
    staff(web_db, tid)
    boss = clients.as_("boss")
    token = _token(boss, tid)
    before = draft_plan(web_db, tid)
    for field, label in (("twelves", "устеров по 12 карт"), ("pick_seconds_per_card",
                                                             "екунд за каждую карту"),
                         ("profile", "рофиль драфта")):
        for typed in ("", "x"):
            answer = boss.post(f"/t/{tid}/draft/plan", headers=RU,
                               data={"csrf_token": token, **PLAN, field: typed})
            assert answer.status_code == 422, (field, typed)
            assert label in answer.text and field.capitalize() not in answer.text
    assert draft_plan(web_db, tid) == before  # an empty per-card time is refused, not 0


def test_the_draft_tab_is_on_pairings_standings_and_top_and_tables_are_shown(
        clients: Clients, web_db: Database) -> None:
    tid = draft_event(web_db, 33, top=8)
    seat_draft(web_db, tid, actor="test", method="lot", tables=4)
    start_round(web_db, tid, actor="test")
    anon = clients.as_(None)
    for page in ("pairings", "standings", "top"):
        text = anon.get(f"/t/{tid}/{page}", headers=RU).text
        assert f'href="/t/{tid}/draft"' in text, page
    pairings = anon.get(f"/t/{tid}/pairings", headers=RU).text
    groups = re.findall(r'class="draft-group"><th colspan="6">Стол драфта (\d)', pairings)
    assert groups == ["1", "2", "3", "4", "1"]  # table 1's bye (9 players) is listed last
    standings = anon.get(f"/t/{tid}/standings", headers=RU).text
    assert 'class="num draft-place"' in standings and "стол 1, место 1" in standings
    assert "<small>(1)</small>" not in standings  # hidden on phones before


def test_the_draft_page_speaks_russian_and_warns_about_a_late_player(
        clients: Clients, web_db: Database) -> None:
    tid = draft_event(web_db, 16, twelves=0, sevens=1, profile=DraftProfile.ONLINE)
    staff(web_db, tid)
    load_sample_cards(web_db, actor="test")
    assert 'id="to-draft"' in clients.as_("boss").get(f"/t/{tid}/manage", headers=RU).text
    boss = clients.as_("boss")
    page = boss.get(f"/t/{tid}/draft", headers=RU).text
    assert "Организатор ещё не задал" not in page
    assert "не меньше 20" not in page and "Все 7 выбранных карт — это раздача" in page
    assert "плюс 0 с" not in page and "+ секунд за каждую карту в бустере" in page
    seat_draft(web_db, tid, actor="test", method="lot")
    register_players(web_db, tid, [PlayerLine("Поздний Игрок", "Тула")], actor="test")
    page = boss.get(f"/t/{tid}/draft", headers=RU).text
    assert "/draft/seating/" not in page and "рассадка №1" in page
    assert "Место за столом" in page
    assert 'id="unseated"' in page and "Не рассажены: Поздний Игрок" in page
    # the live draft's start refused: a message on the live page, not «Что-то не так»
    refused = boss.post(f"/t/{tid}/draft/live/start", headers=RU,
                        data={"csrf_token": _token(boss, tid)})
    assert refused.status_code == 409
    assert 'id="start-refused"' in refused.text and "Поздний Игрок" in refused.text
    assert "Что-то не так" not in refused.text
    # the wizard points to the draft page until the seating
    manage = boss.get(f"/t/{tid}/manage", headers=RU).text
    assert 'id="pair-next"' in manage and 'id="to-draft"' not in manage  # seated
    assert 'id="no-legal-deck"' in manage  # no pool deck saved yet: warned as in constructed
    seat_draft(web_db, tid, actor="test", method="lot")
    start_live_draft(web_db, tid, actor="test", account_id=None)
    manage = boss.get(f"/t/{tid}/manage", headers=RU).text
    assert 'id="pair-next"' not in manage and f'href="/t/{tid}/draft/live"' in manage
    assert "Живой драфт ещё идёт" in manage

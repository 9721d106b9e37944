"""The live draft's pages without a browser (issue 14, ``web.live_draft_pages``): a pick works
as a plain form (303 back to the page) and as HTMX (the new state); the same pick sent again
is refused in Russian with the current state and never applied twice; the polled part answers
204 while nothing changed; the organizer starts the draft from the live page with a booster
template chosen; the head judge drops a player (the floor judge sees no drop button); the pick
log opens to players only after the draft; site organizers keep booster templates, checked
against the catalogue."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient

from tests.services.builders import ORGANIZER
from tests.web.conftest import Clients, add_account, csrf_of
from turnir.domain.draft.boosters import DraftCard
from turnir.domain.draft.plan import DraftProfile, make_plan
from turnir.domain.model import TournamentFormat
from turnir.formats.players_csv import PlayerLine
from turnir.services.accounts import AccountRole, find_account
from turnir.services.cards import load_sample_cards
from turnir.services.draft_setup import seat_draft, set_draft_plan
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.live_draft import (
    draft_pool,
    pick_card,
    pick_log,
    player_draft,
    start_live_draft,
)
from turnir.services.players import list_players, register_players
from turnir.services.tournaments import create_tournament
from turnir.storage.database import Database
from turnir.web.live_draft_pages import pool_groups

RU = {"accept-language": "ru"}
HX = {**RU, "hx-request": "true"}
FORM = re.compile(r'name="booster" value="(\d+)">\s*<input type="hidden" name="cards_left" '
                  r'value="(\d+)">')
CARD = re.compile(r'name="card" value="([^"]+)"')
VERSION = re.compile(r'data-version="(\d+)"')


def draft_event(db: Database, players: int = 6) -> int:
    """A draft tournament (3 boosters of 7, online) with its plan and seating, players p1..pN,
    the organizer ``org``, the head judge ``head`` and the floor judge ``floor``."""
    load_sample_cards(db, actor=ORGANIZER)
    for login, role in (("org", AccountRole.ORGANIZER), ("head", AccountRole.HEAD_JUDGE),
                        ("floor", AccountRole.FLOOR_JUDGE)):
        add_account(db, login, role)
    tid = create_tournament(db, name="Драфт", actor=ORGANIZER, seed=3,
                            format=TournamentFormat.DRAFT, organizer_login="org").id
    add_judge(db, tid, role=JudgeRole.HEAD_JUDGE, login="head", actor=ORGANIZER)
    add_judge(db, tid, role=JudgeRole.FLOOR_JUDGE, login="floor", actor=ORGANIZER)
    register_players(db, tid, [PlayerLine(f"Игрок {i}", "Москва")
                               for i in range(1, players + 1)], actor=ORGANIZER)
    for p in list_players(db, tid):
        add_account(db, f"p{p.number}", AccountRole.PLAYER, person_id=p.person_id)
    plan = make_plan(twelves=0, sevens=3, profile=DraftProfile.ONLINE, pick_seconds=300)
    set_draft_plan(db, tid, actor=ORGANIZER, account_id=None, plan=plan)
    seat_draft(db, tid, actor=ORGANIZER, account_id=None, method="lot")
    return tid


def post(client: TestClient, url: str, data: dict[str, str], **headers: str):  # type: ignore[no-untyped-def]
    return client.post(url, data={**data, "csrf_token": csrf_of(client, "/login")},
                       headers={**RU, **headers}, follow_redirects=False)


def start(clients: Clients, tid: int, data: dict[str, str] | None = None) -> TestClient:
    org = clients.as_("org")
    page = org.get(f"/t/{tid}/draft/live", headers=RU).text
    assert "Начать живой драфт" in page and 'name="booster_3"' in page
    answer = post(org, f"/t/{tid}/draft/live/start", data or {})
    assert answer.status_code == 303, answer.text
    return org


def test_issue14_a_pick_by_form_then_the_same_pick_again_is_refused_in_words(
        web_db: Database, clients: Clients) -> None:
    tid = draft_event(web_db)
    player = clients.as_("p1")
    assert f'href="/t/{tid}/draft/pick"' in player.get(f"/t/{tid}/me", headers=RU).text
    assert "Драфт ещё не начался" in player.get(f"/t/{tid}/draft/pick", headers=RU).text
    start(clients, tid)
    page = player.get(f"/t/{tid}/draft/pick", headers=RU).text
    booster, cards_left = FORM.search(page).groups()  # type: ignore[union-attr]
    cards = CARD.findall(page)
    assert len(cards) == int(cards_left) == 7 and "Бустер 1 из 3" in page
    version = VERSION.search(page).group(1)  # type: ignore[union-attr]
    unchanged = player.get(f"/t/{tid}/draft/pick/state?v={version}", headers=HX)
    assert unchanged.status_code == 204  # a poll: nothing changed, nothing swapped
    pick = {"booster": booster, "cards_left": cards_left, "card": cards[0]}
    answer = post(player, f"/t/{tid}/draft/pick", pick)
    assert answer.status_code == 303 and answer.headers["location"] == f"/t/{tid}/draft/pick"
    again = post(player, f"/t/{tid}/draft/pick", pick)  # a resent form: refused, not applied
    assert again.headers["location"] == f"/t/{tid}/draft/pick?refused=1"
    shown = player.get(again.headers["location"], headers=RU).text
    assert "Этот выбор не принят" in shown and "Ваш пул (карт: 1)" in shown
    hx = post(player, f"/t/{tid}/draft/pick", pick, **{"hx-request": "true"})
    assert hx.status_code == 409 and "Этот выбор не принят" in hx.text
    assert 'id="draft-state"' in hx.text and "<html" not in hx.text
    number = list_players(web_db, tid)[0].number
    assert [c.uid for c in draft_pool(web_db, tid, number, account_id=None)] == [cards[0]]
    assert player.get(f"/t/{tid}/draft/pick/state?v={version}", headers=HX).status_code == 200


def test_issue14_the_staff_see_every_table_and_the_head_judge_drops_a_player(
        web_db: Database, clients: Clients) -> None:
    tid = draft_event(web_db)
    start(clients, tid)
    floor = clients.as_("floor").get(f"/t/{tid}/draft/live", headers=RU).text
    assert "Стол 1" in floor and "Бустеров на руках" in floor and "drop-draft" not in floor
    assert "Начать живой драфт" not in floor
    head = clients.as_("head")
    assert "drop-draft" in head.get(f"/t/{tid}/draft/live", headers=RU).text
    assert post(head, f"/t/{tid}/draft/live/drop", {"number": "2"}).status_code == 303
    part = head.get(f"/t/{tid}/draft/live", headers=HX).text
    assert re.search(r'<tr data-number="2" class="dropped">', part) and "<html" not in part
    assert "исключён" in part
    auto = [line for line in pick_log(web_db, tid, account_id=None) if line.player_number == 2]
    assert auto and all(line.reason == "dropped" for line in auto)
    log = head.get(f"/t/{tid}/draft/log", headers=RU).text
    assert "Журнал выборов" in log and "исключён: выбор за игрока" in log
    player_log = clients.as_("p1").get(f"/t/{tid}/draft/log", headers=RU).text
    assert "откроется игрокам после окончания драфта" in player_log
    assert 'id="pick-log"' not in player_log


def test_issue14_site_organizers_keep_booster_templates_checked_against_the_catalogue(
        web_db: Database, clients: Clients) -> None:
    tid = draft_event(web_db)
    org = clients.as_("org")
    assert "Шаблонов бустеров пока нет" in org.get("/booster-templates", headers=RU).text
    seven = {"name": "Семёрка", "count_1": "4", "rarity_1": "частая", "count_2": "2",
             "rarity_2": "необычная", "count_3": "1"}
    form = {**seven, "csrf_token": csrf_of(org, "/login"),
            "rarity_3": ["редкая", "ультраредкая"]}
    answer = org.post("/booster-templates", data=form, headers=RU, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    page = org.get("/booster-templates", headers=RU).text
    assert "Семёрка" in page and "1 × редкая / ультраредкая" in page
    edit = org.get("/booster-templates?edit=Семёрка", headers=RU).text
    assert "Изменить шаблон «Семёрка»" in edit and 'value="4"' in edit
    nine = post(org, "/booster-templates", {**seven, "count_1": "6", "rarity_3": "редкая"})
    assert nine.status_code == 422 and "7 или 12" in nine.text
    hx = post(org, "/booster-templates", {**seven, "count_1": "6", "rarity_3": "редкая"},
              **{"hx-request": "true", "hx-target": "template-msg"})
    assert hx.status_code == 422 and hx.headers["hx-retarget"] == "#template-msg"
    assert clients.as_("head").get("/booster-templates").status_code == 403
    template_id = re.search(r'<option value="(\d+)">Семёрка</option>',  # the start form
                            org.get(f"/t/{tid}/draft/live", headers=RU).text)
    assert template_id
    chosen = {f"booster_{i}": template_id.group(1) for i in (1, 2, 3)}
    start(clients, tid, chosen)
    page = clients.as_("p1").get(f"/t/{tid}/draft/pick", headers=RU).text
    assert len(CARD.findall(page)) == 7


def test_issue14_the_pool_is_shown_by_rarity_rarest_first() -> None:
    cards = [DraftCard("a", "A", "E", "частая"), DraftCard("b", "B", "E", "ультраредкая"),
             DraftCard("c", "C", "E", "редкая"), DraftCard("d", "D", "E", "промо"),
             DraftCard("e", "E", "E", "частая")]
    assert [(g.rarity, [c.uid for c in g.cards]) for g in pool_groups(cards)] == [
        ("ультраредкая", ["b"]), ("редкая", ["c"]), ("частая", ["a", "e"]), ("промо", ["d"])]


def test_issue14_an_away_player_comes_back_with_one_tap(web_db: Database,
                                                        clients: Clients) -> None:
    """A player whose timer ran out (``away_after`` = 1 here) is picked for at once; the page
    says so and «Я здесь» makes the next booster wait for their own pick again."""
    tid = draft_event(web_db)
    plan = make_plan(twelves=0, sevens=3, profile=DraftProfile.ONLINE, pick_seconds=300,
                     pick_seconds_per_card=0, away_after=1)
    set_draft_plan(web_db, tid, actor=ORGANIZER, account_id=None, plan=plan)
    began = datetime.now(UTC) - timedelta(seconds=301)  # p1's first timer ran out a second ago
    start_live_draft(web_db, tid, actor=ORGANIZER, account_id=None, now=began)
    for p in list_players(web_db, tid)[1:]:  # the others picked in time
        account = find_account(web_db, f"p{p.number}")
        assert account is not None
        view = player_draft(web_db, tid, account_id=account.id, now=began)
        assert view is not None and view.booster is not None
        pick_card(web_db, tid, account_id=account.id, booster=view.booster,
                  cards_left=view.cards_left, card=view.cards[0].uid,
                  now=began + timedelta(seconds=100))
    player = clients.as_("p1")
    page = player.get(f"/t/{tid}/draft/pick", headers=RU).text
    assert "отмечены как отошедший" in page and 'id="i-am-back"' in page
    back = post(player, f"/t/{tid}/draft/pick/resume", {}, **{"hx-request": "true"})
    assert back.status_code == 200 and 'id="i-am-back"' not in back.text
    assert "отмечены как отошедший" not in player.get(f"/t/{tid}/draft/pick", headers=RU).text

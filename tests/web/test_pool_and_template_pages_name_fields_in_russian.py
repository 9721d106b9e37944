"""Fix round of issue 14 (helper f2) on the pool, replacement and booster template pages,
without a browser: every refused field is named by its Russian label (no English field name),
a recorded replacement is confirmed at the top, a judge reads «Пул игрока: …» and «пула
игрока», the pools list keeps «карт: N» on one line, a long template name wraps and a phone
sees each template's size and slots."""

from __future__ import annotations

import re

from tests.services.test_draft_decks import draft_event
from tests.web.conftest import Clients, csrf_of
from tests.web.test_live_draft_pages_pick_start_and_drop import draft_event as live_event
from tests.web.test_live_draft_pages_pick_start_and_drop import post
from tests.web.test_player_builds_a_deck_from_the_draft_pool import RU, people, replacement_form
from turnir.services.cards import card_catalogue
from turnir.services.draft_decks import pool_deck
from turnir.storage.database import Database

ENGLISH = re.compile(r"number\)|template name|booster_round|old_name|new_name")


def test_replacement_fields_are_named_in_russian_and_a_recorded_one_is_confirmed(
        clients: Clients, web_db: Database) -> None:
    tid = draft_event(web_db, sevens=4)
    people(web_db, tid)
    judge = clients.as_("floor")
    old = pool_deck(web_db, tid, 1, account_id=None).groups[0].cards[0]
    new = next(c for c in card_catalogue(web_db).cards
               if c.rarity == old.rarity and c.name != old.name)
    card = {"old_name": old.name, "new_name": new.name, "new_edition": new.edition}
    for number, booster, said in (("", "1", "Укажите номер игрока"),
                                  ("x", "1", "номер игрока: нужно целое число от 1 до 100"),
                                  ("1", "9", "бустер: нужно целое число от 1 до 4")):
        bad = judge.post(f"/t/{tid}/draft/replacements", headers=RU, data={
            **replacement_form(judge, tid), "number": number, "booster_round": booster, **card})
        assert bad.status_code == 422 and said in bad.text, bad.text
        assert not ENGLISH.search(bad.text)
    long = judge.post(f"/t/{tid}/draft/replacements", headers=RU, data={
        **replacement_form(judge, tid), "number": "1", "booster_round": "1", **card,
        "old_edition": "В" * 300})
    assert long.status_code == 422 and "выпуск карты, о которой сообщили" in long.text
    done = judge.post(f"/t/{tid}/draft/replacements", headers=RU, data={
        **replacement_form(judge, tid), "number": "1", "booster_round": "2", **card},
        follow_redirects=True)
    assert done.status_code == 200
    assert re.search(r'id="replacement-recorded"[^>]*>Замена записана: Игрок 01 #1, '
                     + re.escape(f"{old.name} → {new.name}"), done.text), done.text


def test_a_judge_reads_the_players_pool_and_the_list_keeps_counts_on_one_line(
        clients: Clients, web_db: Database) -> None:
    tid = draft_event(web_db, sevens=4)
    people(web_db, tid)
    judge = clients.as_("floor")
    page = judge.get(f"/t/{tid}/draft/pool?number=2", headers=RU).text
    assert "Пул игрока: Игрок 02" in page and "из 28 карт пула игрока" in page
    assert "вашего пула" not in page
    mine = clients.as_("ivan").get(f"/t/{tid}/draft/pool", headers=RU).text
    assert "из 28 карт вашего пула" in mine
    listed = judge.get(f"/t/{tid}/draft/pool", headers=RU).text
    assert '<td class="count">карт: 28</td>' in listed


def test_booster_template_name_is_named_in_russian_and_rows_carry_a_phone_summary(
        web_db: Database, clients: Clients) -> None:
    live_event(web_db)
    org = clients.as_("org")
    seven = {"count_1": "4", "rarity_1": "частая", "count_2": "2", "rarity_2": "необычная",
             "count_3": "1", "rarity_3": "редкая"}
    empty = post(org, "/booster-templates", {**seven, "name": ""})
    assert empty.status_code == 422 and "название шаблона" in empty.text, empty.text
    assert not ENGLISH.search(empty.text)
    name = "Ш" * 100
    saved = org.post("/booster-templates", headers=RU, follow_redirects=False,
                     data={**seven, "name": name, "csrf_token": csrf_of(org, "/login")})
    assert saved.status_code == 303, saved.text
    page = org.get("/booster-templates", headers=RU).text
    assert (f'<td class="bt-name">{name}<small class="bt-summary">карт: 7 · 4 × частая, '
            "2 × необычная, 1 × редкая · все выпуски</small>") in page

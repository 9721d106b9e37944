"""The pages after the draft (issue 14, ``turnir.web.draft_deck_pages``): a player builds their
deck from the pool (D-6) with and without JavaScript, a pool that is all the hand is saved with
one button, the judges see any player's pool and record card replacements (D-7); one browser
walk-through at 1366 and 390 px."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.services.test_draft_decks import draft_event
from tests.web.conftest import Clients, LiveServer, add_account, shoot, sign_in
from tests.web.pages_check import assert_fits, assert_tap_targets
from tests.web.test_browser import PHONE, new_page
from turnir.domain.accounts import AccountRole
from turnir.domain.model import StaffRole
from turnir.services.cards import card_catalogue
from turnir.services.draft_decks import pool_deck
from turnir.services.judges import add_judge
from turnir.services.players import list_players
from turnir.storage.database import Database

RU = {"accept-language": "ru"}
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
FORM_TOKEN = re.compile(r'name="form_token" value="([^"]+)"')
UIDS = re.compile(r'name="card" value="([^"]+)"')
RECORDED = re.compile(r'id="replacement-\d+"')
DESKTOP = {"width": 1366, "height": 900}


def people(db: Database, tid: int) -> None:
    """``ivan`` plays entry 1, ``petr`` entry 2; ``floor`` is the floor judge."""
    persons = {p.number: p.person_id for p in list_players(db, tid)}
    add_account(db, "ivan", AccountRole.PLAYER, person_id=persons[1])
    add_account(db, "petr", AccountRole.PLAYER, person_id=persons[2])
    add_account(db, "floor", AccountRole.FLOOR_JUDGE)
    add_judge(db, tid, role=StaffRole.FLOOR_JUDGE, login="floor", actor="test")


def test_d6_a_player_ticks_cards_and_saves_the_deck_without_javascript(
        clients: Clients, web_db: Database) -> None:
    tid = draft_event(web_db, sevens=4)
    people(web_db, tid)
    ivan = clients.as_("ivan")
    page = ivan.get(f"/t/{tid}/draft/pool", headers=RU).text
    uids = UIDS.findall(page)
    assert len(uids) == 28 and "Сохранить колоду" in page and "не меньше чем из 20" in page
    csrf = CSRF.search(page)
    assert csrf
    short = ivan.post(f"/t/{tid}/draft/pool", data={"csrf_token": csrf.group(1),
                                                    "version": "0", "card": uids[:19]},
                      follow_redirects=True, headers=RU)
    assert "Колода недопустима" in short.text
    assert "в колоде драфта их не меньше 20 (D-6)" in short.text
    again = ivan.post(f"/t/{tid}/draft/pool", data={"csrf_token": csrf.group(1),
                                                    "version": "1", "card": uids[:21]},
                      follow_redirects=False)
    assert again.status_code == 303 and again.headers["location"].startswith(
        f"/t/{tid}/draft/pool?saved=1")
    saved = ivan.get(again.headers["location"], headers=RU).text
    assert saved.count(" checked") == 21 and "Колода сохранена" in saved
    assert pool_deck(web_db, tid, 1, account_id=None).valid
    # the judges' deck list shows it like a constructed deck
    floor = clients.as_("floor")
    judges = floor.get(f"/t/{tid}/decks", headers=RU).text
    assert 'id="deck-1"' in judges and "21" in judges and "Формат: Драфт" in judges
    first = pool_deck(web_db, tid, 1, account_id=None).groups[0].cards[0].name
    counted = floor.get(f"/t/{tid}/decks/1/count", headers=RU)
    assert counted.status_code == 200 and first in counted.text  # the judges' count works
    # the tab «Моя колода» of a live draft leads to the pool: nothing to type there
    deck = ivan.get(f"/t/{tid}/deck", headers=RU).text
    assert "колоду собирают из пула" in deck and f'href="/t/{tid}/draft/pool"' in deck
    assert 'id="deck-form"' not in deck
    # another player's pool is not ivan's to see or save; the anonymous log in first
    assert ivan.get(f"/t/{tid}/draft/pool?number=2").status_code == 200  # still his own
    assert "Игрок 01" in ivan.get(f"/t/{tid}/draft/pool?number=2").text
    assert clients.as_(None).get(f"/t/{tid}/draft/pool",
                                 follow_redirects=False).status_code in (303, 401)


def test_d6_a_one_booster_pool_is_the_hand_saved_with_one_button(
        clients: Clients, web_db: Database) -> None:
    tid = draft_event(web_db, sevens=1)
    people(web_db, tid)
    petr = clients.as_("petr")
    page = petr.get(f"/t/{tid}/draft/pool", headers=RU).text
    assert "все карты пула (7) — это раздача" in page and not UIDS.findall(page)
    assert "Сохранить все карты (7): раздача" in page
    csrf = CSRF.search(page)
    assert csrf
    petr.post(f"/t/{tid}/draft/pool", data={"csrf_token": csrf.group(1), "version": "0"})
    view = pool_deck(web_db, tid, 2, account_id=None)
    assert (view.valid, view.chosen) == (True, 7)


def test_judges_see_every_pool_and_save_one_for_a_player(
        clients: Clients, web_db: Database) -> None:
    tid = draft_event(web_db, sevens=2)
    people(web_db, tid)
    judge = clients.as_("floor")
    draft = judge.get(f"/t/{tid}/draft", headers=RU).text  # the «Драфт» tab leads here
    assert 'id="draft-pools-link"' in draft and 'id="draft-replacements-link"' in draft
    assert 'id="draft-pool-link"' in clients.as_("ivan").get(f"/t/{tid}/draft").text
    listed = judge.get(f"/t/{tid}/draft/pool", headers=RU).text
    assert all(f'href="/t/{tid}/draft/pool?number={n}"' in listed for n in range(1, 7))
    page = judge.get(f"/t/{tid}/draft/pool?number=3", headers=RU).text
    assert "Пул игрока: Игрок 03" in page and 'name="number" value="3"' in page
    csrf = CSRF.search(page)
    assert csrf
    done = judge.post(f"/t/{tid}/draft/pool", data={"csrf_token": csrf.group(1),
                                                    "number": "3", "version": "0"},
                      follow_redirects=False)
    assert done.headers["location"].startswith(f"/t/{tid}/draft/pool?number=3&saved=1")
    assert pool_deck(web_db, tid, 3, account_id=None).chosen == 14


def replacement_form(client: Any, tid: int) -> dict[str, str]:
    page = client.get(f"/t/{tid}/draft/replacements", headers=RU).text
    csrf, token = CSRF.search(page), FORM_TOKEN.search(page)
    assert csrf and token
    return {"csrf_token": csrf.group(1), "form_token": token.group(1)}


def test_d7_a_judge_records_a_replacement_the_player_sees_their_own(
        clients: Clients, web_db: Database) -> None:
    tid = draft_event(web_db, sevens=4)
    people(web_db, tid)
    old = pool_deck(web_db, tid, 1, account_id=None).groups[0].cards[0]
    new = next(c for c in card_catalogue(web_db).cards
               if c.rarity == old.rarity and c.name != old.name)
    judge = clients.as_("floor")
    form = {**replacement_form(judge, tid), "number": "1", "booster_round": "2",
            "old_name": old.name, "new_name": new.name, "new_edition": new.edition,
            "reason": "промо"}
    answer = judge.post(f"/t/{tid}/draft/replacements", data=form, follow_redirects=True,
                        headers=RU)
    assert answer.status_code == 200 and f"{old.name}" in answer.text
    assert "заменена в пуле" in answer.text and "стол 1, бустер 2" in answer.text
    twice = judge.post(f"/t/{tid}/draft/replacements", data=form, follow_redirects=True)
    assert len(RECORDED.findall(twice.text)) == 1  # the form sent twice records once
    wrong = next(c for c in card_catalogue(web_db).cards if c.rarity != old.rarity)
    bad = judge.post(f"/t/{tid}/draft/replacements", headers=RU, data={
        **replacement_form(judge, tid), "number": "1", "booster_round": "1",
        "old_name": new.name, "new_name": wrong.name, "new_edition": wrong.edition})
    assert bad.status_code == 422 and "редкост" in bad.text
    ivan = clients.as_("ivan").get(f"/t/{tid}/draft/replacements", headers=RU).text
    assert RECORDED.search(ivan) and 'id="replacement-form"' not in ivan
    petr = clients.as_("petr").get(f"/t/{tid}/draft/replacements", headers=RU).text
    assert not RECORDED.search(petr) and "Замен карт не было" in petr
    assert clients.as_("ivan").post(f"/t/{tid}/draft/replacements",
                                    data=form).status_code == 403


def test_walk_through_pool_and_replacements_at_both_widths(
        browser: Any, live_server: LiveServer, screens: Path) -> None:
    tid = draft_event(live_server.db, sevens=4)
    people(live_server.db, tid)
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = new_page(browser, viewport=viewport)
        sign_in(page, live_server, "ivan")
        page.goto(f"{live_server.url}/t/{tid}/draft/pool")
        boxes = page.locator("input[name=card]")
        expect(boxes).to_have_count(28)
        for i in range(20) if name == "desktop" else (20,):  # the phone: one more
            boxes.nth(i).check()
        expect(page.locator("[data-pool-count]")).to_have_text(
            "20" if name == "desktop" else "21")
        assert_fits(page, f"pool {name}")
        assert_tap_targets(page)
        shoot(page, str(screens / f"issue14-pool-{name}.png"), full_page=False)
        page.click("#save-pool")
        page.wait_for_url(re.compile(r"saved=1"))
        expect(page.locator("#pool-verdict")).to_contain_text("Колода допустима")
        page.evaluate("window.scrollTo(0, 0)")
        shoot(page, str(screens / f"issue14-pool-saved-{name}.png"))
        page.context.close()
    judge = new_page(browser, viewport=PHONE)
    sign_in(judge, live_server, "floor")
    judge.goto(f"{live_server.url}/t/{tid}/draft/replacements")
    expect(judge.locator("#replacement-form")).to_be_visible()
    assert_fits(judge, "replacements phone")
    shoot(judge, str(screens / "issue14-replacements-phone.png"), full_page=True)
    judge.click("#pool-link")
    expect(judge.locator("#pools")).to_be_visible()
    assert_fits(judge, "pools phone")
    shoot(judge, str(screens / "issue14-pools-phone.png"))
    judge.click("#pool-1 a")  # a deck a judge saved: «сохранена …, (судья)» wraps (fix f2)
    judge.click("#save-pool")
    judge.wait_for_url(re.compile(r"number=1&saved=1"))
    saved = judge.locator("#pool-rule .saved")
    expect(saved).to_be_visible()  # a long judge's name must wrap, not widen the page
    assert saved.evaluate("e => getComputedStyle(e).whiteSpace") != "nowrap"
    assert_fits(judge, "judge-saved pool phone")
    shoot(judge, str(screens / "issue14-pool-judge-saved-phone.png"))
    judge.context.close()

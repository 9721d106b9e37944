"""Issue 13, publication and metagame pages (``turnir.web.deck_publication_pages``): the
organizer publishes the top N decks on ``/t/{tid}/top-decks`` after the finish, then anyone
reads those N lists and no other (an unpublished deck is not shown to the anonymous nor to
another player); nobody else may publish; the tournament's page links to them once published;
``/t/{tid}/metagame`` is public after the finish; the audit log says the publication in words.
In the browser both pages fit 390 px and 1366 px."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.services.builders import ORGANIZER, event, play_round
from tests.services.test_deck_publication import SIGNATURE, constructed_event, places
from tests.services.test_reports import PASSWORD as PLAYER_PASSWORD
from tests.services.test_reports import players
from tests.web.conftest import Clients, LiveServer, add_account, csrf_of, log_in
from tests.web.pages_check import assert_fits, assert_tap_targets
from tests.web.test_browser import new_page
from turnir.services.accounts import AccountRole
from turnir.services.deck_publication import publish_top_decks
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.tournaments import finish_tournament
from turnir.storage.database import Database

RU = {"accept-language": "ru"}


def _finished(db: Database) -> int:
    """The six-player event of the service tests, finished, «org» its organizer, «judge» its
    head judge, and a login for every player (``t{tid}p{n}``)."""
    tid = constructed_event(db)
    for login, role in (("org", AccountRole.ORGANIZER), ("judge", AccountRole.HEAD_JUDGE)):
        add_account(db, login, role)
    add_judge(db, tid, role=JudgeRole.ORGANIZER, login="org", actor=ORGANIZER)
    add_judge(db, tid, role=JudgeRole.HEAD_JUDGE, login="judge", actor=ORGANIZER)
    players(db, tid)
    finish_tournament(db, tid, actor=ORGANIZER)
    return tid


def _client(clients: Clients, login: str | None = None, password: str | None = None
            ) -> TestClient:
    client = clients.new()
    if login is not None:
        client = log_in(client, login, password) if password else log_in(client, login)
    client.headers.update(RU)
    return client


def _shown(page: str) -> set[str]:
    """The signature cards a page shows (each is played by one entry only)."""
    return {card for card in SIGNATURE if card in page}


def test_the_organizer_publishes_the_top_decks_and_only_those_are_public(
        web_db: Database, clients: Clients) -> None:
    tid = _finished(web_db)
    order = places(web_db, tid)
    anonymous = _client(clients)
    page = anonymous.get(f"/t/{tid}/top-decks")
    assert page.status_code == 200
    assert "Организатор ещё не опубликовал колоды ТОПа." in page.text
    assert _shown(page.text) == set() and 'id="publish-form"' not in page.text
    assert "Колоды ТОПа и метагейм" not in anonymous.get(f"/t/{tid}").text

    organizer = _client(clients, "org")
    form = organizer.get(f"/t/{tid}/top-decks").text
    assert 'id="publish-form"' in form and 'max="6"' in form and 'value="6"' in form
    answer = organizer.post(f"/t/{tid}/top-decks", data={
        "csrf_token": csrf_of(organizer, f"/t/{tid}/top-decks"), "count": "3"},
        follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == f"/t/{tid}/top-decks"

    top = {SIGNATURE[number - 1] for number in order[:3] if number <= 5}
    for visitor in (anonymous, _client(clients, f"t{tid}p{order[4]}", PLAYER_PASSWORD)):
        page = visitor.get(f"/t/{tid}/top-decks").text
        assert "Колоды игроков ТОП-3 по итоговым местам." in page
        assert _shown(page) == top  # the fourth to sixth decks stay private
        assert 'id="top-deck-3"' in page and 'id="top-deck-4"' not in page
        assert 'id="publish-form"' not in page
    assert "Колоды ТОПа и метагейм" in anonymous.get(f"/t/{tid}").text
    log = organizer.get(f"/t/{tid}/log").text
    assert "Колоды ТОПа опубликованы" in log and "колоды ТОП-3" in log


def test_nobody_but_the_organizer_publishes(web_db: Database, clients: Clients) -> None:
    tid = _finished(web_db)
    for login, password in (("judge", None), (f"t{tid}p1", PLAYER_PASSWORD)):
        visitor = _client(clients, login, password)
        answer = visitor.post(f"/t/{tid}/top-decks", data={
            "csrf_token": csrf_of(visitor, f"/t/{tid}/top-decks"), "count": "3"},
            follow_redirects=False)
        assert answer.status_code == 403, login
    anonymous = _client(clients)
    answer = anonymous.post(f"/t/{tid}/top-decks", data={
        "csrf_token": csrf_of(anonymous, "/login"), "count": "3"},
        follow_redirects=False)
    assert answer.status_code in (401, 303)  # the login first
    assert _shown(anonymous.get(f"/t/{tid}/top-decks").text) == set()
    organizer = _client(clients, "org")
    answer = organizer.post(f"/t/{tid}/top-decks", data={
        "csrf_token": csrf_of(organizer, f"/t/{tid}/top-decks"), "count": "7"},
        follow_redirects=False)
    assert answer.status_code == 422  # a UserError: the message on the page
    assert "колод можно опубликовать не больше" in answer.text


def test_before_the_finish_nothing_is_published_and_the_metagame_waits(
        web_db: Database, clients: Clients) -> None:
    tid = constructed_event(web_db)
    add_account(web_db, "org", AccountRole.ORGANIZER)
    add_judge(web_db, tid, role=JudgeRole.ORGANIZER, login="org", actor=ORGANIZER)
    organizer = _client(clients, "org")
    page = organizer.get(f"/t/{tid}/top-decks").text
    assert "Организатор публикует колоды ТОПа после завершения турнира." in page
    assert 'id="publish-form"' not in page
    answer = organizer.post(f"/t/{tid}/top-decks", data={
        "csrf_token": csrf_of(organizer, f"/t/{tid}/top-decks"), "count": "3"},
        follow_redirects=False)
    assert answer.status_code == 409
    metagame = _client(clients).get(f"/t/{tid}/metagame")
    assert metagame.status_code == 200
    assert "Метагейм показывается после завершения турнира." in metagame.text
    assert _shown(metagame.text) == set()


def test_the_metagame_is_public_after_the_finish(web_db: Database, clients: Clients) -> None:
    tid = _finished(web_db)
    page = _client(clients).get(f"/t/{tid}/metagame")
    assert page.status_code == 200
    text = page.text
    assert "Колод игроков с итоговым местом: 5." in text
    assert "Горы + Леса" in text and "Самые популярные карты" in text
    assert "Лесной зверь 1" in text
    assert "Незнакомая карта" not in text  # a name not in the catalogue is not listed
    assert f'href="/t/{tid}/top-decks"' not in text  # nothing published yet
    assert _client(clients).get("/t/99999/metagame").status_code == 404


def test_both_pages_fit_a_phone_and_a_desktop(live_server: LiveServer, browser: Any) -> None:
    tid = _finished(live_server.db)
    publish_top_decks(live_server.db, tid, 6, actor=ORGANIZER, account_id=None)
    for viewport in ({"width": 390, "height": 844}, {"width": 1366, "height": 900}):
        page = new_page(browser, viewport=viewport)
        for path in (f"/t/{tid}/top-decks", f"/t/{tid}/metagame"):
            page.goto(live_server.url + path)
            assert page.locator("h1").count() == 1
            assert_fits(page, f"{path} at {viewport['width']}")
            assert_tap_targets(page)
        page.close()


def test_after_the_finish_the_organizer_is_pointed_to_publishing(
        web_db: Database, clients: Clients) -> None:
    tid = _finished(web_db)
    link = f'href="/t/{tid}/top-decks#publish-form"'
    organizer = _client(clients, "org")
    page = organizer.get(f"/t/{tid}/places").text  # where finishing lands
    assert link in page and "Опубликовать колоды ТОПа" in page
    for visitor in (_client(clients), _client(clients, "judge")):
        assert link not in visitor.get(f"/t/{tid}/places").text  # only the organizer's
    assert link in organizer.get(f"/t/{tid}/places").text  # not served from the cache


def test_a_tournament_without_decks_has_no_pointer(web_db: Database, clients: Clients) -> None:
    tid = event(web_db, 4, rounds=1)
    add_account(web_db, "org", AccountRole.ORGANIZER)
    add_judge(web_db, tid, role=JudgeRole.ORGANIZER, login="org", actor=ORGANIZER)
    play_round(web_db, tid)
    finish_tournament(web_db, tid, actor=ORGANIZER)
    page = _client(clients, "org").get(f"/t/{tid}/places").text
    assert "Итоговые места" in page and "Опубликовать колоды ТОПа" not in page


def test_the_form_offers_the_top_and_the_lists_say_gold_or_silver(
        web_db: Database, clients: Clients) -> None:
    tid = constructed_event(web_db, top=4)
    add_account(web_db, "org", AccountRole.ORGANIZER)
    add_judge(web_db, tid, role=JudgeRole.ORGANIZER, login="org", actor=ORGANIZER)
    finish_tournament(web_db, tid, actor=ORGANIZER, early=True)
    organizer = _client(clients, "org")
    form = organizer.get(f"/t/{tid}/top-decks").text
    assert 'max="6"' in form and 'value="4"' in form  # the tournament's top of 4
    publish_top_decks(web_db, tid, 6, actor=ORGANIZER, account_id=None)
    page = _client(clients).get(f"/t/{tid}/top-decks").text
    assert "стоимость 1, золото" in page  # the first signature card: Тьма, gold
    assert "стоимость 1, серебро" in page

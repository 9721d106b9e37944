"""Formats on the web (issue 13, C-1, C-2): anyone reads the formats (the pages and the API),
with the ban list in force today and the starter decks; a site organizer creates a format,
gives ban lists (every unknown card refused with the closest names, nothing stored) and starter
decks (every problem listed); judges and players cannot; a tournament's organizer (only theirs)
sets its format, start and online flag until round 1 is paired, and the public page shows the
format and the ban list that applies; the new-tournament form sets it too; the pages fit a
phone."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

import pytest

from tests.services.builders import ORGANIZER, event
from tests.web.conftest import Clients, add_account, csrf_of
from tests.web.conftest import sign_in as log_in_page
from tests.web.pages_check import assert_accessible, assert_fits, assert_tap_targets
from tests.web.test_browser import new_page
from turnir.domain.accounts import AccountRole
from turnir.formats.players_csv import PlayerLine
from turnir.services.cards import load_sample_cards
from turnir.services.common import TournamentFormat
from turnir.services.deck_formats import (
    deck_format,
    format_choices,
    set_tournament_format,
    tournament_format,
)
from turnir.services.decks import register_deck
from turnir.services.demo_formats import FUTURE_BANS, PAST_BANS, STARTER_DECKS, seed_demo_formats
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.players import register_players
from turnir.services.rounds import start_round
from turnir.services.tournaments import create_tournament, list_tournaments
from turnir.storage.database import Database

TOKEN = re.compile(r'name="form_token" value="([^"]+)"')
HTMX = {"hx-request": "true"}


@pytest.fixture
def demo(web_db: Database) -> tuple[Database, Any]:
    load_sample_cards(web_db, actor="test")
    for login, role in (("org", AccountRole.ORGANIZER), ("other", AccountRole.ORGANIZER),
                        ("head", AccountRole.HEAD_JUDGE), ("floor", AccountRole.FLOOR_JUDGE)):
        add_account(web_db, login, role)
    return web_db, seed_demo_formats(web_db)


def constructed(db: Database, name: str = "Констрактед клуба") -> int:
    tid = create_tournament(db, name=name, actor=ORGANIZER, format=TournamentFormat.CONSTRUCTED,
                            organizer_login="org").id
    add_judge(db, tid, role=JudgeRole.HEAD_JUDGE, login="head", actor=ORGANIZER)
    return tid


def post(client: Any, url: str, data: dict[str, Any], *, htmx: str | None = None) -> Any:
    form = {"csrf_token": csrf_of(client, "/login"), **data}
    headers = {**HTMX, "hx-target": htmx} if htmx else {}
    return client.post(url, data=form, headers=headers, follow_redirects=False)


def test_anyone_reads_the_formats_the_ban_list_in_force_and_the_starter_decks(
        demo: tuple[Database, Any], clients: Clients) -> None:
    _, ids = demo
    anonymous = clients.new()
    page = anonymous.get("/formats", headers={"accept-language": "ru"}).text
    assert "Стандарт (образец)" in page and "Стартерный констрактед (образец)" in page
    assert "стартерный" in page and f"запрещено сегодня: {len(PAST_BANS)}" in page
    assert 'action="/formats"' not in page  # no new-format form for the anonymous
    standard = anonymous.get(f"/formats/{ids.standard_id}",
                             headers={"accept-language": "ru"}).text
    assert "действует" in standard and "ещё не вступил в силу" in standard
    assert all(card in standard for card in FUTURE_BANS)
    assert 'action="/formats/' not in standard
    starter = anonymous.get(f"/formats/{ids.starter_id}", headers={"accept-language": "en"}).text
    assert all(name in starter for name, _ in STARTER_DECKS) and "30 cards" in starter
    listed = anonymous.get("/api/v1/formats").json()
    assert [(f["name"], f["starter"]) for f in listed] == [
        ("Стандарт (образец)", False), ("Стартерный констрактед (образец)", True)]
    detail = anonymous.get(f"/api/v1/formats/{ids.standard_id}").json()
    assert [(b["cards"], b["in_force"], b["future"]) for b in detail["ban_lists"]] == [
        (list(FUTURE_BANS), False, True), (list(PAST_BANS), True, False)]
    assert anonymous.get("/api/v1/formats/999").status_code == 404
    assert anonymous.get("/api/v1/formats/0").status_code == 422
    head = clients.as_("head").get(f"/formats/{ids.standard_id}").text
    assert 'action="/formats/' not in head


def test_a_site_organizer_creates_a_format_and_gives_ban_lists_and_starter_decks(
        demo: tuple[Database, Any], clients: Clients) -> None:
    db, _ = demo
    org = clients.as_("org")
    token = TOKEN.search(org.get("/formats").text)
    assert token is not None
    made = post(org, "/formats", {"form_token": token.group(1), "name": "Клубный",
                                  "editions": ["образец: начало", "Образец: Пробуждение"],
                                  "starter": "on"})
    assert made.status_code == 303, made.text
    fid = int(made.headers["location"].rsplit("/", 1)[1])
    assert deck_format(db, fid).editions == ("Образец: Начало", "Образец: Пробуждение")
    page = org.get(f"/formats/{fid}").text
    assert f'action="/formats/{fid}/ban"' in page and 'id="starter-form"' in page
    version = re.search(r'name="version" value="(\d+)"', page)
    assert version is not None
    refused = post(org, f"/formats/{fid}/ban",
                   {"effective": "2030-01-01", "cards": "Лавина\nЙетти\nДракон ледникка",
                    "version": version.group(1)}, htmx="ban-msg")
    assert refused.status_code == 422
    assert refused.headers["hx-retarget"] == "#ban-msg"
    assert "Таких карт нет в каталоге" in refused.text
    assert "Йетти" in refused.text and "→ Йети" in refused.text
    assert "Дракон ледника" in refused.text
    assert deck_format(db, fid).ban_lists == ()
    good = post(org, f"/formats/{fid}/ban", {"effective": "2030-01-01",
                                             "cards": "лавина\nЙети", "version": version.group(1)})
    assert good.status_code == 303
    assert deck_format(db, fid).ban_lists[0].cards == ("Лавина", "Йети")
    stale = post(org, f"/formats/{fid}/ban", {"effective": "2031-01-01", "cards": "Йети",
                                              "version": version.group(1)})
    assert stale.status_code == 409
    bad_deck = post(org, f"/formats/{fid}/starter", {"name": "Плохая",
                                                     "text": "4 Лавина\n1 Несуществующая"},
                    htmx="starter-msg")
    assert bad_deck.status_code == 422 and bad_deck.headers["hx-retarget"] == "#starter-msg"
    assert bad_deck.text.count("<li>") == 3  # unknown card, copies, size
    saved = post(org, f"/formats/{fid}/starter", {"name": "Степная орда",
                                                  "text": STARTER_DECKS[0][1]})
    assert saved.status_code == 303
    assert [d.name for d in deck_format(db, fid).starter_decks] == ["Степная орда"]
    edited = post(org, f"/formats/{fid}", {"name": "Клубный стартер", "starter": "on",
                                           "max_copies": "2", "max_horde_copies": "4"})
    assert edited.status_code == 303
    assert (deck_format(db, fid).name, deck_format(db, fid).max_copies) == ("Клубный стартер", 2)
    assert post(org, f"/formats/{fid}/ban/delete", {"effective": "2030-01-01"}).status_code == 303
    assert deck_format(db, fid).ban_lists == ()
    history = org.get(f"/formats/{fid}", headers={"accept-language": "ru"}).text
    assert "Формат изменён" in history and "Задан список запрещённых карт" in history


@pytest.mark.parametrize("login", [None, "head", "floor"])
def test_judges_players_and_the_anonymous_cannot_edit_formats(
        demo: tuple[Database, Any], clients: Clients, login: str | None) -> None:
    db, ids = demo
    client = clients.as_(login)
    expected = 401 if login is None else 403
    for url, data in (("/formats", {"name": "Чужой"}),
                      (f"/formats/{ids.standard_id}/ban", {"effective": "2030-01-01",
                                                           "cards": "Йети"}),
                      (f"/formats/{ids.starter_id}/starter/delete", {"name": "Степная орда"})):
        answer = post(client, url, data)
        assert answer.status_code in ((expected, 303) if login is None else (expected,)), url
    assert len(deck_format(db, ids.starter_id).starter_decks) == len(STARTER_DECKS)
    assert date(2030, 1, 1) not in {b.effective
                                    for b in deck_format(db, ids.standard_id).ban_lists}
    assert "Чужой" not in {f.name for f in format_choices(db)}


def test_the_tournaments_organizer_sets_its_format_until_round_1(
        demo: tuple[Database, Any], clients: Clients) -> None:
    db, ids = demo
    tid = constructed(db)
    for login in ("other", "head"):
        client = clients.as_(login)
        assert client.get(f"/t/{tid}/format").status_code == 403
        assert post(client, f"/t/{tid}/format",
                    {"format_id": str(ids.standard_id)}).status_code == 403
    assert tournament_format(db, tid) is None
    org = clients.as_("org")
    assert 'id="choose-deck-format"' in org.get(f"/t/{tid}").text
    start = (date.today() + timedelta(days=40)).isoformat()
    answer = post(org, f"/t/{tid}/format", {"format_id": str(ids.standard_id),
                                            "starts_at": f"{start}T15:15", "online": "on",
                                            "version": "0"})
    assert answer.status_code == 303, answer.text
    info = tournament_format(db, tid)
    assert info is not None and info.online and info.rules_day.isoformat() == start
    public = clients.new().get(f"/t/{tid}", headers={"accept-language": "ru"}).text
    assert "Стандарт (образец)" in public and "в день начала" in public
    assert all(card in public for card in FUTURE_BANS)  # the list in force on the start day
    form = org.get(f"/t/{tid}/format", headers={"accept-language": "ru"}).text
    assert f'value="{start}T15:15"' in form and "Начало (по Москве)" in form
    starter = post(org, f"/t/{tid}/format", {"format_id": str(ids.starter_id)})
    assert starter.status_code == 303
    public = clients.new().get(f"/t/{tid}", headers={"accept-language": "ru"}).text
    assert "не идёт в рейтинг" in public
    event_id = event(db, 4, name="Другой")  # a tournament round 1 of which is paired
    add_judge(db, event_id, role=JudgeRole.ORGANIZER, login="org", actor=ORGANIZER)
    start_round(db, event_id, actor=ORGANIZER)
    assert 'id="format-locked"' in org.get(f"/t/{event_id}/format").text
    late = post(org, f"/t/{event_id}/format", {"format_id": str(ids.standard_id)})
    assert late.status_code == 409


def test_the_new_tournament_form_sets_a_constructed_tournaments_format(
        demo: tuple[Database, Any], clients: Clients) -> None:
    db, ids = demo
    org = clients.as_("org")
    page = org.get("/new").text
    assert 'name="deck_format"' in page and "Стартерный констрактед (образец)" in page
    token = TOKEN.search(page)
    assert token is not None
    made = post(org, "/new", {"form_token": token.group(1), "name": "Стартер в 15:15",
                              "format": "constructed", "deck_format": str(ids.starter_id),
                              "starts_at": "2030-05-01T15:15", "online": "on"})
    assert made.status_code == 303, made.text
    tid = next(t.id for t in list_tournaments(db) if t.name == "Стартер в 15:15")
    info = tournament_format(db, tid)
    assert info is not None and info.starter and info.online
    assert info.starts_at is not None and info.starts_at.hour == 12  # 15:15 in Moscow
    refused = post(org, "/new", {"form_token": TOKEN.search(org.get("/new").text).group(1),  # type: ignore[union-attr]
                                 "name": "Без формата", "format": "constructed",
                                 "deck_format": "999"})
    assert refused.status_code == 404
    assert "Без формата" not in {t.name for t in list_tournaments(db)}


def test_the_format_pages_fit_a_phone_and_a_desktop(demo: tuple[Database, Any],
                                                    live_server: Any, browser: Any) -> None:
    db, ids = demo
    tid = constructed(db, "Турнир с форматом")
    set_tournament_format(db, tid, actor=ORGANIZER, account_id=None, format_id=ids.standard_id)
    for width, height in ((390, 844), (1366, 900)):
        page = new_page(browser, viewport={"width": width, "height": height})
        try:
            log_in_page(page, live_server, "org")
            for url in ("/formats", f"/formats/{ids.standard_id}",
                        f"/formats/{ids.starter_id}", f"/t/{tid}/format", f"/t/{tid}"):
                page.goto(f"{live_server.url}{url}")
                assert page.locator("h1").count() >= 1
                assert_fits(page, url)
                assert_tap_targets(page, url)
                if width == 390:
                    assert_accessible(page, url)
        finally:
            page.context.close()


FOREST = STARTER_DECKS[1][1]
"""A starter deck, legal in both formats; with one card more it is legal only in Standard."""


def test_changing_the_format_under_registered_decks_asks_first_then_says_saved_and_logs_it(
        demo: tuple[Database, Any], clients: Clients) -> None:
    """QA 13 item 7: the question names how many of the registered decks the new format would
    not accept (with and without JS), the format stays until confirmed, then «Сохранено» and
    the log says «Формат колод: «Стандарт» → «Стартерный»»."""
    db, ids = demo
    tid = constructed(db)
    register_players(db, tid, [PlayerLine("Анна", "Москва"), PlayerLine("Борис", "Москва")],
                     actor=ORGANIZER)
    set_tournament_format(db, tid, actor=ORGANIZER, account_id=None, format_id=ids.standard_id)
    register_deck(db, tid, 1, text=FOREST, actor=ORGANIZER, account_id=None)
    register_deck(db, tid, 2, text=FOREST + "\n1 Степной разведчик", actor=ORGANIZER,
                  account_id=None)
    org = clients.as_("org")
    version = re.search(r'name="version" value="(\d+)"', org.get(f"/t/{tid}/format").text)
    assert version is not None
    change = {"format_id": str(ids.starter_id), "starts_at": "2030-05-01T15:15", "online": "on",
              "version": version.group(1)}
    asked = post(org, f"/t/{tid}/format", change)
    assert asked.status_code == 200, asked.text
    assert ("Зарегистрировано колод: 2. Не пройдут проверку в формате «Стартерный констрактед "
            "(образец)»: 1 (сейчас не проходят: 0)") in asked.text
    assert f'name="confirm" value="{ids.starter_id}"' in asked.text
    assert 'value="2030-05-01T15:15"' in asked.text and " checked>" in asked.text
    fragment = post(org, f"/t/{tid}/format", change, htmx="format-msg")
    assert fragment.status_code == 200 and 'id="format-confirm"' in fragment.text
    assert "<html" not in fragment.text
    stale = post(org, f"/t/{tid}/format", change | {"confirm": str(ids.standard_id)})
    assert stale.status_code == 200 and 'id="format-confirm"' in stale.text
    info = tournament_format(db, tid)
    assert info is not None and info.format_id == ids.standard_id and not info.online
    saved = post(org, f"/t/{tid}/format", change | {"confirm": str(ids.starter_id)})
    assert saved.status_code == 303 and saved.headers["location"] == f"/t/{tid}/format?saved=1"
    info = tournament_format(db, tid)
    assert info is not None and info.format_id == ids.starter_id and info.online
    page = org.get(saved.headers["location"], headers={"accept-language": "ru"}).text
    assert 'id="format-saved"' in page and "Сохранено." in page
    again = post(org, f"/t/{tid}/format", change | {"version": str(info.version)})
    assert again.status_code == 303  # the same format: nothing more breaks, nothing to ask
    log = org.get(f"/t/{tid}/log", headers={"accept-language": "ru"}).text
    assert ("Формат колод: «Стандарт (образец)» → «Стартерный констрактед (образец)»; "
            "начало: ") in log
    assert log.count("Формат колод: «Стандарт (образец)»") == 2  # the first choice, the change
    assert "начало: 1 мая 2030\u202fг., 15:15 по Москве; онлайн" in log


def test_every_format_page_says_the_same_about_which_ban_list_applies(
        demo: tuple[Database, Any], clients: Clients) -> None:
    """QA 13 (low): the list in force on the day round 1 is paired; before that the planned
    start day's list is expected — the same words on the format's page and the tournament's
    format form, and the tournament's card names the planned start day."""
    db, ids = demo
    tid = constructed(db)
    set_tournament_format(db, tid, actor=ORGANIZER, account_id=None, format_id=ids.standard_id,
                          starts_at=datetime(2030, 5, 1, 15, 15))
    rule = ("Турнир играется по списку запрещённых карт, который действует в день составления "
            "первого тура (по московскому времени); до этого ожидается список, действующий в "
            "день начала по плану.")
    ru = {"accept-language": "ru"}
    org = clients.as_("org")
    assert rule in clients.new().get(f"/formats/{ids.standard_id}", headers=ru).text
    assert rule in org.get(f"/t/{tid}/format", headers=ru).text
    card = clients.new().get(f"/t/{tid}", headers=ru).text
    assert "Список, действующий в день начала по плану" in card
    assert "окончательно — на день составления первого тура" in card


def test_unknown_cards_of_a_ban_list_are_named_in_russian_quotes(
        demo: tuple[Database, Any], clients: Clients) -> None:
    """QA 13 (low): «Костяной дракн», not 'Костяной дракн'."""
    _, ids = demo
    refused = post(clients.as_("org"), f"/formats/{ids.standard_id}/ban",
                   {"effective": "2030-01-01", "cards": "Костяной дракн\nабвгд"},
                   htmx="ban-msg")
    assert refused.status_code == 422
    assert "«Костяной дракн» → Костяной дракон" in refused.text and "«абвгд»" in refused.text
    assert "'Костяной дракн'" not in refused.text

"""The schedules page and the age in game years on the web (issue 13, C-2; 004: starter
constructed daily at 9:15, 15:15 and 19:15 Moscow time): a site organizer adds a schedule and
switches it off, a visitor sees the upcoming events but not the forms, a player sets their
character's age on their profile, an organizer on the accounts page; a cancelled scheduled
tournament's page shows the message."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from playwright.sync_api import expect

from tests.services.test_game_age import a_format
from tests.web.conftest import LiveServer, add_account, csrf_of, log_in, sign_in
from tests.web.test_browser import PHONE, new_page
from turnir.clock import ManualClock
from turnir.domain.accounts import AccountRole
from turnir.formats.players_csv import PlayerLine
from turnir.services.deck_formats import format_choices
from turnir.services.game_age import game_age_of
from turnir.services.players import register_players
from turnir.services.schedules import list_schedules, run_schedules
from turnir.storage.database import Database
from turnir.storage.repositories import person_for
from turnir.web.serve import schedule_loop
from turnir.web.settings import WebSettings

DESKTOP = {"width": 1366, "height": 900}


def test_a_site_organizer_adds_and_switches_off_a_schedule_a_visitor_only_sees_events(
        client: TestClient, web_db: Database) -> None:
    fmt = a_format(web_db, starter=True)
    add_account(web_db, "org", AccountRole.ORGANIZER)
    assert "/schedules" not in client.get("/").text  # the nav link is for organizers
    public = client.get("/schedules")
    assert public.status_code == 200 and "New schedule" not in public.text
    log_in(client, "org")
    page = client.get("/schedules", headers={"accept-language": "ru"})
    assert "Расписание" in page.text and "Новое расписание" in page.text
    token = csrf_of(client, "/schedules")
    answer = client.post("/schedules", data={
        "csrf_token": token, "name": "Старт", "times": "09:15, 15:15, 19:15",
        "zone": "Europe/Moscow", "format_id": str(fmt), "best_of": "1", "rounds": "",
        "registration": "60", "min_players": "4", "online": "1"}, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    [info] = list_schedules(web_db)
    assert info.times == ("09:15", "15:15", "19:15") and info.schedule.settings.organizer == "org"
    bad = client.post("/schedules", data={"csrf_token": token, "name": "Другой",
                                          "times": "9.15", "zone": "Europe/Moscow"})
    assert bad.status_code in (400, 422) and "09:15" in bad.text
    off = client.post(f"/schedules/{info.id}/active", data={"csrf_token": token},
                      follow_redirects=False)
    assert off.status_code == 303
    assert not list_schedules(web_db)[0].schedule.active


def test_a_visitor_cannot_add_a_schedule(client: TestClient, web_db: Database) -> None:
    add_account(web_db, "judge", AccountRole.FLOOR_JUDGE)
    log_in(client, "judge")
    token = csrf_of(client, "/schedules")
    answer = client.post("/schedules", data={"csrf_token": token, "name": "Старт",
                                             "times": "09:15"})
    assert answer.status_code == 403
    assert list_schedules(web_db) == []


def test_c2_a_player_sets_the_age_and_an_organizer_sets_anyones(client: TestClient,
                                                                  web_db: Database) -> None:
    with web_db.write() as conn:
        person = person_for(conn, name="Юный Воин", city="", club="",
                            at=datetime(2026, 12, 1, tzinfo=UTC))
    add_account(web_db, "kid", AccountRole.PLAYER, person_id=person)
    add_account(web_db, "org", AccountRole.ORGANIZER)
    log_in(client, "kid")
    profile = client.get("/me/profile", headers={"accept-language": "ru"})
    assert "Возраст персонажа, игровых лет" in profile.text
    token = csrf_of(client, "/me/profile")
    assert client.post("/me/game-age", data={"csrf_token": token, "age": "12"}).status_code == 200
    bad = client.post("/me/game-age", data={"csrf_token": token, "age": "1001"})
    assert bad.status_code in (400, 422)
    kid_id = next(iter({k for k, v in _ages(web_db).items() if v == 12}))
    assert game_age_of(web_db, kid_id) == 12
    refused = client.post("/accounts/kid/game-age", data={"csrf_token": token, "age": "30"})
    assert refused.status_code == 403
    client.cookies.clear()
    log_in(client, "org")
    token = csrf_of(client, "/accounts")
    assert "kid/game-age" in client.get("/accounts").text
    assert client.post("/accounts/kid/game-age",
                       data={"csrf_token": token, "age": "17"}).status_code == 200
    assert game_age_of(web_db, kid_id) == 17


def _ages(db: Database) -> dict[int, int]:
    from turnir.services.game_age import game_ages

    return game_ages(db)


def test_a_cancelled_scheduled_tournament_shows_the_message(client: TestClient,
                                                            web_db: Database) -> None:
    from turnir.domain.schedule import ScheduleSettings
    from turnir.services.schedules import add_schedule

    clock = web_db.clock = ManualClock(datetime(2026, 12, 2, 5, 30, tzinfo=UTC))
    add_account(web_db, "org", AccountRole.ORGANIZER)
    add_schedule(web_db, name="Старт", times=("09:15",), actor="test",
                 format=a_format(web_db, starter=True),
                 settings=ScheduleSettings(online=False, organizer="org"))
    [opened] = run_schedules(web_db, now=clock.now()).steps
    tid = opened.tournament_id
    assert tid is not None
    register_players(web_db, tid, [PlayerLine(f"Игрок {i}", "Москва") for i in (1, 2, 3)],
                     actor="test")
    clock.set(datetime(2026, 12, 2, 6, 15, tzinfo=UTC))  # the pages are read at this moment
    run_schedules(web_db, now=clock.now())
    page = client.get(f"/t/{tid}", headers={"accept-language": "ru"})
    assert "Турнир отменён: зарегистрировались 3 игрока, нужно не меньше 4" in page.text
    events = client.get("/schedules", headers={"accept-language": "ru"}).text
    assert "отменён" in events
    log_in(client, "org")  # the schedule's organizer organizes the tournament
    log = client.get(f"/t/{tid}/log", headers={"accept-language": "ru"}).text
    assert "Турнир по расписанию отменён" in log and "расписание турниров" in log
    assert log.count("зарегистрировались 3 игрока, нужно не меньше 4") == 1


def test_browser_an_organizer_adds_the_daily_schedule_on_a_phone_and_a_desktop(
        live_server: LiveServer, browser: Any) -> None:
    a_format(live_server.db, starter=True, name="Стартовый")
    add_account(live_server.db, "org", AccountRole.ORGANIZER)
    for number, viewport in enumerate((PHONE, DESKTOP), start=1):
        page = new_page(browser, viewport=viewport)
        sign_in(page, live_server, "org")
        if viewport == PHONE:  # on a phone the header folds the link under «Ещё»
            page.click("nav.site details.site-more > summary")
        page.click("nav.site a[href='/schedules']:visible")
        page.fill("input[name=name]", f"Старт {number}")
        expect(page.locator("select[name=format_id]")).to_have_value(
            str(next(f.id for f in format_choices(live_server.db) if f.starter)))
        page.click("form[action='/schedules'] button[type=submit]")
        row = page.locator("table.schedules tr", has_text=f"Старт {number}")
        expect(row).to_contain_text("09:15, 15:15, 19:15")
        expect(row).to_contain_text("действует")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], (viewport, width)
        page.context.close()
    assert [s.schedule.name for s in list_schedules(live_server.db)] == ["Старт 1", "Старт 2"]


class _OnePass(threading.Event):
    """A stop event that stops the loop after its first pass."""

    def wait(self, timeout: float | None = None) -> bool:
        self.set()
        return True


def test_the_server_loop_runs_the_schedules_with_the_real_clock(web_db: Database) -> None:
    from turnir.domain.schedule import ScheduleSettings
    from turnir.services.schedules import add_schedule, upcoming_events

    soon = datetime.now(UTC) + timedelta(minutes=30)  # inside the 60-minute window
    add_schedule(web_db, name="Скоро", times=(f"{soon:%H:%M}",), actor="test", zone="UTC",
                 settings=ScheduleSettings(online=False))
    schedule_loop(web_db, _OnePass(), every_s=0)
    opened = [e for e in upcoming_events(web_db) if e.tournament_id is not None]
    assert [e.state for e in opened] == ["open"]
    assert WebSettings.from_env({}).run_schedules
    assert not WebSettings.from_env({"TURNIR_SCHEDULES": "0"}).run_schedules


RU = {"accept-language": "ru"}


def test_the_schedules_page_says_dates_like_the_site_and_the_zone_in_words(
        client: TestClient, web_db: Database) -> None:
    import re

    from turnir.services.schedules import add_schedule

    add_account(web_db, "org", AccountRole.ORGANIZER)
    add_schedule(web_db, name="Москва", times=("09:15",), actor="test")
    add_schedule(web_db, name="Урал", times=("10:15",), actor="test", zone="Asia/Yekaterinburg")
    log_in(client, "org")
    page = client.get("/schedules", headers=RU).text
    assert re.search(r"\d{1,2} [а-я]+\.? 20\d\d\sг\., 09:15 по московскому времени", page)
    assert re.search(r"\d{1,2} [а-я]+\.? 20\d\d\sг\., 10:15 UTC\+5", page)
    assert '09:15 <span class="zone">по московскому времени</span>' in page  # the table too
    assert not re.search(r"\d\d\.\d\d\.\d{4} \d\d:\d\d", page)
    assert ">Europe/Moscow<" not in page and "Asia/Yekaterinburg<" not in page
    options = re.findall(r'<option value="([^"]+)"( selected)?>([^<]+)</option>',
                         page.split('name="zone"')[1].split("</select>")[0])
    assert len(options) == 16 and ("Europe/Moscow", " selected", "Москва (UTC+3)") in options
    assert ("Asia/Kamchatka", "", "Камчатка (UTC+12)") in options
    assert ("UTC", "", "Всемирное время (UTC)") in options


def _form_token(client: TestClient) -> str:
    import re

    found = re.search(r'name="form_token" value="([^"]+)"', client.get("/schedules").text)
    assert found
    return found.group(1)


def test_the_schedule_form_reports_every_problem_at_once_in_russian(
        client: TestClient, web_db: Database) -> None:
    add_account(web_db, "org", AccountRole.ORGANIZER)
    log_in(client, "org")
    token = csrf_of(client, "/schedules")
    form = {"csrf_token": token, "form_token": _form_token(client), "name": "Старт",
            "times": "09:15, 25:00", "zone": "Moscow", "min_players": "2"}
    htmx = {**RU, "hx-request": "true", "hx-target": "messages"}
    answer = client.post("/schedules", data=form, headers=htmx)
    assert answer.status_code == 422
    text = answer.text
    assert "Расписание не добавлено:" in text and text.count("<li>") == 3
    assert "а не «25:00»" in text and "неизвестный часовой пояс «Moscow»" in text
    assert "наименьшее число игроков: нужно целое число от 4 до 10000, а не 2" in text
    assert "'" not in text.replace("&#39;", "'").split("<ul")[1]
    plain = client.post("/schedules", data={**form, "form_token": _form_token(client),
                                            "min_players": "два"}, headers=RU)
    assert plain.status_code == 422 and "наименьшее число игроков: нужно целое число" in plain.text
    assert "«Moscow»" in plain.text and "«25:00»" in plain.text
    fixed = client.post("/schedules", data={**form, "times": "09:15", "zone": "Europe/Samara",
                                            "min_players": "4"}, headers=htmx)
    assert (fixed.status_code == 200 and "HX-Redirect" in fixed.headers) or "HX-Refresh" in \
        fixed.headers, fixed.text  # the same form token: the refused form did not spend it
    assert [s.schedule.zone for s in list_schedules(web_db)] == ["Europe/Samara"]


def test_the_profile_says_what_the_age_is_and_refuses_a_bad_one_in_words(
        client: TestClient, web_db: Database) -> None:
    add_account(web_db, "kid", AccountRole.FLOOR_JUDGE)
    log_in(client, "kid")
    profile = client.get("/me/profile", headers=RU).text
    assert "Целое число от 0 до 1000." in profile and "pattern=" not in profile
    token = csrf_of(client, "/me/profile")
    bad = client.post("/me/game-age", data={"csrf_token": token, "age": "abc"}, headers=RU)
    assert bad.status_code == 422
    assert "возраст персонажа в игровых годах — целое число от 0 до 1000, а не «abc»" in bad.text


def test_one_russian_term_for_starter_constructed_on_pages_and_in_messages(
        client: TestClient, web_db: Database) -> None:
    import re

    from babel.messages.pofile import read_po

    from turnir.i18n_catalogue import read_catalogue
    from turnir.web.i18n import po_path

    with po_path("ru").open("rb") as f:
        pages = [str(m.string) for m in read_po(f) if m.string]
    messages = [str(m.string) for m in read_catalogue("ru") if m.string]
    wrong = [t for t in pages + messages if re.search(
        r"онструктед|стартов(?!(ая|ые|ую|ых|ой|ыми|ым|ом) колод)", t, re.IGNORECASE)]
    assert wrong == []
    add_account(web_db, "org", AccountRole.ORGANIZER)
    a_format(web_db, starter=True, name="Формат С")
    log_in(client, "org")
    page = client.get("/schedules", headers=RU).text
    assert "Стартерный констрактед" in page and "(стартерный)" in page

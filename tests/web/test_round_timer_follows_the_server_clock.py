"""The round timer counts down by the server's time, not the device's: a phone or a laptop whose
own clock is wrong (set by hand, no network, another time zone set as UTC) still shows the
minutes the round has left, and the countdown runs on (T-: the round's time is the judges')."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from tests.services.builders import ORGANIZER, play_round
from tests.web.conftest import LiveServer
from tests.web.test_browser import PHONE, new_page
from turnir.clock import ManualClock
from turnir.domain.model import Settings
from turnir.formats.players_csv import PlayerLine
from turnir.services.players import register_players
from turnir.services.round_clock import start_timer
from turnir.services.tournaments import create_tournament

pytestmark = pytest.mark.browser

SERVER_NOW = datetime(2027, 3, 1, 0, 30, tzinfo=UTC)


@pytest.mark.parametrize("device_off", [timedelta(days=-3 * 365), timedelta(hours=5, minutes=7)],
                         ids=["device-years-behind", "device-hours-ahead"])
def test_the_round_clock_shows_the_time_left_by_the_server_when_the_device_clock_is_wrong(
        live_server: LiveServer, browser: object, device_off: timedelta) -> None:
    db = live_server.db
    db.clock = ManualClock(SERVER_NOW)
    tid = create_tournament(db, name="Часы", actor=ORGANIZER, seed=1,
                            settings=Settings(swiss_rounds=3)).id
    register_players(db, tid, [PlayerLine(f"Игрок {n}", "Тверь") for n in range(8)],
                     actor=ORGANIZER)
    play_round(db, tid)
    start_timer(db, tid, 1, minutes=50, actor=ORGANIZER)
    db.clock.advance(timedelta(minutes=10))  # 40 minutes left when the page is made

    page = new_page(browser, viewport=PHONE)
    page.clock.install(time=SERVER_NOW + timedelta(minutes=10) + device_off)
    page.goto(f"{live_server.url}/t/{tid}/pairings")
    clock = page.locator(".timer .clock")
    expect(clock).to_have_text(re.compile(r"^(39|40):\d\d$"))
    page.clock.run_for(2 * 60 * 1000)  # two minutes pass on the device
    expect(clock).to_have_text(re.compile(r"^(37|38):\d\d$"))
    assert "over" not in (page.locator(".timer").get_attribute("class") or "")
    page.context.close()

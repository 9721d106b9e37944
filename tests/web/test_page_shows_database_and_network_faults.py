"""A temporary fault in the browser (issue 15): an HTMX form sent while the database server
cannot be reached shows the Russian 503 message in the page's message box (HTMX does not swap
a 5xx by itself: ``static/app.js`` lets a 5xx that carries a message through), and a request
that gets no answer at all shows «Нет связи с сервером…»; on a phone too, with no sideways
scroll."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.faults.servers import free_port
from tests.web.conftest import LiveServer, shoot
from turnir.storage.database import make_engine

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


def test_the_page_shows_the_database_and_network_faults(
        live_server: LiveServer, browser: Any, tmp_path: Path) -> None:
    for viewport in (DESKTOP, PHONE):
        context = browser.new_context(locale="ru-RU", viewport=viewport)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"{live_server.url}/login")
        page.fill("input[name=login]", "org")
        page.fill("input[name=password]", "whatever password")
        db = live_server.db
        working = db.engine
        db.engine = make_engine(f"postgresql://postgres@127.0.0.1:{free_port()}/gone")
        try:
            page.click("form.card button[type=submit]")
            box = page.locator("#messages")
            expect(box).to_contain_text("сервер базы данных недоступен")
            expect(box).to_contain_text("сохранённое не потеряно")
        finally:
            db.engine.dispose()
            db.engine = working
        shoot(page, str(tmp_path / f"db-down-{viewport['width']}.png"))
        page.route("**/login", lambda route: route.abort())
        page.click("form.card button[type=submit]")
        expect(page.locator("#messages [data-fault=offline]")).to_have_text(
            "Нет связи с сервером. Проверьте подключение и повторите — сохранённое не потеряно.")
        shoot(page, str(tmp_path / f"offline-{viewport['width']}.png"))
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"]
        context.close()

"""Issue 15 (backups): the site organizers' backup page. A site organizer downloads the
portable backup (streamed, a dated name) and it restores into an empty database with the same
rows; a judge or a visitor gets neither the page nor the file; in Chromium the page is in
Russian, fits 390 px, and its button downloads the file (1366×900 and 390×844)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from playwright.sync_api import expect

from tests.services.test_backup import every_row
from tests.web.conftest import Clients, LiveServer, add_account, shoot, sign_in
from tests.web.test_browser import PHONE, new_page
from turnir.services import backup
from turnir.services.accounts import AccountRole
from turnir.services.demo import seed_tournaments
from turnir.storage.database import Database

DESKTOP = {"width": 1366, "height": 900}
NAME = re.compile(r'attachment; filename="turnir-\d{4}-\d{2}-\d{2}-\d{4}\.turnir\.gz"')


def test_a_site_organizer_downloads_a_backup_that_restores(
        app: FastAPI, web_db: Database, clients: Clients, tmp_path: Path) -> None:
    seed_tournaments(web_db)
    add_account(web_db, "org", AccountRole.ORGANIZER)
    add_account(web_db, "judge", AccountRole.HEAD_JUDGE)
    organizer = clients.as_("org")
    page = organizer.get("/backup")
    assert page.status_code == 200 and 'href="/backup/download"' in page.text
    assert 'href="/backup"' in organizer.get("/").text
    answer = organizer.get("/backup/download")
    assert answer.status_code == 200
    assert NAME.fullmatch(answer.headers["content-disposition"])
    assert answer.headers["cache-control"] == "no-store"
    (tmp_path / "web.turnir.gz").write_bytes(answer.content)
    target = Database.open(f"sqlite:///{tmp_path / 'restored.db'}")
    backup.restore(target, tmp_path / "web.turnir.gz")
    assert every_row(target) == every_row(web_db)
    target.close()
    judge = clients.as_("judge")
    assert judge.get("/backup").status_code == 403
    assert judge.get("/backup/download").status_code == 403
    assert 'href="/backup"' not in judge.get("/").text
    assert clients.as_(None).get("/backup/download", follow_redirects=False).status_code in {
        401, 303}


def test_the_backup_page_in_chromium_on_a_desktop_and_a_phone(
        live_server: LiveServer, browser: Any, screens: Path, tmp_path: Path) -> None:
    seed_tournaments(live_server.db)
    add_account(live_server.db, "org", AccountRole.ORGANIZER)
    for viewport, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page = new_page(browser, viewport=viewport)
        sign_in(page, live_server, "org")
        page.goto(f"{live_server.url}/backup")
        expect(page.locator("h1")).to_have_text("Резервная копия")
        expect(page.locator("#backup-download")).to_have_text("Скачать резервную копию")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{name}: {width}px"
        box = page.locator("#backup-download").bounding_box()
        assert box is not None and (name == "desktop" or box["height"] >= 44)
        shoot(page, str(screens / f"issue15-backup-{name}.png"), full_page=True)
        if name == "desktop":
            with page.expect_download() as download:
                page.click("#backup-download")
            saved = tmp_path / download.value.suggested_filename
            download.value.save_as(saved)
            assert saved.name.endswith(".turnir.gz") and saved.stat().st_size > 1000
        page.context.close()

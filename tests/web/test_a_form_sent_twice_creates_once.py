"""Issue 12, item 4: "Double-clicking Create creates two tournaments; back + submit creates
more." Every creating form carries a one-time token (``turnir.web.form_once``): sent twice it
creates once and is answered as the first time (POST-redirect-GET); a refused form frees its
token; the browser holds the submit button while the request is in flight (static/forms.js)."""

from __future__ import annotations

import re
import threading
from typing import Any

from fastapi.testclient import TestClient
from playwright.sync_api import Page, expect

from tests.services.builders import ORGANIZER, event
from tests.web.conftest import PASSWORD, LiveServer, add_account, log_in, sign_in
from turnir.domain.model import StaffRole
from turnir.services.accounts import AccountRole, list_accounts
from turnir.services.judges import add_judge
from turnir.services.players import list_players
from turnir.services.tournaments import list_tournaments
from turnir.storage.database import Database
from turnir.web.form_once import FormTokens

TOKEN = re.compile(r'name="form_token" value="([^"]+)"')
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


def form_of(client: TestClient, path: str, index: int = 0) -> dict[str, str]:
    """The CSRF token and the ``index``-th form token of the page at ``path``."""
    html = client.get(path).text
    csrf = CSRF.search(html)
    tokens = TOKEN.findall(html)
    assert csrf and len(tokens) > index, f"no form token on {path}"
    return {"csrf_token": csrf.group(1), "form_token": tokens[index]}


def organizer(web_db: Database, client: TestClient) -> TestClient:
    add_account(web_db, "org", AccountRole.ORGANIZER)
    return log_in(client, "org")


def test_item4_new_tournament_sent_twice_creates_one(web_db: Database,
                                                     client: TestClient) -> None:
    org = organizer(web_db, client)
    fields = {**form_of(org, "/new"), "name": "Кубок двойного клика"}
    first = org.post("/new", data=fields, follow_redirects=False)
    again = org.post("/new", data=fields, follow_redirects=False)
    assert first.status_code == again.status_code == 303
    assert again.headers["location"] == first.headers["location"]  # the same tournament
    htmx = org.post("/new", data=fields, headers={"HX-Request": "true"})
    assert htmx.headers["HX-Redirect"] == first.headers["location"]
    assert [t.name for t in list_tournaments(web_db)] == ["Кубок двойного клика"]
    back = {**form_of(org, "/new"), "name": "Кубок двойного клика"}  # Back fetched it again
    assert org.post("/new", data=back, follow_redirects=False).headers["location"] == \
        first.headers["location"]
    other = {**form_of(org, "/new"), "name": "Второй кубок"}  # another tournament
    assert org.post("/new", data=other, follow_redirects=False).status_code == 303
    assert len(list_tournaments(web_db)) == 2


def test_item4_the_same_registration_sent_twice_registers_one(web_db: Database,
                                                             client: TestClient) -> None:
    org = organizer(web_db, client)
    tid = event(web_db, 0)
    add_judge(web_db, tid, role=StaffRole.ORGANIZER, login="org", actor=ORGANIZER)
    fields = {**form_of(org, f"/t/{tid}/manage"), "surname": "Котова", "given_name": "Анна",
              "byes": "x"}
    refused = org.post(f"/t/{tid}/players", data=fields, follow_redirects=False)
    assert refused.status_code == 422  # a refused form frees its token...
    fields["byes"] = "0"
    answers = [org.post(f"/t/{tid}/players", data=fields, follow_redirects=False)
               for _ in range(2)]  # ...so the corrected one goes, once
    assert [a.status_code for a in answers] == [303, 303]
    assert [p.name for p in list_players(web_db, tid)] == ["Анна Котова"]
    login_form = form_of(org, f"/t/{tid}/manage", index=2)  # the player's "make a login"
    made = [org.post(f"/t/{tid}/players/1/account", data=login_form,
                     headers={"HX-Request": "true", "Accept-Language": "en"})
            for _ in range(2)]
    assert "password" in made[0].text and "password" not in made[1].text
    assert "already been sent" in made[1].text
    assert [a.login for a in list_accounts(web_db)].count(f"t{tid}p1") == 1


def test_item4_requests_racing_with_one_token_create_one(live_server: LiveServer) -> None:
    """Two requests with one token at the same moment (a double click on a slow line): the
    second waits for the first and gets its answer."""
    import httpx

    add_account(live_server.db, "org", AccountRole.ORGANIZER)
    with httpx.Client(base_url=live_server.url) as web:
        csrf = CSRF.search(web.get("/login").text)
        assert csrf
        web.post("/login", data={"login": "org", "password": PASSWORD,
                                 "csrf_token": csrf.group(1), "next": "/"})
        fields = {**_fields(web.get("/new").text), "name": "Кубок гонки"}
        answers: list[int] = []

        def send() -> None:
            answers.append(web.post("/new", data=fields).status_code)

        threads = [threading.Thread(target=send) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert answers == [303] * 4
    assert [t.name for t in list_tournaments(live_server.db)] == ["Кубок гонки"]


def _fields(html: str) -> dict[str, str]:
    csrf, token = CSRF.search(html), TOKEN.search(html)
    assert csrf and token
    return {"csrf_token": csrf.group(1), "form_token": token.group(1)}


def fits(page: Page) -> None:
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def create_by_double_click(page: Page, server: LiveServer, name: str) -> str:
    page.goto(f"{server.url}/new")
    fits(page)
    page.fill("form.card input[name=name]", name)
    page.dblclick("form.card button[type=submit]")
    # without scripts the second click sends the form again and the browser drops the first
    # navigation (net::ERR_ABORTED): the page the second one lands on is what counts
    expect(page).to_have_url(re.compile(r"/t/\d+/manage"))
    expect(page.locator("h1")).to_have_text(name)
    fits(page)
    return page.url


def test_item4_browser_double_click_and_back_create_one(live_server: LiveServer,
                                                        browser: Any) -> None:
    """Double-click "Create" (with JS and without), then Back and "Create" again: one
    tournament each time, at 1366x900 and on a 390x844 phone."""
    add_account(live_server.db, "org", AccountRole.ORGANIZER)
    for viewport, script in ((DESKTOP, True), (PHONE, False)):
        context = browser.new_context(locale="ru-RU", viewport=viewport,
                                      java_script_enabled=script)
        page = context.new_page()
        page.set_default_timeout(15_000)
        if script:
            sign_in(page, live_server, "org")
        else:
            page.goto(f"{live_server.url}/login")
            page.fill("input[name=login]", "org")
            page.fill("input[name=password]", PASSWORD)
            page.click("form.card button[type=submit]")
            page.wait_for_url(f"{live_server.url}/")
        name = f"Кубок {viewport['width']}"
        made = create_by_double_click(page, live_server, name)
        page.go_back()
        page.wait_for_url(re.compile(r"/new$"))
        if not page.input_value("form.card input[name=name]"):
            page.fill("form.card input[name=name]", name)  # the browser kept no value
        page.click("form.card button[type=submit]")
        page.wait_for_url(re.compile(r"/t/\d+/manage"))
        assert page.url == made  # the same tournament again, not a new one
        assert [t.name for t in list_tournaments(live_server.db)].count(name) == 1
        context.close()


def test_item4_tokens_are_freed_finished_and_forgotten(web_db: Database) -> None:
    tokens = FormTokens(web_db, keep_seconds=60, most=3)
    assert tokens.claim("a") is None  # free: now the caller's
    pending = tokens.claim("a")
    assert pending is not None and not pending.finished
    tokens.release("a")  # refused: free again
    assert tokens.claim("a") is None
    tokens.finish("a", "/t/1/manage")
    again = tokens.claim("a")
    assert again is not None and again.finished and again.url == "/t/1/manage"
    tokens.release("a")  # a finished token stays spent
    assert tokens.claim("a") is not None
    assert tokens.claim("short", keep=0) is None
    assert tokens.claim("short") is None  # its time is over: free
    for key in ("b", "c", "d"):
        tokens.claim(key)
    assert tokens.claim("a") is None  # at most 3 kept: the oldest went

"""Issue 12, item 1 and "Staff page": the organizer assigns a tournament's staff from a page
(searching accounts by name or login, ё = е, any word order, at most 20 answers), makes an
account there, and the judge so named acts in that tournament; the judges see the page, only
the organizer edits it; staff changes are allowed after the finish (item 2, the staff half),
logged; the demo has a floor judge who can give a penalty."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from playwright.sync_api import expect

from tests.services.builders import ORGANIZER, event, play_round
from tests.web.conftest import PASSWORD, Clients, LiveServer, add_account, csrf_of, log_in, sign_in
from tests.web.pages_check import assert_accessible, assert_fits, assert_tap_targets
from tests.web.test_browser import PHONE, new_page
from turnir.formats.players_csv import PlayerLine
from turnir.services.accounts import AccountRole, create_account, find_account, make_hasher
from turnir.services.demo import DEMO_NAME, seed_accounts, seed_tournaments
from turnir.services.judges import JudgeRole, add_judge, list_judges, staff_role
from turnir.services.penalties import list_penalties
from turnir.services.players import register_players
from turnir.services.queries import audit_log
from turnir.services.rounds import start_round
from turnir.services.tournaments import finish_tournament, list_tournaments
from turnir.storage.database import Database

DESKTOP = {"width": 1366, "height": 900}


def _post(client: TestClient, url: str, data: dict[str, str]) -> Any:
    return client.post(url, data={**data, "csrf_token": csrf_of(client, "/")},
                       follow_redirects=False)


def _staffed(db: Database) -> int:
    """A tournament with 4 players, organizer ``org``, head judge ``head``, floor ``floor``."""
    tid = event(db, 4, rounds=2)
    for who, role in (("org", AccountRole.ORGANIZER), ("head", AccountRole.HEAD_JUDGE),
                      ("floor", AccountRole.FLOOR_JUDGE)):
        add_account(db, who, role)
        add_judge(db, tid, role=JudgeRole(role.value), login=who, actor=ORGANIZER)
    return tid


def test_organizer_finds_kovalev_by_kovalev_makes_him_floor_judge_who_penalises_from_a_phone(
        live_server: LiveServer, browser: Any) -> None:
    db = live_server.db
    add_account(db, "org", AccountRole.ORGANIZER)
    add_account(db, "kovalev", AccountRole.FLOOR_JUDGE)
    create_account(db, login="pkov", name="Пётр Ковалёв", password=PASSWORD,
                   role=AccountRole.FLOOR_JUDGE, actor="test", hasher=make_hasher(fast=True))
    org = new_page(browser, viewport=DESKTOP)
    sign_in(org, live_server, "org")
    org.goto(f"{live_server.url}/new")
    org.fill("input[name=name]", "Кубок судей")
    org.click("main form button[type=submit]")
    org.wait_for_url("**/manage")
    tid = int(org.url.split("/t/")[1].split("/")[0])
    org.click("#staff-page")                                   # the Manage page links to it
    org.wait_for_url(f"**/t/{tid}/staff")
    assert_fits(org, "the staff page at 1366")
    org.fill("#staff-search", "ковалев пётр")                 # ё = е, surname first
    found = org.locator("#candidate-pkov")
    expect(found).to_contain_text("Пётр Ковалёв")
    expect(org.locator("#candidate-kovalev")).to_have_count(0)  # "Kovalev" has no "пётр"
    found.locator("select[name=role]").select_option("floor_judge")
    found.locator("button[type=submit]").click()
    expect(org.locator("table.staff")).to_contain_text("pkov")
    assert_accessible(org, "the staff page")
    register_players(db, tid, [PlayerLine(f"Игрок {i}", "Москва") for i in range(1, 5)],
                     actor=ORGANIZER)
    start_round(db, tid, actor=ORGANIZER)

    judge = new_page(browser, viewport=PHONE)                  # its own browser context
    sign_in(judge, live_server, "pkov")
    judge.goto(f"{live_server.url}/t/{tid}/penalties/give")
    assert_fits(judge, "giving a penalty at 390")
    judge.locator("#pick-player a", has_text="Игрок 1").first.click()
    judge.locator("#pick-reason a[data-code=slow_play]").click()
    judge.click("#confirm-penalty")
    expect(judge.locator("#penalty-1")).to_contain_text("Пётр Ковалёв")
    judge.goto(f"{live_server.url}/t/{tid}/staff")             # judges see the staff page
    expect(judge.locator("table.staff")).to_contain_text("pkov")
    expect(judge.locator("#add")).to_have_count(0)             # but do not edit it
    assert_fits(judge, "the staff page at 390")
    assert_accessible(judge, "the staff page at 390")
    assert_tap_targets(judge)
    assert [p.judge for p in list_penalties(db, tid)] == ["Пётр Ковалёв"]


def test_search_finds_by_name_or_login_at_most_twenty_and_no_players(
        web_db: Database, clients: Clients) -> None:
    tid = _staffed(web_db)
    for i in range(25):
        add_account(web_db, f"judge{i:02d}", AccountRole.FLOOR_JUDGE)
    org = clients.as_("org")
    page = org.get(f"/t/{tid}/staff/search", params={"q": "JUDGE"}).text
    assert page.count('id="candidate-judge') == 20 and "Показаны только первые 20" in page
    assert 'id="candidate-judge24"' not in page
    assert 'id="candidate-judge07"' in org.get(f"/t/{tid}/staff",
                                               params={"q": "judge07"}).text  # without JS
    person = register_players(web_db, tid, [PlayerLine("Играющий Судья", "")],
                              actor=ORGANIZER)[0].person_id
    add_account(web_db, "judgeplayer", AccountRole.PLAYER, person_id=person)
    assert "judgeplayer" not in org.get(f"/t/{tid}/staff/search", params={"q": "judgep"}).text


def test_a_floor_judge_sees_the_staff_page_but_cannot_edit_it(
        web_db: Database, clients: Clients) -> None:
    tid = _staffed(web_db)
    add_account(web_db, "extra", AccountRole.FLOOR_JUDGE)
    floor = clients.as_("floor")
    seen = floor.get(f"/t/{tid}/staff")
    assert seen.status_code == 200 and 'id="roles"' in seen.text
    assert 'id="new-account"' not in seen.text and "/staff/account" not in seen.text
    assert floor.get(f"/t/{tid}/staff/search", params={"q": "extra"}).status_code == 403
    for url, data in ((f"/t/{tid}/staff", {"login": "extra", "role": "floor_judge"}),
                      (f"/t/{tid}/staff/account", {"login": "x1", "name": "X", "role":
                                                   "floor_judge", "password": PASSWORD})):
        assert _post(floor, url, data).status_code == 403
    assert [j.login for j in list_judges(web_db, tid)] == ["org", "head", "floor"]
    assert find_account(web_db, "x1") is None
    tabs = floor.get(f"/t/{tid}/standings").text
    assert f'href="/t/{tid}/staff"' in tabs
    anonymous = clients.new().get(f"/t/{tid}/standings").text
    assert f'href="/t/{tid}/staff"' not in anonymous


def test_staff_can_be_added_and_removed_after_the_finish_and_it_is_logged(
        web_db: Database, clients: Clients) -> None:
    tid = _staffed(web_db)
    play_round(web_db, tid)
    finish_tournament(web_db, tid, actor=ORGANIZER, early=True)
    add_account(web_db, "late", AccountRole.HEAD_JUDGE)
    org = clients.as_("org")
    page = org.get(f"/t/{tid}/staff", params={"q": "late"}).text
    assert 'id="candidate-late"' in page and "Турнир завершён, но состав коллегии" in page
    already = org.get(f"/t/{tid}/staff/search", params={"q": "floor"}).text
    assert "уже в коллегии: судья в зале" in already  # the roles it has here
    answer = _post(org, f"/t/{tid}/staff", {"login": "late", "role": "floor_judge"})
    assert answer.status_code == 303 and answer.headers["location"] == f"/t/{tid}/staff"
    late = find_account(web_db, "late")
    assert late is not None and staff_role(web_db, tid, late.id) is JudgeRole.FLOOR_JUDGE
    added = audit_log(web_db, tid, action="judge.add")[-1]
    assert added.actor == "Org" and added.after is not None and added.after["account"] == "late"
    row = next(j for j in list_judges(web_db, tid) if j.login == "late")
    assert _post(org, f"/t/{tid}/staff/{row.id}/remove", {}).status_code == 303
    assert staff_role(web_db, tid, late.id) is None
    assert audit_log(web_db, tid, action="judge.unlink")[-1].actor == "Org"


def test_the_organizer_creates_an_account_on_the_staff_page(
        web_db: Database, clients: Clients) -> None:
    tid = _staffed(web_db)
    org = clients.as_("org")
    page = org.get(f"/t/{tid}/staff").text
    assert '<option value="" selected>' in page  # as on the staff: a player's when not on it
    made = _post(org, f"/t/{tid}/staff/account", {
        "name": "Анна Судейская", "login": "anna", "password": PASSWORD,
        "role": "floor_judge", "staff_role": "floor_judge"})
    assert made.status_code == 303
    anna = find_account(web_db, "anna")
    assert anna is not None and anna.role is AccountRole.FLOOR_JUDGE
    assert staff_role(web_db, tid, anna.id) is JudgeRole.FLOOR_JUDGE
    log_in(clients.new(), "anna")  # the password typed works
    number = 2
    player = _post(org, f"/t/{tid}/staff/account", {
        "name": "Игрок Два", "login": "igrok2", "password": PASSWORD, "player": str(number)})
    assert player.status_code == 303
    igrok = find_account(web_db, "igrok2")
    assert igrok is not None and igrok.role is AccountRole.PLAYER and igrok.person_id


def test_a_bad_new_account_is_refused_in_russian_and_nothing_is_stored(
        web_db: Database, clients: Clients) -> None:
    tid = _staffed(web_db)
    org = clients.as_("org")
    before = len(list_judges(web_db, tid))
    for data, words in (
        ({"name": "Короткий", "login": "short", "password": "1234567", "role": "floor_judge"},
         "не меньше 8"),
        ({"name": "Игрок", "login": "pl1", "password": PASSWORD, "role": "player",
          "player": "1", "staff_role": "floor_judge"}, "не может входить в судейскую"),
        ({"name": "Без игрока", "login": "pl2", "password": PASSWORD, "role": "player"},
         "выберите игрока"),
        ({"name": "Судья", "login": "floor", "password": PASSWORD, "role": "floor_judge",
          "staff_role": "floor_judge"}, "занят"),
    ):
        answer = org.post(f"/t/{tid}/staff/account",
                          data={**data, "csrf_token": csrf_of(org, "/")},
                          headers={"hx-request": "true", "accept-language": "ru"})
        assert answer.status_code == 422 and words in answer.text, (data, answer.text)
        assert answer.headers["hx-retarget"] == "#messages"
    assert all(find_account(web_db, x) is None for x in ("short", "pl1", "pl2"))
    assert len(list_judges(web_db, tid)) == before


def test_only_a_site_organizer_makes_accounts_here(web_db: Database, clients: Clients) -> None:
    """A floor judge's account made a tournament's organizer does not make accounts (which
    could be organizers of the site) from its staff page."""
    tid = _staffed(web_db)
    add_account(web_db, "lowly", AccountRole.FLOOR_JUDGE)
    add_judge(web_db, tid, role=JudgeRole.ORGANIZER, login="lowly", actor=ORGANIZER)
    lowly = clients.as_("lowly")
    answer = _post(lowly, f"/t/{tid}/staff/account", {
        "name": "Новый Орг", "login": "neworg", "password": PASSWORD, "role": "organizer"})
    assert answer.status_code == 403 and find_account(web_db, "neworg") is None


def test_the_demo_has_a_floor_judge_who_gives_a_penalty(web_db: Database,
                                                         clients: Clients) -> None:
    running = seed_tournaments(web_db)
    logins = {d.login: d for d in seed_accounts(web_db, running, make_hasher(fast=True))}
    assert logins["floor"].role is AccountRole.FLOOR_JUDGE
    floor = find_account(web_db, "floor")
    assert floor is not None
    for info in list_tournaments(web_db):
        assert staff_role(web_db, info.id, floor.id) is JudgeRole.FLOOR_JUDGE, info.name
    assert next(t for t in list_tournaments(web_db) if t.id == running).name == DEMO_NAME
    judge = log_in(clients.new(), "floor", logins["floor"].password)
    answer = judge.post(f"/t/{running}/penalties", data={
        "player": "1", "reason": "slow_play", "csrf_token": csrf_of(judge, "/")},
        follow_redirects=False)
    assert answer.status_code == 303, answer.text
    given = list_penalties(web_db, running)[-1]
    assert given.judge == "Судья в зале (демо)"

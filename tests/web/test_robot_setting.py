"""Issue 10 item 4 on the organizer's manage page: the organizer lets the online judge robot
record the tournament's results, or stops it (off by default); others may not."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.web.conftest import Clients, add_account, csrf_of
from turnir.services.accounts import AccountRole
from turnir.services.online import robot_allowed
from turnir.services.queries import audit_log
from turnir.services.tournaments import list_tournaments
from turnir.storage.database import Database

EN = {"accept-language": "en"}


def test_item4_organizer_allows_and_stops_the_robot_on_the_manage_page(
        web_db: Database, clients: Clients) -> None:
    add_account(web_db, "org", AccountRole.ORGANIZER)
    add_account(web_db, "judge", AccountRole.HEAD_JUDGE)
    org = clients.as_("org")
    made = org.post("/new", data={"name": "Онлайн-кубок", "csrf_token": csrf_of(org, "/new")},
                    headers=EN, follow_redirects=False)
    assert made.status_code == 303, made.text[:300]
    [info] = list_tournaments(web_db)
    tid = info.id
    page = org.get(f"/t/{tid}/manage", headers=EN).text
    assert "does not record this tournament's results" in page and 'id="robot-toggle"' in page
    assert robot_allowed(web_db, tid) is False

    def toggle(client: TestClient, allowed: str, *, csrf_page: str = "/") -> int:
        token = csrf_of(client, csrf_page)
        return int(client.post(f"/t/{tid}/robot", data={"allowed": allowed},
                               headers={"x-csrf-token": token, "hx-request": "true", **EN},
                               follow_redirects=False).status_code)

    assert toggle(org, "true") == 200
    assert robot_allowed(web_db, tid) is True
    assert "The online judge robot records this tournament's results" in org.get(
        f"/t/{tid}/manage", headers=EN).text
    assert "Онлайн-робот-судья записывает" in org.get(f"/t/{tid}/manage").text
    # a head judge or an anonymous visitor may not change it
    assert toggle(clients.as_("judge"), "false") == 403
    assert toggle(clients.as_(None), "false", csrf_page="/login") in {401, 403}
    assert robot_allowed(web_db, tid) is True
    assert toggle(org, "false") == 200
    assert robot_allowed(web_db, tid) is False
    logged = [e for e in audit_log(web_db, tid) if e.action == "tournament.robot"]
    assert [(e.actor, e.after["robot_allowed"] if e.after else None) for e in logged] == [
        ("Org", True), ("Org", False)]

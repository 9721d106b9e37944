"""Issue 12 item 2: ratings from the web app and the API, without the CLI (J-8, R-1..R-7, J-4).

The head judge of a finished tournament sets the rating terms (K, entry fee, J-4 flags), sees
the preview per player, submits it with a confirmation and submits a correction, from a page
and from the API; the terms can be set after the finish and each change is in the audit log;
bad input is a 4xx JSON body and stores nothing; a floor judge and a judge of another
tournament are refused (403); a tournament finished without a head judge can still be rated
once one is named after the finish, and until then the refusal says where to name one; the
rating report tab of a running tournament explains when it will be ready (200, not 409).
"""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient
from playwright.sync_api import expect

from tests.services.rating_builders import ORGANIZER, finished_event
from tests.web.conftest import Clients, LiveServer, add_account, sign_in
from tests.web.test_browser import DESKTOP, PHONE, new_page
from turnir.services.accounts import AccountRole
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.queries import audit_log
from turnir.services.rating_queries import find_person, leaderboard, player_rating
from turnir.services.rating_terms import tournament_rating_terms
from turnir.storage.database import Database

NAMES = ["Анна", "Борис", "Вера", "Глеб"]
RU = {"accept-language": "ru"}


def staffed(db: Database, *, head: bool = True) -> tuple[int, int]:
    """A tournament finished without a head judge, whose staff is named *after* the finish
    (the head judge ``head`` unless ``head`` is false, the floor judge ``floor``, the organizer
    ``org``), and another finished tournament whose head judge is ``other``."""
    for name, role in (("org", AccountRole.ORGANIZER), ("head", AccountRole.HEAD_JUDGE),
                       ("floor", AccountRole.FLOOR_JUDGE), ("other", AccountRole.HEAD_JUDGE)):
        add_account(db, name, role)
    tid = finished_event(db, NAMES, name="Осенний кубок", head=None)
    add_judge(db, tid, role=JudgeRole.ORGANIZER, login="org", actor=ORGANIZER)
    if head:
        add_judge(db, tid, role=JudgeRole.HEAD_JUDGE, login="head", actor=ORGANIZER)
    add_judge(db, tid, role=JudgeRole.FLOOR_JUDGE, login="floor", actor=ORGANIZER)
    other = finished_event(db, ["Дина", "Егор", "Жанна", "Зоя"], name="Другой", head=None)
    add_judge(db, other, role=JudgeRole.HEAD_JUDGE, login="other", actor=ORGANIZER)
    return tid, other


def api(clients: Clients, login: str | None) -> TestClient:
    """A bearer-token API client (``None``: anonymous)."""
    c = clients.new()
    if login is not None:
        token = c.post("/api/v1/session", json={"login": login,
                                                "password": "correct horse battery"})
        c.headers["authorization"] = f"Bearer {token.json()['token']}"
    return c


def actions(db: Database, tid: int) -> list[str]:
    return [e.action for e in audit_log(db, tid)]


# ----- the API ------------------------------------------------------------------------------


def test_api_head_judge_sets_terms_after_the_finish_previews_submits_and_corrects(
        web_db: Database, clients: Clients) -> None:
    tid, _ = staffed(web_db)
    head = api(clients, "head")
    base = f"/api/v1/tournaments/{tid}/rating"
    assert head.get(f"{base}/terms").json()["version"] == 0
    put = head.put(f"{base}/terms", json={"professional_k": "7/5", "entry_fee": "250.50"})
    assert put.status_code == 200, put.text
    terms = put.json()
    assert (terms["professional_k"], terms["entry_fee"], terms["version"]) == ("1.4", "250.50", 1)
    assert actions(web_db, tid).count("rating.terms") == 1  # logged, after the finish
    preview = head.get(f"{base}/preview").json()
    assert preview["status"] == "new" and preview["report"]["professional_k"] == "1.4"
    lines = preview["report"]["lines"]
    assert [line["person"]["name"] for line in lines] == NAMES
    assert lines[0]["prize"] == "701.40"  # 70% of 4 × 250.50
    assert leaderboard(web_db).total == 0  # a preview writes nothing
    assert head.post(f"{base}/correction", json={"confirm": True}).status_code == 409
    submitted = head.post(f"{base}/submit", json={"confirm": True})
    assert submitted.status_code == 200, submitted.text
    assert submitted.json()["status"] == "new"
    winner = lines[0]["professional"]["after"]
    anna = player_rating(web_db, find_person(web_db, "Анна").id)
    assert str(anna.professional) == winner and anna.tournaments == 1
    again = head.post(f"{base}/submit", json={"confirm": True}).json()
    assert again["status"] == "unchanged"  # safe to repeat
    head.put(f"{base}/terms", json={"professional_k": "2", "entry_fee": "250.50",
                                    "expected_version": 1}).raise_for_status()
    corrected = head.post(f"{base}/correction", json={"confirm": True})
    assert corrected.status_code == 200 and corrected.json()["status"] == "corrected"
    assert corrected.json()["report"]["version"] == 2
    assert player_rating(web_db, find_person(web_db, "Анна").id).professional > anna.professional
    assert {"rating.submit", "rating.correct"} <= set(actions(web_db, tid))


def test_api_bad_terms_are_4xx_json_and_store_nothing(web_db: Database,
                                                       clients: Clients) -> None:
    tid, _ = staffed(web_db)
    head = api(clients, "head")
    base = f"/api/v1/tournaments/{tid}/rating"
    bad: list[tuple[dict[str, Any], int, str]] = [
        ({"professional_k": "abc"}, 422, "bad_coefficient"),
        ({"professional_k": "-1"}, 422, "bad_coefficient"),
        ({"professional_k": "1" * 30}, 422, "invalid_request"),
        ({"boosters": 9}, 422, "invalid_request"),
        ({"entry_fee": "-5"}, 422, "bad_money"),
        ({"entry_fee": "1.001"}, 422, "bad_money"),
        ({"prize_fund": "99999999999"}, 422, "bad_money"),
        ({"disqualified_without_prizes": [99]}, 404, ""),
        ({"disqualified_without_prizes": [0]}, 422, "invalid_request"),
        ({"surprise": 1}, 422, "invalid_request"),
        ({"expected_version": 5}, 409, ""),
    ]
    for body, status, code in bad:
        answer = head.put(f"{base}/terms", json=body, headers=RU)
        assert answer.status_code == status, (body, answer.text)
        assert answer.headers["content-type"].startswith("application/json")
        found = answer.json()
        assert found["message"] and (not code or found["code"] == code), (body, found)
    assert tournament_rating_terms(web_db, tid).version == 0
    refused = head.post(f"{base}/submit", json={"confirm": False}, headers=RU)
    assert refused.status_code == 422 and refused.json()["code"] == "not_confirmed"
    assert "подтвер" in refused.json()["message"]
    assert head.post(f"{base}/submit", json={}).status_code == 422
    assert "rating.terms" not in actions(web_db, tid)
    assert leaderboard(web_db).total == 0


def test_api_floor_judge_and_a_judge_of_another_tournament_are_refused(
        web_db: Database, clients: Clients) -> None:
    tid, other = staffed(web_db)
    base = f"/api/v1/tournaments/{tid}/rating"
    for judge in ("floor", "other"):
        c = api(clients, judge)
        put = c.put(f"{base}/terms", json={"professional_k": "2"})
        assert put.status_code == 403 and put.json()["code"] in ("forbidden", "not_staff"), put.text
        post = c.post(f"{base}/submit", json={"confirm": True})
        assert post.status_code == 403, post.text
    organizer = api(clients, "org")
    assert organizer.put(f"{base}/terms", json={"professional_k": "2"}).status_code == 200
    only_head = organizer.post(f"{base}/submit", json={"confirm": True}, headers=RU)
    assert only_head.status_code == 403 and only_head.json()["code"] == "not_head_judge"
    assert api(clients, None).put(f"{base}/terms", json={}).status_code == 401
    assert api(clients, "other").post(f"/api/v1/tournaments/{other}/rating/submit",
                                      json={"confirm": True}).json()["status"] == "new"
    assert leaderboard(web_db).total == 4  # only the other tournament


def test_without_a_head_judge_the_refusal_names_the_staff_page(web_db: Database,
                                                               clients: Clients) -> None:
    tid, _ = staffed(web_db, head=False)
    organizer = api(clients, "org")
    answer = organizer.post(f"/api/v1/tournaments/{tid}/rating/submit",
                            json={"confirm": True}, headers=RU)
    assert answer.status_code == 422 and answer.json()["code"] == "no_head_judge"
    message = answer.json()["message"]
    assert "Судейская коллегия" in message and "после окончания" in message, message
    assert "turnir" not in message.replace("турнир", "")  # no shell command
    page = clients.as_("org").get(f"/t/{tid}/rating/terms", headers=RU).text
    assert 'id="no-head-judge"' in page and "Судейская коллегия" in page
    add_judge(web_db, tid, role=JudgeRole.HEAD_JUDGE, login="head", actor="Орлов")
    head = api(clients, "head")
    assert head.post(f"/api/v1/tournaments/{tid}/rating/submit",
                     json={"confirm": True}).json()["status"] == "new"


# ----- the pages ----------------------------------------------------------------------------


def test_the_rating_tab_of_a_running_tournament_explains_instead_of_409(
        web_db: Database, client: TestClient) -> None:
    tid = finished_event(web_db, NAMES, finish=False)
    answer = client.get(f"/t/{tid}/rating", headers=RU)
    assert answer.status_code == 200
    assert "Рейтинговый отчёт будет готов, когда турнир закончится" in answer.text
    assert 'id="rating-admin"' not in answer.text  # the public sees no terms link
    assert client.get("/t/999999/rating").status_code == 404


def test_terms_page_refuses_a_floor_judge_and_forms_need_csrf(web_db: Database,
                                                              clients: Clients) -> None:
    tid, _ = staffed(web_db)
    assert clients.as_("floor").get(f"/t/{tid}/rating/terms").status_code == 403
    assert clients.as_("other").get(f"/t/{tid}/rating/terms").status_code == 403
    head = clients.as_("head")
    assert head.get(f"/t/{tid}/rating", headers=RU).text.count('id="rating-admin"') == 1
    manage = clients.as_("org").get(f"/t/{tid}/manage", headers=RU).text
    assert f'href="/t/{tid}/rating/terms" id="rating-terms-link"' in manage  # once finished
    no_csrf = head.post(f"/t/{tid}/rating/terms", data={"professional_k": "2", "version": "0"})
    assert no_csrf.status_code == 403
    page = head.get(f"/t/{tid}/rating/terms", headers=RU).text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token
    unconfirmed = head.post(f"/t/{tid}/rating/submit", data={"csrf_token": token.group(1)})
    assert unconfirmed.status_code == 422
    assert leaderboard(web_db).total == 0


def test_browser_head_judge_sets_terms_previews_submits_on_desktop_and_phone(
        live_server: LiveServer, browser: Any) -> None:
    tid, other = staffed(live_server.db)
    runs = ((DESKTOP | {"width": 1366}, "head", tid, "Анна"), (PHONE, "other", other, "Дина"))
    for viewport, judge, event_id, winner in runs:
        page = new_page(browser, viewport=viewport)
        sign_in(page, live_server, judge)
        page.goto(f"{live_server.url}/t/{event_id}/rating")
        page.click("#rating-admin")
        expect(page.locator("h1")).to_contain_text("Рейтинг")
        assert _width(page) <= viewport["width"]
        page.fill("input[name=professional_k]", "1,4")
        page.fill("input[name=entry_fee]", "300")
        page.click("#save-terms")
        expect(page.locator("#rating-note")).to_be_visible()
        expect(page.locator("#preview-prize")).to_contain_text("840")  # 70% of 1 200
        rows = page.locator("#preview-table tbody tr")
        expect(rows).to_have_count(4)
        expect(rows.nth(0)).to_contain_text(winner)
        change = rows.nth(0).locator("td").nth(3).inner_text()
        after = rows.nth(0).locator("td").nth(4).inner_text()
        assert change.startswith("+") and "," in change and "," in after, change  # ru numbers
        assert _width(page) <= viewport["width"]
        page.once("dialog", lambda dialog: dialog.accept())
        page.check("input[name=confirm]")
        page.click("#submit-rating")
        expect(page.locator("#rating-note")).to_contain_text("отправлен")
        expect(page.locator("#preview-status")).to_contain_text("отправлять нечего")
        expect(page.locator("input[name=professional_k]")).to_have_value("1,4")
        assert _width(page) <= viewport["width"]
        page.goto(f"{live_server.url}/ratings")
        expect(page.locator("tr", has_text=winner)).to_contain_text(after)
        assert _width(page) <= viewport["width"]
        page.context.close()
    assert leaderboard(live_server.db).total == 8
    assert actions(live_server.db, tid).count("rating.terms") == 1


def _width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))

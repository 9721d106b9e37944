"""Step 3: the organizer runs a tournament through the pages; players report and confirm,
different reports go to a judge, judges override (logged); printables."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.web.conftest import Clients, add_account, csrf_of
from turnir.services.accounts import AccountRole
from turnir.services.players import list_players
from turnir.services.queries import audit_log
from turnir.services.rounds import current_round
from turnir.services.tournaments import get_tournament, list_tournaments
from turnir.storage.database import Database

EN = {"accept-language": "en"}


def post(client: TestClient, path: str, data: dict[str, str] | None = None, *,
         htmx: bool = True, files: dict[str, tuple[str, bytes, str]] | None = None,
         status: int = 200) -> str:
    token = csrf_of(client, "/")
    headers = {"x-csrf-token": token, **EN, **({"hx-request": "true"} if htmx else {})}
    answer = client.post(path, data=data or {}, headers=headers, files=files,
                         follow_redirects=False)
    assert answer.status_code == status, (path, answer.status_code, answer.text[:400])
    return answer.text


def test_an_organizer_runs_a_tournament_through_the_pages(web_db: Database,
                                                          clients: Clients) -> None:
    add_account(web_db, "org", AccountRole.ORGANIZER)
    org = clients.as_("org")
    assert "New tournament" in org.get("/", headers=EN).text
    post(org, "/new", {"name": "Кубок", "format": "constructed", "rules_level": "professional",
                       "win": "3", "draw": "1", "loss": "0", "bye": "3", "best_of": "3",
                       "top_best_of": "3", "rounds": "3", "top": "4", "seed": "42"})
    info = list_tournaments(web_db)[0]
    assert (info.name, info.format.value, info.settings.top_size, info.seed) == (
        "Кубок", "constructed", 4, 42)
    tid = info.id
    csv = "name,city\n" + "".join(f"Игрок {i:02d},Тверь\n" for i in range(1, 10))
    post(org, f"/t/{tid}/players/import", files={"file": ("p.csv", csv.encode(), "text/csv")})
    post(org, f"/t/{tid}/players", {"name": "Анна Котова", "city": "Москва"})
    assert len(list_players(web_db, tid)) == 10
    for number in range(1, 10):  # #10 never checks in
        post(org, f"/t/{tid}/players/{number}/checkin", {"present": "true"})
    page = org.get(f"/t/{tid}/manage", headers=EN).text
    assert page.count("present ✓") == 9
    post(org, f"/t/{tid}/rounds/start", {"drop_absent": "true"})
    assert list_players(web_db, tid)[9].dropped_after == 0
    post(org, f"/t/{tid}/timer", {"minutes": "40"})
    assert 'class="timer"' in org.get(f"/t/{tid}/pairings").text
    post(org, f"/t/{tid}/rounds/undo")
    assert get_tournament(web_db, tid).tournament.rounds == ()
    post(org, f"/t/{tid}/rounds/start")
    # a late entry with byes, and a drop
    post(org, f"/t/{tid}/players", {"name": "Поздний Игрок", "missed_byes": "true"})
    post(org, f"/t/{tid}/players/2/drop", {"reason": "уехал"})
    for _ in range(3):  # three Swiss rounds, then the top of 4 (2 rounds)
        view = current_round(web_db, tid)
        for line in view.round.pairings:
            if line.b is not None:
                grid = post(org, f"/t/{tid}/results", {"round": str(view.round.number),
                                                       "table": str(line.table),
                                                       "score": "2-1"})
        assert grid.startswith('<div id="grid"')
        post(org, f"/t/{tid}/rounds/start")
    for _ in range(2):
        view = current_round(web_db, tid)
        assert view.round.stage.value == "top"
        for line in view.round.pairings:
            post(org, f"/t/{tid}/results", {"round": str(view.round.number),
                                            "table": str(line.table), "score": "0-2"})
        if len(view.round.pairings) > 1:
            post(org, f"/t/{tid}/rounds/start")
    post(org, f"/t/{tid}/finish", {"confirm": "true"})  # issue 12 item 8: confirmed
    places = org.get(f"/t/{tid}/places", headers=EN).text
    assert places.count("<tr><td class=\"num\">") == 10  # #10 never played: not ranked (P-6)
    assert get_tournament(web_db, tid).info.status.value == "finished"
    # a mistake is a message, not a traceback
    text = post(org, f"/t/{tid}/rounds/start", status=409)
    assert "finished" in text and "Traceback" not in text


def _running(web_db: Database, org: TestClient,
             judge: str | None = None) -> tuple[int, int, int, int]:
    """A tournament the ``org`` login made, in round 1; ``judge``: the role the ``judge``
    login gets on its staff (roles are per tournament, issue 10 item 1)."""
    post(org, "/new", {"name": "Лига", "rounds": "3", "best_of": "3"})
    tid = list_tournaments(web_db)[0].id
    if judge is not None:
        post(org, f"/t/{tid}/staff", {"login": "judge", "role": judge})
    csv = "name\n" + "".join(f"Игрок {i}\n" for i in range(1, 7))
    post(org, f"/t/{tid}/players/import", files={"file": ("p.csv", csv.encode(), "text/csv")})
    post(org, f"/t/{tid}/rounds/start")
    line = next(p for p in current_round(web_db, tid).round.pairings if p.b is not None)
    assert line.b is not None
    return tid, line.table, line.a, line.b


def _player_login(org: TestClient, tid: int, number: int) -> tuple[str, str]:
    text = post(org, f"/t/{tid}/players/{number}/account")
    found = re.search(r": (t\d+p\d+), password (\S+)<", text)
    assert found, text
    return found.group(1), found.group(2)


def _report(client: TestClient, tid: int, table: int, mine: int, theirs: int,
            status: int = 200) -> str:
    return post(client, f"/t/{tid}/report", {"round": "1", "table": str(table),
                                             "mine": str(mine), "theirs": str(theirs)},
                status=status)


def test_players_report_and_confirm_and_judges_decide(web_db: Database,
                                                      clients: Clients) -> None:
    add_account(web_db, "org", AccountRole.ORGANIZER)
    add_account(web_db, "judge", AccountRole.FLOOR_JUDGE)
    org = clients.as_("org")
    tid, table, a, b = _running(web_db, org, judge="floor_judge")
    logins = {n: _player_login(org, tid, n) for n in (a, b)}
    from tests.web.conftest import log_in

    pa = log_in(clients.new(), *logins[a])
    pb = log_in(clients.new(), *logins[b])
    assert f"Table {table}" in pa.get(f"/t/{tid}", headers=EN).text  # the match card (issue 12)
    assert "Reported" in _report(pa, tid, table, 2, 1)
    assert "Your opponent reported 1-2" in pb.get(f"/t/{tid}", headers=EN).text
    assert "recorded" in _report(pb, tid, table, 1, 2)
    line = current_round(web_db, tid).round.pairing_at(table)
    assert line.result is not None and line.result.score == "2-1"
    # someone else's match is refused
    other = next(p for p in current_round(web_db, tid).round.pairings
                 if p.b is not None and p.table != table)
    assert "not your match" in _report(pa, tid, other.table, 2, 0, status=403)
    # two different reports wait for a judge
    post(org, f"/t/{tid}/rounds/undo", status=409)  # round 1 has results
    assert "a judge will decide" not in pa.get(f"/t/{tid}", headers=EN).text
    judge = clients.as_("judge")
    grid = judge.get(f"/t/{tid}/results", headers=EN).text
    assert f'id="table-{table}"' in grid and "Override" in grid
    # the judge overrides the confirmed result: a logged correction
    post(judge, f"/t/{tid}/results", {"round": "1", "table": str(table), "score": "0-2",
                                      "correct": "true"})
    corrected = audit_log(web_db, tid, action="result.correct")
    assert corrected[-1].actor == "Judge" and corrected[-1].before is not None
    # a player may not record or override
    post(pa, f"/t/{tid}/results", {"round": "1", "table": str(table), "score": "2-0",
                                   "correct": "true"}, status=403)


def test_differing_reports_are_a_dispute(web_db: Database, clients: Clients) -> None:
    add_account(web_db, "org", AccountRole.ORGANIZER)
    org = clients.as_("org")
    tid, table, a, b = _running(web_db, org)
    from tests.web.conftest import log_in

    pa = log_in(clients.new(), *_player_login(org, tid, a))
    pb = log_in(clients.new(), *_player_login(org, tid, b))
    _report(pa, tid, table, 2, 0)
    assert "a judge will decide" in _report(pb, tid, table, 2, 0)
    assert "A judge is called" in pa.get(f"/t/{tid}", headers=EN).text  # the card: a dispute
    grid = org.get(f"/t/{tid}/results", headers=EN).text
    assert "Dispute" in grid
    post(org, f"/t/{tid}/results", {"round": "1", "table": str(table), "score": "2-0"})
    assert current_round(web_db, tid).round.pairing_at(table).result is not None


def test_roles_are_enforced_on_the_pages(web_db: Database, clients: Clients) -> None:
    add_account(web_db, "org", AccountRole.ORGANIZER)
    add_account(web_db, "judge", AccountRole.HEAD_JUDGE)
    org = clients.as_("org")
    tid, _, _, _ = _running(web_db, org, judge="head_judge")
    anonymous = clients.new()
    answer = anonymous.get(f"/t/{tid}/manage", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"].startswith("/login?next=")
    judge = clients.as_("judge")
    assert judge.get(f"/t/{tid}/manage").status_code == 403
    assert judge.get(f"/t/{tid}/results").status_code == 200
    post(judge, f"/t/{tid}/rounds/undo", status=403)


def test_printables(web_db: Database, clients: Clients) -> None:
    add_account(web_db, "org", AccountRole.ORGANIZER)
    org = clients.as_("org")
    tid, table, _, _ = _running(web_db, org)
    for path, expected in (("pairings?by=table", "Pairings by table"),
                           ("pairings?by=name", "Pairings by name"),
                           ("slips", "Result slips"), ("seating", "Seating list")):
        page = org.get(f"/t/{tid}/print/{path}", headers=EN)
        assert page.status_code == 200 and expected in page.text
        assert "data-print" in page.text and "/static/app.js" in page.text  # no inline JS
    slips = org.get(f"/t/{tid}/print/slips", headers=EN).text
    assert slips.count('class="slip card"') == 3 and f"Table {table}" in slips
    css = org.get("/static/style.css").text
    assert "@media print" in css and ".noprint" in css

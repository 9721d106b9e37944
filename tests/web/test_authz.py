"""The authorization matrix: every route of the app (pages and API) against every role
(anonymous, player, floor judge, head judge, organizer): denied exactly where it should be.
A route missing from ``EXPECTED`` fails the test, so a new route must be classified.

Roles of the staff are per tournament (issue 10 item 1): two tournaments A and B have
different staff, and A's organizer, head judge and floor judge are refused on every judge-only
route of B while they still act in A."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from starlette.routing import Route

from tests.services.builders import ORGANIZER, event
from tests.snapshots import built
from tests.web.conftest import PASSWORD, Clients, add_account, csrf_of, log_in
from turnir.formats.players_csv import PlayerLine
from turnir.services.accounts import find_account, make_hasher
from turnir.services.demo import DEMO_FINISHED, DEMO_NAME, seed_accounts, seed_tournaments
from turnir.services.judges import (
    ANY_STAFF,
    HEAD_OR_ORGANIZER,
    ORGANIZER_ONLY,
    JudgeRole,
    add_judge,
    staff_role,
)
from turnir.services.players import list_players, register_players
from turnir.services.rounds import start_round
from turnir.services.tournaments import list_tournaments
from turnir.storage.database import Database
from turnir.web.security import (
    CSRF_COOKIE,
    HEAD,
    JUDGES,
    PLAYERS,
    SESSION_COOKIE,
    SIGNED_IN,
    Role,
)
from turnir.web.security import ORGANIZER as ORG

ALL = frozenset(Role)
T = "/t/{tid}"
A = "/api/v1/tournaments/{tid}"
EXPECTED: dict[tuple[str, str], frozenset[Role]] = {
    # public pages
    ("GET", "/healthz"): ALL, ("GET", "/"): ALL, ("GET", "/lang/{code}"): ALL,
    ("GET", T): ALL, ("GET", f"{T}/pairings"): ALL, ("GET", f"{T}/find"): ALL,
    ("GET", f"{T}/standings"): ALL, ("GET", f"{T}/top"): ALL, ("GET", f"{T}/places"): ALL,
    ("GET", f"{T}/events"): ALL,  # issue 15: live updates (it only says that something changed)
    ("GET", "/login"): ALL, ("POST", "/login"): ALL, ("POST", "/logout"): ALL,
    ("GET", "/api/v1/openapi.json"): ALL,
    ("GET", "/ratings"): ALL, ("GET", "/ratings/players/{person}"): ALL,
    ("GET", f"{T}/rating"): ALL,
    # organizer pages
    ("GET", "/new"): ORG, ("POST", "/new"): ORG, ("GET", "/accounts"): ORG,
    ("POST", "/accounts"): ORG, ("POST", "/accounts/{login}/deactivate"): ORG,
    ("GET", "/backup"): ORG, ("GET", "/backup/download"): ORG,  # issue 15: the backup
    ("POST", "/accounts/{login}/activate"): ORG, ("POST", "/accounts/{login}/password"): ORG,
    ("GET", f"{T}/manage"): ORG, ("POST", f"{T}/players"): ORG,
    ("POST", f"{T}/players/import"): ORG, ("POST", f"{T}/players/{{number}}/checkin"): ORG,
    ("POST", f"{T}/players/{{number}}/drop"): HEAD,
    ("POST", f"{T}/players/{{number}}/account"): ORG, ("POST", f"{T}/rounds/start"): ORG,
    # registration (issue 12): the list alone, check in all, reinstate (as a drop)
    ("GET", f"{T}/players/list"): ORG, ("POST", f"{T}/players/checkin-all"): ORG,
    ("POST", f"{T}/players/{{number}}/reinstate"): HEAD,
    ("POST", f"{T}/rounds/undo"): ORG, ("POST", f"{T}/timer"): ORG,
    ("POST", f"{T}/finish"): ORG, ("POST", f"{T}/robot"): ORG,
    # the round wizard and the clock (issue 12)
    ("GET", f"{T}/finish"): ORG, ("POST", f"{T}/clock"): ORG,
    ("POST", f"{T}/timer/pause"): HEAD, ("POST", f"{T}/timer/resume"): HEAD,
    ("POST", f"{T}/timer/add"): HEAD,
    ("POST", f"{T}/staff"): ORG, ("POST", f"{T}/staff/{{judge}}/remove"): ORG,
    # the staff page and the game rulings pages (issue 12)
    ("GET", f"{T}/staff"): JUDGES, ("GET", f"{T}/staff/search"): ORG,
    ("POST", f"{T}/staff/account"): ORG,
    ("GET", f"{T}/rulings"): JUDGES, ("POST", f"{T}/rulings/technical"): HEAD,
    ("POST", f"{T}/rulings/threshold"): HEAD,
    ("POST", f"{T}/rulings/claim"): JUDGES, ("GET", f"{T}/catalogue"): HEAD,
    ("POST", f"{T}/catalogue"): HEAD, ("POST", f"{T}/catalogue/{{code}}/default"): HEAD,
    ("POST", f"{T}/catalogue/{{code}}/remove"): HEAD,
    # judges and players
    ("GET", f"{T}/results"): JUDGES, ("POST", f"{T}/results"): JUDGES,
    ("GET", f"{T}/print/{{kind}}"): JUDGES, ("POST", f"{T}/report"): PLAYERS,
    # the player's own match card and leaving (issue 12)
    # issue 13 (schedules, C-2 age in game years)
    ("GET", "/schedules"): ALL, ("POST", "/schedules"): ORG,
    ("POST", "/schedules/{sid}/active"): ORG, ("GET", "/me/profile"): SIGNED_IN,
    ("POST", "/me/game-age"): SIGNED_IN, ("POST", "/accounts/{login}/game-age"): ORG,
    # issue 13 (the judges' deck tools)
    ("GET", f"{T}/decks"): JUDGES, ("GET", f"{T}/decks/{{number}}/count"): JUDGES,
    ("GET", f"{T}/deck-checks"): JUDGES, ("POST", f"{T}/deck-checks/draw"): JUDGES,
    ("POST", f"{T}/deck-checks/add"): JUDGES,
    ("POST", f"{T}/deck-checks/{{check}}/done"): JUDGES, ("POST", f"{T}/rulings/crystals"): JUDGES,
    ("GET", "/me"): SIGNED_IN, ("GET", f"{T}/me"): PLAYERS, ("POST", f"{T}/me/report"): PLAYERS,
    ("GET", f"{T}/me/leave"): PLAYERS, ("POST", f"{T}/me/leave"): PLAYERS,
    # penalties (issue 5)
    ("GET", f"{T}/penalties"): JUDGES, ("GET", f"{T}/penalties/give"): JUDGES,
    ("POST", f"{T}/penalties"): JUDGES, ("POST", f"{T}/penalties/{{seq}}/appeal"): HEAD,
    ("GET", f"{T}/penalties/history"): SIGNED_IN, ("GET", f"{T}/penalties/report"): JUDGES,
    # the audit log (issue 10 item 14)
    ("GET", f"{T}/log"): HEAD,
    # ratings from the web (issue 12 item 2): the head judge submits (J-8)
    ("GET", f"{T}/rating/terms"): HEAD, ("POST", f"{T}/rating/terms"): HEAD,
    ("POST", f"{T}/rating/submit"): frozenset({Role.HEAD_JUDGE}),
    ("GET", f"{A}/rating/terms"): ALL, ("PUT", f"{A}/rating/terms"): HEAD,
    ("GET", f"{A}/rating/preview"): ALL,
    ("POST", f"{A}/rating/submit"): frozenset({Role.HEAD_JUDGE}),
    ("POST", f"{A}/rating/correction"): frozenset({Role.HEAD_JUDGE}),
    # the API
    ("POST", "/api/v1/session"): ALL, ("DELETE", "/api/v1/session"): SIGNED_IN,
    ("GET", "/api/v1/me"): SIGNED_IN, ("GET", "/api/v1/accounts"): ORG,
    ("POST", "/api/v1/accounts"): ORG, ("GET", "/api/v1/tournaments"): ALL,
    ("POST", "/api/v1/accounts/{login}/deactivate"): ORG,
    ("POST", "/api/v1/accounts/{login}/activate"): ORG,
    ("PUT", "/api/v1/accounts/{login}/password"): ORG,
    ("POST", "/api/v1/tournaments"): ORG, ("GET", A): ALL, ("POST", f"{A}/finish"): ORG,
    ("GET", f"{A}/players"): ALL, ("POST", f"{A}/players"): ORG,
    ("POST", f"{A}/players/{{number}}/check-in"): ORG,
    ("POST", f"{A}/players/{{number}}/drop"): HEAD, ("GET", f"{A}/rounds"): ALL,
    ("POST", f"{A}/players/{{number}}/reinstate"): HEAD,
    ("POST", f"{A}/players/check-in-all"): ORG,
    ("GET", f"{A}/rounds/{{number}}"): ALL, ("POST", f"{A}/rounds"): ORG,
    ("DELETE", f"{A}/rounds/last"): ORG, ("PUT", f"{A}/rounds/{{number}}/timer"): ORG,
    ("PUT", f"{A}/rounds/{{number}}/tables/{{table}}/result"): JUDGES,
    ("POST", f"{A}/rounds/{{number}}/tables/{{table}}/reports"): PLAYERS,
    ("GET", f"{A}/standings"): ALL, ("GET", f"{A}/final-places"): ALL,
    ("GET", f"{A}/staff"): JUDGES, ("POST", f"{A}/staff"): ORG,
    ("DELETE", f"{A}/staff/{{judge}}"): ORG,
    # exports (issue 12): public, like the pages
    ("GET", f"{T}/standings/export"): ALL, ("GET", f"{T}/places/export"): ALL,
    ("GET", f"{A}/standings/export"): ALL, ("GET", f"{A}/final-places/export"): ALL,
    ("GET", f"{T}/projector"): ALL,  # the projector view (issue 12), public like the pairings
    # the deck pages (issue 13): the player's own deck, a judge's change, the sheet, the check
    ("GET", f"{T}/deck"): PLAYERS, ("POST", f"{T}/deck"): PLAYERS,
    ("GET", f"{T}/decks/{{number}}/edit"): JUDGES, ("POST", f"{T}/decks/{{number}}/edit"): JUDGES,
    ("GET", f"{T}/decks/{{number}}/print"): SIGNED_IN, ("GET", f"{T}/deck-sheet"): ALL,
    ("GET", "/deck-check"): ALL, ("POST", "/deck-check"): ALL,
    # the deck API (issue 13): the player or the tournament's staff, the check public
    ("GET", f"{A}/decks"): JUDGES, ("GET", f"{A}/decks/{{number}}"): SIGNED_IN,
    ("PUT", f"{A}/decks/{{number}}"): SIGNED_IN, ("POST", "/api/v1/deck-check"): ALL,
    # formats (issue 13): everyone reads them, site organizers edit them, the tournament's
    # organizer sets its format
    ("GET", "/formats"): ALL, ("POST", "/formats"): ORG, ("GET", "/formats/{format_id}"): ALL,
    ("POST", "/formats/{format_id}"): ORG, ("POST", "/formats/{format_id}/ban"): ORG,
    ("POST", "/formats/{format_id}/ban/delete"): ORG,
    ("POST", "/formats/{format_id}/starter"): ORG,
    ("POST", "/formats/{format_id}/starter/delete"): ORG,
    ("GET", f"{T}/format"): ORG, ("POST", f"{T}/format"): ORG,
    ("GET", "/api/v1/formats"): ALL, ("GET", "/api/v1/formats/{format_id}"): ALL,
    # the card catalogue (issue 13): found by anyone, loaded by a site organizer
    ("GET", "/cards"): ALL, ("GET", "/cards/search"): ALL, ("POST", "/cards/import"): ORG,
    ("GET", "/api/v1/cards"): ALL,
    # publication and metagame (issue 13): public, the organizer publishes after the finish
    ("GET", f"{T}/top-decks"): ALL, ("POST", f"{T}/top-decks"): ORG,
    ("GET", f"{T}/metagame"): ALL,
    # a player enters an online tournament themselves (issue 13)
    ("POST", f"{T}/entry"): PLAYERS, ("POST", f"{A}/entries/me"): PLAYERS,
    # the live draft's pages (issue 14): the player picks, the staff watch the tables, the
    # organizer starts it, the head judge drops; the log for the staff (players: after it);
    # booster templates for site organizers
    ("GET", f"{T}/draft/pick"): PLAYERS, ("GET", f"{T}/draft/pick/state"): PLAYERS,
    ("POST", f"{T}/draft/pick"): PLAYERS, ("POST", f"{T}/draft/pick/resume"): PLAYERS,
    ("GET", f"{T}/draft/live"): JUDGES,
    ("POST", f"{T}/draft/live/start"): ORG, ("POST", f"{T}/draft/live/drop"): HEAD,
    ("GET", f"{T}/draft/log"): JUDGES | PLAYERS,
    ("GET", "/booster-templates"): ORG, ("POST", "/booster-templates"): ORG,
    # the live draft's API (issue 14): the player's seat and picks, a table for the staff,
    # the log (staff; players once the draft is over)
    ("GET", f"{A}/draft"): PLAYERS, ("POST", f"{A}/draft/picks"): PLAYERS,
    ("GET", f"{A}/draft/tables/{{table}}"): JUDGES, ("GET", f"{A}/draft/log"): SIGNED_IN,
    # after the draft (issue 14): a player builds their deck from their pool, the judges see
    # and save any player's; the judges record card replacements, a player sees their own
    ("GET", f"{T}/draft/pool"): JUDGES | PLAYERS, ("POST", f"{T}/draft/pool"): JUDGES | PLAYERS,
    ("GET", f"{T}/draft/replacements"): JUDGES | PLAYERS,
    ("POST", f"{T}/draft/replacements"): JUDGES,
    # the draft's plan and seating (issue 14): everyone sees the seating, the organizer sets it
    ("GET", f"{T}/draft"): ALL, ("POST", f"{T}/draft/plan"): ORG,
    ("POST", f"{T}/draft/seat"): ORG,
}
"""Who may use each route; a role of the staff (organizer, head judge, floor judge) is a role in
the tournament of the URL (issue 10 item 1)."""

API_BODIES = {
    "/api/v1/session": {"login": "org", "password": PASSWORD},
    "/api/v1/accounts": {"login": "new", "name": "New", "password": PASSWORD,
                         "role": "floor_judge"},
    "/api/v1/tournaments": {"name": "Новый"},
    "/api/v1/accounts/{login}/password": {"password": "another password"},
    f"{A}/finish": {"early": True}, f"{A}/players": {"name": "Новичок"},
    f"{A}/players/{{number}}/check-in": {}, f"{A}/players/{{number}}/drop": {},
    f"{A}/rounds": {}, f"{A}/rounds/{{number}}/timer": {"minutes": 30},
    f"{A}/rounds/{{number}}/tables/{{table}}/result": {"score": "2-1"},
    f"{A}/rounds/{{number}}/tables/{{table}}/reports": {"mine": 2, "theirs": 0},
    f"{A}/staff": {"login": "extra", "role": "floor_judge"},
    f"{A}/rating/terms": {"professional_k": "1.4"}, f"{A}/rating/submit": {"confirm": True},
    f"{A}/rating/correction": {"confirm": True},
    f"{A}/decks/{{number}}": {"text": "3 Карта"},
    f"{A}/draft/picks": {"booster": 1, "cards_left": 7, "card": "b1c01"},
    "/api/v1/deck-check": {"text": "3 Карта", "format_id": 1},
}
FORMS = {
    "/login": {"login": "nobody", "password": "wrong password"},
    "/new": {"name": "Новый"}, "/accounts": {"login": "x", "name": "X", "password": PASSWORD,
                                            "role": "floor_judge"},
    "/accounts/{login}/password": {"password": "another password"},
    "/schedules": {"name": "Старт", "times": "09:15"}, "/me/game-age": {"age": "12"},
    "/accounts/{login}/game-age": {"age": "12"}, "/schedules/{sid}/active": {"active": "1"},
    f"{T}/deck-checks/draw": {"round": "1", "count": "1"},
    f"{T}/deck-checks/add": {"round": "1", "number": "2"},
    f"{T}/rulings/crystals": {"round": "1", "cards_a": "1 x"},
    f"{T}/players": {"name": "Новичок"}, f"{T}/timer": {"minutes": "30"},
    f"{T}/results": {"round": "1", "table": "{table}", "score": "2-1"},
    f"{T}/report": {"round": "1", "table": "{table}", "mine": "2", "theirs": "0"},
    f"{T}/me/report": {"round": "1", "table": "{table}", "score": "2-0"},
    f"{T}/penalties": {"player": "1", "reason": "slow_play"},
    f"{T}/penalties/{{seq}}/appeal": {"outcome": "upheld"},
    f"{T}/staff": {"login": "extra", "role": "floor_judge"},
    f"{T}/rating/terms": {"professional_k": "1.4", "version": "0"},
    f"{T}/rating/submit": {"confirm": "yes"},
    f"{T}/top-decks": {"count": "1"},
    f"{T}/draft/pick": {"booster": "1", "cards_left": "7", "card": "b1c1"},
    f"{T}/draft/live/drop": {"number": "1"},
    f"{T}/draft/pool": {"number": "1"},
    f"{T}/draft/plan": {"twelves": "4", "sevens": "0", "profile": "tabletop"},
    f"{T}/draft/seat": {"method": "lot"},
    f"{T}/draft/replacements": {"number": "1", "booster_round": "1", "old_name": "Карта",
                                "new_name": "Другая"},
}
LOGINS = {Role.PLAYER: "player", Role.FLOOR_JUDGE: "floor", Role.HEAD_JUDGE: "head",
          Role.ORGANIZER: "org"}
"""The logins of tournament A's staff (and a player of A); each has the same role as its
account's role on the server."""
STAFF_ROLES = {Role.ORGANIZER: JudgeRole.ORGANIZER, Role.HEAD_JUDGE: JudgeRole.HEAD_JUDGE,
               Role.FLOOR_JUDGE: JudgeRole.FLOOR_JUDGE}
OWN_HISTORY = ("GET", f"{T}/penalties/history")
"""A player's own penalty history, from any tournament's page; judges see others' only in
their own tournament."""


def allowed_elsewhere(key: tuple[str, str]) -> frozenset[Role]:
    """Who may use a route of tournament B when A's staff and A's player are all they are: the
    public routes everyone, a player their own history, nobody the rest (a report is refused:
    not the player's match)."""
    roles = EXPECTED[key]
    if roles == ALL:
        return ALL
    return roles & {Role.PLAYER} if key == OWN_HISTORY else frozenset()


def app_routes(app: object) -> set[tuple[str, str]]:
    found = set()
    routes = [r for router in app.state.routers for r in router.routes]  # type: ignore[attr-defined]
    for r in [*routes, *app.routes]:  # type: ignore[attr-defined]
        if isinstance(r, APIRoute | Route):
            for method in r.methods or ():
                if method != "HEAD":
                    found.add((method, r.path))
    return found


def test_every_route_is_classified(clients: Clients) -> None:
    assert app_routes(clients.app) == set(EXPECTED)


def test_api_routes_document_their_roles(clients: Clients) -> None:
    spec = clients.new().get("/api/v1/openapi.json").json()
    for (method, path), roles in EXPECTED.items():
        if path.startswith("/api/v1/") and path != "/api/v1/openapi.json":
            operation = spec["paths"][path][method.lower()]
            assert set(operation["x-roles"]) == {r.value for r in roles}, (method, path)


def _fill(text: str, values: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], text)


_CSRF: dict[tuple[int, str | None, str | None], str] = {}
"""Form tokens by client and its two cookies (the token is the HMAC of the ``turnir_csrf``
nonce and the session): read from a page again only when either cookie changed."""


def _csrf(client: TestClient) -> str:
    def key() -> tuple[int, str | None, str | None]:
        return id(client), client.cookies.get(CSRF_COOKIE), client.cookies.get(SESSION_COOKIE)

    token = _CSRF.get(key())
    if token is None:
        token = _CSRF[key()] = csrf_of(client, "/login")  # the key after the page's cookies
    return token


def _request(client: TestClient, role: Role, method: str, path: str,
             values: dict[str, str], token: str | None) -> int:
    url = _fill(path, values)
    if path.startswith("/api/"):
        headers = {"authorization": f"Bearer {token}"} if token else {}
        body = API_BODIES.get(path)
        answer = client.request(method, url, json=body if method != "GET" else None,
                                headers=headers, follow_redirects=False)
        return answer.status_code
    if method == "GET":
        answer = client.get(url + ("?name=x" if path.endswith("/find") else ""),
                            follow_redirects=False)
        if role is Role.ANONYMOUS and answer.status_code == 303 and \
                answer.headers["location"].startswith("/login"):
            return 401
        return answer.status_code
    data = {k: _fill(v, values) for k, v in FORMS.get(path, {}).items()}
    files = ({"file": ("p.csv", b"name\n\xd0\x98\xd0\xb3\xd1\x80\xd0\xbe\xd0\xba X\n",
                       "text/csv")} if path.endswith("/import") else None)
    data["csrf_token"] = _csrf(client)
    answer = client.post(url, data=data, files=files, follow_redirects=False)
    return answer.status_code


def _tournament(db: Database, name: str, staff: dict[JudgeRole, str], spare: str,
                players: str) -> dict[str, str]:
    """A tournament in round 1 with its own players and staff (and a ``spare`` floor judge's
    login to take off the staff); the values that fill its routes."""
    tid = event(db, 0, rounds=3, top=4, name=name)
    register_players(db, tid, [PlayerLine(f"{players} {i:02d}", "Москва") for i in range(1, 9)],
                     actor=ORGANIZER)
    view = start_round(db, tid, actor=ORGANIZER)
    for role, login in staff.items():
        add_judge(db, tid, role=role, login=login, actor=ORGANIZER)
    judge = add_judge(db, tid, role=JudgeRole.FLOOR_JUDGE, login=spare, actor=ORGANIZER)
    table = next(p.table for p in view.round.pairings if 1 in p.players)
    return {"tid": str(tid), "number": "1", "table": str(table), "kind": "slips", "code": "en",
            "seq": "1", "judge": str(judge.id), "login": "floor", "sid": "1",
            "check": "1", "format_id": "1"}


@dataclass
class TwoTournaments:
    a: dict[str, str]
    """Where ``LOGINS`` are the staff (and the player plays)."""
    b: dict[str, str]
    """With a staff of other logins."""


@pytest.fixture
def two(web_db: Database) -> TwoTournaments:
    """Built once per process (tests.snapshots), laid down in each test's database."""
    return built(web_db, "test_authz.two", _two)


def _two(web_db: Database) -> TwoTournaments:
    for r, login in LOGINS.items():
        if r is not Role.PLAYER:
            add_account(web_db, login, r)
    for r, login in (*((r, f"{x}_b") for r, x in LOGINS.items() if r is not Role.PLAYER),
                     (Role.FLOOR_JUDGE, "spare"), (Role.FLOOR_JUDGE, "spare_b"),
                     (Role.FLOOR_JUDGE, "extra")):
        add_account(web_db, login, r)
    a = _tournament(web_db, "Кубок A", {j: LOGINS[r] for r, j in STAFF_ROLES.items()}, "spare",
                    "Игрок")
    b = _tournament(web_db, "Кубок B", {j: f"{LOGINS[r]}_b" for r, j in STAFF_ROLES.items()},
                    "spare_b", "Участник")
    person = list_players(web_db, int(a["tid"]))[0].person_id
    add_account(web_db, "player", Role.PLAYER, person_id=person)
    a["person"] = b["person"] = str(person)
    return TwoTournaments(a, b)


def _client(clients: Clients, role: Role) -> tuple[TestClient, str | None]:
    client = clients.new()
    if role is Role.ANONYMOUS:
        return client, None
    token = client.post("/api/v1/session", json={"login": LOGINS[role],
                                                 "password": PASSWORD}).json()["token"]
    log_in(client, LOGINS[role])
    return client, str(token)


def _wrong(client: TestClient, role: Role, token: str | None, values: dict[str, str],
           routes: list[tuple[str, str]], allowed: dict[tuple[str, str], frozenset[Role]]
           ) -> list[tuple[str, str, int]]:
    """The routes answered otherwise than ``allowed`` says: denied where allowed, or anything
    but 401 (anonymous) / 403 where not."""
    wrong = []
    for method, path in routes:
        status = _request(client, role, method, path, values, token)
        denied = status in (401, 403)
        expected_status = 401 if role is Role.ANONYMOUS else 403
        if role in allowed[(method, path)]:
            if denied:
                wrong.append((method, path, status))
        elif status != expected_status:
            wrong.append((method, path, status))
    return wrong


@pytest.mark.parametrize("role", list(Role))
def test_authorization_matrix(two: TwoTournaments, clients: Clients, role: Role) -> None:
    """Every route in tournament A, for each role of A's staff, A's player and the public."""
    client, token = _client(clients, role)
    last = ("/logout", "/api/v1/session")  # logging out goes last
    order = sorted(EXPECTED, key=lambda k: (k[1] in last and k[0] != "GET"
                                            and k != ("POST", "/api/v1/session"), k))
    assert _wrong(client, role, token, two.a, order, EXPECTED) == []


@pytest.mark.parametrize("role", list(Role))
def test_item1_judges_act_only_in_their_own_tournament(
        two: TwoTournaments, clients: Clients, role: Role) -> None:
    """A's organizer, head judge and floor judge get 403 on every judge-only route of B (pages,
    forms and the API), see B's public pages, and still act in A."""
    client, token = _client(clients, role)
    scoped = sorted(k for k in EXPECTED if k[1].startswith((T, A)))
    elsewhere = {k: allowed_elsewhere(k) for k in scoped}
    assert _wrong(client, role, token, two.b, scoped, elsewhere) == []
    here = [("GET", f"{T}/results"), ("GET", f"{T}/penalties/report"),
            ("PUT", f"{A}/rounds/{{number}}/tables/{{table}}/result"),
            ("POST", f"{A}/players/{{number}}/drop"), ("GET", f"{T}/manage")]
    assert _wrong(client, role, token, two.a, here, EXPECTED) == []


def test_item1_judge_tabs_show_only_for_the_tournaments_staff(two: TwoTournaments,
                                                              clients: Clients) -> None:
    head = clients.as_("head")
    mine = head.get(f"/t/{two.a['tid']}/standings", headers={"accept-language": "en"}).text
    other = head.get(f"/t/{two.b['tid']}/standings", headers={"accept-language": "en"}).text
    for link in ("/results", "/penalties"):
        assert f'href="/t/{two.a["tid"]}{link}"' in mine
        assert f'href="/t/{two.b["tid"]}{link}"' not in other
    assert f'href="/t/{two.a["tid"]}/manage"' not in mine  # the organizer's, not the head's
    org = clients.as_("org").get(f"/t/{two.a['tid']}", headers={"accept-language": "en"}).text
    assert f'href="/t/{two.a["tid"]}/manage"' in org


def test_item1_refused_in_the_visitors_language(two: TwoTournaments, clients: Clients) -> None:
    floor = clients.as_("floor")
    b = two.b["tid"]
    ru = floor.get(f"/t/{b}/results", headers={"accept-language": "ru"})
    en = floor.get(f"/t/{b}/results", headers={"accept-language": "en"})
    assert ru.status_code == en.status_code == 403
    assert "Вы не входите в судейскую коллегию этого турнира" in ru.text
    assert f"you have no role in tournament #{b}" in en.text and "коллеги" not in en.text
    token = clients.new().post("/api/v1/session", json={"login": "floor",
                                                        "password": PASSWORD}).json()["token"]
    url = f"/api/v1/tournaments/{b}/rounds/1/tables/{two.b['table']}/result"
    for lang, words in (("ru", "Вы не входите"), ("en", "you have no role in tournament")):
        answer = clients.new().put(url, json={"score": "2-0"}, headers={
            "authorization": f"Bearer {token}", "accept-language": lang})
        assert answer.status_code == 403 and answer.json()["code"] == "not_staff"
        assert words in answer.json()["message"]
    # (without Accept-Language the API answers Russian: tests/web/test_api_language.py)
    plain = clients.new().put(url, json={"score": "2-0"},
                              headers={"authorization": f"Bearer {token}",
                                       "accept-language": "en"})
    assert plain.json()["message"].startswith("you have no role in tournament")


def test_item1_an_organizer_account_manages_only_its_own_tournaments(
        two: TwoTournaments, clients: Clients) -> None:
    """The account role "organizer" creates tournaments (and becomes their organizer) and
    manages accounts; managing a tournament takes being its organizer."""
    org = clients.as_("org")
    assert org.get(f"/t/{two.b['tid']}/manage").status_code == 403
    token = csrf_of(org, "/")
    made = org.post("/new", data={"name": "Свой турнир", "csrf_token": token},
                    follow_redirects=False)
    assert made.status_code == 303
    assert org.get(made.headers["location"]).status_code == 200
    # the organizer of B gives A's floor judge a role in B: now it acts there
    org_b = clients.as_("org_b")
    manage = org_b.get(f"/t/{two.b['tid']}/staff?q=floor",  # the staff page (issue 12)
                       headers={"accept-language": "en"}).text
    assert 'id="staff"' in manage and 'value="floor"' in manage
    added = org_b.post(f"/t/{two.b['tid']}/staff", follow_redirects=False, data={
        "login": "floor", "role": "floor_judge", "csrf_token": csrf_of(org_b, "/")})
    assert added.status_code == 303
    assert clients.as_("floor").get(f"/t/{two.b['tid']}/results").status_code == 200


def test_item1_demo_logins_are_staff_of_both_demo_tournaments(web_db: Database) -> None:
    running = seed_tournaments(web_db)
    for _ in range(2):  # a second start changes nothing
        seed_accounts(web_db, running, make_hasher(fast=True))
    ids = {t.name: t.id for t in list_tournaments(web_db)}
    organizer, head = find_account(web_db, "organizer"), find_account(web_db, "judge")
    assert organizer is not None and head is not None
    for name in (DEMO_NAME, DEMO_FINISHED):
        assert staff_role(web_db, ids[name], organizer.id) is JudgeRole.ORGANIZER
        assert staff_role(web_db, ids[name], head.id) is JudgeRole.HEAD_JUDGE


def test_item1_the_pages_and_the_services_allow_the_same_roles() -> None:
    """What a route allows (``turnir.web.security``) is what its service allows
    (``turnir.services.judges``)."""
    def web(roles: frozenset[JudgeRole]) -> frozenset[Role]:
        return frozenset(Role(r.value) for r in roles)

    assert web(ORGANIZER_ONLY) == ORG
    assert web(HEAD_OR_ORGANIZER) == HEAD
    assert web(ANY_STAFF) == JUDGES

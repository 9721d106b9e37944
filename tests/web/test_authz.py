"""The authorization matrix: every route of the app (pages and API) against every role
(anonymous, player, floor judge, head judge, organizer): denied exactly where it should be.
A route missing from ``EXPECTED`` fails the test, so a new route must be classified."""

from __future__ import annotations

import re

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from starlette.routing import Route

from tests.services.builders import ORGANIZER, event
from tests.web.conftest import PASSWORD, Clients, add_account, csrf_of
from turnir.services.players import list_players
from turnir.services.rounds import start_round
from turnir.storage.database import Database
from turnir.web.security import HEAD, JUDGES, PLAYERS, SIGNED_IN, Role
from turnir.web.security import ORGANIZER as ORG

ALL = frozenset(Role)
T = "/t/{tid}"
A = "/api/v1/tournaments/{tid}"
EXPECTED: dict[tuple[str, str], frozenset[Role]] = {
    # public pages
    ("GET", "/healthz"): ALL, ("GET", "/"): ALL, ("GET", "/lang/{code}"): ALL,
    ("GET", T): ALL, ("GET", f"{T}/pairings"): ALL, ("GET", f"{T}/find"): ALL,
    ("GET", f"{T}/standings"): ALL, ("GET", f"{T}/top"): ALL, ("GET", f"{T}/places"): ALL,
    ("GET", "/login"): ALL, ("POST", "/login"): ALL, ("POST", "/logout"): ALL,
    ("GET", "/api/v1/openapi.json"): ALL,
    ("GET", "/ratings"): ALL, ("GET", "/ratings/players/{person}"): ALL,
    ("GET", f"{T}/rating"): ALL,
    # organizer pages
    ("GET", "/new"): ORG, ("POST", "/new"): ORG, ("GET", "/accounts"): ORG,
    ("POST", "/accounts"): ORG, ("POST", "/accounts/{login}/deactivate"): ORG,
    ("POST", "/accounts/{login}/activate"): ORG, ("POST", "/accounts/{login}/password"): ORG,
    ("GET", f"{T}/manage"): ORG, ("POST", f"{T}/players"): ORG,
    ("POST", f"{T}/players/import"): ORG, ("POST", f"{T}/players/{{number}}/checkin"): ORG,
    ("POST", f"{T}/players/{{number}}/drop"): HEAD,
    ("POST", f"{T}/players/{{number}}/account"): ORG, ("POST", f"{T}/rounds/start"): ORG,
    ("POST", f"{T}/rounds/undo"): ORG, ("POST", f"{T}/timer"): ORG,
    ("POST", f"{T}/finish"): ORG, ("POST", f"{T}/robot"): ORG,
    # judges and players
    ("GET", f"{T}/results"): JUDGES, ("POST", f"{T}/results"): JUDGES,
    ("GET", f"{T}/print/{{kind}}"): JUDGES, ("POST", f"{T}/report"): PLAYERS,
    # penalties (issue 5)
    ("GET", f"{T}/penalties"): JUDGES, ("GET", f"{T}/penalties/give"): JUDGES,
    ("POST", f"{T}/penalties"): JUDGES, ("POST", f"{T}/penalties/{{seq}}/appeal"): HEAD,
    ("GET", f"{T}/penalties/history"): SIGNED_IN, ("GET", f"{T}/penalties/report"): JUDGES,
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
    ("GET", f"{A}/rounds/{{number}}"): ALL, ("POST", f"{A}/rounds"): ORG,
    ("DELETE", f"{A}/rounds/last"): ORG, ("PUT", f"{A}/rounds/{{number}}/timer"): ORG,
    ("PUT", f"{A}/rounds/{{number}}/tables/{{table}}/result"): JUDGES,
    ("POST", f"{A}/rounds/{{number}}/tables/{{table}}/reports"): PLAYERS,
    ("GET", f"{A}/standings"): ALL, ("GET", f"{A}/final-places"): ALL,
}

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
}
FORMS = {
    "/login": {"login": "nobody", "password": "wrong password"},
    "/new": {"name": "Новый"}, "/accounts": {"login": "x", "name": "X", "password": PASSWORD,
                                            "role": "floor_judge"},
    "/accounts/{login}/password": {"password": "another password"},
    f"{T}/players": {"name": "Новичок"}, f"{T}/timer": {"minutes": "30"},
    f"{T}/results": {"round": "1", "table": "{table}", "score": "2-1"},
    f"{T}/report": {"round": "1", "table": "{table}", "mine": "2", "theirs": "0"},
    f"{T}/penalties": {"player": "1", "reason": "slow_play"},
    f"{T}/penalties/{{seq}}/appeal": {"outcome": "upheld"},
}
LOGINS = {Role.PLAYER: "player", Role.FLOOR_JUDGE: "floor", Role.HEAD_JUDGE: "head",
          Role.ORGANIZER: "org"}


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
    data["csrf_token"] = csrf_of(client, "/login")
    answer = client.post(url, data=data, files=files, follow_redirects=False)
    return answer.status_code


@pytest.mark.parametrize("role", list(Role))
def test_authorization_matrix(web_db: Database, clients: Clients, role: Role) -> None:
    tid = event(web_db, 8, rounds=3, top=4)
    view = start_round(web_db, tid, actor=ORGANIZER)
    person = list_players(web_db, tid)[0].person_id
    for r, login in LOGINS.items():
        add_account(web_db, login, r, person_id=person if r is Role.PLAYER else None)
    table = next(p.table for p in view.round.pairings if 1 in p.players)
    values = {"tid": str(tid), "number": "1", "table": str(table), "kind": "slips",
              "code": "en", "seq": "1", "person": str(person),
              "login": "floor"}
    client = clients.new()
    token = None
    if role is not Role.ANONYMOUS:
        from tests.web.conftest import log_in

        token = client.post("/api/v1/session", json={"login": LOGINS[role],
                                                     "password": PASSWORD}).json()["token"]
        log_in(client, LOGINS[role])
    last = ("/logout", "/api/v1/session")  # logging out goes last
    order = sorted(EXPECTED, key=lambda k: (k[1] in last and k[0] != "GET"
                                            and k != ("POST", "/api/v1/session"), k))
    wrong = []
    for method, path in order:
        allowed = role in EXPECTED[(method, path)]
        status = _request(client, role, method, path, values, token)
        denied = status in (401, 403)
        expected_status = 401 if role is Role.ANONYMOUS else 403
        if (allowed and denied) or (not allowed and status != expected_status):
            wrong.append((method, path, status))
    assert wrong == []

"""Issue 10 items 7, 10 and 11: request bodies are refused over their limit before anything
reads them (413); redirects built from user input stay on the site; every response carries the
security headers, cookies are ``Secure`` over HTTPS, and forwarded headers count only from a
trusted proxy. (The pages under the Content-Security-Policy in Chromium: test_csp_browser.py.)
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import Message, Receive, Scope, Send

from tests.web.conftest import PASSWORD, add_account, csrf_of, running, settings_for
from turnir.services.accounts import AccountRole
from turnir.services.tournaments import create_tournament
from turnir.storage.database import Database
from turnir.web.app import create_app
from turnir.web.headers import CSP, SecurityHeaders
from turnir.web.limits import BodyLimit
from turnir.web.proxies import TrustedProxies, resolve
from turnir.web.redirects import safe_next
from turnir.web.settings import WebSettings

MB = 1024 * 1024
TEMPLATES = Path(__file__).resolve().parents[2] / "src" / "turnir" / "web" / "templates"
RU = {"accept-language": "ru"}


# ----- calling an ASGI app by hand (to see what it reads) -----------------------------------

class Exchange:
    """One request sent straight to an ASGI app: its body as ``chunks`` (then, with
    ``endless``, more chunks for ever), what the app read and answered."""

    def __init__(self, chunks: list[bytes], *, endless: bool = False) -> None:
        self.chunks = list(chunks)
        self.endless = endless
        self.reads = 0
        self.read_bytes = 0
        self.sent: list[Message] = []

    async def receive(self) -> Message:
        self.reads += 1
        if self.chunks:
            chunk = self.chunks.pop(0)
            self.read_bytes += len(chunk)
            return {"type": "http.request", "body": chunk,
                    "more_body": bool(self.chunks) or self.endless}
        if self.endless:
            self.read_bytes += 64 * 1024
            return {"type": "http.request", "body": b"x" * (64 * 1024), "more_body": True}
        return {"type": "http.disconnect"}

    async def send(self, message: Message) -> None:
        self.sent.append(message)

    @property
    def status(self) -> int:
        return int(self.sent[0]["status"])

    @property
    def headers(self) -> dict[str, str]:
        return {k.decode().lower(): v.decode() for k, v in self.sent[0]["headers"]}

    @property
    def body(self) -> bytes:
        return b"".join(m.get("body", b"") for m in self.sent[1:])


def scope_of(app: Any, method: str, path: str, headers: dict[str, str], *,
             client: tuple[str, int] = ("127.0.0.1", 5000), scheme: str = "http") -> Scope:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": method, "scheme": scheme, "path": path, "raw_path": path.encode(),
            "query_string": b"", "root_path": "", "client": client,
            "server": ("testserver", 80), "state": {}, "app": app,
            "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()]}


def run(app: Any, scope: Scope, exchange: Exchange) -> Exchange:
    """``app`` on ``scope`` in an event loop of its own thread (the browser tests leave one
    running in this thread)."""
    failed: list[BaseException] = []

    def call() -> None:
        try:
            asyncio.run(app(scope, exchange.receive, exchange.send))
        except BaseException as error:  # re-raised in the test's thread
            failed.append(error)

    thread = threading.Thread(target=call)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return exchange


class Probe:
    """An ASGI app that reads the whole body and answers its size; counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.calls += 1
        body = await Request(scope, receive).body()
        await JSONResponse({"size": len(body)})(scope, receive, send)


def limited(probe: Probe) -> BodyLimit:
    return BodyLimit(probe, max_body=2 * MB, max_upload=10 * MB)


# ----- item 7: request size limits ---------------------------------------------------------

def test_item7_content_length_over_the_limit_is_refused_before_the_app_runs() -> None:
    probe = Probe()
    exchange = run(limited(probe), scope_of(None, "POST", "/api/v1/session", {
        "content-type": "application/json", "content-length": str(200 * MB)}), Exchange([]))
    assert exchange.status == 413
    assert probe.calls == 0 and exchange.reads == 0  # the body was never read
    assert exchange.headers["connection"] == "close"


def test_item7_chunked_body_is_counted_and_abandoned_at_the_limit() -> None:
    probe = Probe()
    exchange = run(limited(probe), scope_of(None, "POST", "/api/v1/session", {
        "content-type": "application/json", "transfer-encoding": "chunked"}),
        Exchange([], endless=True))
    assert exchange.status == 413
    assert 2 * MB < exchange.read_bytes <= 2 * MB + 64 * 1024  # stopped at the limit
    # a false (too small) Content-Length is counted the same way
    exchange = run(limited(Probe()), scope_of(None, "POST", "/x", {
        "content-type": "application/json", "content-length": "10"}),
        Exchange([], endless=True))
    assert exchange.status == 413 and exchange.read_bytes <= 2 * MB + 64 * 1024


def test_item7_uploads_have_their_own_larger_limit() -> None:
    multipart = {"content-type": "multipart/form-data; boundary=x"}
    under = run(limited(Probe()), scope_of(None, "POST", "/up", multipart),
                Exchange([b"x" * (5 * MB)]))
    assert under.status == 200 and json.loads(under.body) == {"size": 5 * MB}
    over = run(limited(Probe()), scope_of(None, "POST", "/up", multipart),
               Exchange([b"x" * MB] * 11))
    assert over.status == 413
    form = run(limited(Probe()), scope_of(None, "POST", "/up", {
        "content-type": "application/x-www-form-urlencoded"}), Exchange([b"x" * (3 * MB)]))
    assert form.status == 413  # a form is not an upload


@pytest.fixture
def org_app(db: Database) -> tuple[FastAPI, int]:
    """The app (SQLite and PostgreSQL), an organizer ``org`` and a tournament."""
    add_account(db, "org", AccountRole.ORGANIZER)
    tid = create_tournament(db, name="Кубок", actor="Org").id
    return create_app(settings_for(db), db=db), tid


def test_item7_the_app_answers_413_in_json_and_on_a_translated_page(
        org_app: tuple[FastAPI, int]) -> None:
    app, _ = org_app
    with TestClient(app):  # runs the lifespan
        api = run(app, scope_of(app, "POST", "/api/v1/session", {
            "content-type": "application/json", "content-length": str(200 * MB)}),
            Exchange([]))
        assert api.status == 413 and api.reads == 0
        assert json.loads(api.body)["code"] == "too_large"
        assert api.headers["content-security-policy"] == CSP
        page = run(app, scope_of(app, "POST", "/login", {
            "content-type": "application/x-www-form-urlencoded",
            "content-length": str(3 * MB), **RU}), Exchange([]))
        assert page.status == 413 and page.reads == 0
        assert page.headers["content-type"].startswith("text/html")
        assert "Форма или файл слишком велики" in page.body.decode()
        chunked = run(app, scope_of(app, "POST", "/api/v1/session", {
            "content-type": "application/json"}), Exchange([], endless=True))
        assert chunked.status == 413 and json.loads(chunked.body)["code"] == "too_large"
        assert chunked.read_bytes <= 2 * MB + 64 * 1024


def test_item7_multipart_over_the_upload_limit_and_normal_requests(
        org_app: tuple[FastAPI, int]) -> None:
    app, _ = org_app
    with TestClient(app, raise_server_exceptions=False) as client:
        token = csrf_of(client)
        answer = client.post("/login", data={"login": "org", "password": PASSWORD,
                                             "csrf_token": token, "next": "/"},
                             follow_redirects=False)
        assert answer.status_code == 303  # a normal form is not affected
        token = csrf_of(client, "/new")  # (a new token after the login)
        made = client.post("/new", data={"name": "Кубок форм", "csrf_token": token},
                           follow_redirects=False)  # its organizer: this account
        assert made.status_code == 303, made.text
        tid = int(made.headers["location"].split("/")[2])
        big = client.post(f"/t/{tid}/players/import", data={"csrf_token": token},
                          files={"file": ("p.csv", b"a" * (11 * MB), "text/csv")},
                          headers={**RU, "hx-request": "true", "x-csrf-token": token})
        assert big.status_code == 413
        assert big.headers["hx-retarget"] == "#messages"
        assert "Форма или файл слишком велики" in big.text
        small = client.post(f"/t/{tid}/players/import", data={"csrf_token": token},
                            files={"file": ("p.csv", "name\nАнна\nБорис\n".encode(),
                                            "text/csv")},
                            headers={"hx-request": "true", "x-csrf-token": token})
        assert small.status_code == 200, small.text
    with TestClient(app, raise_server_exceptions=False) as client:  # no cookie session
        api = client.post("/api/v1/session", json={"login": "org", "password": PASSWORD})
        assert api.status_code == 201
        padded = client.post("/api/v1/session", content=json.dumps(
            {"login": "org", "password": PASSWORD, "pad": "x" * (MB + MB // 2)}),
            headers={"content-type": "application/json"})
        assert padded.status_code != 413  # 1.5 MB of JSON is under the 2 MB limit


@contextmanager
def served(app: FastAPI) -> Iterator[str]:
    """``app`` by uvicorn on a loopback port (as ``turnir serve`` runs it)."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", proxy_headers=False))
    with running(server):
        yield f"127.0.0.1:{port}"


def _raw_request(address: str, head: bytes, chunks: Iterator[bytes]) -> bytes:
    """Send ``head`` and then ``chunks`` until the server answers; the answer's head."""
    host, port = address.split(":")
    with socket.create_connection((host, int(port)), timeout=20) as sock:
        sock.sendall(head)
        sock.setblocking(False)
        answer = b""
        for chunk in chunks:
            with suppress(BlockingIOError):
                answer += sock.recv(65536)
            if b"\r\n\r\n" in answer:
                break
            try:
                sock.sendall(chunk)
            except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                break
        sock.setblocking(True)
        while b"\r\n\r\n" not in answer:
            more = sock.recv(65536)
            if not more:
                break
            answer += more
        return answer


def test_item7_a_real_server_refuses_a_chunked_body_over_the_limit(web_db: Database) -> None:
    app = create_app(settings_for(web_db, max_body=256 * 1024), db=web_db)

    def chunks() -> Iterator[bytes]:
        piece = b"a" * 16384
        for _ in range(10_000):  # 160 MB unless the server stops reading
            yield b"%x\r\n%s\r\n" % (len(piece), piece)

    with served(app) as address:
        head = (b"POST /api/v1/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                b"\r\nTransfer-Encoding: chunked\r\n\r\n")
        answer = _raw_request(address, head, chunks())
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        declared = (b"POST /api/v1/session HTTP/1.1\r\nHost: x\r\nContent-Type: "
                    b"application/json\r\nContent-Length: 209715200\r\n\r\n")
        answer = _raw_request(address, declared, iter([b"{" * 65536] * 50))
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        with httpx.Client(base_url=f"http://{address}") as http:
            assert http.get("/healthz").json() == {"status": "ok"}


# ----- item 10: redirects stay on the site -------------------------------------------------

EVIL_NEXT = [
    "/\t/evil.host", "/\x0b/evil", "/\n/evil", "/\r\n/evil", "/\x00/evil", "/\x7f/evil",
    "//evil", "///evil", "/\\evil", "\\\\evil", "/\\/evil", "\\/evil", "https://evil",
    "http:evil", "HTTPS://evil", "javascript:alert(1)", " javascript:alert(1)",
    "JaVaScRiPt:alert(1)", "data:text/html,x", "evil.host", " /\t/evil", "/\u2028/evil",
    "/\u200b/evil", "/\u3000/evil", "/\xa0/evil", "/\x85/evil", "\t//evil", "", None,
    "/" + "a" * 3000,
]
GOOD_NEXT = [
    ("/", "/"), ("/t/1/manage", "/t/1/manage"),
    ("/t/1/pairings?round=2&by=name", "/t/1/pairings?round=2&by=name"),
    ("/t/1/manage#players", "/t/1/manage#players"),
    ("/t/1/find?name=Анна", "/t/1/find?name=%D0%90%D0%BD%D0%BD%D0%B0"),
    ("/t/1/find?name=%D0%90", "/t/1/find?name=%D0%90"),
    ("/%09/evil", "/%09/evil"),  # an encoded tab is a path on this site, never decoded
    ("/%2F%2Fevil", "/%2F%2Fevil"),
    ("/t/1/find?name=<b>\"x\"", "/t/1/find?name=%3Cb%3E%22x%22"),
]


@pytest.mark.parametrize("target", EVIL_NEXT)
def test_item10_evil_next_goes_to_the_root(target: str | None) -> None:
    assert safe_next(target) == "/"


@pytest.mark.parametrize(("target", "expected"), GOOD_NEXT)
def test_item10_a_path_on_the_site_is_kept_and_encoded(target: str, expected: str) -> None:
    result = safe_next(target)
    assert result == expected
    parts = urlsplit(result)
    assert not parts.scheme and not parts.netloc and result.isascii()
    assert result.startswith("/") and not result.startswith("//")


def test_item10_login_and_language_switch_do_not_leave_the_site(
        org_app: tuple[FastAPI, int]) -> None:
    app, _ = org_app
    with TestClient(app, raise_server_exceptions=False) as client:
        for evil in ("/\t/evil.host", "/\x0b/evil", "//evil", "/\\evil", "https://evil"):
            lang = client.get("/lang/en", params={"next": evil}, follow_redirects=False)
            assert lang.status_code == 303 and lang.headers["location"] == "/"
            page = client.get("/login", params={"next": evil})
            assert 'name="next" value="/"' in page.text
        token = csrf_of(client)
        login = client.post("/login", data={"login": "org", "password": PASSWORD,
                                            "csrf_token": token, "next": "/\t/evil.host"},
                            headers={"hx-request": "true", "x-csrf-token": token},
                            follow_redirects=False)
        assert login.status_code == 200 and login.headers["hx-redirect"] == "/"
        lang = client.get("/lang/ru", params={"next": "/t/1/find?name=Анна"},
                          follow_redirects=False)
        assert lang.headers["location"] == "/t/1/find?name=%D0%90%D0%BD%D0%BD%D0%B0"


def test_item10_a_vertical_tab_no_longer_drops_the_connection(web_db: Database) -> None:
    app = create_app(settings_for(web_db), db=web_db)
    with served(app) as address, httpx.Client(base_url=f"http://{address}") as http:
        answer = http.get("/lang/en?next=/%0B/evil.host", follow_redirects=False)
        assert answer.status_code == 303 and answer.headers["location"] == "/"
        answer = http.get("/lang/en?next=/%09/evil.host", follow_redirects=False)
        assert answer.headers["location"] == "/"


# ----- item 11: headers, cookies, proxies --------------------------------------------------

HEADERS = {"content-security-policy": CSP, "x-frame-options": "DENY",
           "x-content-type-options": "nosniff", "referrer-policy": "same-origin"}


def _has_security_headers(answer: httpx.Response) -> None:
    for name, value in HEADERS.items():
        assert answer.headers.get(name) == value, (answer.request.url, name)
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
    assert "'unsafe-inline'" not in CSP and "'unsafe-eval'" not in CSP


def test_item11_every_response_has_the_security_headers(org_app: tuple[FastAPI, int]) -> None:
    app, tid = org_app
    with TestClient(app, raise_server_exceptions=False) as client:
        answers = [client.get("/"), client.get("/login"), client.get(f"/t/{tid}"),
                   client.get(f"/t/{tid}/standings"),
                   client.get(f"/t/{tid}/standings"),  # the second from the page cache
                   client.get(f"/t/{tid}/standings", headers={"hx-request": "true"}),
                   client.get("/api/v1/tournaments"), client.get("/api/v1/openapi.json"),
                   client.get("/static/style.css"), client.get("/static/htmx.min.js"),
                   client.get("/no-such-page"), client.get("/api/v1/no-such"),
                   client.post("/login", data={"login": "x"}),  # 403: no CSRF token
                   client.get("/healthz"), client.get("/lang/en", follow_redirects=False)]
        for answer in answers:
            _has_security_headers(answer)
            assert "strict-transport-security" not in answer.headers  # plain HTTP


def test_item11_https_gives_hsts_and_secure_cookies(org_app: tuple[FastAPI, int]) -> None:
    app, _ = org_app
    with TestClient(app, base_url="https://testserver") as client:
        page = client.get("/login")
        assert page.headers["strict-transport-security"] == "max-age=31536000"
        assert "Secure" in page.headers["set-cookie"]  # the CSRF cookie
        token = csrf_of(client)
        login = client.post("/login", data={"login": "org", "password": PASSWORD,
                                            "csrf_token": token, "next": "/"},
                            follow_redirects=False)
        assert login.status_code == 303
        cookies = login.headers.get_list("set-cookie")
        session = next(c for c in cookies if c.startswith("turnir_session="))
        assert "Secure" in session and "HttpOnly" in session
        lang = client.get("/lang/en", follow_redirects=False)
        assert "Secure" in lang.headers["set-cookie"]
    with TestClient(app) as plain:
        page = plain.get("/login")
        assert "Secure" not in page.headers["set-cookie"]
        assert "strict-transport-security" not in page.headers


def test_item11_forwarded_https_counts_only_from_a_trusted_proxy(db: Database) -> None:
    add_account(db, "org", AccountRole.ORGANIZER)
    forwarded = {"x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.7"}
    trusting = create_app(settings_for(db, trusted_proxies=("10.0.0.0/8",)), db=db)
    with TestClient(trusting, client=("10.1.2.3", 4000)) as behind:
        page = behind.get("/login", headers=forwarded)
        assert "Secure" in page.headers["set-cookie"]
        assert page.headers["strict-transport-security"] == "max-age=31536000"
    with TestClient(trusting, client=("198.51.100.9", 4000)) as stranger:
        page = stranger.get("/login", headers=forwarded)  # not a trusted proxy: ignored
        assert "Secure" not in page.headers["set-cookie"]
        assert "strict-transport-security" not in page.headers
    default = create_app(settings_for(db), db=db)  # no proxies: not even loopback
    with TestClient(default, client=("127.0.0.1", 4000)) as local:
        page = local.get("/login", headers=forwarded)
        assert "Secure" not in page.headers["set-cookie"]
        assert "strict-transport-security" not in page.headers


class Seen:
    """An ASGI app that keeps the scope it was given."""

    def __init__(self) -> None:
        self.scope: Scope = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.scope = scope
        await JSONResponse({})(scope, receive, send)


@pytest.mark.parametrize(("trusted", "peer", "xff", "proto", "client", "scheme"), [
    ("", "127.0.0.1", "203.0.113.7", "https", "127.0.0.1", "http"),
    ("10.0.0.0/8", "198.51.100.9", "203.0.113.7", "https", "198.51.100.9", "http"),
    ("10.0.0.0/8", "10.0.0.5", "203.0.113.7", "https", "203.0.113.7", "https"),
    # a client's own X-Forwarded-For entry in front of the proxy's is skipped
    ("10.0.0.0/8", "10.0.0.5", "6.6.6.6, 203.0.113.7", "https", "203.0.113.7", "https"),
    ("10.0.0.0/8, 192.168.1.1", "10.0.0.5", "203.0.113.7, 192.168.1.1", "http, https",
     "203.0.113.7", "https"),
    ("127.0.0.1", "127.0.0.1", "not-an-ip", "gopher", "127.0.0.1", "http"),
    ("::1", "::1", "2001:db8::1", "https", "2001:db8::1", "https"),
])
def test_item11_client_and_scheme_from_forwarded_headers(
        trusted: str, peer: str, xff: str, proto: str, client: str, scheme: str) -> None:
    seen = Seen()
    app = SecurityHeaders(seen, proxies=TrustedProxies.parse(trusted), hsts_seconds=100)
    exchange = run(app, scope_of(None, "GET", "/", {"x-forwarded-for": xff,
                                                    "x-forwarded-proto": proto},
                                 client=(peer, 1234)), Exchange([]))
    assert seen.scope["client"][0] == client and seen.scope["scheme"] == scheme
    assert ("strict-transport-security" in exchange.headers) == (scheme == "https")
    assert resolve(TrustedProxies.parse(trusted), peer, "http", xff, proto).client == client


def test_item11_settings_for_proxies_and_limits() -> None:
    settings = WebSettings.from_env({"TURNIR_TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8",
                                     "TURNIR_MAX_BODY": "1M", "TURNIR_MAX_UPLOAD": "20M",
                                     "TURNIR_HSTS_SECONDS": "0"})
    assert settings.proxies().trusts("10.9.9.9") and not settings.proxies().trusts("11.0.0.1")
    assert (settings.max_body, settings.max_upload, settings.hsts_seconds) == (MB, 20 * MB, 0)
    defaults = WebSettings.from_env({})
    assert defaults.trusted_proxies == () and not defaults.proxies().trusts("127.0.0.1")
    assert (defaults.max_body, defaults.max_upload) == (2 * MB, 10 * MB)
    with pytest.raises(ValueError, match="TURNIR_TRUSTED_PROXIES"):
        WebSettings.from_env({"TURNIR_TRUSTED_PROXIES": "localhost"})
    with pytest.raises(ValueError, match="TURNIR_MAX_BODY"):
        WebSettings.from_env({"TURNIR_MAX_BODY": "lots"})


def test_a_timezone_that_is_no_zone_is_refused_at_start_with_its_name() -> None:
    """QA (issue 15): ``TURNIR_TIMEZONE=Mars/Base`` crashed ``turnir serve`` with a traceback
    on the first page showing a time; it is refused when the settings are read."""
    with pytest.raises(ValueError, match="TURNIR_TIMEZONE: 'Mars/Base'"):
        WebSettings.from_env({"TURNIR_TIMEZONE": "Mars/Base"})
    assert WebSettings.from_env({"TURNIR_TIMEZONE": "Asia/Yekaterinburg"}).timezone == \
        "Asia/Yekaterinburg"
    assert WebSettings.from_env({"TURNIR_TIMEZONE": "local"}).timezone is None


INLINE = [
    (re.compile(r"<script(?![^>]*\ssrc=)[^>]*>", re.I), "an inline <script>"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "an on…= handler"),
    (re.compile(r"\sstyle\s*=", re.I), "a style= attribute"),
    (re.compile(r"<style", re.I), "a <style> element"),
    (re.compile(r"javascript:", re.I), "a javascript: URL"),
    (re.compile(r"\shx-on", re.I), "an hx-on handler"),
    (re.compile(r"hx-trigger=\"[^\"]*\["), "an hx-trigger filter (needs eval)"),
    (re.compile(r"hx-(vals|vars|headers)='?\"?(js|javascript):", re.I), "hx-vals js:"),
]


def test_item11_templates_have_no_inline_script_or_style() -> None:
    """What the Content-Security-Policy would block: nothing of it in any template."""
    found = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for pattern, what in INLINE:
            for match in pattern.finditer(text):
                found.append(f"{path.relative_to(TEMPLATES)}: {what}: {match.group(0)!r}")
    assert not found, "\n".join(found)
    base = (TEMPLATES / "base.html").read_text(encoding="utf-8")
    config = json.loads(re.search(r"name=\"htmx-config\" content='([^']+)'", base)
                        .group(1))  # type: ignore[union-attr]
    assert config["includeIndicatorStyles"] is False and config["allowEval"] is False


def test_item7_and_item11_the_robot_api_has_the_limit_and_the_headers() -> None:
    from tests.robot.builders import make_robot
    from turnir.robot.auth import StaticTokens, new_token
    from turnir.web.robot_api import PREFIX, create_robot_app

    robot, _, _ = make_robot()
    token = new_token()
    app = create_robot_app(robot, run_checks=False, tokens=StaticTokens.of(token))
    auth = {"authorization": f"Bearer {token}"}
    with TestClient(app) as client:
        health = client.get(f"{PREFIX}/health")
        assert health.status_code == 200
        _has_security_headers(health)
        declared = run(app, scope_of(app, "POST", f"{PREFIX}/games", {
            **auth, "content-type": "application/json", "content-length": str(200 * MB)}),
            Exchange([]))
        assert declared.status == 413 and declared.reads == 0
        assert json.loads(declared.body)["error"]["code"] == "too_large"
        chunked = run(app, scope_of(app, "POST", f"{PREFIX}/games", {
            **auth, "content-type": "application/json"}), Exchange([], endless=True))
        assert chunked.status == 413 and chunked.read_bytes <= 2 * MB + 64 * 1024
        assert json.loads(chunked.body)["error"]["code"] == "too_large"


def test_item11_serve_does_not_let_uvicorn_trust_forwarded_headers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    from turnir.compose import serve

    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: seen.update(options))
    monkeypatch.setenv("TURNIR_DATABASE_URL", f"sqlite:///{tmp_path / 'serve.db'}")
    monkeypatch.setenv("TURNIR_TRUSTED_PROXIES", "10.0.0.1")
    serve(host="127.0.0.1", port=1, demo=False, quiet=True)
    assert seen["proxy_headers"] is False  # turnir's own TURNIR_TRUSTED_PROXIES decides


@pytest.mark.parametrize("text", ["²", "\xb9\xb3", "9" * 5000, "", "-1", "1e3"])
def test_item7_a_length_or_setting_that_is_not_plain_digits_is_not_a_number(text: str) -> None:
    from starlette.datastructures import Headers

    from turnir.web.limits import declared_length, whole_number
    from turnir.web.settings import parse_size

    assert whole_number(text) is None
    assert declared_length(Headers({"content-length": text})) is None
    with pytest.raises(ValueError, match="TURNIR_MAX_BODY"):
        parse_size(text or "M", "TURNIR_MAX_BODY")
    with pytest.raises(ValueError, match="TURNIR_LOGIN"):
        WebSettings.from_env({"TURNIR_LOGIN_FAILURES_PER_LOGIN": text or "x"})


def test_item7_an_upload_is_refused_before_its_body_is_parsed(
        org_app: tuple[FastAPI, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """The anonymous, and a login that is not the tournament's organizer, are refused before
    the multipart body is parsed; the organizer's upload is parsed (once) and imported."""
    app, _ = org_app
    parsed: list[str] = []
    form = Request.form

    def counting(self: Request, **kwargs: Any) -> Any:
        parsed.append(self.url.path)
        return form(self, **kwargs)

    monkeypatch.setattr(Request, "form", counting)
    players = {"file": ("p.csv", "name\nАнна\nБорис\n".encode(), "text/csv")}
    with TestClient(app, raise_server_exceptions=False) as client:
        token = csrf_of(client)
        parsed.clear()
        anonymous = client.post("/t/1/players/import", data={"csrf_token": token},
                                files=players)
        assert anonymous.status_code == 401 and parsed == []
        client.post("/login", data={"login": "org", "password": PASSWORD,
                                    "csrf_token": token, "next": "/"})
        token = csrf_of(client, "/new")
        made = client.post("/new", data={"name": "Кубок загрузки", "csrf_token": token},
                           follow_redirects=False)
        tid = int(made.headers["location"].split("/")[2])
        add_account(app.state.web.db, "stranger", AccountRole.ORGANIZER)
    with TestClient(app, raise_server_exceptions=False) as other:
        token = csrf_of(other)
        other.post("/login", data={"login": "stranger", "password": PASSWORD,
                                   "csrf_token": token, "next": "/"})
        token = csrf_of(other, "/new")
        parsed.clear()
        refused = other.post(f"/t/{tid}/players/import", files=players,
                             headers={"hx-request": "true", "x-csrf-token": token})
        assert refused.status_code == 403 and parsed == []
    with TestClient(app, raise_server_exceptions=False) as client:
        token = csrf_of(client)
        client.post("/login", data={"login": "org", "password": PASSWORD,
                                    "csrf_token": token, "next": "/"})
        token = csrf_of(client, "/new")
        parsed.clear()
        empty = client.post(f"/t/{tid}/players/import", data={"x": "1"},
                            files={"other": ("x.txt", b"", "text/plain")},
                            headers={**RU, "hx-request": "true", "x-csrf-token": token})
        assert empty.status_code == 422 and "Выберите файл" in empty.text
        done = client.post(f"/t/{tid}/players/import", files=players,
                           headers={"hx-request": "true", "x-csrf-token": token})
        assert done.status_code == 200, done.text

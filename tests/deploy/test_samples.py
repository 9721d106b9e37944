"""The deploy/ samples work as docs/deploy.md says (issue 15, scale-out): the nginx site passes
``nginx -t`` and, run for real in front of ``turnir serve --workers 2`` and the robot's API,
logs people in over HTTPS, lets turnir see each client's own address (the login limits count
per address only through TURNIR_TRUSTED_PROXIES) and passes the live updates' event stream on
unbuffered; the systemd units pass ``systemd-analyze verify`` and name turnir commands and
options that exist; compose.yaml is YAML with the services the docs name; the environment
sample and the docs list every TURNIR_* setting the code reads."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import psycopg
import pytest
import yaml  # type: ignore[import-untyped]

from tests.db_fixtures import create_pg_database, drop_pg_database
from tests.deploy.render import (
    DEPLOY,
    NGINX,
    ROOT,
    TURNIR,
    env_example,
    exec_commands,
    free_port,
    nginx_main,
    nginx_site,
    process,
    render_nginx,
    self_signed,
    unit_for_test,
    wait_ready,
)

UNITS = sorted((DEPLOY / "systemd").glob("*.service")) + sorted(
    (DEPLOY / "systemd").glob("*.timer"))
PASSWORD = "deploy-test-password"
BROWSER, CLIENT, OTHER_CLIENT = "127.0.0.4", "127.0.0.5", "127.0.0.6"


def turnir(*args: str, env: dict[str, str]) -> str:
    done = subprocess.run([str(TURNIR), *args], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, f"turnir {' '.join(args)}: {done.stdout}{done.stderr}"
    return done.stdout


def test_nginx_sample_passes_nginx_t(tmp_path: Path) -> None:
    conf, _, _ = render_nginx(tmp_path, app_port=free_port(), robot_port=free_port())
    done = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-c", str(conf)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "test is successful" in done.stderr


def test_nginx_sample_rendering_refuses_a_changed_sample(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    text = (DEPLOY / "nginx" / "turnir.conf").read_text(encoding="utf-8")
    with pytest.raises(AssertionError, match="8000"):
        nginx_site(text.replace("127.0.0.1:8000", "127.0.0.1:9000"), app_port=1,
                   robot_port=2, http_port=3, https_port=4, cert=cert, key=key,
                   folder=tmp_path)
    site = tmp_path / "site.conf"
    site.write_text(text.replace("proxy_buffering off;", "proxy_buffering nonsense;"))
    done = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-c",
                           str(nginx_main(site, tmp_path))], capture_output=True, text=True)
    assert done.returncode != 0  # nginx -t does check the file


def test_nginx_body_limit_matches_turnir_max_upload() -> None:
    """client_max_body_size is TURNIR_MAX_UPLOAD's default (10M), as the env sample says."""
    text = (DEPLOY / "nginx" / "turnir.conf").read_text(encoding="utf-8")
    assert re.findall(r"client_max_body_size (\S+);", text) == ["10m"]
    assert env_example(DEPLOY / "turnir.env.example")["TURNIR_MAX_UPLOAD"] == "10M"
    assert "max_size 10MB" in (DEPLOY / "caddy" / "Caddyfile").read_text(encoding="utf-8")


@dataclass
class Site:
    base: str
    http: str
    db: str
    """The PostgreSQL database's URL."""
    env: dict[str, str]
    tournament: int


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, pg_server_url: str) -> Iterator[Site]:
    """An empty PostgreSQL database (the first command creates the schema, as docs/deploy.md
    says), an organizer and a tournament on it; ``turnir serve --workers 2`` and ``turnir robot
    serve --no-checks`` behind the nginx sample (self-signed TLS). One for the module: each
    test uses client addresses of its own."""
    tmp_path = tmp_path_factory.mktemp("deploy")
    name = f"turnir_deploy_{os.getpid()}"
    db = create_pg_database(pg_server_url, name)
    try:
        yield from _site(tmp_path, db)
    finally:
        drop_pg_database(pg_server_url, name)


def _site(tmp_path: Path, db: str) -> Iterator[Site]:
    env = {**os.environ, "TURNIR_DATABASE_URL": db,
           "TURNIR_TRUSTED_PROXIES": "127.0.0.1", "TURNIR_LOGIN_FAILURES": "2",
           "TURNIR_SCHEDULES": "0", "TURNIR_ACTOR": "deploy-test"}
    env.pop("TURNIR_SECRET_KEY", None)  # the key kept in the database (H1) serves both workers
    turnir("user", "add", "boss", "--role", "organizer", "--password", PASSWORD, env=env)
    players = tmp_path / "players.csv"
    players.write_text("name\nАнна Котова\nИван Петров\nОлег Сидоров\nЮлия Зайцева\n")
    turnir("tournament", "new", "Кубок", "--players", str(players), "--rounds", "2",
           "--organizer", "boss", env=env)
    with psycopg.connect(db) as conn:
        row = conn.execute("select max(id) from tournaments").fetchone()
    assert row is not None
    tournament = int(row[0])
    app_port, robot_port = free_port(), free_port()
    conf, http_port, https_port = render_nginx(tmp_path, app_port=app_port,
                                               robot_port=robot_port)
    with (process([str(TURNIR), "serve", "--port", str(app_port), "--workers", "2"], env=env,
                  log=tmp_path / "serve.log") as web,
          process([str(TURNIR), "robot", "serve", "--port", str(robot_port), "--no-checks"],
                  env=env, log=tmp_path / "robot.log") as robot,
          process([NGINX, "-p", str(tmp_path), "-c", str(conf)],
                  log=tmp_path / "nginx.log") as nginx):
        wait_ready(f"http://127.0.0.1:{app_port}/healthz", web, tmp_path / "serve.log")
        wait_ready(f"http://127.0.0.1:{robot_port}/api/v1/robot/health", robot,
                   tmp_path / "robot.log")
        wait_ready(f"https://127.0.0.1:{https_port}/healthz", nginx, tmp_path / "error.log")
        yield Site(f"https://127.0.0.1:{https_port}", f"http://127.0.0.1:{http_port}", db,
                   env, tournament)


def client(address: str) -> httpx.Client:
    """A browser-like client connecting from ``address`` (any 127.x.y.z is this machine)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address, verify=False),
                        timeout=30)


def log_in(base: str, address: str, password: str = PASSWORD,
           spoofed: str | None = None) -> httpx.Response:
    with client(address) as browser:
        page = browser.get(f"{base}/login")
        token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
        assert token, page.text[:500]
        headers = {"X-Forwarded-For": spoofed} if spoofed else {}
        return browser.post(f"{base}/login", headers=headers,
                            data={"csrf_token": token[1], "login": "boss",
                                  "password": password})


def test_login_through_nginx_on_two_workers_over_https(site: Site) -> None:
    """Six logins, each a GET of the form and a POST (either may land on either worker): all
    pass the CSRF check, and turnir saw HTTPS through the proxy (Secure cookie, HSTS)."""
    for _ in range(6):
        answer = log_in(site.base, BROWSER)
        assert answer.status_code == 303, answer.text[:500]
        cookie = answer.headers["set-cookie"]
        assert "turnir_session=" in cookie and "Secure" in cookie
        assert answer.headers["strict-transport-security"] == "max-age=31536000"
    redirect = httpx.get(f"{site.http}/login", timeout=30)
    assert redirect.status_code == 301
    assert redirect.headers["location"].startswith("https://")
    static = httpx.get(f"{site.base}/static/style.css", verify=False, timeout=30)
    assert static.status_code == 200 and "max-age=604800" in static.headers["cache-control"]


def test_login_limit_counts_each_client_through_trusted_proxy(site: Site) -> None:
    """TURNIR_LOGIN_FAILURES=2: the third try from one client is refused (429) even with a
    forged X-Forwarded-For, while another client still may try; without the trusted proxy
    both would be 127.0.0.1, nginx's address, and share one count."""
    assert log_in(site.base, CLIENT, "wrong-1", spoofed="198.51.100.1").status_code != 429
    assert log_in(site.base, CLIENT, "wrong-2", spoofed="198.51.100.2").status_code != 429
    assert log_in(site.base, CLIENT, PASSWORD, spoofed="198.51.100.3").status_code == 429
    assert log_in(site.base, OTHER_CLIENT, "wrong-3").status_code not in (303, 429)
    with psycopg.connect(site.db) as conn:
        addresses = sorted(row[0] for row in conn.execute("select address from login_failures"))
    assert addresses == [CLIENT, CLIENT, OTHER_CLIENT]
    assert log_in(site.base, OTHER_CLIENT, PASSWORD).status_code == 303


def test_live_updates_pass_through_nginx_unbuffered(site: Site) -> None:
    """The first frames arrive while the stream is open, and a change made meanwhile (from the
    command line) arrives as ``event: changed``: nginx holds nothing back."""
    url = f"{site.base}/t/{site.tournament}/events"
    with client(BROWSER) as browser, browser.stream("GET", url) as stream:
        assert stream.status_code == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        seen = ""
        lines = stream.iter_lines()
        for line in lines:
            seen += line + "\n"
            if line.startswith("retry:"):
                break
        turnir("tournament", "set", "Кубок", "--robot", "on", env=site.env)
        for line in lines:
            seen += line + "\n"
            if line == "event: changed":
                break
        assert "retry: 2000" in seen and "event: changed" in seen, seen


def test_robot_api_through_nginx(site: Site) -> None:
    answer = httpx.get(f"{site.base}/api/v1/robot/health", verify=False, timeout=30)
    assert answer.status_code == 200
    refused = httpx.get(f"{site.base}/api/v1/robot/games", verify=False, timeout=30)
    assert refused.status_code == 401


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    names = []
    for unit in UNITS:
        (tmp_path / unit.name).write_text(unit_for_test(unit.read_text(encoding="utf-8")))
        names.append(str(tmp_path / unit.name.replace("@.service", "@1.service")))
    done = subprocess.run(["systemd-analyze", "verify", *names], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


def test_systemd_units_run_turnir_commands_that_exist() -> None:
    """Each ``turnir …`` line of the units, with ``--help`` added, is accepted by turnir: the
    command and every option in the unit exist."""
    commands = [words for unit in UNITS for words in exec_commands(unit.read_text())
                if words[0].endswith("/turnir")]
    assert len(commands) >= 3
    for words in commands:
        args = [w.replace("%H", "host").replace("%i", "1") for w in words[1:]]
        done = subprocess.run([str(TURNIR), *args, "--help"], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, f"{' '.join(words)}: {done.stdout}{done.stderr}"
    web = (DEPLOY / "systemd" / "turnir-web.service").read_text()
    for option in ("NoNewPrivileges=yes", "ProtectSystem=strict", "User=turnir"):
        assert option in web


def test_compose_file_has_the_services_the_docs_name() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    assert set(services) == {"db", "migrate", "web", "robot-api", "robot-work", "proxy"}
    docs = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    for name in services:
        assert f"`{name}`" in docs
    assert services["web"]["command"][:1] == ["serve"] and "--workers" in services["web"][
        "command"]
    assert services["robot-work"]["command"][:2] == ["robot", "work"]
    proxy_ip = services["proxy"]["networks"]["turnir"]["ipv4_address"]
    assert services["web"]["environment"]["TURNIR_TRUSTED_PROXIES"] == proxy_ip
    assert "ports" not in services["web"]  # only the proxy is reachable from outside
    dockerfile = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    assert 'ENTRYPOINT ["turnir"]' in dockerfile and "USER turnir" in dockerfile


def test_every_turnir_setting_is_in_the_docs_table() -> None:
    """Every TURNIR_* name the code reads is a row of docs/deploy.md's settings table, and the
    environment sample names only real ones."""
    used = set()
    for path in (ROOT / "src" / "turnir").rglob("*.py"):
        used |= set(re.findall(r"\"(TURNIR_[A-Z0-9_]*[A-Z0-9])\"", path.read_text()))
    used = {name for name in used if not name.endswith("_")}
    docs = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    table = set(re.findall(r"^\| `(TURNIR_[A-Z0-9_]+)`", docs, flags=re.MULTILINE))
    assert used - table == set()
    assert set(env_example(DEPLOY / "turnir.env.example")) - table == set()


def test_backup_unit_makes_a_backup_that_restores(tmp_path: Path) -> None:
    """turnir-backup.service's own command lines (systemd's ``%%`` unescaped, the folder and the
    venv rewritten) back up a live SQLite database into a dated file, keep the new file when
    cleaning up, and the file restores into an empty database."""
    unit = unit_for_test((DEPLOY / "systemd" / "turnir-backup.service").read_text())
    folder = tmp_path / "backups"
    folder.mkdir()
    unit = unit.replace("/var/backups/turnir", str(folder)).replace("%%", "%")
    lines = dict(re.findall(r"^(ExecStart|ExecStartPost)=(.+)$", unit, flags=re.MULTILINE))
    assert lines["ExecStart"].startswith("/bin/sh -c '") and lines["ExecStart"].endswith("'")
    env = {**os.environ, "TURNIR_DATABASE_URL": f"sqlite:///{tmp_path / 'live.db'}"}
    turnir("user", "add", "boss", "--role", "organizer", "--password", PASSWORD, env=env)
    subprocess.run(["/bin/sh", "-c", lines["ExecStart"][len("/bin/sh -c '"):-1]], env=env,
                   check=True, capture_output=True, timeout=120)
    subprocess.run(lines["ExecStartPost"].replace("'", "").split(), check=True, timeout=60)
    made = sorted(folder.glob("turnir-*.backup"))
    assert len(made) == 1 and re.fullmatch(r"turnir-\d{8}-\d{4}\.backup", made[0].name)
    restored = {**env, "TURNIR_DATABASE_URL": f"sqlite:///{tmp_path / 'restored.db'}"}
    turnir("restore", str(made[0]), env=restored)
    with sqlite3.connect(tmp_path / "restored.db") as conn:
        assert conn.execute("select login from accounts").fetchall() == [("boss",)]

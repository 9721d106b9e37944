"""The deploy/ samples made runnable in a test: the nginx site file rewritten for test ports and
a self-signed certificate (the one source of truth stays ``deploy/nginx/turnir.conf``), the
systemd units pointed at this checkout's ``turnir``, and the servers started and stopped."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
TURNIR = ROOT / ".venv" / "bin" / "turnir"
NGINX = "/usr/sbin/nginx"
READY_S = 60.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def self_signed(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=turnir.test", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


def nginx_site(text: str, *, app_port: int, robot_port: int, http_port: int, https_port: int,
               cert: Path, key: Path, folder: Path) -> str:
    """The sample site with its ports, certificate and paths replaced, IPv6 listens dropped.
    Each replacement must hit: a sample that changed shape fails here, not silently."""
    rules = [
        (r"server 127\.0\.0\.1:8000;", f"server 127.0.0.1:{app_port};"),
        (r"server 127\.0\.0\.1:8100;", f"server 127.0.0.1:{robot_port};"),
        (r"\n\s*listen \[::\]:\d+[^;]*;", ""),
        (r"listen 80;", f"listen 127.0.0.1:{http_port};"),
        (r"listen 443 ssl", f"listen 127.0.0.1:{https_port} ssl"),
        (r"/etc/letsencrypt/live/turnir\.example\.org/fullchain\.pem", str(cert)),
        (r"/etc/letsencrypt/live/turnir\.example\.org/privkey\.pem", str(key)),
        (r"/var/cache/nginx/turnir", str(folder / "cache")),
        (r"/var/www/letsencrypt", str(folder / "www")),
    ]
    for pattern, new in rules:
        text, count = re.subn(pattern, new, text)
        assert count, f"the nginx sample has no {pattern!r} any more"
    return text


def nginx_main(site: Path, folder: Path) -> Path:
    """A main nginx.conf around the site file, as Debian's includes sites-enabled."""
    user = "user root root;\n" if os.geteuid() == 0 else ""
    conf = folder / "nginx.conf"
    conf.write_text(
        f"{user}daemon off;\nworker_processes 1;\npid {folder}/nginx.pid;\n"
        f"error_log {folder}/error.log warn;\nevents {{ worker_connections 256; }}\n"
        "http {\n  include /etc/nginx/mime.types;\n"
        f"  access_log {folder}/access.log;\n"
        + "".join(f"  {kind}_temp_path {folder}/{kind};\n"
                  for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        + f"  include {site};\n}}\n", encoding="utf-8")
    return conf


def render_nginx(folder: Path, *, app_port: int, robot_port: int) -> tuple[Path, int, int]:
    """(main conf, http port, https port) of the sample ready to run from ``folder``."""
    (folder / "www").mkdir()
    cert, key = self_signed(folder)
    http_port, https_port = free_port(), free_port()
    site = folder / "turnir.conf"
    site.write_text(nginx_site((DEPLOY / "nginx" / "turnir.conf").read_text(encoding="utf-8"),
                               app_port=app_port, robot_port=robot_port,
                               http_port=http_port, https_port=https_port,
                               cert=cert, key=key, folder=folder), encoding="utf-8")
    return nginx_main(site, folder), http_port, https_port


@contextmanager
def process(args: list[str], *, env: Mapping[str, str] | None = None,
            log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A server in its own process group, the whole group killed at the end."""
    with log.open("wb") as out:
        proc = subprocess.Popen(args, env=None if env is None else dict(env), stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
        try:
            yield proc
        finally:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(proc.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    proc.wait(timeout=10)
                    break
                except subprocess.TimeoutExpired:
                    continue


def wait_ready(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + READY_S
    with httpx.Client(verify=False, timeout=2) as http:  # one client for every poll
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise AssertionError(f"{url}: the server stopped:\n{log.read_text()}")
            try:
                if http.get(url).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
    raise AssertionError(f"{url} did not answer in {READY_S} s:\n{log.read_text()}")


def unit_for_test(text: str) -> str:
    """A unit's ``/opt/turnir/venv/bin/turnir`` replaced by this checkout's (what
    ``systemd-analyze verify`` checks is that the command exists)."""
    return text.replace("/opt/turnir/venv/bin/turnir", str(TURNIR))


def exec_commands(text: str) -> list[list[str]]:
    """The ``ExecStart=``/``ExecStartPre=`` command lines of a unit, split into words."""
    lines = re.findall(r"^Exec\w*=(.+(?:\\\n.+)*)$", text, flags=re.MULTILINE)
    return [line.replace("\\\n", " ").split() for line in lines]


def env_example(path: Path) -> dict[str, str]:
    """The ``NAME=value`` lines of the environment file sample, commented ones too."""
    found: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"#?\s*(TURNIR_[A-Z0-9_]+)=(\S*)", line)
        if match:
            found[match[1]] = match[2]
    return found

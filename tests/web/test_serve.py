"""``make run``: ``turnir serve --demo`` creates the default database with the demo
tournaments and accounts, prints the URL and the credentials, and serves."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_with_the_demo(tmp_path: Path) -> None:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "TURNIR_DATABASE_URL"}
    env["XDG_DATA_HOME"] = str(tmp_path)
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "turnir"), "serve", "--demo", "--port", str(port)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        printed = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            printed.append(line)
            if "Uvicorn running" in line or "Application startup complete" in line:
                break
        text = "".join(printed)
        assert f"http://127.0.0.1:{port}/" in text, text
        found = re.search(r"organizer\s+login (\S+)\s+password (\S+)", text)
        assert found, text
        assert (tmp_path / "turnir" / "turnir.db").exists()
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as http:
            assert http.get("/healthz").json() == {"status": "ok"}
            assert "Демо-турнир" in http.get("/").text
            page = http.get("/login")
            token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
            assert token
            answer = http.post("/login", data={"login": found.group(1),
                                               "password": found.group(2),
                                               "csrf_token": token.group(1), "next": "/"})
            assert answer.status_code in (200, 303)
            assert "Организатор (демо)" in http.get("/").text
    finally:
        process.terminate()
        process.wait(timeout=20)

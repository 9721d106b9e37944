"""Screenshots of each role's main pages at 1366×900 and 390×844 for ``docs/web.md``.

Run from the checkout: ``.venv/bin/python scripts/screenshots.py`` (Debian's Chromium). It
serves the demo (``turnir serve --demo``) on a temporary database and a free port, logs in as
each demo account, saves ``docs/screenshots/<role>-<page>-<wide|phone>.png`` and prints the
width of every page (a page wider than its viewport is reported and the script exits 1).
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SIZES = {"wide": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}

# (role, login or None, [(name, path)]); "{t}" is the running demo tournament, "{f}" the
# finished one.
PAGES: list[tuple[str, str | None, list[tuple[str, str]]]] = [
    ("anonymous", None, [("home", "/"), ("overview", "/t/{t}"), ("pairings", "/t/{t}/pairings"),
                         ("standings", "/t/{t}/standings"), ("top", "/t/{f}/top"),
                         ("projector", "/t/{t}/projector"), ("ratings", "/ratings")]),
    ("player", "player1", [("my-match", "/me")]),
    ("floor-judge", "floor", [("results", "/t/{t}/results"),
                              ("penalty", "/t/{t}/penalties/give")]),
    ("head-judge", "judge", [("penalties", "/t/{t}/penalties"),
                             ("rulings", "/t/{t}/rulings"),
                             ("rating-terms", "/t/{f}/rating/terms")]),
    ("organizer", "organizer", [("manage", "/t/{t}/manage"), ("staff", "/t/{t}/staff"),
                                ("audit", "/t/{t}/log"), ("new", "/new")]),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(folder: Path) -> tuple[subprocess.Popen[str], str, dict[str, str], dict[str, int]]:
    port = _free_port()
    env = {"TURNIR_DATABASE_URL": f"sqlite:///{folder / 'demo.db'}", "PATH": "/usr/bin:/bin",
           "LANG": "C.UTF-8"}
    proc = subprocess.Popen([str(ROOT / ".venv" / "bin" / "turnir"), "serve", "--demo",
                             "--port", str(port)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        lines.append(line)
        if "Uvicorn running" in line or "Application startup complete" in line:
            break
    text = "".join(lines)
    logins = dict(re.findall(r"login (\S+)\s+password (\S+)", text))
    url = f"http://127.0.0.1:{port}"
    ids = {"t": int(re.search(r"/t/(\d+)", text).group(1))}  # type: ignore[union-attr]
    ids["f"] = 1 if ids["t"] != 1 else 2
    return proc, url, logins, ids


def _login(page: Page, url: str, login: str, password: str) -> None:
    page.goto(f"{url}/login")
    page.fill("input[name=login]", login)
    page.fill("input[name=password]", password)
    page.click("form[action='/login'] button[type=submit]")
    page.wait_for_url(lambda u: "/login" not in u)


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    wide_pages: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        proc, url, logins, ids = _serve(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                for role, login, pages in PAGES:
                    for size, viewport in SIZES.items():
                        context = browser.new_context(viewport=viewport, locale="ru-RU")
                        page = context.new_page()
                        if login is not None:
                            _login(page, url, login, logins[login])
                        for name, path in pages:
                            response = page.goto(url + path.format(**ids))
                            page.wait_for_load_state("networkidle")
                            width = page.evaluate("document.documentElement.scrollWidth")
                            status = response.status if response else 0
                            shot = OUT / f"{role}-{name}-{size}.png"
                            page.screenshot(path=str(shot), full_page=size == "phone")
                            print(f"{role:12} {size:5} {path:28} {status} width {width}")
                            if width > viewport["width"] or status >= 400:
                                wide_pages.append(f"{role} {size} {path} ({status}, {width})")
                        context.close()
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    for line in wide_pages:
        print("PROBLEM:", line)
    return 1 if wide_pages else 0


if __name__ == "__main__":
    sys.exit(main())

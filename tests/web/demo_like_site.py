"""A demo-like site for the issue 12 phone and accessibility tests, served once per test
module: a running 18-player tournament with long names (round 2 under way, a top of 4), its
staff (organizer, head judge, floor judge: accounts ``org``, ``head``, ``floor``), a player with
an account (``player``), a penalty; and three finished, rated tournaments so that a rating
profile has a chart and a tournament has a rating report.

Each test module that uses it imports the fixture: ``from tests.web.demo_like_site import site``.
"""

from __future__ import annotations

import shutil
import socket
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.services.rating_builders import HEAD, finished_event
from tests.web.conftest import LiveServer, add_account, running, settings_for, sign_in
from tests.web.pages_check import watch_csp
from turnir.domain.model import Settings
from turnir.domain.results import parse_result
from turnir.formats.players_csv import PlayerLine
from turnir.services.accounts import AccountRole
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.penalties import give_penalty
from turnir.services.players import register_players
from turnir.services.rating_queries import find_person
from turnir.services.ratings import submit_tournament
from turnir.services.results import record_result
from turnir.services.rounds import start_round
from turnir.services.tournaments import create_tournament
from turnir.storage.database import Database
from turnir.web.app import create_app

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1366, "height": 900}
SIZES = {"phone": PHONE, "wide": WIDE}
ORGANIZER = "Организатор Орлов"
LONG_NAME = ("Открытый чемпионат Северо-Западного федерального округа по Берсерку "
             "«Героям слава» — отборочный этап")
GIVEN = ("Александра", "Константин", "Евгения", "Владислав", "Анастасия", "Святослав")
FAMILY = ("Преображенская-Водопьянова", "Кржижановский", "Новосильцева-Оболенская",
          "Верхнеднепровский", "Ломоносова-Ковалёва", "Достоевский-Тургенев")
PLAYERS = [f"{GIVEN[i % 6]} {FAMILY[(i * 5) % 6]} {i:02d}" for i in range(1, 19)]
RATED = [f"{GIVEN[i]} {FAMILY[i]}" for i in range(6)]


@dataclass
class Site:
    server: LiveServer
    tid: int
    rated_tid: int
    person: int
    pages: dict[tuple[str, str], Page] = field(default_factory=dict)
    problems: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    """What each page's browser reported (CSP violations, console errors, script errors)."""

    @property
    def url(self) -> str:
        return self.server.url


def _running_event(db: Database) -> int:
    info = create_tournament(db, name=LONG_NAME, actor=ORGANIZER, seed=12,
                             settings=Settings(swiss_rounds=5, top_size=4, best_of=3))
    tid = info.id
    register_players(db, tid, [PlayerLine(name, "Великий Новгород") for name in PLAYERS],
                     actor=ORGANIZER)
    for login, role in (("org", JudgeRole.ORGANIZER), ("head", JudgeRole.HEAD_JUDGE),
                        ("floor", JudgeRole.FLOOR_JUDGE)):
        add_judge(db, tid, role=role, login=login, actor=ORGANIZER)
    first = start_round(db, tid, actor=ORGANIZER)
    for line in first.round.pairings:
        if line.b is not None:
            record_result(db, tid, 1, line.table, parse_result("2-1"), actor=ORGANIZER)
    second = start_round(db, tid, actor=ORGANIZER)
    for line in second.round.pairings[:3]:
        if line.b is not None:
            record_result(db, tid, 2, line.table, parse_result("1-2"), actor=ORGANIZER)
    give_penalty(db, tid, player=1, reason="slow_play", actor="Head")
    return tid


def _rated(db: Database) -> int:
    last = 0
    for number, name in enumerate(("Осенний кубок Великого Новгорода имени Ярослава Мудрого",
                                   "Зимний кубок", "Весенний открытый турнир")):
        last = finished_event(db, RATED[number:] + RATED[:number], name=name)
        submit_tournament(db, last, actor=HEAD)
    return last


def build(db: Database) -> tuple[int, int, int]:
    for login, role in (("org", AccountRole.ORGANIZER), ("head", AccountRole.HEAD_JUDGE),
                        ("floor", AccountRole.FLOOR_JUDGE)):
        add_account(db, login, role)
    tid = _running_event(db)
    rated_tid = _rated(db)
    add_account(db, "player", AccountRole.PLAYER, person_id=find_person(db, PLAYERS[0]).id)
    return tid, rated_tid, find_person(db, RATED[0]).id


@pytest.fixture(scope="module")
def site(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory,
         browser: Any) -> Iterator[Site]:
    """The site above, one live server for the module, and one logged-in page per
    (role, size) on demand (:func:`page_as`)."""
    import uvicorn

    path = tmp_path_factory.mktemp("issue12") / "site.db"
    shutil.copyfile(sqlite_template, path)
    db = Database.open(f"sqlite:///{path}")
    tid, rated_tid, person = build(db)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(settings_for(db, poll_seconds=60), db=db)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on"))
    made = Site(LiveServer(f"http://127.0.0.1:{port}", db), tid, rated_tid, person)
    with running(server):
        yield made
        for page in made.pages.values():
            page.context.close()
    db.close()


def page_as(site: Site, browser: Any, role: str, size: str) -> Page:
    """The one page (and browser context) of ``role`` (an account login, or ``anonymous``) at
    ``size`` (``phone`` or ``wide``), logged in once, in Russian."""
    key = (role, size)
    if key not in site.pages:
        context = browser.new_context(locale="ru-RU", viewport=SIZES[size])
        problems = site.problems[key] = []
        watch_csp(context, problems)
        page: Page = context.new_page()
        page.set_default_timeout(15_000)
        page.on("console", lambda message: problems.append(
            f"console {message.type}: {message.text} ({message.location.get('url', '')})")
            if message.type in ("error", "warning") else None)
        page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
        if role != "anonymous":
            sign_in(page, site.server, role)
        site.pages[key] = page
    return site.pages[key]


def pages_of(site: Site) -> dict[str, list[str]]:
    """The main pages each role sees (paths), as item 10 and the accessibility part list."""
    t, r = f"/t/{site.tid}", f"/t/{site.rated_tid}"
    return {
        "anonymous": ["/", t, f"{t}/pairings", f"{t}/standings", f"{t}/find",
                      f"{t}/find?q=Кржижановский", "/ratings",
                      f"/ratings/players/{site.person}", f"{r}/rating", f"{r}/places",
                      f"{r}/top"],
        "player": [t, "/me"],
        "floor": [f"{t}/results", f"{t}/penalties", f"{t}/print/slips"],
        "org": [f"{t}/manage", "/new", "/accounts", f"{t}/log", f"{t}/staff",
                f"{t}/print/pairings", f"{t}/print/seating", f"{t}/projector"],
        "head": [f"{t}/penalties/give", f"{t}/penalties/report", f"{t}/rulings"],
    }


def problems_on(site: Site, browser: Any, size: str, pages: dict[str, list[str]],
                *checks: Callable[[Page, str], None],
                only_on: Mapping[Callable[[Page, str], None], Collection[str]] | None = None,
                ) -> list[str]:
    """Every page of ``pages`` (role: paths) visited at ``size`` by its role, each of
    ``checks`` run on it (a check in ``only_on`` on its paths only); what they found (their
    assertion messages), and whatever the browser reported on the page (a CSP violation, a
    console error, a script error)."""
    found: list[str] = []
    for role, paths in pages.items():
        page = page_as(site, browser, role, size)
        reported = site.problems[(role, size)]
        for path in paths:
            what = f"{path} as {role} ({size})"
            page.goto(site.url + path)
            for check in checks:
                if only_on and check in only_on and path not in only_on[check]:
                    continue
                try:
                    check(page, what)
                except AssertionError as problem:
                    found.append(str(problem))
            found.extend(f"{what}: {problem}" for problem in reported)
            reported.clear()
    return found

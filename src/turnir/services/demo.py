"""The demo ``make run`` opens (``turnir serve --demo``: ``turnir.compose.seed_demo``): a
tournament in its third round (some results in, the round clock running) and a finished one
with its top, played through the services with ``turnir.demo``'s simulated results, and demo
accounts (organizer, head judge, floor judge, two players who meet in the open round) whose
passwords are drawn anew at every start and printed; the organizer, the head judge and the floor
judge are on the staff of both demo tournaments (roles are per tournament)."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass

from argon2 import PasswordHasher

from turnir.demo import CITIES, demo_names, random_result, strengths
from turnir.domain.model import Player, Settings, StaffRole, Stage, TournamentFormat
from turnir.formats.players_csv import PlayerLine
from turnir.services.accounts import AccountRole, create_account, find_account, set_password
from turnir.services.common import Database, TournamentInfo
from turnir.services.judges import add_judge, list_judges
from turnir.services.players import list_players, register_players
from turnir.services.results import record_result
from turnir.services.round_clock import start_timer
from turnir.services.rounds import RoundView, start_round
from turnir.services.tournaments import create_tournament, finish_tournament, list_tournaments

DEMO_NAME = "Демо-турнир"
DEMO_FINISHED = "Демо: завершённый турнир"
ACTOR = "Демо"


@dataclass(frozen=True, slots=True)
class DemoLogin:
    login: str
    password: str
    name: str
    role: AccountRole


def _play(db: Database, tid: int, view: RoundView, rng: random.Random,
          strength: dict[int, float], *, share: float = 1.0) -> None:
    rnd = view.round
    top = rnd.stage is Stage.TOP
    settings = view.tournament.settings
    for line in rnd.pairings:
        if line.b is None or rng.random() > share:
            continue
        result = random_result(rng, strength[line.a], strength[line.b],
                               best_of=settings.top_best_of if top else settings.best_of,
                               elimination=top)
        record_result(db, tid, rnd.number, line.table, result, actor=ACTOR)


def _new_event(db: Database, name: str, players: int, settings: Settings,
               seed: int, *, format: TournamentFormat = TournamentFormat.SWISS,
               ) -> tuple[TournamentInfo, dict[int, float], random.Random]:
    info = create_tournament(db, name=name, actor=ACTOR, settings=settings, seed=seed,
                             format=format)
    rng = random.Random(seed)
    names = demo_names(players, rng)
    register_players(db, info.id, [PlayerLine(n, rng.choice(CITIES)) for n in names],
                     actor=ACTOR)
    strength = strengths([Player(id=i, name=n) for i, n in enumerate(names, start=1)], rng)
    return info, strength, rng


def seed_tournaments(db: Database) -> int:
    """Create the demo tournaments unless they exist; the id of the running one."""
    existing = {t.name: t.id for t in list_tournaments(db)}
    if DEMO_FINISHED not in existing:
        info, strength, rng = _new_event(db, DEMO_FINISHED, 8,
                                         Settings(swiss_rounds=3, top_size=4), 11)
        for _ in range(5):
            _play(db, info.id, start_round(db, info.id, actor=ACTOR), rng, strength)
        finish_tournament(db, info.id, actor=ACTOR)
    if DEMO_NAME in existing:
        return existing[DEMO_NAME]
    info, strength, rng = _new_event(db, DEMO_NAME, 16, Settings(swiss_rounds=4, top_size=4),
                                     2026)
    for _ in range(2):
        _play(db, info.id, start_round(db, info.id, actor=ACTOR), rng, strength)
    view = start_round(db, info.id, actor=ACTOR)
    _play(db, info.id, view, rng, strength, share=0.5)
    start_timer(db, info.id, view.round.number, minutes=50, actor=ACTOR)
    return info.id


def _open_table_players(db: Database, tid: int) -> tuple[int, int] | None:
    """The person ids of the two players at the first table without a result."""
    from turnir.services.rounds import current_round

    view = current_round(db, tid)
    people = {p.number: p.person_id for p in list_players(db, tid)}
    for line in view.round.pairings:
        if line.b is not None and line.result is None:
            a, b = people.get(line.a), people.get(line.b)
            if a is not None and b is not None:
                return a, b
    return None


def seed_accounts(db: Database, tid: int, hasher: PasswordHasher) -> list[DemoLogin]:
    """The demo accounts with fresh passwords (created, or their passwords reset)."""
    wanted: list[tuple[str, str, AccountRole, int | None]] = [
        ("organizer", "Организатор (демо)", AccountRole.ORGANIZER, None),
        ("judge", "Главный судья (демо)", AccountRole.HEAD_JUDGE, None),
        ("floor", "Судья в зале (демо)", AccountRole.FLOOR_JUDGE, None),
    ]
    pair = _open_table_players(db, tid)
    if pair is not None:
        wanted += [("player1", "Игрок 1 (демо)", AccountRole.PLAYER, pair[0]),
                   ("player2", "Игрок 2 (демо)", AccountRole.PLAYER, pair[1])]
    logins = []
    for login, name, role, person in wanted:
        password = secrets.token_urlsafe(9)
        found = find_account(db, login)
        if found is None:
            made = create_account(db, login=login, name=name, password=password, role=role,
                                  person_id=person, actor=ACTOR, hasher=hasher)
            name = made.name
        else:
            set_password(db, login, password, actor=ACTOR, hasher=hasher)
            name = found.name
            role = found.role
        logins.append(DemoLogin(login, password, name, role))
    _give_roles(db)
    from turnir.services.demo_decks import seed_constructed_demo  # issue 13: after the logins

    seed_constructed_demo(db, tid)
    from turnir.services.demo_drafts import seed_draft_demo  # issue 14: a tabletop draft

    seed_draft_demo(db)
    from turnir.services.demo_live_draft import seed_live_draft_demo  # issue 14: online, live

    seed_live_draft_demo(db, tid)
    return logins


DEMO_STAFF = (("organizer", StaffRole.ORGANIZER), ("judge", StaffRole.HEAD_JUDGE),
              ("floor", StaffRole.FLOOR_JUDGE))
"""The demo logins' roles in both demo tournaments (roles are per tournament: issue 10)."""


def _give_roles(db: Database) -> None:
    """The demo organizer, head judge and floor judge on the staff of both demo tournaments
    (once)."""
    for info in list_tournaments(db):
        if info.name not in (DEMO_NAME, DEMO_FINISHED):
            continue
        have = {(j.login, j.role) for j in list_judges(db, info.id)}
        for login, role in DEMO_STAFF:
            found = find_account(db, login)
            if found is not None and found.active and found.role is not AccountRole.PLAYER \
                    and (login, role) not in have:
                add_judge(db, info.id, role=role, login=login, actor=ACTOR)

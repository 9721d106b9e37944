"""The demo's online live draft (issue 14), seeded after the demo accounts
(``turnir.services.demo.seed_accounts``): «Онлайн-драфт (демо: за семь соперников выбирает
сервер)» (``DEMO_LIVE_DRAFT``), 8 players at one table, three boosters of 7 cards, started
when the demo is seeded. The demo login ``player1`` is seated and picks on
``/t/{tid}/draft/pick``; the seven other seats are simulated: they have left the draft
(``drop_from_draft``), so the server picks for them at once by the automatic pick rule and
passes their boosters on — the demo player never waits for anyone.
The demo organizer, head judge and floor judge are its staff (``/t/{tid}/draft/live`` shows
who holds how many boosters). Seeding again creates nothing twice.
"""

from __future__ import annotations

import random

from turnir.demo import CITIES, demo_names
from turnir.domain.draft.plan import DraftProfile, make_plan
from turnir.domain.model import Settings, StaffRole, TournamentFormat
from turnir.formats.players_csv import PlayerLine
from turnir.services.accounts import find_account
from turnir.services.cards import card_catalogue, load_sample_cards
from turnir.services.common import Database
from turnir.services.demo import ACTOR, DEMO_STAFF
from turnir.services.draft_setup import seat_draft, set_draft_plan
from turnir.services.judges import add_judge, list_judges
from turnir.services.live_draft import drop_from_draft, start_live_draft
from turnir.services.players import list_players, register_player, register_players
from turnir.services.tournaments import create_tournament, list_tournaments

DEMO_LIVE_DRAFT = "Онлайн-драфт (демо: за семь соперников выбирает сервер)"
"""The name says what the judges' table shows: the seven other seats are dropped (исключён) on
purpose, the server picks for them (the engine has no way to make a seat a bot other than
dropping it, and an *away* seat is reached only by missed deadlines, which would make the demo
player wait)."""
SEED = 1415
DEMO_PLAYER = "player1"


def seed_live_draft_demo(db: Database, running: int) -> int | None:
    """Create and start the demo live draft unless it exists; its id (``None`` when the demo
    login ``player1`` has no person to seat). ``running``: the running demo tournament, where
    ``player1`` plays (their name and city come from there)."""
    existing = {t.name: t.id for t in list_tournaments(db)}
    if DEMO_LIVE_DRAFT in existing:
        return existing[DEMO_LIVE_DRAFT]
    account = find_account(db, DEMO_PLAYER)
    person = None if account is None else next(
        (p for p in list_players(db, running) if p.person_id == account.person_id), None)
    if person is None:
        return None
    if not len(card_catalogue(db)):
        load_sample_cards(db, actor=ACTOR)
    info = create_tournament(db, name=DEMO_LIVE_DRAFT, actor=ACTOR, seed=SEED,
                             format=TournamentFormat.DRAFT, settings=Settings(swiss_rounds=3))
    rng = random.Random(SEED)
    register_players(db, info.id, [PlayerLine(name, rng.choice(CITIES))
                                   for name in demo_names(7, rng)], actor=ACTOR)
    mine = register_player(db, info.id, name=person.name, city=person.city, club=person.club,
                           person_id=person.person_id, actor=ACTOR)
    set_draft_plan(db, info.id, actor=ACTOR, plan=make_plan(
        twelves=0, sevens=3, profile=DraftProfile.ONLINE, pick_seconds=60,
        pick_seconds_per_card=5, away_after=3))
    seat_draft(db, info.id, actor=ACTOR, method="lot")
    known = {j.login for j in list_judges(db, info.id)}
    for login, role in DEMO_STAFF:
        if login not in known and find_account(db, login) is not None:
            add_judge(db, info.id, role=StaffRole(role), login=login, actor=ACTOR)
    start_live_draft(db, info.id, actor=ACTOR, account_id=None)
    for number in range(1, 9):  # the simulated seats: the server picks for them at once
        if number != mine.number:
            drop_from_draft(db, info.id, number, actor=ACTOR, account_id=None)
    return info.id

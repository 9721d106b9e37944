"""The demo's tabletop draft (issue 14), seeded after the demo accounts
(``turnir.services.demo.seed_accounts``): «Драфт за столом (демо)» (``DEMO_DRAFT``), 33 players,
four boosters of 12 cards, seated by lot on 4 tables (9, 8, 8, 8: D-2), 4 Swiss rounds inside
each table (D-5, T-8) and a top of 8 (two from every table, P-5); round 1 is played and round 2
is under way (some results in). The demo organizer, head judge and floor judge are its staff
(those of them that exist).
Seeding again creates nothing twice.
"""

from __future__ import annotations

from turnir.domain.draft.plan import DraftProfile, make_plan
from turnir.domain.model import Settings, StaffRole, TournamentFormat
from turnir.services.accounts import find_account
from turnir.services.common import Database
from turnir.services.demo import ACTOR, DEMO_STAFF, _new_event, _play
from turnir.services.draft_setup import seat_draft, set_draft_plan
from turnir.services.judges import add_judge, list_judges
from turnir.services.rounds import start_round
from turnir.services.tournaments import list_tournaments

DEMO_DRAFT = "Драфт за столом (демо)"
PLAYERS = 33
SEED = 1414


def seed_draft_demo(db: Database) -> int:
    """Create the demo draft unless it exists; its id."""
    existing = {t.name: t.id for t in list_tournaments(db)}
    if DEMO_DRAFT in existing:
        return existing[DEMO_DRAFT]
    info, strength, rng = _new_event(db, DEMO_DRAFT, PLAYERS, Settings(top_size=8), SEED,
                                     format=TournamentFormat.DRAFT)
    tid = info.id
    set_draft_plan(db, tid, actor=ACTOR,
                   plan=make_plan(twelves=4, sevens=0, profile=DraftProfile.TABLETOP))
    seat_draft(db, tid, actor=ACTOR, method="lot", tables=4)
    _play(db, tid, start_round(db, tid, actor=ACTOR), rng, strength)
    _play(db, tid, start_round(db, tid, actor=ACTOR), rng, strength, share=0.5)
    _staff(db, tid)
    return tid


def _staff(db: Database, tid: int) -> None:
    known = {j.login for j in list_judges(db, tid)}
    for login, role in DEMO_STAFF:
        if login not in known and find_account(db, login) is not None:
            add_judge(db, tid, role=StaffRole(role), login=login, actor=ACTOR)

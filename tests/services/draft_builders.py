"""One-line builders for draft service tests: a stored draft tournament with its plan set."""

from __future__ import annotations

from turnir.domain.draft.plan import DraftProfile, make_plan
from turnir.domain.model import RulesLevel, Settings, TournamentFormat
from turnir.formats.players_csv import PlayerLine
from turnir.services.draft_setup import set_draft_plan
from turnir.services.players import register_players
from turnir.services.tournaments import create_tournament
from turnir.storage.database import Database

DRAFT_ORGANIZER = "Организатор Драфтов"


def draft_event(db: Database, players: int = 16, *, twelves: int = 4, sevens: int = 0,
                top: int = 0, rounds: int | None = None, seed: int = 14,
                profile: DraftProfile = DraftProfile.TABLETOP,
                organizer_login: str | None = None,
                level: RulesLevel = RulesLevel.AMATEUR) -> int:
    """A stored draft tournament in registration with ``players`` players and a plan set."""
    info = create_tournament(db, name="Драфт клуба", actor=DRAFT_ORGANIZER, seed=seed,
                             format=TournamentFormat.DRAFT, organizer_login=organizer_login,
                             rules_level=level,
                             settings=Settings(swiss_rounds=rounds, top_size=top))
    if players:
        register_players(db, info.id, [PlayerLine(f"Драфтер {i:02d}", "Тула")
                                       for i in range(1, players + 1)], actor=DRAFT_ORGANIZER)
    set_draft_plan(db, info.id, actor=DRAFT_ORGANIZER,
                   plan=make_plan(twelves=twelves, sevens=sevens, profile=profile))
    return info.id

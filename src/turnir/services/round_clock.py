"""The round clock (``docs/web.md``): the organizer starts it for a round with a length in
minutes; everyone's pages count down to its end."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from turnir.errors import UserError
from turnir.services.common import Database, changing, reading, refuse_when_finished
from turnir.services.judges import ORGANIZER_ONLY, check_staff
from turnir.storage import results_repo
from turnir.storage.mappers import tournament_row
from turnir.storage.repositories import round_row


@dataclass(frozen=True, slots=True)
class RoundTimer:
    round: int
    started_at: datetime
    duration_s: int

    @property
    def ends_at(self) -> datetime:
        return self.started_at + timedelta(seconds=self.duration_s)

    def remaining_s(self, now: datetime) -> int:
        return max(0, int((self.ends_at - now).total_seconds()))


def start_timer(db: Database, tournament_id: int, round_number: int, *, minutes: int,
                actor: str, account_id: int | None = None) -> RoundTimer:
    """Start (or restart) the round's clock for ``minutes``; a web account (``account_id``)
    must be the tournament's organizer (``turnir.services.judges``)."""
    if not 1 <= minutes <= 600:
        raise UserError("a round lasts from 1 to 600 minutes", code="bad_timer")
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        refuse_when_finished(tournament_row(conn, tournament_id))
        check_staff(conn, tournament_id, account_id, ORGANIZER_ONLY, what="start the clock")
        round_row(conn, tournament_id, round_number)
        results_repo.set_round_timer(conn, tournament_id, round_number, started_at=change.at,
                                     duration_s=minutes * 60)
        change.log(tournament_id, "round.timer", "round", round_number, None,
                   {"minutes": minutes, "started_at": change.at.isoformat()})
        return RoundTimer(round_number, change.at, minutes * 60)


def round_timer(db: Database, tournament_id: int, round_number: int) -> RoundTimer | None:
    with reading(db) as tx:
        found = results_repo.round_timer(tx, tournament_id, round_number)
    if found is None:
        return None
    return RoundTimer(round_number, *found)

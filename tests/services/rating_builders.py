"""One-line builders for the rating service tests: a finished, stored tournament whose final
places follow the order its players are listed in (the earlier listed player wins every match
2-0 in a round robin of Swiss rounds), with a head judge; an imported rating list; a check that
the stored rating book is exactly the domain's replay of the stored history."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from sqlalchemy import and_, or_, select, update

from turnir.domain.draft.plan import DEFAULT_PLAN_TABLETOP
from turnir.domain.model import Settings
from turnir.domain.ratings import replay_changes
from turnir.domain.results import parse_result
from turnir.formats.players_csv import PlayerLine
from turnir.formats.rating_list import RatingListLine
from turnir.services.common import TournamentFormat
from turnir.services.draft_setup import seat_draft, set_draft_plan
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.players import drop_player, register_players
from turnir.services.rating_lists import import_rating_list
from turnir.services.results import record_result
from turnir.services.rounds import start_round
from turnir.services.tournaments import create_tournament, finish_tournament, get_tournament
from turnir.storage.database import Database
from turnir.storage.ratings import (
    current_pairs,
    load_base,
    load_history,
    load_settings,
    pair_of,
    report_values,
    stored_values,
)
from turnir.storage.tables import pairings

ORGANIZER = "Организатор Орлов"
HEAD = "Главный Судья"
CITY = "Москва"


def finished_event(db: Database, players: Sequence[str], *, name: str = "Турнир",
                   format: TournamentFormat = TournamentFormat.CONSTRUCTED,
                   city: str = CITY, head: str | None = HEAD, finish: bool = True,
                   absent: Sequence[str] = ()) -> int:
    """A stored tournament played to the end: places 1..N in the order of ``players``;
    ``absent`` players register too but are dropped before round 1."""
    count = len(players)
    info = create_tournament(db, name=name, actor=ORGANIZER, seed=5, format=format,
                             settings=Settings(swiss_rounds=count - 1 if count % 2 == 0
                                               else count, top_size=0, best_of=3))
    tid = info.id
    register_players(db, tid, [PlayerLine(p, city) for p in [*players, *absent]],
                     actor=ORGANIZER)
    for name_ in absent:
        drop_player(db, tid, name_, actor=ORGANIZER, reason="did not come")
    if head is not None:
        add_judge(db, tid, name=head, role=JudgeRole.HEAD_JUDGE, actor=ORGANIZER)
    if format is TournamentFormat.DRAFT:  # round 1 of a draft needs its seating (D-2)
        set_draft_plan(db, tid, actor=ORGANIZER, plan=DEFAULT_PLAN_TABLETOP)
        seat_draft(db, tid, actor=ORGANIZER, method="lot")
    for _ in range(info.settings.swiss_rounds or 0):
        view = start_round(db, tid, actor=ORGANIZER)
        for line in view.round.pairings:
            if line.b is not None:
                score = "2-0" if line.a < line.b else "0-2"
                record_result(db, tid, view.round.number, line.table, parse_result(score),
                              actor=ORGANIZER)
    if finish:
        finish_tournament(db, tid, actor=ORGANIZER)
        places = get_tournament(db, tid).tournament.final_places()
        assert places[:count] == list(range(1, count + 1)), places
    return tid


def load_list(db: Database, names: Sequence[str], professional: Sequence[str],
              warlock: Sequence[str | None] | None = None, *, city: str = CITY) -> None:
    """Import a rating list: ``names[i]`` has ``professional[i]`` (and ``warlock[i]``)."""
    war = warlock if warlock is not None else [None] * len(names)
    import_rating_list(db, [
        RatingListLine(name, city, "", Decimal(p), None if w is None else Decimal(w))
        for name, p, w in zip(names, professional, war, strict=True)], actor=ORGANIZER)


def flip_match(db: Database, tid: int, first: int, second: int) -> None:
    """The match between two entries gets the opposite result, straight in the database: a
    corrected result in a finished tournament (reopening a tournament is not a service yet)."""
    with db.write() as conn:
        row = conn.execute(select(pairings).where(
            pairings.c.tournament_id == tid,
            or_(and_(pairings.c.a == first, pairings.c.b == second),
                and_(pairings.c.a == second, pairings.c.b == first)))).mappings().one()
        outcome = {"a_wins": "b_wins", "b_wins": "a_wins"}[row["outcome"]]
        conn.execute(update(pairings).where(pairings.c.id == row["id"]).values(
            wins_a=row["wins_b"], wins_b=row["wins_a"], outcome=outcome))


def assert_book_consistent(db: Database) -> None:
    """The stored rows and current ratings are exactly the domain's replay of the stored
    history from the imported base (R-6)."""
    with db.read() as conn:
        settings, _ = load_settings(conn)
        history = load_history(conn)
        book, reports = replay_changes(history, start=load_base(conn), settings=settings)
        stored = stored_values(conn, [int(t.id) for t in history])
        current = current_pairs(conn)
    for tournament, report in zip(history, reports, strict=True):
        assert stored[int(tournament.id)] == report_values(report), tournament.id
    assert current == {int(p): pair_of(book.rating(p)) for p in book.players()}

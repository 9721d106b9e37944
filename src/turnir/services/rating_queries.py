"""Read-only use cases of the rating database: the leaderboard, a player's rating profile with
the history and its chart, a tournament's rating report, the list of rated tournaments.

Everything here reads one snapshot and returns plain records for the CLI and the pages.
Ranks are competition ranks over the whole rating list (equal ratings share a rank; a filter
by name, city or club does not renumber them). The Warlock leaderboard lists only players who
have a Warlock rating (R-5: it starts with the first rated tournament).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any

from sqlalchemy import ColumnElement, Connection, func, select

from turnir.domain.ratings import NEWCOMER_RATING, Bound, RatedFormat, to_rating
from turnir.domain.text import PLACE_LEN, QUERY_LEN, clean_query, clean_ref
from turnir.errors import NotFoundError, UserError
from turnir.ratings_chart import ChartPoint, ChartText, rating_chart_svg
from turnir.services.rating_reports import TournamentRatingReport, stored_report
from turnir.services.ratings import preview_tournament
from turnir.storage.database import Database
from turnir.storage.mappers import name_key
from turnir.storage.ratings import PersonRef, parse_exact, people_by_id, stored_row, utc
from turnir.storage.tables import people, tournaments
from turnir.storage.tables_ratings import (
    rating_base,
    rating_current,
    rating_history,
    rating_tournaments,
)

MAX_PER_PAGE = 500


class RatingKind(StrEnum):
    """Which rating a leaderboard ranks by."""

    PROFESSIONAL = "professional"
    WARLOCK = "warlock"


@dataclass(frozen=True, slots=True)
class LeaderboardLine:
    rank: int
    """Competition rank by the leaderboard's rating over the whole list."""
    person: PersonRef
    professional: Decimal
    warlock: Decimal | None
    tournaments: int
    """Rated tournaments played."""


@dataclass(frozen=True, slots=True)
class Leaderboard:
    by: RatingKind
    lines: tuple[LeaderboardLine, ...]
    total: int
    """Lines matching the filters, on every page."""
    page: int
    per_page: int
    search: str
    city: str
    club: str

    @property
    def pages(self) -> int:
        return max(1, math.ceil(self.total / self.per_page))


@dataclass(frozen=True, slots=True)
class LeaderboardFilters:
    """The cities and clubs of rated players, for the leaderboard's filters."""

    cities: tuple[str, ...]
    clubs: tuple[str, ...]


def leaderboard(db: Database, *, by: RatingKind = RatingKind.PROFESSIONAL, search: str = "",
                city: str = "", club: str = "", page: int = 1, per_page: int = 50
                ) -> Leaderboard:
    """One page of the rating list, strongest first; ``search`` matches part of a name (case
    ignored), ``city`` and ``club`` match exactly."""
    if page < 1 or not 1 <= per_page <= MAX_PER_PAGE:
        raise UserError(f"pages start at 1 and hold 1 to {MAX_PER_PAGE} lines",
                        code="bad_page")
    by = RatingKind(by)
    c = rating_current.c
    rating = c.professional if by is RatingKind.PROFESSIONAL else c.warlock
    ranked = (select(c.person_id, c.professional, c.warlock, c.tournaments,
                     func.rank().over(order_by=rating.desc()).label("rank"))
              .where(rating.is_not(None)).subquery())
    query = (select(ranked.c.rank, people.c.id, people.c.name, people.c.city, people.c.club,
                    ranked.c.professional, ranked.c.warlock, ranked.c.tournaments)
             .join(people, people.c.id == ranked.c.person_id))
    wanted = clean_query(search, field="search", max_len=QUERY_LEN)
    city = clean_query(city, field="city", max_len=PLACE_LEN)
    club = clean_query(club, field="club", max_len=PLACE_LEN)
    if wanted:
        query = query.where(people.c.name_key.contains(name_key(wanted), autoescape=True))
    if city:
        query = query.where(people.c.city == city)
    if club:
        query = query.where(people.c.club == club)
    with db.read() as conn:
        total = int(conn.execute(select(func.count()).select_from(query.subquery()))
                    .scalar_one())
        rows = conn.execute(query.order_by(ranked.c.rank, people.c.name_key, people.c.id)
                            .offset((page - 1) * per_page).limit(per_page)).all()
    lines = tuple(LeaderboardLine(rank=int(rank), person=PersonRef(pid, name, pcity, pclub),
                                  professional=to_rating(pro),
                                  warlock=None if war is None else to_rating(war),
                                  tournaments=int(count))
                  for rank, pid, name, pcity, pclub, pro, war, count in rows)
    return Leaderboard(by=by, lines=lines, total=total, page=page, per_page=per_page,
                       search=wanted, city=city.strip(), club=club.strip())


def leaderboard_filters(db: Database) -> LeaderboardFilters:
    with db.read() as conn:
        rated = select(rating_current.c.person_id)
        cities = conn.execute(select(people.c.city).distinct()
                              .where(people.c.id.in_(rated), people.c.city != "")).scalars()
        city_list = tuple(sorted(cities))
        clubs = conn.execute(select(people.c.club).distinct()
                             .where(people.c.id.in_(rated), people.c.club != "")).scalars()
        return LeaderboardFilters(city_list, tuple(sorted(clubs)))


# ----- a player's profile ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One rated tournament of a player."""

    tournament_id: int
    tournament_name: str
    ended_at: datetime
    rated_format: RatedFormat
    participants: int
    """U."""
    place: int
    """M."""
    professional_k: Fraction
    warlock_k: Fraction
    disqualified_without_prizes: bool
    professional_before: Decimal
    professional_change: Decimal
    professional_after: Decimal
    bound: Bound
    floor_applied: bool
    reset_applied: bool
    warlock_before: Decimal | None
    """``None``: the player's first rated tournament."""
    warlock_change: Decimal
    warlock_after: Decimal
    warlock_reset: bool


@dataclass(frozen=True, slots=True)
class PlayerRatingProfile:
    """A player's ratings, rank, history (oldest first) and the chart's points."""

    person: PersonRef
    rated: bool
    """In the rating book (played a rated tournament or was imported)."""
    professional: Decimal
    warlock: Decimal | None
    tournaments: int
    professional_rank: int | None
    warlock_rank: int | None
    start_professional: Decimal
    """The imported rating, or the newcomer's 100."""
    start_warlock: Decimal | None
    history: tuple[HistoryLine, ...]
    chart: tuple[ChartPoint, ...]
    """The start, then the ratings after each tournament."""

    def chart_svg(self, *, width: int = 720, height: int = 360,
                  text: ChartText | None = None) -> str:
        """The rating-history chart, a self-contained SVG (``turnir.ratings_chart``)."""
        return rating_chart_svg(self.chart, width=width, height=height, text=text)


def find_person(db: Database, ref: str | int) -> PersonRef:
    """A person by number (``12``, ``#12``), exact name, or a part of the name of a rated
    player; several matches are refused with the candidates."""
    text = clean_ref(ref, field="person")
    with db.read() as conn:
        if isinstance(text, int):
            found = people_by_id(conn, [text])
            if not found:
                raise NotFoundError(f"no person #{text}", code="unknown_person")
            return found[text]
        key = name_key(text)
        if not key:
            raise UserError("give a player's name or number", code="unknown_person")
        exact = conn.execute(select(people.c.id).where(people.c.name_key == key)
                             .order_by(people.c.id)).scalars().all()
        ids = list(exact)
        if not ids:
            ids = list(conn.execute(
                select(people.c.id).join(rating_current,
                                         rating_current.c.person_id == people.c.id)
                .where(people.c.name_key.contains(key, autoescape=True))
                .order_by(people.c.name_key, people.c.id).limit(11)).scalars())
        if len(ids) == 1:
            return people_by_id(conn, ids)[ids[0]]
        if not ids:
            raise NotFoundError(f"no player named {str(ref)!r}", code="unknown_person")
        persons = people_by_id(conn, ids[:10])
        names = ", ".join(f"#{p.id} {p.name}" + (f" ({p.city})" if p.city else "")
                          for p in persons.values())
        raise UserError(f"{str(ref)!r} matches several people: {names}; give the number",
                        code="ambiguous_person")


def _rank(conn: Connection, column: ColumnElement[Any], value: int | None) -> int | None:
    if value is None:
        return None
    higher = conn.execute(select(func.count()).select_from(rating_current)
                          .where(column > value)).scalar_one()
    return int(higher) + 1


def _history(conn: Connection, person_id: int) -> tuple[HistoryLine, ...]:
    h, t = rating_history.c, rating_tournaments.c
    rows = conn.execute(
        select(h.tournament_id, tournaments.c.name, t.ended_at, t.rated_format, t.participants,
               h.place, t.professional_k, t.warlock_k, h.disqualified_without_prizes,
               h.professional_before, h.professional_change, h.professional_after, h.bound,
               h.floor_applied, h.reset_applied, h.warlock_before, h.warlock_change,
               h.warlock_after, h.warlock_reset)
        .join(rating_tournaments, t.tournament_id == h.tournament_id)
        .join(tournaments, tournaments.c.id == h.tournament_id)
        .where(h.person_id == person_id)
        .order_by(t.ended_at, t.tournament_id)
    ).all()
    return tuple(HistoryLine(
        tournament_id=r[0], tournament_name=r[1], ended_at=utc(r[2]),
        rated_format=RatedFormat(r[3]), participants=r[4], place=r[5],
        professional_k=parse_exact(r[6], "K"), warlock_k=parse_exact(r[7], "K"),
        disqualified_without_prizes=bool(r[8]), professional_before=to_rating(r[9]),
        professional_change=to_rating(r[10]), professional_after=to_rating(r[11]),
        bound=Bound(r[12]), floor_applied=bool(r[13]), reset_applied=bool(r[14]),
        warlock_before=None if r[15] is None else to_rating(r[15]),
        warlock_change=to_rating(r[16]), warlock_after=to_rating(r[17]),
        warlock_reset=bool(r[18]),
    ) for r in rows)


def player_rating(db: Database, person_id: int, *, start_label: str = "start"
                  ) -> PlayerRatingProfile:
    """A player's ratings, ranks, every rated tournament and the chart's points."""
    with db.read() as conn:
        persons = people_by_id(conn, [person_id])
        if person_id not in persons:
            raise NotFoundError(f"no person #{person_id}", code="unknown_person")
        c = rating_current.c
        current = conn.execute(select(c.professional, c.warlock, c.tournaments)
                               .where(c.person_id == person_id)).first()
        base = conn.execute(select(rating_base.c.professional, rating_base.c.warlock)
                            .where(rating_base.c.person_id == person_id)).first()
        history = _history(conn, person_id)
        pro_rank = _rank(conn, c.professional, None if current is None else current[0])
        war_rank = _rank(conn, c.warlock, None if current is None else current[1])
    start_pro = NEWCOMER_RATING if base is None else to_rating(base[0])
    start_war = None if base is None or base[1] is None else to_rating(base[1])
    chart = [ChartPoint(start_label, None, start_pro, start_war)]
    chart.extend(ChartPoint(line.tournament_name, line.ended_at.date(),
                            line.professional_after, line.warlock_after) for line in history)
    return PlayerRatingProfile(
        person=persons[person_id], rated=current is not None,
        professional=NEWCOMER_RATING if current is None else to_rating(current[0]),
        warlock=None if current is None or current[1] is None else to_rating(current[1]),
        tournaments=0 if current is None else int(current[2]),
        professional_rank=pro_rank, warlock_rank=war_rank, start_professional=start_pro,
        start_warlock=start_war, history=history, chart=tuple(chart))


# ----- tournaments -------------------------------------------------------------------------


def tournament_rating_report(db: Database, tournament_id: int) -> TournamentRatingReport:
    """The tournament's rating report: as stored once submitted, else the preview (refused with
    the reason when the tournament is not finished or not rated)."""
    with db.read() as conn:
        if stored_row(conn, tournament_id) is not None:
            return stored_report(conn, tournament_id)
    return preview_tournament(db, tournament_id).report


@dataclass(frozen=True, slots=True)
class RatedTournamentLine:
    tournament_id: int
    name: str
    ended_at: datetime
    rated_format: RatedFormat
    participants: int
    submitted_by: str
    version: int


def rated_tournaments(db: Database, *, limit: int = 100, offset: int = 0
                      ) -> tuple[RatedTournamentLine, ...]:
    """Rated tournaments, latest end first."""
    t = rating_tournaments.c
    with db.read() as conn:
        rows = conn.execute(
            select(t.tournament_id, tournaments.c.name, t.ended_at, t.rated_format,
                   t.participants, t.submitted_by, t.version)
            .join(tournaments, tournaments.c.id == t.tournament_id)
            .order_by(t.ended_at.desc(), t.tournament_id.desc()).offset(offset).limit(limit)
        ).all()
    return tuple(RatedTournamentLine(r[0], r[1], utc(r[2]), RatedFormat(r[3]), r[4], r[5], r[6])
                 for r in rows)

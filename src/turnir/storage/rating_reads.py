"""What the rating pages read (R-1..R-7): the leaderboard, a player's ratings and history, the
rated tournaments, the rating list to export, finding a person.

A repository: it never begins or commits a transaction (``turnir.services.rating_queries``
owns it) and returns small frozen records, never rows. Ratings are stored in hundredths and
come back as ``Decimal`` (``turnir.domain.ratings.to_rating``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from sqlalchemy import ColumnElement, Connection, Select, and_, func, select

from turnir.domain.ratings import (
    Bound,
    RatedFormat,
    RatingKind,
    optional_rating,
    parse_exact,
    to_rating,
)
from turnir.domain.text import search_words
from turnir.errors import Term
from turnir.storage.ratings import Pair, PersonRef, utc
from turnir.storage.tables import people, tournaments
from turnir.storage.tables_ratings import (
    rating_base,
    rating_current,
    rating_history,
    rating_tournaments,
)

# ----- the leaderboard ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LeaderboardLine:
    rank: int
    """Competition rank by the leaderboard's rating over the whole list."""
    person: PersonRef
    professional: Decimal
    warlock: Decimal | None
    tournaments: int
    """Rated tournaments played."""


def name_has_words(query: str) -> ColumnElement[bool]:
    """People whose name holds every word of ``query`` in any order, case and ё/е ignored
    (``turnir.domain.text.name_matches`` in SQL: the stored name key with ё replaced by е
    contains each word; the same on SQLite and PostgreSQL)."""
    key = func.replace(people.c.name_key, "\u0451", "\u0435")
    return and_(*(key.contains(word, autoescape=True) for word in search_words(query)))


def _ranked(by: RatingKind, key: str, city: str, club: str) -> Select[Any]:
    c = rating_current.c
    rating = c.professional if by is RatingKind.PROFESSIONAL else c.warlock
    ranked = (select(c.person_id, c.professional, c.warlock, c.tournaments,
                     func.rank().over(order_by=rating.desc()).label("rank"))
              .where(rating.is_not(None)).subquery())
    query = (select(ranked.c.rank, people.c.id, people.c.name, people.c.city, people.c.club,
                    ranked.c.professional, ranked.c.warlock, ranked.c.tournaments)
             .join(people, people.c.id == ranked.c.person_id))
    if key.strip():
        query = query.where(name_has_words(key))
    if city:
        query = query.where(people.c.city == city)
    if club:
        query = query.where(people.c.club == club)
    return query.order_by(ranked.c.rank, people.c.name_key, people.c.id)


def leaderboard_page(conn: Connection, by: RatingKind, *, key: str, city: str, club: str,
                     offset: int, limit: int) -> tuple[int, tuple[LeaderboardLine, ...]]:
    """How many rated players match (name key containing ``key``, exact city and club; empty:
    any), and the lines from ``offset`` on, strongest by ``by`` first."""
    query = _ranked(by, key, city, club)
    total = int(conn.execute(select(func.count()).select_from(query.order_by(None).subquery()))
                .scalar_one())
    rows = conn.execute(query.offset(offset).limit(limit)).all()
    return total, tuple(
        LeaderboardLine(rank=int(rank), person=PersonRef(pid, name, pcity, pclub),
                        professional=to_rating(pro), warlock=optional_rating(war),
                        tournaments=int(count))
        for rank, pid, name, pcity, pclub, pro, war, count in rows)


def rated_places(conn: Connection) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The cities and the clubs of rated players, sorted."""
    rated = select(rating_current.c.person_id)
    cities = conn.execute(select(people.c.city).distinct()
                          .where(people.c.id.in_(rated), people.c.city != "")).scalars()
    city_list = tuple(sorted(cities))
    clubs = conn.execute(select(people.c.club).distinct()
                         .where(people.c.id.in_(rated), people.c.club != "")).scalars()
    return city_list, tuple(sorted(clubs))


def rank_of(conn: Connection, by: RatingKind, value: int | None) -> int | None:
    """The competition rank of a rating ``value`` (hundredths) by ``by``."""
    if value is None:
        return None
    c = rating_current.c
    column = c.professional if by is RatingKind.PROFESSIONAL else c.warlock
    higher = conn.execute(select(func.count()).select_from(rating_current)
                          .where(column > value)).scalar_one()
    return int(higher) + 1


# ----- people ------------------------------------------------------------------------------


def people_named(conn: Connection, key: str) -> list[int]:
    """The people whose name key is ``key``, by number."""
    return [int(pid) for pid in conn.execute(
        select(people.c.id).where(people.c.name_key == key).order_by(people.c.id)).scalars()]


def rated_people_named_like(conn: Connection, key: str, *, limit: int) -> list[int]:
    """Rated people whose name holds every word of ``key`` in any order, case and ё/е
    ignored (at most ``limit``), by name."""
    if not key.strip():
        return []
    return [int(pid) for pid in conn.execute(
        select(people.c.id).join(rating_current, rating_current.c.person_id == people.c.id)
        .where(name_has_words(key))
        .order_by(people.c.name_key, people.c.id).limit(limit)).scalars()]


# ----- a player ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CurrentRating:
    """A rated person's line of the rating book (hundredths)."""

    professional: int
    warlock: int | None
    tournaments: int


def current_rating(conn: Connection, person_id: int) -> CurrentRating | None:
    c = rating_current.c
    row = conn.execute(select(c.professional, c.warlock, c.tournaments)
                       .where(c.person_id == person_id)).first()
    return None if row is None else CurrentRating(int(row[0]), row[1], int(row[2]))


def base_rating(conn: Connection, person_id: int) -> Pair | None:
    """The person's line of the imported list (hundredths), ``None`` when not listed."""
    row = conn.execute(select(rating_base.c.professional, rating_base.c.warlock)
                       .where(rating_base.c.person_id == person_id)).first()
    return None if row is None else (int(row[0]), row[1])


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


def person_history(conn: Connection, person_id: int) -> tuple[HistoryLine, ...]:
    """The person's rated tournaments, oldest first (R-6)."""
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
        professional_k=parse_exact(r[6], Term("K")), warlock_k=parse_exact(r[7], Term("K")),
        disqualified_without_prizes=bool(r[8]), professional_before=to_rating(r[9]),
        professional_change=to_rating(r[10]), professional_after=to_rating(r[11]),
        bound=Bound(r[12]), floor_applied=bool(r[13]), reset_applied=bool(r[14]),
        warlock_before=optional_rating(r[15]), warlock_change=to_rating(r[16]),
        warlock_after=to_rating(r[17]), warlock_reset=bool(r[18]),
    ) for r in rows)


# ----- tournaments and the list ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatedTournamentLine:
    tournament_id: int
    name: str
    ended_at: datetime
    rated_format: RatedFormat
    participants: int
    submitted_by: str
    version: int


def rated_tournament_lines(conn: Connection, *, limit: int, offset: int
                           ) -> tuple[RatedTournamentLine, ...]:
    """Rated tournaments, latest end first."""
    t = rating_tournaments.c
    rows = conn.execute(
        select(t.tournament_id, tournaments.c.name, t.ended_at, t.rated_format,
               t.participants, t.submitted_by, t.version)
        .join(tournaments, tournaments.c.id == t.tournament_id)
        .order_by(t.ended_at.desc(), t.tournament_id.desc()).offset(offset).limit(limit)
    ).all()
    return tuple(RatedTournamentLine(r[0], r[1], utc(r[2]), RatedFormat(r[3]), r[4], r[5], r[6])
                 for r in rows)


@dataclass(frozen=True, slots=True)
class ListedRating:
    """A person's current ratings as a rating list gives them."""

    name: str
    city: str
    club: str
    professional: Decimal
    warlock: Decimal | None
    tournaments: int


def listed_ratings(conn: Connection) -> list[ListedRating]:
    """Everyone's current ratings, strongest professional first (then by name)."""
    c = rating_current.c
    rows = conn.execute(
        select(people.c.name, people.c.city, people.c.club, c.professional, c.warlock,
               c.tournaments)
        .join(people, people.c.id == c.person_id)
        .order_by(c.professional.desc(), people.c.name_key, people.c.id)
    ).all()
    return [ListedRating(name, city, club, to_rating(pro), optional_rating(war), int(count))
            for name, city, club, pro, war, count in rows]

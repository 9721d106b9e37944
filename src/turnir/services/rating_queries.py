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
from decimal import Decimal

from turnir.domain.ratings import NEWCOMER_RATING, optional_rating, to_rating
from turnir.domain.ratings import RatingKind as RatingKind
from turnir.domain.text import PLACE_LEN, QUERY_LEN, clean_query, clean_ref, name_key
from turnir.errors import NotFoundError, UserError
from turnir.ratings_chart import ChartFormat, ChartPoint, ChartText, rating_chart_svg
from turnir.services.common import Database, reading
from turnir.services.rating_reports import TournamentRatingReport, stored_report
from turnir.services.ratings import preview_in
from turnir.storage.rating_reads import HistoryLine as HistoryLine
from turnir.storage.rating_reads import LeaderboardLine as LeaderboardLine
from turnir.storage.rating_reads import RatedTournamentLine as RatedTournamentLine
from turnir.storage.rating_reads import (
    base_rating,
    current_rating,
    leaderboard_page,
    people_named,
    person_history,
    rank_of,
    rated_people_named_like,
    rated_places,
    rated_tournament_lines,
)
from turnir.storage.ratings import PersonRef, people_by_id, submission

MAX_PER_PAGE = 500


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
        raise UserError("pages start at 1 and hold 1 to {most} lines", code="bad_page",
                        most=MAX_PER_PAGE)
    by = RatingKind(by)
    wanted = clean_query(search, field="search", max_len=QUERY_LEN)
    city = clean_query(city, field="city", max_len=PLACE_LEN)
    club = clean_query(club, field="club", max_len=PLACE_LEN)
    with reading(db) as tx:
        total, lines = leaderboard_page(tx, by, key=name_key(wanted) if wanted else "",
                                        city=city, club=club, offset=(page - 1) * per_page,
                                        limit=per_page)
    return Leaderboard(by=by, lines=lines, total=total, page=page, per_page=per_page,
                       search=wanted, city=city.strip(), club=club.strip())


def leaderboard_filters(db: Database) -> LeaderboardFilters:
    with reading(db) as tx:
        return LeaderboardFilters(*rated_places(tx))


# ----- a player's profile ------------------------------------------------------------------


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
                  text: ChartText | None = None, form: ChartFormat | None = None) -> str:
        """The rating-history chart, a self-contained SVG (``turnir.ratings_chart``)."""
        return rating_chart_svg(self.chart, width=width, height=height, text=text,
                                form=form)


def find_person(db: Database, ref: str | int) -> PersonRef:
    """A person by number (``12``, ``#12``), exact name, or a part of the name of a rated
    player; several matches are refused with the candidates."""
    text = clean_ref(ref, field="person")
    with reading(db) as tx:
        if isinstance(text, int):
            found = people_by_id(tx, [text])
            if not found:
                raise NotFoundError("no person #{number}", code="unknown_person", number=text)
            return found[text]
        key = name_key(text)
        if not key:
            raise UserError("give a player's name or number", code="unknown_person")
        ids = people_named(tx, key) or rated_people_named_like(tx, key, limit=11)
        if len(ids) == 1:
            return people_by_id(tx, ids)[ids[0]]
        if not ids:
            raise NotFoundError("no player named {name!r}", code="unknown_person",
                                name=str(ref))
        persons = people_by_id(tx, ids[:10])
    names = ", ".join(f"#{p.id} {p.name}" + (f" ({p.city})" if p.city else "")
                      for p in persons.values())
    raise UserError("{name!r} matches several people: {names}; give the number",
                    code="ambiguous_person", name=str(ref), names=names)


def player_rating(db: Database, person_id: int, *, start_label: str = "start"
                  ) -> PlayerRatingProfile:
    """A player's ratings, ranks, every rated tournament and the chart's points."""
    with reading(db) as tx:
        persons = people_by_id(tx, [person_id])
        if person_id not in persons:
            raise NotFoundError("no person #{number}", code="unknown_person", number=person_id)
        current = current_rating(tx, person_id)
        base = base_rating(tx, person_id)
        history = person_history(tx, person_id)
        pro_rank = rank_of(tx, RatingKind.PROFESSIONAL,
                           None if current is None else current.professional)
        war_rank = rank_of(tx, RatingKind.WARLOCK, None if current is None else current.warlock)
    start_pro = NEWCOMER_RATING if base is None else to_rating(base[0])
    start_war = None if base is None else optional_rating(base[1])
    chart = [ChartPoint(start_label, None, start_pro, start_war)]
    chart.extend(ChartPoint(line.tournament_name, line.ended_at.date(),
                            line.professional_after, line.warlock_after) for line in history)
    return PlayerRatingProfile(
        person=persons[person_id], rated=current is not None,
        professional=NEWCOMER_RATING if current is None else to_rating(current.professional),
        warlock=None if current is None else optional_rating(current.warlock),
        tournaments=0 if current is None else current.tournaments,
        professional_rank=pro_rank, warlock_rank=war_rank, start_professional=start_pro,
        start_warlock=start_war, history=history, chart=tuple(chart))


# ----- tournaments -------------------------------------------------------------------------


def tournament_rating_report(db: Database, tournament_id: int) -> TournamentRatingReport:
    """The tournament's rating report: as stored once submitted, else the preview (refused with
    the reason when the tournament is not finished or not rated)."""
    with reading(db) as tx:
        if submission(tx, tournament_id) is not None:
            return stored_report(tx, tournament_id)
        return preview_in(tx, tournament_id).report


def rated_tournaments(db: Database, *, limit: int = 100, offset: int = 0
                      ) -> tuple[RatedTournamentLine, ...]:
    """Rated tournaments, latest end first."""
    with reading(db) as tx:
        return rated_tournament_lines(tx, limit=limit, offset=offset)

"""The rating database's repository: reading and writing ``tables_ratings`` (R-1..R-7).

Like every repository it never begins or commits a transaction; the rating services own it
(``turnir.services.common.changing``/``reading``). Its siblings: ``storage.rating_events`` (the
tournament as the rating book sees it, and its rating terms) and ``storage.rating_reads`` (what
the rating pages read).
Ratings cross this boundary as the domain's records (``RatedTournament``, ``RatingBook``,
``RatingReport``) and are stored as integer hundredths (R-6).

The rating book is one for the whole database, so every change to it takes the *rating lock*
(``lock_rating_book``) after the tournament's own lock: on PostgreSQL an advisory transaction
lock, on SQLite the ``BEGIN IMMEDIATE`` every write already holds.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from sqlalchemy import (
    Connection,
    RowMapping,
    bindparam,
    delete,
    func,
    insert,
    select,
    text,
    update,
)

from turnir.domain.ratings import (
    DEFAULT_SETTINGS,
    Participant,
    PlayerRating,
    RatedFormat,
    RatedTournament,
    RatingBook,
    RatingReport,
    RatingSettings,
    WarlockFirstTournament,
    hundredths,
    optional_rating,
    to_rating,
)
from turnir.domain.ratings import exact_text as exact_text  # moved to the domain; kept for now
from turnir.domain.ratings import parse_exact as parse_exact
from turnir.errors import Term
from turnir.storage.direct import DirectStatement
from turnir.storage.mappers import name_key
from turnir.storage.tables import people
from turnir.storage.tables_ratings import (
    rating_base,
    rating_current,
    rating_history,
    rating_settings,
    rating_tournaments,
)

_PG_RATING_LOCK = 7_413_006
"""The PostgreSQL advisory lock key held while the rating book changes."""
_CHUNK = 500
"""Values per ``IN (…)`` list."""
_ROWS = 5000
"""Rows per batched insert or update."""

HistoryValues = tuple[int, int, bool, int, int, str, bool, bool, int | None, int, bool]
"""One participant as stored: person, place, J-4 flag, professional before and after, bound,
floor, reset, Warlock before (``None``: first tournament) and after, Warlock reset; ratings in
hundredths."""


def lock_rating_book(conn: Connection) -> None:
    """Serialise changes to the rating book for the rest of the transaction."""
    if conn.dialect.name != "sqlite":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_RATING_LOCK})


def utc(value: datetime) -> datetime:
    """Stored times are UTC; SQLite gives them back without a zone."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def chunks(values: Sequence[Any], size: int = _CHUNK) -> Iterator[Sequence[Any]]:
    for start in range(0, len(values), size):
        yield values[start:start + size]


# ----- settings ----------------------------------------------------------------------------


def load_settings(conn: Connection) -> tuple[RatingSettings, int]:
    """The rating database's settings and their version (0: never changed, the defaults)."""
    row = conn.execute(select(rating_settings)).mappings().first()
    if row is None:
        return DEFAULT_SETTINGS, 0
    return RatingSettings(
        many_participants=row["many_participants"],
        three_booster_k=parse_exact(row["three_booster_k"], Term("the 3-booster Warlock K")),
        warlock_first_tournament=WarlockFirstTournament(row["warlock_first_tournament"]),
        reset_warlock_on_disqualification=bool(row["reset_warlock_on_disqualification"]),
    ), int(row["version"])


def settings_json(settings: RatingSettings) -> dict[str, Any]:
    return {"many_participants": settings.many_participants,
            "three_booster_k": exact_text(Fraction(settings.three_booster_k)),
            "warlock_first_tournament": settings.warlock_first_tournament.value,
            "reset_warlock_on_disqualification": settings.reset_warlock_on_disqualification}


def save_settings(conn: Connection, settings: RatingSettings, version: int) -> None:
    values = settings_json(settings)
    if version == 0:
        conn.execute(insert(rating_settings).values(id=1, version=1, **values))
    else:
        conn.execute(update(rating_settings).where(rating_settings.c.id == 1)
                     .values(version=version + 1, **values))


# ----- rated tournaments -------------------------------------------------------------------


OrderKey = tuple[datetime, int]
"""``(ended_at, tournament id)``: the order of R-6."""


def _tournament(row: RowMapping, lines: Iterable[tuple[int, int, bool]]) -> RatedTournament:
    return RatedTournament(
        id=int(row["tournament_id"]), ended_at=utc(row["ended_at"]),
        format=RatedFormat(row["rated_format"]),
        professional_k=parse_exact(row["professional_k"], Term("the professional K")),
        participants=tuple(Participant(person, place, disqualified_without_prizes=bool(dq))
                           for person, place, dq in lines),
    )


def stored_row(conn: Connection, tournament_id: int) -> RowMapping | None:
    return conn.execute(select(rating_tournaments)
                        .where(rating_tournaments.c.tournament_id == tournament_id)
                        ).mappings().first()


@dataclass(frozen=True, slots=True)
class Submission:
    """A rated tournament's last submission (J-8)."""

    at: datetime
    by: str
    """The head judge who submitted it."""
    version: int
    """1 at the first submission, one more with each correction."""


def submission(conn: Connection, tournament_id: int) -> Submission | None:
    """The tournament's last submission, ``None`` when it was never submitted."""
    row = stored_row(conn, tournament_id)
    return None if row is None else Submission(utc(row["submitted_at"]),
                                               str(row["submitted_by"]), int(row["version"]))


def warlock_coefficients(conn: Connection) -> dict[int, str]:
    """Every rated tournament's stored Warlock K, as its exact text."""
    return {int(tid): str(k) for tid, k in conn.execute(
        select(rating_tournaments.c.tournament_id, rating_tournaments.c.warlock_k))}


def stored_tournament(conn: Connection, tournament_id: int) -> RatedTournament | None:
    """The tournament as it was last submitted, ``None`` when it never was."""
    row = stored_row(conn, tournament_id)
    if row is None:
        return None
    lines = conn.execute(
        select(rating_history.c.person_id, rating_history.c.place,
               rating_history.c.disqualified_without_prizes)
        .where(rating_history.c.tournament_id == tournament_id)
        .order_by(rating_history.c.place)
    ).all()
    return _tournament(row, [(p, m, dq) for p, m, dq in lines])


def last_key(conn: Connection, *, excluding: int | None = None) -> OrderKey | None:
    """The order key of the last tournament applied (other than ``excluding``)."""
    query = select(rating_tournaments.c.ended_at, rating_tournaments.c.tournament_id)
    if excluding is not None:
        query = query.where(rating_tournaments.c.tournament_id != excluding)
    row = conn.execute(query.order_by(rating_tournaments.c.ended_at.desc(),
                                      rating_tournaments.c.tournament_id.desc()).limit(1)).first()
    return None if row is None else (utc(row[0]), int(row[1]))


_ALL_PLACES = DirectStatement(
    select(rating_history.c.tournament_id, rating_history.c.person_id, rating_history.c.place,
           rating_history.c.disqualified_without_prizes)
    .order_by(rating_history.c.tournament_id, rating_history.c.place))


def _fetch_all(statement: DirectStatement, conn: Connection) -> list[Sequence[Any]]:
    """Every row of a statement without parameters, as the driver gives them (fast)."""
    cursor = statement.execute(conn, {})
    try:
        rows: list[Sequence[Any]] = cursor.fetchall()
    finally:
        cursor.close()
    return rows


def load_history(conn: Connection) -> list[RatedTournament]:
    """Every rated tournament, in the order of R-6."""
    rows = conn.execute(select(rating_tournaments).order_by(
        rating_tournaments.c.ended_at, rating_tournaments.c.tournament_id)).mappings().all()
    lines: dict[int, list[tuple[int, int, bool]]] = defaultdict(list)
    for tid, person, place, dq in _fetch_all(_ALL_PLACES, conn):
        lines[tid].append((person, place, dq))
    return [_tournament(row, lines[row["tournament_id"]]) for row in rows]


def save_tournament(conn: Connection, tournament: RatedTournament, report: RatingReport, *,
                    at: datetime, actor: str) -> int:
    """Insert or update the tournament's row; returns its new version."""
    values = {"ended_at": tournament.ended_at, "rated_format": tournament.format.value,
              "participants": tournament.size,
              "professional_k": exact_text(tournament.professional_k),
              "warlock_k": exact_text(report.warlock_k), "submitted_at": at,
              "submitted_by": actor}
    row = stored_row(conn, int(tournament.id))
    if row is None:
        conn.execute(insert(rating_tournaments).values(tournament_id=tournament.id, version=1,
                                                       **values))
        return 1
    version = int(row["version"]) + 1
    conn.execute(update(rating_tournaments)
                 .where(rating_tournaments.c.tournament_id == tournament.id)
                 .values(version=version, **values))
    return version


_UPDATE_WARLOCK_K = (update(rating_tournaments)
                     .where(rating_tournaments.c.tournament_id == bindparam("tid"))
                     .values(warlock_k=bindparam("k")))


def update_warlock_k(conn: Connection, coefficients: Mapping[int, Fraction]) -> None:
    """Store the Warlock K of some tournaments (it follows the settings, R-5)."""
    rows = [{"tid": tid, "k": exact_text(k)} for tid, k in coefficients.items()]
    for batch in chunks(rows, _ROWS):
        conn.execute(_UPDATE_WARLOCK_K, list(batch))


# ----- the history -------------------------------------------------------------------------


def report_values(report: RatingReport) -> list[HistoryValues]:
    """The rows a report stores, in place order (read from its exact integer results)."""
    values: list[HistoryValues] = []
    for participant, pro_before, pro, war in report.rows:
        _, _, bound, pro_new, floor, reset = pro
        rs, _, _, war_new, first, war_reset = war
        values.append((int(participant.player), participant.place,
                       participant.disqualified_without_prizes, pro_before, pro_new,
                       bound.value, floor, reset, None if first else rs, war_new, war_reset))
    return values


_ALL_VALUES = DirectStatement(
    select(rating_history.c.tournament_id, rating_history.c.person_id, rating_history.c.place,
           rating_history.c.disqualified_without_prizes, rating_history.c.professional_before,
           rating_history.c.professional_after, rating_history.c.bound,
           rating_history.c.floor_applied, rating_history.c.reset_applied,
           rating_history.c.warlock_before, rating_history.c.warlock_after,
           rating_history.c.warlock_reset)
    .order_by(rating_history.c.tournament_id, rating_history.c.place))
"""Every stored row, read straight from the driver (a whole-history replay reads them all)."""
_WHOLE_HISTORY = 1000
"""From this many tournaments on, ``stored_values`` reads every row instead of ``IN`` lists."""


def stored_values(conn: Connection, tournament_ids: Sequence[int]
                  ) -> dict[int, list[HistoryValues]]:
    """The stored rows of some tournaments, in place order, as ``report_values`` gives them."""
    found: dict[int, list[HistoryValues]] = defaultdict(list)
    wanted = set(tournament_ids)
    if len(wanted) >= _WHOLE_HISTORY:
        rows: Iterable[Sequence[Any]] = _fetch_all(_ALL_VALUES, conn)
    else:
        h = rating_history.c
        rows = [row for part in chunks(sorted(wanted)) for row in conn.execute(
            select(h.tournament_id, h.person_id, h.place, h.disqualified_without_prizes,
                   h.professional_before, h.professional_after, h.bound, h.floor_applied,
                   h.reset_applied, h.warlock_before, h.warlock_after, h.warlock_reset)
            .where(h.tournament_id.in_(part)).order_by(h.tournament_id, h.place))]
    for row in rows:
        if row[0] in wanted:
            found[row[0]].append((row[1], row[2], bool(row[3]), row[4], row[5], row[6],
                                  bool(row[7]), bool(row[8]), row[9], row[10], bool(row[11])))
    return found


def replace_history(conn: Connection,
                    tournaments: Sequence[tuple[int, Sequence[HistoryValues], Mapping[int, int]]]
                    ) -> None:
    """Store the rows of some tournaments, replacing theirs: ``(tournament id, values,
    person -> entry number)`` each; in a few batched statements."""
    for part in chunks([tid for tid, _, _ in tournaments]):
        conn.execute(delete(rating_history).where(rating_history.c.tournament_id.in_(part)))
    rows = [
        {"tournament_id": tid, "person_id": person, "number": numbers[person],
         "place": place, "disqualified_without_prizes": dq, "professional_before": pro_before,
         "professional_change": pro_after - pro_before, "professional_after": pro_after,
         "bound": bound, "floor_applied": floor, "reset_applied": reset,
         "warlock_before": war_before, "warlock_change": war_after - (war_before or 0),
         "warlock_after": war_after, "warlock_reset": war_reset}
        for tid, values, numbers in tournaments
        for (person, place, dq, pro_before, pro_after, bound, floor, reset, war_before,
             war_after, war_reset) in values
    ]
    for batch in chunks(rows, _ROWS):
        conn.execute(insert(rating_history), list(batch))


def entry_numbers(conn: Connection, tournament_ids: Sequence[int]) -> dict[int, dict[int, int]]:
    """Per stored tournament: person -> entry number."""
    found: dict[int, dict[int, int]] = defaultdict(dict)
    for part in chunks(list(tournament_ids)):
        for tid, person, number in conn.execute(
            select(rating_history.c.tournament_id, rating_history.c.person_id,
                   rating_history.c.number).where(rating_history.c.tournament_id.in_(part))
        ):
            found[tid][person] = number
    return found


# ----- the book: base list and current ratings ---------------------------------------------

Pair = tuple[int, int | None]
"""(professional, Warlock or ``None``) in hundredths."""


def load_base(conn: Connection) -> RatingBook:
    """The imported list every replay starts from."""
    return book_of({person: (pro, war) for person, pro, war in conn.execute(
        select(rating_base.c.person_id, rating_base.c.professional, rating_base.c.warlock)
        .order_by(rating_base.c.person_id))})


def current_pairs(conn: Connection, persons: Iterable[int] | None = None) -> dict[int, Pair]:
    """Current ratings of ``persons`` (everyone rated when ``None``); unrated ones are absent."""
    c = rating_current.c
    query = select(c.person_id, c.professional, c.warlock)
    if persons is None:
        return {p: (pro, war) for p, pro, war in conn.execute(query)}
    found: dict[int, Pair] = {}
    for part in chunks(sorted(set(persons))):
        found.update({p: (pro, war) for p, pro, war in conn.execute(
            query.where(c.person_id.in_(part)))})
    return found


def book_of(pairs: Mapping[int, Pair]) -> RatingBook:
    """A book holding ``pairs`` (for applying a tournament on top of the current ratings)."""
    return RatingBook.from_entries(
        PlayerRating(person, to_rating(pro), optional_rating(war))
        for person, (pro, war) in pairs.items())


def pair_of(rating: PlayerRating) -> Pair:
    return (hundredths(rating.professional),
            None if rating.warlock is None else hundredths(rating.warlock))


_UPDATE_CURRENT = (update(rating_current)
                   .where(rating_current.c.person_id == bindparam("person"))
                   .values(professional=bindparam("professional"),
                           warlock=bindparam("warlock"), updated_at=bindparam("at")))


def write_current(conn: Connection, old: Mapping[int, Pair], new: Mapping[int, Pair | None],
                  at: datetime) -> None:
    """Bring ``rating_current`` from ``old`` to ``new`` (``None``: no longer rated)."""
    gone, inserts, updates = [], [], []
    for person, pair in new.items():
        before = old.get(person)
        if pair is None:
            if before is not None:
                gone.append(person)
        elif before is None:
            inserts.append({"person_id": person, "professional": pair[0], "warlock": pair[1],
                            "tournaments": 0, "updated_at": at})
        elif before != pair:
            updates.append({"person": person, "professional": pair[0], "warlock": pair[1],
                            "at": at})
    for part in chunks(sorted(gone)):
        conn.execute(delete(rating_current).where(rating_current.c.person_id.in_(part)))
    for batch in chunks(updates, _ROWS):
        conn.execute(_UPDATE_CURRENT, list(batch))
    for batch in chunks(inserts, _ROWS):
        conn.execute(insert(rating_current), list(batch))


def recount_tournaments(conn: Connection, persons: Iterable[int] | None = None) -> None:
    """Set ``rating_current.tournaments`` from the history (for ``persons``, or everyone)."""
    c = rating_current.c
    counted = (select(func.count()).select_from(rating_history)
               .where(rating_history.c.person_id == c.person_id).scalar_subquery())
    if persons is None:
        conn.execute(update(rating_current).values(tournaments=counted))
        return
    for part in chunks(sorted(set(persons))):
        conn.execute(update(rating_current).where(c.person_id.in_(part))
                     .values(tournaments=counted))


def replace_base(conn: Connection, lines: Mapping[int, Pair], *, replace_all: bool,
                 at: datetime, actor: str) -> None:
    """Store an imported list: its people replace their base lines (or the whole base)."""
    if replace_all:
        conn.execute(delete(rating_base))
    else:
        for part in chunks(sorted(lines)):
            conn.execute(delete(rating_base).where(rating_base.c.person_id.in_(part)))
    rows = [{"person_id": person, "professional": pro, "warlock": war, "imported_at": at,
             "imported_by": actor} for person, (pro, war) in lines.items()]
    for part in chunks(rows):
        conn.execute(insert(rating_base), list(part))


# ----- people ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PersonRef:
    """A person as the rating pages name them."""

    id: int
    name: str
    city: str
    club: str


def known_people(conn: Connection, keys: Iterable[str]) -> dict[tuple[str, str], list[int]]:
    """The people whose names have one of ``keys`` (``name_key``), per (name key, city), in
    the order of their numbers."""
    known: dict[tuple[str, str], list[int]] = {}
    for part in chunks(sorted(set(keys))):
        for pid, key, city in conn.execute(
            select(people.c.id, people.c.name_key, people.c.city)
            .where(people.c.name_key.in_(part)).order_by(people.c.id)
        ):
            known.setdefault((key, city), []).append(pid)
    return known


def new_person(conn: Connection, *, name: str, city: str, club: str, at: datetime) -> int:
    """A new person; returns the number."""
    return int(conn.execute(insert(people).values(
        name=name, name_key=name_key(name), city=city, club=club, created_at=at
    ).returning(people.c.id)).scalar_one())


def people_by_id(conn: Connection, ids: Iterable[int]) -> dict[int, PersonRef]:
    found: dict[int, PersonRef] = {}
    for part in chunks(sorted(set(ids))):
        for pid, name, city, club in conn.execute(
            select(people.c.id, people.c.name, people.c.city, people.c.club)
            .where(people.c.id.in_(part))
        ):
            found[pid] = PersonRef(pid, name, city, club)
    return found


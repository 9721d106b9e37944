"""Import and export of the rating list (``turnir.formats.rating_list``; R-1, R-5, R-6).

**Import** loads an existing rating list as the *base* every replay starts from: each line is
matched to a person by name (case and spaces ignored) and city (exact): one such person is
that person; none, a new person (with the line's club); several, the import is refused as
ambiguous. A person listed twice is refused. The listed people's base lines are replaced (with
``replace_all``, the whole base is); then the whole history is replayed on top of the new
base, so rated tournaments already in the database are applied after the list, in order
(R-6). All of it, or nothing.

**Export** writes everyone's current ratings (strongest professional first), which imports
back into an empty database as the same list.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from turnir.domain.ratings import hundredths
from turnir.domain.text import NAME_LEN, PLACE_LEN, BadTextError, clean_name, name_key
from turnir.errors import Term, UserError
from turnir.formats.rating_list import RatingListLine
from turnir.services.common import Database, Tx, changing, reading
from turnir.services.ratings import ReplayResult, rebuild
from turnir.storage.mappers import Progress
from turnir.storage.rating_reads import listed_ratings
from turnir.storage.ratings import (
    Pair,
    known_people,
    load_settings,
    lock_rating_book,
    new_person,
    replace_base,
)


@dataclass(frozen=True, slots=True)
class RatingImport:
    """What an import did."""

    lines: int
    """Players in the list."""
    matched: int
    """Lines matched to a known person."""
    created: int
    """New people created."""
    replay: ReplayResult
    """The replay of the history on the new base; ``changed`` lists every current rating the
    import changed."""


def _checked(line: RatingListLine, index: int) -> RatingListLine:
    """The line with its texts checked and normalised (``turnir.domain.text``)."""
    try:
        return replace(line, name=clean_name(line.name, field="name", max_len=NAME_LEN),
                       city=clean_name(line.city, field="city", max_len=PLACE_LEN,
                                       required=False),
                       club=clean_name(line.club, field="club", max_len=PLACE_LEN,
                                       required=False))
    except BadTextError as error:
        raise BadTextError("line {line}: {error}", field=error.field, line=index,
                           error=error) from None


def _match(conn: Tx, lines: Sequence[RatingListLine], change_at: datetime
           ) -> tuple[list[int], int]:
    """The person of each line (created when unknown) and how many were created."""
    known = known_people(conn, (name_key(line.name) for line in lines))
    persons: list[int] = []
    created = 0
    seen: dict[int, int] = {}
    for index, line in enumerate(lines, start=1):
        key = (name_key(line.name), line.city)
        found = known.get(key, [])
        if len(found) > 1:
            raise UserError("line {line}: {name} ({city}) matches several people: #{numbers}",
                            code="ambiguous_person", line=index, name=line.name,
                            city=line.city or Term("no city"),
                            numbers=", #".join(map(str, found)))
        if found:
            person = found[0]
        else:
            person = new_person(conn, name=line.name, city=line.city, club=line.club,
                                at=change_at)
            known[key] = [person]
            created += 1
        if person in seen:
            raise UserError("line {line}: {name} ({city}) is already listed on line {first}",
                            code="duplicate_player", line=index, name=line.name,
                            city=line.city or Term("no city"), first=seen[person])
        seen[person] = index
        persons.append(person)
    return persons, created


def import_rating_list(db: Database, lines: Sequence[RatingListLine], *, actor: str,
                       replace_all: bool = False, source: str = Term("the list"),
                       progress: Progress | None = None) -> RatingImport:
    """Load a rating list as the base and replay the history on it (see the module docstring)."""
    if not lines:
        raise UserError("{source} lists nobody", code="bad_file", source=source)
    lines = [_checked(line, index) for index, line in enumerate(lines, start=1)]
    with changing(db, None, actor) as change:
        conn = change.conn
        lock_rating_book(conn)
        persons, created = _match(conn, lines, change.at)
        base: dict[int, Pair] = {
            person: (hundredths(line.professional),
                     None if line.warlock is None else hundredths(line.warlock))
            for person, line in zip(persons, lines, strict=True)}
        replace_base(conn, base, replace_all=replace_all, at=change.at, actor=change.actor)
        settings, _ = load_settings(conn)
        replay = rebuild(change, settings, progress=progress)
        digest = hashlib.sha256(repr([(p, base[p]) for p in persons]).encode()).hexdigest()
        change.log(None, "rating.import", "rating_base", "all", None, {
            "source": source, "lines": len(lines), "created": created,
            "replace_all": replace_all, "sha256": digest,
            "changed": len(replay.changed), "tournaments": replay.tournaments})
        return RatingImport(lines=len(lines), matched=len(lines) - created, created=created,
                            replay=replay)


def export_rating_list(db: Database) -> list[RatingListLine]:
    """Everyone's current ratings, strongest professional first (then by name)."""
    with reading(db) as tx:
        rows = listed_ratings(tx)
    return [RatingListLine(name=r.name, city=r.city, club=r.club, professional=r.professional,
                           warlock=r.warlock, tournaments=r.tournaments) for r in rows]

"""Use cases on the players of a tournament: register (one or a whole CSV), check in, drop,
late entry (P-7, S-5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, RowMapping, insert, select

from turnir.domain.limits import privilege_byes
from turnir.domain.model import Pairing, PairingKind, Player
from turnir.domain.text import (
    NAME_LEN,
    PLACE_LEN,
    REASON_LEN,
    BadTextError,
    clean_name,
    clean_text,
)
from turnir.domain.tournament import add_late_player, validate_players
from turnir.domain.tournament import drop_player as domain_drop
from turnir.errors import ConflictError, UserError
from turnir.formats.players_csv import PlayerLine
from turnir.services.common import changing, refuse_when_finished, touch_tournament
from turnir.services.eligibility import check_registration
from turnir.services.judges import HEAD_OR_ORGANIZER, ORGANIZER_ONLY, check_staff
from turnir.storage.database import Database
from turnir.storage.mappers import (
    Progress,
    insert_players,
    load_tournament,
    name_key,
    pairing_columns,
    player_json,
    tournament_row,
)
from turnir.storage.repositories import (
    Change,
    bump_version,
    check_version,
    entry_by_name,
    entry_by_ref,
    next_entry_number,
    people_for,
    person_for,
    round_row,
)
from turnir.storage.tables import drops, entries, granted_byes, pairings


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A participant of a stored tournament."""

    number: int
    """The player's number in the tournament (the domain ``PlayerId``)."""
    name: str
    city: str
    club: str
    granted_byes: tuple[int, ...]
    joined_round: int
    dropped_after: int | None
    checked_in: bool
    person_id: int | None
    version: int


def _info(row: RowMapping, byes: Sequence[int] = ()) -> PlayerInfo:
    return PlayerInfo(number=row["number"], name=row["name"], city=row["city"], club=row["club"],
                      granted_byes=tuple(sorted(byes)), joined_round=row["joined_round"],
                      dropped_after=row["dropped_after"], checked_in=bool(row["checked_in"]),
                      person_id=row["person_id"], version=row["version"])


def _byes_of(conn: Connection, tournament_id: int, number: int) -> list[int]:
    return [r for (r,) in conn.execute(
        select(granted_byes.c.round).where(granted_byes.c.tournament_id == tournament_id,
                                           granted_byes.c.number == number)
    )]


def _entry_info(conn: Connection, tournament_id: int, number: int) -> PlayerInfo:
    row = entry_by_ref(conn, tournament_id, number)
    return _info(row, _byes_of(conn, tournament_id, number))


def _refuse_started(row: RowMapping) -> None:
    refuse_when_finished(row)
    if row["status"] != "registration":
        raise ConflictError(
            "the tournament has started; a new player joins by late entry", code="started"
        )


def _refuse_taken(conn: Connection, tournament_id: int, name: str) -> None:
    taken = entry_by_name(conn, tournament_id, name)
    if taken is not None:
        raise UserError(f"{taken['name']} is already registered as #{taken['number']}",
                        code="duplicate_player")


def register_player(
    db: Database, tournament_id: int, *, name: str, actor: str, city: str = "",
    club: str = "", byes: int = 0, person_id: int | None = None, checked_in: bool = False,
    account_id: int | None = None,
) -> PlayerInfo:
    """Register a player before round 1, with privilege byes for the first ``byes`` rounds.
    ``account_id``: the web account registering, which must be the tournament's organizer
    (``turnir.services.judges``; every use case below takes it the same way)."""
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        row = tournament_row(conn, tournament_id)
        check_staff(conn, tournament_id, account_id, ORGANIZER_ONLY, what="register players")
        _refuse_started(row)
        number = next_entry_number(conn, tournament_id)
        player = _new_player(number, name, city, club, byes, row["swiss_rounds"])
        _refuse_taken(conn, tournament_id, player.name)
        person = person_for(conn, name=player.name, city=player.city, club=player.club,
                            at=change.at, person_id=person_id)
        if person_id is not None and conn.execute(
            select(entries.c.number).where(entries.c.tournament_id == tournament_id,
                                           entries.c.person_id == person_id)
        ).first() is not None:
            raise UserError(f"person #{person_id} is already registered in this tournament",
                            code="duplicate_player")
        insert_players(conn, tournament_id, [player], {number: person}, checked_in=checked_in)
        check_registration(conn, tournament_id, [number])
        touch_tournament(conn, row)
        change.log(tournament_id, "player.register", "entry", number, None,
                   {**player_json(player), "person_id": person, "checked_in": checked_in})
        return _entry_info(conn, tournament_id, number)


def _new_player(number: int, name: str, city: str, club: str, byes: int,
                swiss_rounds: int | None) -> Player:
    """A player from typed or imported values: text checked and normalised, byes bounded by
    the Swiss rounds (``turnir.domain.text``, ``turnir.domain.limits``)."""
    player = Player(id=number, name=clean_name(name, field="name", max_len=NAME_LEN),
                    city=clean_name(city, field="city", max_len=PLACE_LEN, required=False),
                    club=clean_name(club, field="club", max_len=PLACE_LEN, required=False),
                    granted_byes=privilege_byes(byes, swiss_rounds=swiss_rounds))
    validate_players([player])
    return player


def register_players(
    db: Database, tournament_id: int, lines: Sequence[PlayerLine], *, actor: str,
    progress: Progress | None = None, account_id: int | None = None,
) -> list[PlayerInfo]:
    """Register a whole list (a players CSV) at once: all of them, or none when any is wrong."""
    if not lines:
        raise UserError("no players to register", code="bad_file")
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        row = tournament_row(conn, tournament_id)
        check_staff(conn, tournament_id, account_id, ORGANIZER_ONLY, what="register players")
        _refuse_started(row)
        first = next_entry_number(conn, tournament_id)
        new = []
        for i, ln in enumerate(lines):
            try:
                new.append(_new_player(first + i, ln.name, ln.city, ln.club, ln.byes,
                                       row["swiss_rounds"]))
            except BadTextError as error:
                raise BadTextError(f"player {i + 1}: {error.message}",
                                   field=error.field) from None
            except UserError as error:
                raise UserError(f"player {i + 1} ({ln.name[:NAME_LEN]!r}): {error.message}",
                                code=error.code) from None
        validate_players(new)
        existing = {key: number for key, number in conn.execute(
            select(entries.c.name_key, entries.c.number)
            .where(entries.c.tournament_id == tournament_id)
        )}
        for player in new:
            if name_key(player.name) in existing:
                raise UserError(
                    f"{player.name} is already registered as #{existing[name_key(player.name)]}",
                    code="duplicate_player",
                )
        persons = people_for(conn, [(p.name, p.city, p.club) for p in new], change.at)
        insert_players(conn, tournament_id, new,
                       {p.id: person for p, person in zip(new, persons, strict=True)})
        check_registration(conn, tournament_id, [p.id for p in new])
        if progress is not None:
            progress(len(new), len(new))
        touch_tournament(conn, row)
        change.log(tournament_id, "player.import", "tournament", tournament_id, None,
                   {"players": [player_json(p) for p in new]})
        return list_players_in(conn, tournament_id)[-len(new):]


def list_players_in(conn: Connection, tournament_id: int) -> list[PlayerInfo]:
    byes: dict[int, list[int]] = {}
    for number, rnd in conn.execute(
        select(granted_byes.c.number, granted_byes.c.round)
        .where(granted_byes.c.tournament_id == tournament_id)
    ):
        byes.setdefault(number, []).append(rnd)
    return [_info(row, byes.get(row["number"], ())) for row in conn.execute(
        select(entries).where(entries.c.tournament_id == tournament_id)
        .order_by(entries.c.number)
    ).mappings()]


def list_players(db: Database, tournament_id: int) -> list[PlayerInfo]:
    with db.read() as conn:
        tournament_row(conn, tournament_id)
        return list_players_in(conn, tournament_id)


def check_in(
    db: Database, tournament_id: int, player: str | int, *, actor: str, present: bool = True,
    expected_version: int | None = None, account_id: int | None = None,
) -> PlayerInfo:
    """Mark a player as present (or not) before round 1; ``start_round`` can drop the absent."""
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        refuse_when_finished(tournament_row(conn, tournament_id))
        check_staff(conn, tournament_id, account_id, ORGANIZER_ONLY, what="check players in")
        entry = entry_by_ref(conn, tournament_id, player)
        check_version(conn, tournament_id, "entry", entry["number"], entry["name"],
                      expected_version, entry["version"])
        if bool(entry["checked_in"]) != present:
            bump_version(conn, entries, entry["id"], entry["version"], {"checked_in": present})
            change.log(tournament_id, "player.check_in", "entry", entry["number"],
                       {"checked_in": bool(entry["checked_in"]), "version": entry["version"]},
                       {"checked_in": present, "version": entry["version"] + 1})
        return _entry_info(conn, tournament_id, entry["number"])


def drop_player(
    db: Database, tournament_id: int, player: str | int, *, actor: str, reason: str = "",
    expected_version: int | None = None, account_id: int | None = None,
) -> PlayerInfo:
    """The player leaves: not paired from the next round on, keeps their results (P-7).
    A web account (``account_id``) must be the organizer or the head judge."""
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        row = tournament_row(conn, tournament_id)
        refuse_when_finished(row)
        check_staff(conn, tournament_id, account_id, HEAD_OR_ORGANIZER, what="drop players")
        entry = entry_by_ref(conn, tournament_id, player)
        check_version(conn, tournament_id, "entry", entry["number"], entry["name"],
                      expected_version, entry["version"])
        drop_in(change, tournament_id, row, entry,
                reason=clean_text(reason, field="reason", max_len=REASON_LEN))
        return _entry_info(conn, tournament_id, entry["number"])


def drop_in(change: Change, tournament_id: int, row: RowMapping, entry: RowMapping, *,
            reason: str) -> int | None:
    """Drop ``entry`` inside an open change (a disqualification reuses it, J-4): stored,
    counted in the tournament's version and logged; returns the round dropped after."""
    conn = change.conn
    t = domain_drop(load_tournament(conn, tournament_id), entry["number"])
    after = t.player(entry["number"]).dropped_after
    _store_drop(conn, tournament_id, entry, after, change.actor, change.at, reason)
    touch_tournament(conn, row)
    change.log(tournament_id, "player.drop", "entry", entry["number"],
               {"dropped_after": None, "version": entry["version"]},
               {"dropped_after": after, "version": entry["version"] + 1, "reason": reason})
    return after


def _store_drop(conn: Connection, tournament_id: int, entry: RowMapping, after: int | None,
                actor: str, at: Any, reason: str) -> None:
    bump_version(conn, entries, entry["id"], entry["version"], {"dropped_after": after})
    conn.execute(insert(drops).values(tournament_id=tournament_id, number=entry["number"],
                                      after_round=after, at=at, actor=actor, reason=reason))


def drop_absent(conn: Connection, tournament_id: int, actor: str, at: Any) -> list[int]:
    """Before round 1: drop every player who did not check in (after round 0)."""
    absent = list(conn.execute(
        select(entries).where(entries.c.tournament_id == tournament_id,
                              entries.c.checked_in.is_(False),
                              entries.c.dropped_after.is_(None))
    ).mappings())
    for entry in absent:
        _store_drop(conn, tournament_id, entry, 0, actor, at, "did not check in")
    return [entry["number"] for entry in absent]


def late_entry(
    db: Database, tournament_id: int, *, name: str, actor: str, city: str = "", club: str = "",
    byes_for_missed_rounds: bool = False, account_id: int | None = None,
) -> PlayerInfo:
    """Late entry (P-7): joins from the next round with 0 points, or with privilege byes for
    the rounds already played."""
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        row = tournament_row(conn, tournament_id)
        refuse_when_finished(row)
        check_staff(conn, tournament_id, account_id, ORGANIZER_ONLY, what="register players")
        before = load_tournament(conn, tournament_id)
        after = add_late_player(
            before, clean_name(name, field="name", max_len=NAME_LEN),
            byes_for_missed_rounds=byes_for_missed_rounds,
            city=clean_name(city, field="city", max_len=PLACE_LEN, required=False),
            club=clean_name(club, field="club", max_len=PLACE_LEN, required=False))
        player = after.players[-1]
        person = person_for(conn, name=player.name, city=player.city, club=player.club,
                            at=change.at)
        insert_players(conn, tournament_id, [player], {player.id: person})
        check_registration(conn, tournament_id, [player.id])
        for old, new in zip(before.rounds, after.rounds, strict=True):
            added = new.pairings[len(old.pairings):]
            if added:
                _append_lines(conn, tournament_id, old.number, added, change.actor, change.at)
        touch_tournament(conn, row)
        change.log(tournament_id, "player.late_entry", "entry", player.id, None,
                   {**player_json(player), "person_id": person})
        return _entry_info(conn, tournament_id, player.id)


def _append_lines(conn: Connection, tournament_id: int, round_number: int,
                  lines: Sequence[Pairing], actor: str, at: Any) -> None:
    rnd = round_row(conn, tournament_id, round_number)
    last = conn.execute(
        select(pairings.c.position).where(pairings.c.round_id == rnd["id"])
        .order_by(pairings.c.position.desc()).limit(1)
    ).scalar() or 0
    for offset, line in enumerate(lines, start=1):
        if line.kind is not PairingKind.PRIVILEGE_BYE:
            raise UserError("only privilege byes can be added to a played round",
                            code="bad_pairing")
        conn.execute(insert(pairings).values(
            tournament_id=tournament_id, round_id=rnd["id"], position=last + offset,
            version=1, updated_by=actor, updated_at=at, **pairing_columns(line),
        ))

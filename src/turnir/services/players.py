"""Use cases on the players of a tournament: register (one or a whole CSV), check in (one or
all), drop and reinstate, late entry (P-7, S-5); the players list of the manage page, found by
name and filtered (``select_players``), in surname order (``turnir.domain.names``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from turnir.domain.limits import privilege_byes
from turnir.domain.model import Pairing, PairingKind, Player, Status
from turnir.domain.names import full_name, surname_order
from turnir.domain.text import (
    NAME_LEN,
    PLACE_LEN,
    QUERY_LEN,
    REASON_LEN,
    BadTextError,
    clean_name,
    clean_query,
    clean_text,
    name_matches,
)
from turnir.domain.tournament import add_late_player, validate_players
from turnir.domain.tournament import drop_player as domain_drop
from turnir.errors import ConflictError, Term, UserError
from turnir.formats.players_csv import PlayerLine
from turnir.services.common import Tx, changing, reading, refuse_when_finished, touch_tournament
from turnir.services.eligibility import check_registration
from turnir.services.judges import HEAD_OR_ORGANIZER, ORGANIZER_ONLY, check_staff
from turnir.storage import players_repo, rounds_repo
from turnir.storage.database import Database
from turnir.storage.mappers import (
    Progress,
    insert_players,
    load_tournament,
    name_key,
    player_json,
    tournament_row,
)
from turnir.storage.players_repo import StoredEntry
from turnir.storage.repositories import (
    Change,
    check_version,
    last_round_number,
    next_entry_number,
    people_for,
    person_for,
    round_row,
)

Row = Mapping[Any, Any]
"""A row read in the transaction (``turnir.storage``), by column name."""


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
    surname: str = ""
    """The surname kept apart (read from the name when it was typed in one field)."""
    given_name: str = ""


def _info(entry: StoredEntry, byes: Sequence[int] = ()) -> PlayerInfo:
    return PlayerInfo(number=entry.number, name=entry.name, city=entry.city, club=entry.club,
                      granted_byes=tuple(sorted(byes)), joined_round=entry.joined_round,
                      dropped_after=entry.dropped_after, checked_in=entry.checked_in,
                      person_id=entry.person_id, version=entry.version,
                      surname=entry.surname, given_name=entry.given_name)


@dataclass(frozen=True, slots=True)
class TypedName:
    """A player's name as typed: in one field (``name``), or as a surname and a given name
    (then the name shown is "given surname", ``turnir.domain.names.full_name``)."""

    name: str = ""
    surname: str = ""
    given_name: str = ""

    def cleaned(self) -> TypedName:
        """The name checked and normalised (``BadTextError`` names the field)."""
        surname = clean_name(self.surname, field="surname", max_len=NAME_LEN, required=False)
        given = clean_name(self.given_name, field="given name", max_len=NAME_LEN,
                           required=False)
        if not surname and given:
            raise BadTextError("the {name} is empty", field="surname", name=Term("surname"))
        typed = self.name if not surname else full_name(surname, given)
        return TypedName(clean_name(typed, field="name", max_len=NAME_LEN), surname, given)


def _entry_info(tx: Tx, tournament_id: int, number: int) -> PlayerInfo:
    return _info(players_repo.entry(tx, tournament_id, number),
                 players_repo.byes_of(tx, tournament_id, number))


def _refuse_started(row: Row) -> None:
    refuse_when_finished(row)
    if row["status"] != Status.REGISTRATION:
        raise ConflictError(
            "the tournament has started; a new player joins by late entry", code="started"
        )


def _open_registration(tx: Tx, tournament_id: int, account_id: int | None) -> Row:
    """The tournament's row, when the account may register players in it now (before round
    1; a later player joins by late entry)."""
    row = tournament_row(tx, tournament_id)
    check_staff(tx, tournament_id, account_id, ORGANIZER_ONLY, what="register players")
    _refuse_started(row)
    return row


def _refuse_taken(tx: Tx, tournament_id: int, name: str) -> None:
    taken = players_repo.entry_named(tx, tournament_id, name)
    if taken is not None:
        _already_registered(taken.name, taken.number)


def _already_registered(name: str, number: int) -> None:
    raise UserError("{name} is already registered as #{number}", code="duplicate_player",
                    name=name, number=number)


def register_player(
    db: Database, tournament_id: int, *, name: str = "", actor: str, city: str = "",
    club: str = "", byes: int = 0, person_id: int | None = None, checked_in: bool = False,
    account_id: int | None = None, surname: str = "", given_name: str = "",
) -> PlayerInfo:
    """Register a player before round 1, with privilege byes for the first ``byes`` rounds.
    The name comes in one field (``name``) or as ``surname`` and ``given_name``.
    ``account_id``: the web account registering, which must be the tournament's organizer
    (``turnir.services.judges``; every use case below takes it the same way)."""
    with changing(db, tournament_id, actor) as change:
        row = _open_registration(change.conn, tournament_id, account_id)
        return register_in(change, tournament_id, row, TypedName(name, surname, given_name),
                           city=city, club=club, byes=byes, person_id=person_id,
                           checked_in=checked_in)


def register_in(change: Change, tournament_id: int, row: Row, typed: TypedName, *,
                city: str = "", club: str = "", byes: int = 0, person_id: int | None = None,
                checked_in: bool = False, how: dict[str, Any] | None = None) -> PlayerInfo:
    """The one registration path, inside the caller's transaction once it has checked who
    registers (``register_player``: the organizer; ``services.self_entry``: the player
    themselves): the entry written, the eligibility checks (J-5, J-8, C-2), the audit record
    (with ``how``, e.g. a self-entry's mark)."""
    conn = change.conn
    _refuse_started(row)
    number = next_entry_number(conn, tournament_id)
    player = _new_player(number, typed, city, club, byes, row["swiss_rounds"])
    _refuse_taken(conn, tournament_id, player.name)
    person = person_for(conn, name=player.name, city=player.city, club=player.club,
                        at=change.at, person_id=person_id)
    if person_id is not None and players_repo.person_registered(conn, tournament_id,
                                                                person_id):
        raise UserError("person #{person} is already registered in this tournament",
                        code="duplicate_player", person=person_id)
    insert_players(conn, tournament_id, [player], {number: person}, checked_in=checked_in)
    check_registration(conn, tournament_id, [number])
    touch_tournament(conn, row)
    change.log(tournament_id, "player.register", "entry", number, None,
               {**player_json(player), "person_id": person, "checked_in": checked_in,
                **(how or {})})
    return _entry_info(conn, tournament_id, number)


def _new_player(number: int, typed: TypedName, city: str, club: str, byes: int,
                swiss_rounds: int | None) -> Player:
    """A player from typed or imported values: text checked and normalised, byes bounded by
    the Swiss rounds (``turnir.domain.text``, ``turnir.domain.limits``)."""
    name = typed.cleaned()
    player = Player(id=number, name=name.name, surname=name.surname,
                    given_name=name.given_name,
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
        row = _open_registration(conn, tournament_id, account_id)
        first = next_entry_number(conn, tournament_id)
        new = []
        for i, ln in enumerate(lines):
            try:
                typed = TypedName(ln.name, ln.surname, ln.given_name)
                new.append(_new_player(first + i, typed, ln.city, ln.club, ln.byes,
                                       row["swiss_rounds"]))
            except BadTextError as error:
                raise BadTextError("player {line}: {error}", field=error.field, line=i + 1,
                                   error=error) from None
            except UserError as error:
                raise UserError("player {line} ({name!r}): {error}", code=error.code,
                                line=i + 1, name=ln.name[:NAME_LEN], error=error) from None
        validate_players(new)
        existing = players_repo.numbers_by_key(conn, tournament_id)
        for player in new:
            if name_key(player.name) in existing:
                _already_registered(player.name, existing[name_key(player.name)])
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


def list_players_in(tx: Tx, tournament_id: int) -> list[PlayerInfo]:
    byes = players_repo.byes_by_player(tx, tournament_id)
    return [_info(entry, byes.get(entry.number, ()))
            for entry in players_repo.entry_list(tx, tournament_id)]


def list_players(db: Database, tournament_id: int) -> list[PlayerInfo]:
    with reading(db) as tx:
        tournament_row(tx, tournament_id)
        return list_players_in(tx, tournament_id)


def check_in(
    db: Database, tournament_id: int, player: str | int, *, actor: str, present: bool = True,
    expected_version: int | None = None, account_id: int | None = None,
) -> PlayerInfo:
    """Mark a player as present (or not) before round 1; ``start_round`` can drop the absent."""
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        refuse_when_finished(tournament_row(conn, tournament_id))
        check_staff(conn, tournament_id, account_id, ORGANIZER_ONLY, what="check players in")
        entry = _entry_seen(conn, tournament_id, player, expected_version)
        if entry.checked_in != present:
            players_repo.set_checked_in(conn, entry, present)
            change.log(tournament_id, "player.check_in", "entry", entry.number,
                       {"checked_in": entry.checked_in, "version": entry.version},
                       {"checked_in": present, "version": entry.version + 1})
        return _entry_info(conn, tournament_id, entry.number)


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
        entry = _entry_seen(conn, tournament_id, player, expected_version)
        drop_in(change, tournament_id, row, entry,
                reason=clean_text(reason, field="reason", max_len=REASON_LEN))
        return _entry_info(conn, tournament_id, entry.number)


def _entry_seen(tx: Tx, tournament_id: int, player: str | int,
                expected_version: int | None) -> StoredEntry:
    """The player's entry, refused when it changed since the version the caller saw."""
    entry = players_repo.entry(tx, tournament_id, player)
    check_version(tx, tournament_id, "entry", entry.number, entry.name, expected_version,
                  entry.version)
    return entry


def drop_in(change: Change, tournament_id: int, row: Row, entry: StoredEntry | Row, *,
            reason: str) -> int | None:
    """Drop ``entry`` inside an open change (a disqualification reuses it, J-4): stored,
    counted in the tournament's version and logged; returns the round dropped after."""
    conn = change.conn
    if not isinstance(entry, StoredEntry):  # a row (``repositories.entry_by_ref``)
        entry = players_repo.stored_entry(entry)
    t = domain_drop(load_tournament(conn, tournament_id), entry.number)
    after = t.player(entry.number).dropped_after
    players_repo.store_drop(conn, tournament_id, entry, after, actor=change.actor,
                            at=change.at, reason=reason)
    touch_tournament(conn, row)
    change.log(tournament_id, "player.drop", "entry", entry.number,
               {"dropped_after": None, "version": entry.version},
               {"dropped_after": after, "version": entry.version + 1, "reason": reason})
    return after


def drop_absent(tx: Tx, tournament_id: int, actor: str, at: datetime) -> list[int]:
    """Before round 1: drop every player who did not check in (after round 0)."""
    absent = players_repo.absent_entries(tx, tournament_id)
    for entry in absent:
        players_repo.store_drop(tx, tournament_id, entry, 0, actor=actor, at=at,
                                reason="did not check in")
    return [entry.number for entry in absent]


def late_entry(
    db: Database, tournament_id: int, *, name: str = "", actor: str, city: str = "",
    club: str = "", byes_for_missed_rounds: bool = False, account_id: int | None = None,
    surname: str = "", given_name: str = "",
) -> PlayerInfo:
    """Late entry (P-7): joins from the next round with 0 points, or with privilege byes for
    the rounds already played. The name as ``register_player`` takes it."""
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        row = tournament_row(conn, tournament_id)
        refuse_when_finished(row)
        check_staff(conn, tournament_id, account_id, ORGANIZER_ONLY, what="register players")
        before = load_tournament(conn, tournament_id)
        typed = TypedName(name, surname, given_name).cleaned()
        after = add_late_player(
            before, typed.name, byes_for_missed_rounds=byes_for_missed_rounds,
            city=clean_name(city, field="city", max_len=PLACE_LEN, required=False),
            club=clean_name(club, field="club", max_len=PLACE_LEN, required=False))
        player = replace(after.players[-1], surname=typed.surname,
                         given_name=typed.given_name)
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


def _append_lines(tx: Tx, tournament_id: int, round_number: int,
                  lines: Sequence[Pairing], actor: str, at: datetime) -> None:
    rnd = round_row(tx, tournament_id, round_number)
    if any(line.kind is not PairingKind.PRIVILEGE_BYE for line in lines):
        raise UserError("only privilege byes can be added to a played round",
                        code="bad_pairing")
    rounds_repo.append_lines(tx, tournament_id, rnd["id"], lines, actor=actor, at=at)


def check_in_all(db: Database, tournament_id: int, *, actor: str,
                 account_id: int | None = None) -> list[PlayerInfo]:
    """Mark every player still in and not yet present as present ("check in all"); each one
    logged as its own check-in. Returns those it checked in (none when all were present)."""
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        refuse_when_finished(tournament_row(conn, tournament_id))
        check_staff(conn, tournament_id, account_id, ORGANIZER_ONLY, what="check players in")
        absent = players_repo.absent_entries(conn, tournament_id)
        for entry in absent:
            players_repo.set_checked_in(conn, entry, True)
            change.log(tournament_id, "player.check_in", "entry", entry.number,
                       {"checked_in": False, "version": entry.version},
                       {"checked_in": True, "version": entry.version + 1, "all": True})
        return [_entry_info(conn, tournament_id, entry.number) for entry in absent]


DISQUALIFIED = "disqualified ("
"""How the drop of a disqualification starts its reason (``penalty_losses``, J-4)."""


def reinstate_player(
    db: Database, tournament_id: int, player: str | int, *, actor: str,
    expected_version: int | None = None, account_id: int | None = None,
) -> PlayerInfo:
    """Undo a drop (P-7): a player dropped after round N is in again while round N+1 is not
    paired (they are paired from it on, as if they had never left). Refused once it is paired,
    after the finish, and for a disqualification (J-4: the penalty decides that). Logged.
    A web account must be the organizer or the head judge, as for a drop."""
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        row = tournament_row(conn, tournament_id)
        refuse_when_finished(row)
        check_staff(conn, tournament_id, account_id, HEAD_OR_ORGANIZER, what="drop players")
        entry = _entry_seen(conn, tournament_id, player, expected_version)
        after = entry.dropped_after
        if after is None:
            raise ConflictError("{name} has not dropped", code="not_dropped", name=entry.name)
        reason = players_repo.last_drop_reason(conn, tournament_id, entry.number) or ""
        if reason.startswith(DISQUALIFIED):
            raise ConflictError("{name} was disqualified; only a decision on the penalty "
                                "can bring them back", code="disqualified", name=entry.name)
        paired = last_round_number(conn, tournament_id)
        if paired > after:
            raise ConflictError("{name} dropped after round {round} and round {next} is "
                                "already paired; a player can come back only before the next "
                                "round is paired", code="reinstate_too_late",
                                name=entry.name, round=after, next=after + 1)
        players_repo.store_reinstatement(conn, entry)
        touch_tournament(conn, row)
        change.log(tournament_id, "player.reinstate", "entry", entry.number,
                   {"dropped_after": after, "version": entry.version},
                   {"dropped_after": None, "version": entry.version + 1})
        return _entry_info(conn, tournament_id, entry.number)


class Shown(StrEnum):
    """Which players the manage page lists."""

    ALL = "all"
    CHECKED_IN = "checked_in"
    NOT_CHECKED_IN = "not_checked_in"
    DROPPED = "dropped"


def select_players(players: Sequence[PlayerInfo], *, query: str = "",
                   shown: Shown = Shown.ALL) -> list[PlayerInfo]:
    """The players found by name (``turnir.domain.text.name_matches``: ё as е, words in any
    order; an empty query finds all) and kept by ``shown``, in surname order
    (``turnir.domain.names``; the checked-in filters leave out the dropped)."""
    words = clean_query(query, max_len=QUERY_LEN)
    kept = [p for p in players
            if (not words or name_matches(words, p.name)) and _shown(p, shown)]
    return sorted(kept, key=lambda p: (*surname_order(p.name, p.surname), p.number))


def _shown(player: PlayerInfo, shown: Shown) -> bool:
    if shown is Shown.DROPPED:
        return player.dropped_after is not None
    if shown is Shown.ALL:
        return True
    return player.dropped_after is None and player.checked_in == (shown is Shown.CHECKED_IN)


def enter_player(
    db: Database, tournament_id: int, *, name: str = "", surname: str = "",
    given_name: str = "", city: str = "", club: str = "", byes: int = 0,
    missed_byes: bool = False, actor: str, account_id: int | None = None,
) -> PlayerInfo:
    """The registration form: ``register_player`` before round 1, a ``late_entry``
    afterwards (P-7; byes for the missed rounds when ``missed_byes``)."""
    with reading(db) as tx:
        status = tournament_row(tx, tournament_id)["status"]
    if status == Status.REGISTRATION:
        return register_player(db, tournament_id, name=name, surname=surname,
                               given_name=given_name, city=city, club=club, byes=byes,
                               actor=actor, account_id=account_id)
    return late_entry(db, tournament_id, name=name, surname=surname, given_name=given_name,
                      city=city, club=club, byes_for_missed_rounds=missed_byes, actor=actor,
                      account_id=account_id)

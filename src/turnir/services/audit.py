"""Verifying the audit log (``turnir log verify``, the staff's log page): the chain of every
entry, and every stored pairing and result against what the log says it became.

Two checks, on one snapshot of the database:

1. **The chain** (``turnir.storage.audit``). Entries are read in ``seq`` order and each digest is
   computed again from the entry's content and the previous entry's digest. An entry whose
   content was rewritten (``altered``), a deleted entry (a ``gap`` in the sequence numbers), an
   entry inserted out of turn (``order``: its ``seq`` repeats or its id is older than the entry
   before it), one filed in another tournament's chain (``misfiled``), or a digest other than
   the one written down from an earlier verification (``anchor``) is reported.
2. **The replay** (``services.audit_replay``). The entries that create and change pairings and
   results are replayed, and the result is compared with the ``pairings`` rows (players, table,
   kind, result columns, version) and their games: a row changed, added or deleted with SQL,
   without an entry, is reported (``differs``, ``unlogged``, ``not_stored``) with the entry that
   last made it what it should be. Actions the replay cannot follow are listed as not checked.

What the chain cannot see on its own: someone who rewrites an entry *and* computes every later
digest again, or deletes the newest entries, leaves a consistent chain; the replay still sees
any result that no longer matches, and a head digest written down elsewhere (``--anchor``)
sees the rest (``docs/security.md``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from turnir.errors import UserError
from turnir.services.audit_replay import EntryRef, Line, Replay
from turnir.services.common import Database, Tx, reading
from turnir.storage import audit
from turnir.storage.audit import SERVER_CHAIN, chain_of
from turnir.storage.audit import AuditEntry as AuditEntry  # re-exported for the log page
from turnir.storage.mappers import load_tournament, tournament_row
from turnir.storage.staff_rows import staff_rows

MAX_PROBLEMS = 100
"""Findings kept per chain (the count is kept beyond)."""


class Finding(StrEnum):
    """What is wrong."""

    ALTERED = "altered"
    """The entry's content does not match its digest: rewritten."""
    GAP = "gap"
    """Sequence numbers are missing before this entry: entries were deleted."""
    ORDER = "order"
    """The entry's place repeats or contradicts the order written: inserted out of turn."""
    MISFILED = "misfiled"
    """The entry is in the chain of another tournament than its own."""
    ANCHOR = "anchor"
    """The entry at the anchored place does not have the digest written down (or is gone)."""
    UNREADABLE = "unreadable"
    """An entry that changes pairings does not say how, or contradicts the log before it."""
    DIFFERS = "differs"
    """A stored pairing or result differs from what the log says it became."""
    UNLOGGED = "unlogged"
    """A stored round or line that no entry made."""
    NOT_STORED = "not_stored"
    """A round or line the log made that is not stored."""


CHAIN_FINDINGS = frozenset({Finding.ALTERED, Finding.GAP, Finding.ORDER, Finding.MISFILED,
                            Finding.ANCHOR})


@dataclass(frozen=True, slots=True)
class Difference:
    """One column of a pairing: what the log says, what is stored."""

    field: str
    logged: Any
    stored: Any


@dataclass(frozen=True, slots=True)
class Problem:
    """One finding of a verification."""

    kind: Finding
    entry: EntryRef | None
    """The entry it is about (for a stored row: the entry that last made it; ``None``: none)."""
    round: int | None = None
    table: int | None = None
    differences: tuple[Difference, ...] = ()
    expected_seq: int | None = None
    """For a gap or a repeat: the sequence number that should have come."""
    note: str = ""
    """Technical detail (English): why an entry cannot be replayed."""

    def describe(self) -> str:
        """In English, for the command line."""
        where = ""
        if self.entry is not None:
            where = f"entry #{self.entry.id} (seq {self.entry.seq}, {self.entry.action})"
        at = ""
        if self.round is not None:
            at = f"round {self.round}" + ("" if self.table is None else f" table {self.table}")
        text = {
            Finding.ALTERED: f"{where}: its content does not match its hash (rewritten)",
            Finding.GAP: f"{where}: entries from seq {self.expected_seq} on are missing "
                         "before it (deleted)",
            Finding.ORDER: f"{where}: out of order (expected seq {self.expected_seq}; "
                           "inserted afterwards)",
            Finding.MISFILED: f"{where}: filed in another tournament's chain",
            Finding.ANCHOR: (f"{where}: its hash is not the one written down" if self.entry
                             else f"no entry at seq {self.expected_seq}, which was written "
                                  "down"),
            Finding.UNREADABLE: f"{where}: cannot be replayed: {self.note}",
            Finding.DIFFERS: f"{at} differs from what {where} made it: " + "; ".join(
                f"{d.field} logged {d.logged!r}, stored {d.stored!r}" for d in self.differences),
            Finding.UNLOGGED: f"{at} is stored, but no entry made it",
            Finding.NOT_STORED: f"{at} was made by {where}, but is not stored",
        }[self.kind]
        return text


@dataclass(frozen=True, slots=True)
class Unchecked:
    """An action whose effect on pairings and results the replay cannot check."""

    action: str
    count: int
    first: EntryRef


@dataclass(frozen=True, slots=True)
class ChainReport:
    """The verification of one chain: a tournament's, or the server-wide one."""

    tournament_id: int | None
    entries: int
    head_seq: int
    head_digest: str
    """The newest entry's digest: write it down to detect a rewrite of the whole chain."""
    problems: tuple[Problem, ...] = ()
    problem_count: int = 0
    unchecked: tuple[Unchecked, ...] = ()
    pairings_checked: bool = False
    """Whether the stored pairings and results were compared with the replayed log."""

    @property
    def ok(self) -> bool:
        return self.problem_count == 0

    @property
    def first(self) -> Problem | None:
        return self.problems[0] if self.problems else None


@dataclass(frozen=True, slots=True)
class Verification:
    chains: tuple[ChainReport, ...]

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.chains)

    @property
    def entries(self) -> int:
        return sum(c.entries for c in self.chains)

    @property
    def first(self) -> tuple[ChainReport, Problem] | None:
        for chain in self.chains:
            if chain.first is not None:
                return chain, chain.first
        return None


@dataclass(frozen=True, slots=True)
class Anchor:
    """A chain's digest at a sequence number, written down from an earlier verification."""

    seq: int
    digest: str

    @staticmethod
    def parse(text: str) -> Anchor:
        found = re.fullmatch(r"\s*(\d{1,12})\s*:\s*([0-9a-fA-F]{64})\s*", text)
        if found is None:
            raise UserError("an anchor is SEQ:HASH (the 64 hex digits of SHA-256), not "
                            "{text!r}", code="bad_anchor", text=text[:80])
        return Anchor(int(found.group(1)), found.group(2).lower())


def verify_log(db: Database, tournament_id: int | None = None, *,
               anchor: Anchor | None = None) -> Verification:
    """Verify one tournament's chain and pairings, or (``None``) every chain of the database.

    ``anchor`` (with a tournament): the digest its entry ``anchor.seq`` must have.
    """
    with reading(db) as tx:
        if tournament_id is not None:
            tournament_row(tx, tournament_id)
            return Verification((verify_chain(tx, tournament_id, anchor=anchor),))
        if anchor is not None:
            raise UserError("an anchor belongs to one tournament's chain; name the tournament",
                            code="bad_anchor")
        return Verification(tuple(verify_chain(tx, chain) for chain in audit.chains(tx)))


def verify_chain(conn: Tx, chain: int, *, anchor: Anchor | None = None) -> ChainReport:
    """The chain of ``chain`` (a tournament's id, or 0) and, for a tournament, its pairings."""
    tournament_id = None if chain == SERVER_CHAIN else chain
    found = _ChainCheck(chain, anchor)
    replay = Replay() if tournament_id is not None else None
    for entry in audit.chain_entries(conn, chain):
        found.check(entry)
        if replay is not None:
            replay.apply(entry)
    found.finish()
    problems = list(found.problems)
    unchecked: list[Unchecked] = []
    checked = False
    if replay is not None and tournament_id is not None:
        problems += [Problem(Finding.UNREADABLE, ref, note=note)
                     for ref, note in replay.unreadable]
        unchecked = [Unchecked(action, len(refs), refs[0])
                     for action, refs in sorted(replay.unchecked.items())]
        if not replay.blind:
            checked = True
            problems += compare_pairings(replay, audit.stored_rounds(conn, tournament_id),
                                         audit.stored_lines(conn, tournament_id),
                                         audit.stored_games(conn, tournament_id))
    return ChainReport(tournament_id=tournament_id, entries=found.count,
                       head_seq=found.head_seq, head_digest=found.previous or "",
                       problems=tuple(problems[:MAX_PROBLEMS]), problem_count=len(problems),
                       unchecked=tuple(unchecked), pairings_checked=checked)


@dataclass
class _ChainCheck:
    """The chain check, one entry at a time in ``seq`` order."""

    chain: int
    anchor: Anchor | None
    problems: list[Problem] = field(default_factory=list)
    count: int = 0
    head_seq: int = 0
    previous: str | None = None
    last_id: int = 0
    anchor_seen: bool = False

    def check(self, entry: AuditEntry) -> None:
        ref = EntryRef.of(entry)
        expected = self.head_seq + 1
        self.count += 1
        if self.anchor is not None and entry.seq == self.anchor.seq:
            self.anchor_seen = True
            if entry.digest != self.anchor.digest:
                self.problems.append(Problem(Finding.ANCHOR, ref, expected_seq=entry.seq))
        if chain_of(entry.tournament_id) != self.chain:
            self.problems.append(Problem(Finding.MISFILED, ref))
            return  # not part of this chain: the next entry links to the one before it
        if entry.seq < expected or entry.id <= self.last_id:
            self.problems.append(Problem(Finding.ORDER, ref, expected_seq=expected))
            return
        if entry.seq > expected:
            self.problems.append(Problem(Finding.GAP, ref, expected_seq=expected))
        elif entry.digest != entry.expected_digest(self.previous):
            self.problems.append(Problem(Finding.ALTERED, ref))
        self.head_seq = entry.seq
        self.previous = entry.digest
        self.last_id = entry.id

    def finish(self) -> None:
        if self.anchor is not None and not self.anchor_seen:
            self.problems.append(Problem(Finding.ANCHOR, None, expected_seq=self.anchor.seq))


def _stored_line(row: Mapping[Any, Any], games: Sequence[tuple[str | None, str]]) -> Line:
    return Line(table=row["table_no"], a=row["a"], b=row["b"], kind=row["kind"],
                wins_a=row["wins_a"], wins_b=row["wins_b"], draws=row["draws"],
                outcome=row["outcome"], ending=row["ending"], version=row["version"],
                games=tuple(games))


def compare_pairings(replay: Replay, round_numbers: Iterable[int],
                     rows: Iterable[Mapping[Any, Any]],
                     games: Mapping[int, Sequence[tuple[str | None, str]]]) -> list[Problem]:
    """Every difference between the replayed log and the stored rows, the oldest entry's
    first (a row no entry made, last)."""
    stored: dict[int, list[tuple[int, Line]]] = {number: [] for number in round_numbers}
    for found in rows:
        stored.setdefault(found["round"], []).append(
            (found["position"], _stored_line(found, games.get(found["id"], ()))))
    problems: list[Problem] = []
    for number in sorted(set(stored) | set(replay.rounds)):
        logged, kept = replay.rounds.get(number), stored.get(number)
        if logged is None:
            problems.append(Problem(Finding.UNLOGGED, None, round=number))
            continue
        if kept is None:
            problems.append(Problem(Finding.NOT_STORED, replay.sources.get(number),
                                    round=number))
            continue
        for index, line in enumerate(logged):
            if index >= len(kept):
                problems.append(Problem(Finding.NOT_STORED, line.source, round=number,
                                        table=line.table))
                continue
            position, row = kept[index]
            differences = [Difference(*d) for d in line.differences(row)]
            if position != index + 1:
                differences.insert(0, Difference("position", index + 1, position))
            if differences:
                problems.append(Problem(Finding.DIFFERS, line.source, round=number,
                                        table=line.table, differences=tuple(differences)))
        problems += [Problem(Finding.UNLOGGED, None, round=number, table=row.table)
                     for _, row in kept[len(logged):]]
    problems.sort(key=lambda p: (p.entry is None, p.entry.seq if p.entry else 0))
    return problems


# ----- the change stamp ----------------------------------------------------------------------


def change_stamp(db: Database, tournament_id: int) -> int:
    """The tournament's change stamp: the id of its newest audit entry (0 when it has none).
    Every change to a tournament appends to its log, so a page rendered at a stamp is still
    right while the stamp stays (the web's page cache). Blocking: call it off the event loop."""
    with reading(db) as tx:
        return audit.change_stamp(tx, tournament_id)


class ChangeStamps:
    """``change_stamp`` for a long-lived reader (the web's page cache): on an SQLite file one
    read-only connection of its own answers in microseconds, elsewhere a read transaction."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._reader = audit.StampReader(db)

    def stamp(self, tournament_id: int) -> int:
        found = self._reader.stamp(tournament_id)
        return change_stamp(self.db, tournament_id) if found is None else found

    def close(self) -> None:
        self._reader.close()


def change_stamps(db: Database, tournament_ids: Iterable[int]) -> dict[int, int]:
    """The change stamps of many tournaments in one read (``turnir.web.live``'s watcher: one
    query per tick for every watched tournament); a tournament that does not exist is left
    out. Blocking: call it off the event loop."""
    with reading(db) as tx:
        return audit.change_stamps(tx, tournament_ids)


# ----- the log page --------------------------------------------------------------------------


class LogFamily(StrEnum):
    """What an entry is about, for the log page's filter (an action's first word)."""

    RESULTS = "results"
    ROUNDS = "rounds"
    PLAYERS = "players"
    PENALTIES = "penalties"
    STAFF = "staff"
    RATINGS = "ratings"
    DECKS = "decks"
    DRAFT = "draft"
    TOURNAMENT = "tournament"
    OTHER = "other"


_FAMILY_PREFIXES: tuple[tuple[str, LogFamily], ...] = (
    ("result.", LogFamily.RESULTS), ("report.", LogFamily.RESULTS),
    ("game.", LogFamily.RESULTS), ("robot.dismiss", LogFamily.RESULTS),
    ("round.", LogFamily.ROUNDS), ("player.", LogFamily.PLAYERS),
    ("penalty.", LogFamily.PENALTIES), ("suspension.", LogFamily.PENALTIES),
    ("catalogue.", LogFamily.PENALTIES), ("infraction.", LogFamily.PENALTIES),
    ("judging.", LogFamily.PENALTIES), ("judge.", LogFamily.STAFF),
    ("staff.", LogFamily.STAFF), ("rating.", LogFamily.RATINGS),
    ("tournament.", LogFamily.TOURNAMENT), ("robot.", LogFamily.TOURNAMENT),
    ("deck.draft_", LogFamily.DRAFT), ("deck.", LogFamily.DECKS),
    ("format.", LogFamily.TOURNAMENT), ("draft.", LogFamily.DRAFT),
)


def family_of(action: str) -> LogFamily:
    """The family of an action (``result.correct`` → results); others, ``other``."""
    return next((family for prefix, family in _FAMILY_PREFIXES if action.startswith(prefix)),
                LogFamily.OTHER)


CONFIRMED_BY_BOTH = " (confirmed by both players)"
"""What ``services.reports`` adds to the actor's name when a result is recorded because both
players reported the same (stored in English in the log; pages translate it)."""


def actor_parts(actor: str) -> tuple[str, bool]:
    """The actor's name and whether the result was confirmed by both players."""
    if actor.endswith(CONFIRMED_BY_BOTH):
        return actor[:-len(CONFIRMED_BY_BOTH)], True
    return actor, False


def _round_in(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        head = value.split(".", 1)[0]
        return int(head) if head.isdigit() else None
    return None


def entry_round(entry: AuditEntry) -> int | None:
    """The round an entry is about: a pairing's (``round.table``), a round's, the round a
    penalty was given in or applied to, the round after which a player dropped (``None``:
    none, or before round 1)."""
    if entry.entity in ("pairing", "round"):
        return _round_in(entry.entity_id)
    data = entry.after or entry.before or {}
    for key in ("given_round", "pairing", "applied_round", "dropped_after"):
        found = _round_in(data.get(key))
        if found:
            return found
    return None


@dataclass(frozen=True, slots=True)
class LogQuery:
    """The log page's filter and page (everything from the newest, 100 a page)."""

    round: int | None = None
    family: LogFamily | None = None
    actor: str | None = None
    """The actor's name (``actor_parts``: a result "confirmed by both players" is its
    reporter's, so each person is one choice of the filter)."""
    page: int = 1
    size: int = 100

    def wants(self, entry: AuditEntry) -> bool:
        return ((self.round is None or entry_round(entry) == self.round)
                and (self.family is None or family_of(entry.action) is self.family)
                and (self.actor is None or actor_parts(entry.actor)[0] == self.actor))


@dataclass(frozen=True, slots=True)
class LogPage:
    """A tournament's entries that the filter wants (one page of them, newest first), the
    verification of the whole log, and what the filter can choose from."""

    entries: tuple[AuditEntry, ...]
    verification: ChainReport
    total: int = 0
    """Entries the filter wants, on every page."""
    page: int = 1
    pages: int = 1
    actors: tuple[str, ...] = ()
    """Everyone the log names, once each (without "confirmed by both players"),
    alphabetically."""
    rounds: tuple[int, ...] = ()
    """The rounds the entries are about."""
    players: Mapping[int, str] = field(default_factory=dict)
    """The tournament's players by number: the page names them in words."""
    staff: Mapping[int, str] = field(default_factory=dict)
    """Its staff by row id (a ``judge.*`` entry's ``entity_id``)."""


def log_page(db: Database, tournament_id: int, *, limit: int = 100,
             query: LogQuery | None = None) -> LogPage:
    """The entries ``query`` wants (``limit`` a page, newest first) and the verification, on
    one snapshot."""
    wanted = query or LogQuery(size=limit)
    with reading(db) as tx:
        tournament_row(tx, tournament_id)
        every = list(audit.chain_entries(tx, tournament_id))
        report = verify_chain(tx, tournament_id)
        players = {p.id: p.name for p in load_tournament(tx, tournament_id).players}
        staff = {member.id: member.name for member in staff_rows(tx, tournament_id)}
    every.reverse()
    found = [e for e in every if wanted.wants(e)]
    pages = max(1, -(-len(found) // wanted.size))
    page = min(max(1, wanted.page), pages)
    shown = found[(page - 1) * wanted.size:page * wanted.size]
    rounds = sorted({r for r in map(entry_round, every) if r is not None})
    return LogPage(tuple(shown), report, total=len(found), page=page, pages=pages,
                   actors=tuple(sorted({actor_parts(e.actor)[0] for e in every},
                                      key=str.casefold)),
                   rounds=tuple(rounds), players=players, staff=staff)


def brief(data: Mapping[str, Any] | None, *, limit: int = 120) -> str:
    """An entry's before or after, short (the log page and ``turnir log``): a result as its
    score and version, anything else as JSON cut at ``limit`` characters."""
    if data is None:
        return ""
    result = data.get("result")
    if isinstance(result, dict) and "score" in result:
        return f"{result['score']} (v{data.get('version', '?')})"
    text = json.dumps(data, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= limit else text[:limit - 1] + "…"

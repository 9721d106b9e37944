"""Replaying a tournament's audit log into the pairings and results it says are stored.

Every change to a pairing (пары тура) or a match result leaves an entry, and the entry says
what the pairing became:

- ``round.pair``: a new round, its lines ``[table, a, b, kind]`` in order, no results, each
  line at version 1 (the results a penalty decides at once follow as ``result.record``);
- ``round.undo``: the round is gone;
- ``round.swap``: the round's lines ``[table, a, b, kind]`` after a judge's seat swap; a line
  that changed goes up one version (the table itself never moves);
- ``result.record`` / ``result.correct`` (results, reports confirmed by both players, the
  robot's results, penalties' losses, technical results and claims: all of them record
  through ``services.results``): the match ``ROUND.TABLE`` has the result, games and version in
  the entry's ``after``;
- ``player.late_entry`` with privilege byes: a privilege bye line for the player at the end
  of every round already played;
- ``tournament.import``: the imported rounds' lines with their results (``lines``, written
  since issue 10; an older import entry records only counts, so its rounds cannot be checked).

Actions that change no pairing and no result are listed (``NEUTRAL``, ``NEUTRAL_PREFIXES``);
any other action is reported as *not checked* rather than silently passed. The replay is pure:
it reads entries and gives the expected lines; ``services.audit`` compares them with the rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from turnir.domain.model import Round
from turnir.storage.audit import AuditEntry

RESULT_FIELDS = ("wins_a", "wins_b", "draws", "outcome", "ending")
LINE_FIELDS = ("table", "a", "b", "kind", *RESULT_FIELDS, "version", "games")

Game = tuple[str | None, str]
"""One game as stored: the winner (``a``, ``b`` or ``None`` for a draw) and the reason."""

NEUTRAL = frozenset({
    "tournament.create", "tournament.finish", "tournament.robot", "tournament.clock",
    "player.register",
    "player.import", "player.check_in", "player.drop", "player.reinstate", "round.timer",
    "report.submit",
    "robot.dismiss", "tournament.cancel", "tournament.rules_level",
})
"""Actions that change no pairing and no result."""
NEUTRAL_PREFIXES = ("account.", "rating.", "suspension.", "penalty.", "infraction.",
                    "catalogue.", "judging.", "judge.", "game.", "robot.token.",
                    "cards.", "deck.", "format.", "schedule.", "draft.")
"""Families of actions that never touch pairings or results themselves: a penalty or a game
ruling that changes a result does it through ``services.results`` (a ``result.*`` entry).
Constructed play (issue 13: the card catalogue, decks, formats, schedules) pairs a scheduled
round through ``services.rounds`` (a ``round.*`` entry), never by itself. A draft (issue 14:
the plan, the seating, the live draft, replacements) pairs nothing by itself either."""


@dataclass(frozen=True, slots=True)
class EntryRef:
    """Which entry a finding is about."""

    id: int
    seq: int
    action: str

    @staticmethod
    def of(entry: AuditEntry) -> EntryRef:
        return EntryRef(entry.id, entry.seq, entry.action)


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a round (a match or a bye) with its result, as the log or the table has it."""

    table: int
    a: int
    b: int | None
    kind: str
    wins_a: int | None = None
    wins_b: int | None = None
    draws: int | None = None
    outcome: str | None = None
    ending: str | None = None
    version: int = 1
    games: tuple[Game, ...] = ()
    source: EntryRef | None = field(default=None, compare=False)
    """The entry that last made this line what it is (``None`` for a stored row)."""

    def value(self, name: str) -> Any:
        return getattr(self, name)

    def differences(self, stored: Line) -> list[tuple[str, Any, Any]]:
        """``(field, logged, stored)`` for every field that differs."""
        return [(name, self.value(name), stored.value(name)) for name in LINE_FIELDS
                if self.value(name) != stored.value(name)]


def imported_lines(rounds: Iterable[Round]) -> list[list[Any]]:
    """Every line of the imported rounds in order, for the ``tournament.import`` entry:
    ``[round, table, a, b, kind, wins_a, wins_b, draws, outcome, ending]``."""
    found: list[list[Any]] = []
    for rnd in rounds:
        for p in rnd.pairings:
            r = p.result
            result = ([None] * len(RESULT_FIELDS) if r is None else
                      [r.wins_a, r.wins_b, r.draws, r.outcome.value, r.ending.value])
            found.append([rnd.number, p.table, p.a, p.b, p.kind.value, *result])
    return found


class Unreadable(ValueError):
    """An entry that should change pairings does not say how (a hand-made or damaged one)."""


@dataclass
class Replay:
    """The pairings and results the log makes, entry by entry."""

    rounds: dict[int, list[Line]] = field(default_factory=dict)
    sources: dict[int, EntryRef] = field(default_factory=dict)
    """The entry that paired each round."""
    unchecked: dict[str, list[EntryRef]] = field(default_factory=dict)
    """Actions the replay cannot follow, with their entries."""
    blind: bool = False
    """Some rounds came from an entry that does not record them: nothing can be compared."""
    unreadable: list[tuple[EntryRef, str]] = field(default_factory=list)

    def apply(self, entry: AuditEntry) -> None:
        ref = EntryRef.of(entry)
        handler = _HANDLERS.get(entry.action)
        if handler is None:
            if entry.action not in NEUTRAL and not entry.action.startswith(NEUTRAL_PREFIXES):
                self.unchecked.setdefault(entry.action, []).append(ref)
            return
        try:
            handler(self, entry, ref)
        except (Unreadable, KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            self.unreadable.append((ref, str(e) or type(e).__name__))

    def apply_all(self, entries: Iterable[AuditEntry]) -> Replay:
        for entry in entries:
            self.apply(entry)
        return self


def _pairings(data: dict[str, Any] | None) -> list[list[Any]]:
    if data is None or not isinstance(data.get("pairings"), list):
        raise Unreadable("no pairings")
    return list(data["pairings"])


def _pair(replay: Replay, entry: AuditEntry, ref: EntryRef) -> None:
    number = int(entry.entity_id)
    if number in replay.rounds:
        raise Unreadable(f"round {number} is paired again without an undo")
    replay.rounds[number] = [Line(int(t), int(a), None if b is None else int(b), str(kind),
                                  source=ref) for t, a, b, kind in _pairings(entry.after)]
    replay.sources[number] = ref


def _undo(replay: Replay, entry: AuditEntry, _ref: EntryRef) -> None:
    number = int(entry.entity_id)
    if replay.rounds.pop(number, None) is None:
        raise Unreadable(f"round {number} is undone but was not paired")
    replay.sources.pop(number, None)


def _swap(replay: Replay, entry: AuditEntry, ref: EntryRef) -> None:
    number = int(entry.entity_id)
    lines = replay.rounds.get(number)
    new = _pairings(entry.after)
    if lines is None or len(new) != len(lines):
        raise Unreadable(f"round {number} does not have the swapped lines")
    changed = []
    for line, (_table, a, b, kind) in zip(lines, new, strict=True):
        seat = (int(a), None if b is None else int(b), str(kind))
        if seat == (line.a, line.b, line.kind):
            changed.append(line)
        else:  # the table stays (only the seats move); the line's version goes up
            changed.append(replace(line, a=seat[0], b=seat[1], kind=seat[2],
                                   version=line.version + 1, source=ref))
    replay.rounds[number] = changed


def _result(replay: Replay, entry: AuditEntry, ref: EntryRef) -> None:
    number, _, table_text = entry.entity_id.partition(".")
    lines = replay.rounds.get(int(number))
    table = int(table_text)
    if lines is None or entry.after is None:
        raise Unreadable(f"round {number} is not paired")
    index = next((i for i, line in enumerate(lines)
                  if line.table == table and line.kind == "match"), None)
    if index is None:
        raise Unreadable(f"round {number} has no table {table}")
    line = lines[index]
    players = (entry.after.get("a", line.a), entry.after.get("b", line.b))
    if players != (line.a, line.b):
        raise Unreadable(f"the entry names players #{players[0]} and #{players[1]}, but the "
                         f"table has #{line.a} and #{line.b}")
    result = entry.after["result"]
    games: Sequence[dict[str, Any]] = entry.after.get("games") or ()
    lines[index] = replace(
        line, **{name: result[name] for name in RESULT_FIELDS},
        version=int(entry.after["version"]),
        games=tuple((g["winner"], g["reason"]) for g in games), source=ref)


def _late_entry(replay: Replay, entry: AuditEntry, ref: EntryRef) -> None:
    if entry.after is None or not entry.after.get("granted_byes"):
        return
    number = int(entry.after["number"])
    for lines in replay.rounds.values():
        lines.append(Line(0, number, None, "privilege_bye", source=ref))


def _import(replay: Replay, entry: AuditEntry, ref: EntryRef) -> None:
    after = entry.after or {}
    if "lines" not in after:
        if after.get("rounds"):
            replay.blind = True
            replay.unchecked.setdefault(entry.action, []).append(ref)
        return
    for number, t, a, b, kind, *result in after["lines"]:
        lines = replay.rounds.setdefault(int(number), [])
        replay.sources.setdefault(int(number), ref)
        lines.append(Line(int(t), int(a), None if b is None else int(b), str(kind),
                          **dict(zip(RESULT_FIELDS, result, strict=True)), source=ref))


_HANDLERS = {
    "round.pair": _pair, "round.undo": _undo, "round.swap": _swap,
    "result.record": _result, "result.correct": _result,
    "player.late_entry": _late_entry, "tournament.import": _import,
}
CHECKED = frozenset(_HANDLERS)
"""Actions the replay follows."""

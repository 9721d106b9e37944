"""What the pages show, built from the domain's records: pairing lines with names and points,
the list by name, the top as a bracket, the final places. Pure functions of a ``Tournament``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from turnir.domain.model import Pairing, PairingKind, Round, Stage
from turnir.domain.names import surname_order
from turnir.domain.pairing.elimination import top_rounds_needed
from turnir.domain.text import name_matches
from turnir.domain.tournament import Phase, Tournament


@dataclass(frozen=True, slots=True)
class Seat:
    number: int
    name: str
    points: int
    """Match points before the round."""
    dropped: bool = False
    order: tuple[str, str] = field(default=("", ""), compare=False)
    """Where the player comes in a list by name: surname, then given name
    (``turnir.domain.names.surname_order``)."""


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a round."""

    table: int
    a: Seat
    b: Seat | None
    kind: PairingKind
    score: str | None
    """The result as ``2-1`` (player A first), ``None`` while open."""
    winner: int | None
    """The match winner's number, ``None`` for a draw or while open."""

    @property
    def open(self) -> bool:
        return self.b is not None and self.score is None


@dataclass(frozen=True, slots=True)
class NameLine:
    """One player's line of the pairings by name."""

    me: Seat
    table: int
    opponent: Seat | None
    kind: PairingKind
    score: str | None
    """From this player's side."""


def points_before(t: Tournament, number: int) -> dict[int, int]:
    """Every player's match points from the Swiss rounds before round ``number``."""
    points = {p.id: 0 for p in t.players}
    for rnd in t.swiss_rounds:
        if rnd.number >= number:
            break
        for line in rnd.pairings:
            for player, gained in line.points(t.settings.points).items():
                points[player] = points.get(player, 0) + gained
    return points


def _score(line: Pairing) -> str | None:
    return line.result.score if line.result is not None else None


def round_lines(t: Tournament, rnd: Round) -> list[Line]:
    before = points_before(t, rnd.number)
    names = {p.id: p for p in t.players}

    def seat(number: int) -> Seat:
        p = names[number]
        return Seat(number, p.name, before.get(number, 0), p.dropped_after is not None,
                    surname_order(p.name, p.surname))

    return [Line(line.table, seat(line.a), None if line.b is None else seat(line.b), line.kind,
                 _score(line), line.winner() if line.b is not None else None)
            for line in rnd.pairings]


def flip(score: str | None) -> str | None:
    if score is None or score == "ID":
        return score
    parts = score.split("-")
    parts[0], parts[1] = parts[1], parts[0]
    return "-".join(parts)


def by_name(lines: Sequence[Line]) -> list[NameLine]:
    """Each player once, by surname then given name (ё as е), with their table and
    opponent."""
    found: list[NameLine] = []
    for line in lines:
        found.append(NameLine(line.a, line.table, line.b, line.kind, line.score))
        if line.b is not None:
            found.append(NameLine(line.b, line.table, line.a, line.kind, flip(line.score)))
    return sorted(found, key=lambda n: (n.me.order, n.me.name.casefold(), n.me.number))


def find_by_name(lines: Sequence[Line], query: str) -> list[NameLine]:
    """The players whose name contains every word of ``query``, in any order (case and ё/е
    ignored, ``turnir.domain.text.name_matches``)."""
    return [n for n in by_name(lines) if name_matches(query, n.me.name)]


@dataclass(frozen=True, slots=True)
class BracketMatch:
    a: Seat | None
    b: Seat | None
    score: str | None
    winner: int | None


@dataclass(frozen=True, slots=True)
class BracketRound:
    number: int | None
    """The tournament's round number, ``None`` while not yet paired."""
    matches: list[BracketMatch]


def bracket(t: Tournament) -> list[BracketRound]:
    """The top as columns of matches, first round first; future rounds as empty slots."""
    size = t.settings.top_size
    if size < 2:
        return []
    names = {p.id: p.name for p in t.players}
    columns: list[BracketRound] = []
    played = t.top_rounds
    for k in range(top_rounds_needed(size)):
        count = size >> (k + 1)
        if k < len(played):
            rnd = played[k]
            matches = [BracketMatch(Seat(p.a, names[p.a], 0),
                                    None if p.b is None else Seat(p.b, names[p.b], 0),
                                    _score(p), p.winner() if p.result is not None else None)
                       for p in rnd.pairings]
            columns.append(BracketRound(rnd.number, matches))
        else:
            columns.append(BracketRound(None, [BracketMatch(None, None, None, None)
                                               for _ in range(count)]))
    return columns


def champion(t: Tournament) -> Seat | None:
    if not t.top_rounds:
        return None
    last = t.top_rounds[-1]
    if len(last.pairings) != 1 or last.pairings[0].result is None:
        return None
    winner = last.pairings[0].winner()
    return None if winner is None else Seat(winner, t.player(winner).name, 0)


def final_places(t: Tournament, *, closed: bool = False) -> list[Seat]:
    """Final places (P-6) once the tournament is over (or ``closed`` early); empty before."""
    if t.phase is not Phase.FINISHED and not closed:
        return []
    return [Seat(pid, t.player(pid).name, 0) for pid in t.final_places()]


def stage_of(rnd: Round) -> str:
    return "top" if rnd.stage is Stage.TOP else "swiss"

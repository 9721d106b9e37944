"""The tournament aggregate and its transitions (P-1..P-7, S-2..S-6, T-*).

A ``Tournament`` is a frozen value: every transition (``pair_next_round``, ``record_result``,
``drop_player``, ``add_late_player``, ``undo_last_round``, ``swap_players``) checks that it is
allowed now and returns a new value, or raises ``UserError`` naming the problem. Nothing here
reads a clock or the global random: every draw comes from ``random.Random`` seeded with the
round's recorded *lot* string, built from the tournament's seed (P-3 e, T-9).

Terms: *Swiss part* and *top* (P-1), *round*, *bye* and *privilege bye* (S-5), *drop* and
*late entry* (P-7); see ``turnir.domain.model``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING

from turnir.domain.draft import tables as draft_tables
from turnir.domain.limits import (
    MAX_POINTS,
    MAX_ROUNDS,
    MAX_SWISS_ROUNDS,
    MAX_TOP_SIZE,
    check_number,
)
from turnir.domain.model import (
    Pairing,
    PairingKind,
    Player,
    PlayerId,
    Round,
    Settings,
    Stage,
)
from turnir.domain.pairing import elimination
from turnir.domain.result_changes import check_result_change as check_result_change
from turnir.domain.results import MatchResult
from turnir.domain.standings import PenaltyCounts, Standings, compute_standings, lot_numbers
from turnir.domain.text import (
    NAME_LEN,
    PLACE_LEN,
    BadTextError,
    clean_name,
    name_key,
    normal_name,
)
from turnir.errors import ConflictError, InvariantError, NotFoundError, UserError

if TYPE_CHECKING:  # the Swiss pairer is imported when a round is paired (a lazy CLI, issue 11)
    from turnir.domain.pairing.swiss import SwissEntrant, SwissPairing

BEST_OF_CHOICES = (1, 3, 5)
_NO_PENALTIES: Mapping[PlayerId, PenaltyCounts] = MappingProxyType({})
_NO_TABLES: Mapping[PlayerId, int] = MappingProxyType({})


class Phase(StrEnum):
    """Where a tournament is in its rounds, computed from them (``Tournament.phase``): before
    the first round, in the Swiss part, in the top, or over because its last round is played.

    Not ``turnir.domain.model.Status``, which is the stored state the organizer sets (a
    tournament may be ``RUNNING`` with its phase ``FINISHED`` until the organizer closes it,
    or ``FINISHED`` early)."""

    REGISTRATION = "registration"
    SWISS = "swiss"
    TOP = "top"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class Tournament:
    """A whole tournament: players, settings, the recorded seed and the rounds so far."""

    name: str
    settings: Settings
    seed: int
    """The recorded random seed every lot is drawn from (P-3 e, T-7)."""
    players: tuple[Player, ...]
    rounds: tuple[Round, ...] = ()
    undone: tuple[int, ...] = ()
    """Round numbers that were undone, in order; each undo makes the next lot a new draw."""
    penalties: Mapping[PlayerId, PenaltyCounts] = field(default_factory=lambda: _NO_PENALTIES)
    """Penalty counts per player for T-6 (filled by the judging module)."""
    tables: Mapping[PlayerId, int] = field(default_factory=lambda: _NO_TABLES)
    """Draft table per player (D-2, T-8; ``turnir.domain.draft.tables``); empty: one field."""

    # ----- queries -----------------------------------------------------------------------

    def player(self, player_id: PlayerId) -> Player:
        for p in self.players:
            if p.id == player_id:
                return p
        raise NotFoundError("no player #{number} in this tournament", code="unknown_player",
                            number=player_id)

    def find_player(self, ref: str) -> Player:
        """A player by number (``12``, ``#12``) or by exact or unambiguous partial name."""
        text = ref.strip().lstrip("#")
        if text.isascii() and text.isdigit():
            if len(text) > 10:
                raise NotFoundError("no player #{number} in this tournament",
                                    code="unknown_player", number=text[:20])
            return self.player(int(text))
        folded = name_key(text)
        exact = [p for p in self.players if name_key(p.name) == folded]
        if exact:
            return exact[0]
        partial = [p for p in self.players if folded in name_key(p.name)]
        if len(partial) == 1:
            return partial[0]
        if not partial:
            raise NotFoundError("no player named {name!r}", code="unknown_player", name=ref)
        names = ", ".join(p.name for p in partial[:5])
        raise UserError("{ref!r} matches several players: {names}", code="ambiguous_player",
                        ref=ref, names=names)

    @property
    def swiss_rounds_planned(self) -> int:
        """Planned Swiss rounds (P-4): the setting, else D-5 for a draft, else ceil(log2 N)."""
        if self.settings.swiss_rounds is not None:
            return self.settings.swiss_rounds
        if self.tables:
            return draft_tables.planned_rounds(self)
        return max(1, math.ceil(math.log2(max(2, len(self.players)))))

    @property
    def swiss_rounds(self) -> tuple[Round, ...]:
        return tuple(r for r in self.rounds if r.stage is Stage.SWISS)

    @property
    def top_rounds(self) -> tuple[Round, ...]:
        return tuple(r for r in self.rounds if r.stage is Stage.TOP)

    @property
    def current_round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def phase(self) -> Phase:
        if not self.rounds:
            return Phase.REGISTRATION
        last = self.rounds[-1]
        if last.stage is Stage.TOP:
            if last.finished and len(last.pairings) == 1:
                return Phase.FINISHED
            return Phase.TOP
        if (
            last.finished
            and len(self.swiss_rounds) >= self.swiss_rounds_planned
            and self.settings.top_size == 0
        ):
            return Phase.FINISHED
        return Phase.SWISS

    def round(self, number: int) -> Round:
        for r in self.rounds:
            if r.number == number:
                return r
        raise NotFoundError("there is no round {round} yet", code="unknown_round",
                            round=number)

    def is_active(self, player: Player, round_number: int) -> bool:
        """Can ``player`` be paired in ``round_number`` (not yet joined / dropped: no)."""
        if player.joined_round > round_number:
            return False
        return player.dropped_after is None or player.dropped_after >= round_number

    def opponents(self, player_id: PlayerId) -> list[PlayerId]:
        """Swiss opponents met so far, once per match."""
        met: list[PlayerId] = []
        for r in self.swiss_rounds:
            for p in r.pairings:
                if p.b is None:
                    continue
                if p.a == player_id:
                    met.append(p.b)
                elif p.b == player_id:
                    met.append(p.a)
        return met

    def lot(self) -> dict[PlayerId, int]:
        """Every player's lot number from the recorded seed (T-7)."""
        return lot_numbers(self.seed, (p.id for p in self.players))

    @staticmethod
    def took_part(player: Player) -> bool:
        """False for a no-show: dropped before round 1 was paired (did not check in), so never
        paired; such a player is not ranked in the standings or the final places (P-6, P-7)."""
        return player.dropped_after != 0

    def standings(self) -> Standings:
        """Swiss standings with every tiebreak (T-1..T-9), of the players who took part; with
        draft tables the merged order, each row's tiebreaks within its table (T-8, P-6)."""
        if self.tables:
            return draft_tables.merge_standings(self.table_standings())
        return compute_standings((p.id for p in self.players if self.took_part(p)),
                                 self.swiss_rounds, self.settings.points, lot=self.lot(),
                                 penalties=self.penalties)

    def table_standings(self) -> dict[int, Standings]:
        """Each draft table's standings (T-8); empty without draft tables."""
        return draft_tables.table_standings(self) if self.tables else {}

    def final_places(self) -> list[PlayerId]:
        """Final places (P-6): the top by elimination, then the rest by Swiss standings."""
        played = []
        for r in self.top_rounds:
            if not r.finished:
                break
            matches = []
            for p in r.pairings:
                winner = p.winner()
                if p.b is None or winner is None:
                    raise InvariantError(f"top round {r.number} has an undecided match")
                matches.append((p.a, p.b, winner))
            played.append(matches)
        if played and len(played[-1]) != 1:
            played = []
        return elimination.final_places(self.standings().order(), played)


# ----- creating ----------------------------------------------------------------------------


def validate_settings(settings: Settings, *, players: int) -> None:
    if settings.best_of not in BEST_OF_CHOICES or settings.top_best_of not in BEST_OF_CHOICES:
        raise UserError("matches are best-of-1, -3 or -5 (S-7)", code="bad_best_of")
    if settings.swiss_rounds is not None and settings.swiss_rounds < 1:
        raise UserError("a tournament needs at least one Swiss round", code="bad_rounds")
    if settings.swiss_rounds is not None:
        check_number(settings.swiss_rounds, what="Swiss rounds", low=1, high=MAX_SWISS_ROUNDS)
    check_number(settings.top_size, what="top size", low=0, high=MAX_TOP_SIZE)
    points = settings.points
    for what, value in (("win", points.win), ("draw", points.draw), ("loss", points.loss),
                        ("bye", points.bye)):
        check_number(value, what=f"points for a {what}", low=0, high=MAX_POINTS)
    elimination.validate_top_size(settings.top_size, players=players)


def validate_players(players: Sequence[Player]) -> None:
    """Numbers unique and positive, names non-empty and unique (case-insensitive)."""
    ids: set[int] = set()
    names: dict[str, int] = {}
    for i, p in enumerate(players):
        who = {"index": i + 1, "player": p.name}
        if p.id < 1:
            raise UserError("player {index} ({player!r}): the number must be positive",
                            code="bad_player", **who)
        if p.id in ids:
            raise UserError("player {index} ({player!r}): number #{number} is used twice",
                            code="duplicate_player", number=p.id, **who)
        ids.add(p.id)
        name = _checked_text(p, i + 1)
        key = name_key(name)
        if key in names:
            raise UserError(
                "player {index} ({player!r}): the name {name!r} is already player #{number}",
                code="duplicate_player", name=name, number=names[key], **who,
            )
        names[key] = p.id
        if any(r < 1 for r in p.granted_byes):
            raise UserError("player {index} ({player!r}): byes can be granted for rounds 1, "
                            "2, …", code="bad_player", **who)
        if any(r > MAX_ROUNDS for r in p.granted_byes):
            raise UserError("player {index} ({player!r}): byes can be granted for rounds up "
                            "to {last}", code="bad_player", last=MAX_ROUNDS, **who)
        where = f"player {i + 1} ({p.name!r})"
        check_number(p.joined_round, what=f"{where}: the first round", low=1,
                     high=MAX_ROUNDS + 1)
        if p.dropped_after is not None:
            check_number(p.dropped_after, what=f"{where}: dropped after round", low=0,
                         high=MAX_ROUNDS)


def _checked_text(p: Player, index: int) -> str:
    """The player's name in its normal form; control characters and overlong names, cities
    and clubs refused (``turnir.domain.text``)."""
    try:
        name = clean_name(p.name, field="name", max_len=NAME_LEN)
        clean_name(p.city, field="city", max_len=PLACE_LEN, required=False)
        clean_name(p.club, field="club", max_len=PLACE_LEN, required=False)
    except BadTextError as error:
        raise BadTextError("player {index} ({player!r}): {error}", field=error.field,
                           index=index, player=p.name, error=error) from None
    return name


def new_tournament(
    name: str, players: Iterable[Player], *, settings: Settings, seed: int
) -> Tournament:
    """A tournament in registration with the given players and settings."""
    listed = tuple(players)
    cleaned = clean_name(name, field="tournament's name", max_len=NAME_LEN, required=False)
    if not cleaned:
        raise UserError("the tournament needs a name", code="bad_name")
    validate_players(listed)
    validate_settings(settings, players=max(len(listed), settings.top_size))
    return Tournament(name=cleaned, settings=settings, seed=seed, players=listed)


def make_players(
    names: Iterable[str], *, start: int = 1
) -> list[Player]:
    """Players numbered from ``start`` in the order given."""
    return [Player(id=start + i, name=normal_name(n)) for i, n in enumerate(names)]


# ----- rounds ------------------------------------------------------------------------------


def round_lot(t: Tournament, number: int) -> str:
    """The recorded seed string a round is drawn with; a new attempt after each undo."""
    return f"{t.seed}/round/{number}/attempt/{t.undone.count(number) + 1}"


def pair_next_round(t: Tournament) -> Tournament:
    """Add the next round: Swiss while rounds remain, then the top (P-1..P-5)."""
    current = t.current_round
    if current is not None and not current.finished:
        missing = [p.table for p in current.pairings if not p.finished]
        raise ConflictError(
            "round {round} is not finished: no result at table(s) {tables}",
            code="round_not_finished", round=current.number,
            tables=", ".join(map(str, missing[:10])),
        )
    if t.phase is Phase.FINISHED:
        raise ConflictError("the tournament is finished", code="finished")
    number = current.number + 1 if current else 1
    lot = round_lot(t, number)
    if len(t.swiss_rounds) < t.swiss_rounds_planned and not t.top_rounds:
        new_round = _pair_swiss_round(t, number, lot)
    else:
        new_round = _pair_top_round(t, number, lot)
    return replace(t, rounds=(*t.rounds, new_round))


def _had_unrequested_bye(t: Tournament) -> set[PlayerId]:
    return {
        p.a for r in t.swiss_rounds for p in r.pairings if p.kind is PairingKind.BYE
    }


def swiss_entrants(t: Tournament, number: int) -> tuple[list[SwissEntrant], list[PlayerId]]:
    """Who is Swiss-paired in round ``number`` and who gets a privilege bye instead."""
    from turnir.domain.pairing.swiss import SwissEntrant

    standings = t.standings()
    had_bye = _had_unrequested_bye(t)
    entrants: list[SwissEntrant] = []
    privileged: list[PlayerId] = []
    for p in t.players:
        if not t.is_active(p, number):
            continue
        if number in p.granted_byes:
            privileged.append(p.id)
            continue
        entrants.append(
            SwissEntrant(
                player=p.id,
                points=standings.row_of(p.id).points,
                opponents=frozenset(t.opponents(p.id)),
                bye_eligible=p.id not in had_bye,
            )
        )
    return entrants, privileged


def _pair_swiss_round(t: Tournament, number: int, lot: str) -> Round:
    if t.tables:
        return draft_tables.pair_tables(t, number, lot)
    entrants, privileged = swiss_entrants(t, number)
    if len(entrants) < 2:
        raise UserError(
            "round {round} needs at least two active players; active players: {count}",
            code="too_few_players", round=number, count=len(entrants),
        )
    from turnir.domain.pairing.swiss import pair_swiss

    result = pair_swiss(entrants, random.Random(lot))
    return Round(number, Stage.SWISS, _swiss_pairings(result, privileged), lot)


def _swiss_pairings(result: SwissPairing, privileged: Sequence[PlayerId]) -> tuple[Pairing, ...]:
    lines = [Pairing(i, a, b) for i, (a, b) in enumerate(result.pairs, start=1)]
    if result.bye is not None:
        lines.append(Pairing(0, result.bye, None, PairingKind.BYE))
    lines.extend(Pairing(0, pid, None, PairingKind.PRIVILEGE_BYE) for pid in sorted(privileged))
    return tuple(lines)


def top_qualifiers(t: Tournament) -> list[PlayerId]:
    """The top's players in seed order: the best of the Swiss standings still in (P-5)."""
    if t.tables:
        return draft_tables.top_qualifiers(t)
    size = t.settings.top_size
    last = len(t.swiss_rounds)
    eligible = [
        pid for pid in t.standings().order() if t.is_active(t.player(pid), last + 1)
    ]
    if len(eligible) < size:
        raise UserError(
            "a top of {size} needs {size} players still in the tournament; players still "
            "in: {count}",
            code="too_few_players", size=size, count=len(eligible),
        )
    return eligible[:size]


def _pair_top_round(t: Tournament, number: int, lot: str) -> Round:
    if t.settings.top_size == 0:
        raise ConflictError("the Swiss part is over and there is no top", code="finished")
    previous = t.top_rounds
    if not previous:
        pairs = elimination.first_top_round(top_qualifiers(t))
    else:
        winners = [p.winner() for p in previous[-1].pairings]
        if any(w is None for w in winners):
            raise InvariantError("a finished top round has a match without a winner")
        pairs = elimination.next_top_round([w for w in winners if w is not None])
    lines = tuple(Pairing(i, a, b) for i, (a, b) in enumerate(pairs, start=1))
    return Round(number, Stage.TOP, lines, lot)


def record_result(
    t: Tournament, round_number: int, table: int, result: MatchResult, *, correction: bool = False
) -> Tournament:
    """Record the result at a table (S-2, S-3); a second, different result needs ``correction``.

    The same result again is accepted and changes nothing (safe to repeat). A correction
    (S-6: an explicit judge action) is refused once a later round exists, because that round
    was paired from the old result.
    """
    rnd = t.round(round_number)
    pairing = rnd.pairing_at(table)
    if not check_result_change(
        pairing, result, round_number=round_number, stage=rnd.stage, settings=t.settings,
        last_round=t.rounds[-1].number, correction=correction,
    ):
        return t
    new_pairing = replace(pairing, result=result)
    new_round = replace(
        rnd, pairings=tuple(new_pairing if p is pairing else p for p in rnd.pairings)
    )
    return replace(t, rounds=tuple(new_round if r is rnd else r for r in t.rounds))


def undo_last_round(t: Tournament) -> Tournament:
    """Remove the last round when none of its matches has a result (P-7)."""
    last = t.current_round
    if last is None:
        raise ConflictError("there is no round to undo", code="no_round")
    if last.has_results:
        raise ConflictError(
            "round {round} already has results; only a round without results can be undone",
            code="round_has_results", round=last.number,
        )
    return replace(t, rounds=t.rounds[:-1], undone=(*t.undone, last.number))


def repair_last_round(t: Tournament) -> Tournament:
    """Undo the last round and pair it again with a new lot (P-7)."""
    return pair_next_round(undo_last_round(t))


def swap_players(
    t: Tournament, round_number: int, x: PlayerId, y: PlayerId, *, note: str = ""
) -> Tournament:
    """A judge's manual pairing edit: ``x`` and ``y`` exchange seats in the round (P-7).

    Both seats must be without a result; a pairing the edit would create between two players
    who already met in the Swiss part is refused (a rematch forced by hand).
    """
    rnd = t.round(round_number)
    if rnd is not t.current_round:
        raise ConflictError("only the current round can be edited", code="round_locked")
    if x == y:
        raise UserError("choose two different players to swap", code="bad_swap")
    px, py = rnd.pairing_of(x), rnd.pairing_of(y)
    if px is None or py is None:
        missing = x if px is None else y
        raise NotFoundError("player #{number} is not in round {round}", code="unknown_player",
                            number=missing, round=round_number)
    if px is py:
        raise UserError("the two players already sit at the same table", code="bad_swap")
    if px.result is not None or py.result is not None:
        raise ConflictError("a seat with a result cannot be changed", code="result_exists")
    if rnd.stage is Stage.TOP:
        raise ConflictError("top pairings follow the bracket and cannot be edited",
                            code="round_locked")

    def seat(p: Pairing) -> Pairing:
        def sub(v: PlayerId | None) -> PlayerId | None:
            return y if v == x else x if v == y else v

        a = sub(p.a)
        if a is None:
            raise InvariantError("a pairing lost its first player")
        return replace(p, a=a, b=sub(p.b))

    before = t if round_number == 1 else replace(t, rounds=t.rounds[:-1])
    new_lines = [seat(p) if p is px or p is py else p for p in rnd.pairings]
    for p in (seat(px), seat(py)):
        if p.b is not None and p.b in before.opponents(p.a):
            raise UserError(
                "round {round}: {first} and {second} already met; a rematch cannot be forced "
                "by hand",
                code="forced_rematch", round=round_number, first=t.player(p.a).name,
                second=t.player(p.b).name,
            )
        if p.b is None and p.kind is PairingKind.BYE and p.a in _had_unrequested_bye(before):
            raise UserError("{name} already had a bye in this tournament (S-5)",
                            code="second_bye", name=t.player(p.a).name)
    text = f"swap #{x} and #{y}" + (f": {note}" if note else "")
    new_round = replace(rnd, pairings=tuple(new_lines), edits=(*rnd.edits, text))
    return replace(t, rounds=(*t.rounds[:-1], new_round))


# ----- players during the event --------------------------------------------------------------


def drop_player(t: Tournament, player_id: PlayerId) -> Tournament:
    """The player leaves: not paired from the next round on, keeps their results (P-7).

    When the current round has no result yet for them they still play it, as at a real table;
    undo and re-pair the round to take them out of it.
    """
    player = t.player(player_id)
    if player.dropped_after is not None:
        raise ConflictError("{name} already dropped after round {round}",
                            code="already_dropped", name=player.name,
                            round=player.dropped_after)
    last = t.current_round.number if t.current_round else 0
    return _replace_player(t, replace(player, dropped_after=last))


def add_late_player(
    t: Tournament, name: str, *, byes_for_missed_rounds: bool = False, city: str = "",
    club: str = "",
) -> Tournament:
    """Late entry (P-7): the player joins from the next round with 0 points, or with privilege
    byes for the rounds already played when the organizer grants them."""
    if t.phase in (Phase.TOP, Phase.FINISHED):
        raise ConflictError("players can join only during the Swiss part", code="late_entry")
    played = len(t.rounds)
    joined = played + 1
    new_id = max((p.id for p in t.players), default=0) + 1
    granted = frozenset(range(1, played + 1)) if byes_for_missed_rounds else frozenset()
    player = Player(id=new_id, name=normal_name(name), city=normal_name(city),
                    club=normal_name(club), granted_byes=granted, joined_round=joined)
    validate_players((*t.players, player))
    rounds = tuple(
        replace(r, pairings=(*r.pairings, Pairing(0, new_id, None, PairingKind.PRIVILEGE_BYE)))
        if byes_for_missed_rounds else r
        for r in t.rounds
    )
    return replace(t, players=(*t.players, player), rounds=rounds)


def _replace_player(t: Tournament, player: Player) -> Tournament:
    return replace(t, players=tuple(player if p.id == player.id else p for p in t.players))

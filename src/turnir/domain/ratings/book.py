"""The rating book and how tournaments change it: preview, apply, replay, correct (R-1..R-6).

Tournaments are applied in the order of their end, ``(ended_at, id)`` (R-6). A ``RatingBook``
is immutable: ``apply_tournament`` returns a new book (copying the book, O(players)), so a
caller may keep the old one; ``replay`` applies a whole history on one private working copy
and returns one new book, which is what a correction needs. A tournament that ended before the
last one applied cannot be applied on top: ``replay_from`` replays the history from the
corrected (or late) tournament on and reports every player whose ratings changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from turnir.domain.ratings.formulas import (
    NEWCOMER,
    ProfessionalRow,
    WarlockRow,
    optional_rating,
    professional_rows,
    to_rating,
    warlock_coefficient,
    warlock_rows,
)
from turnir.domain.ratings.formulas import hundredths as _hundredths
from turnir.domain.ratings.model import (
    PlayerKey,
    RatedTournament,
    RatingSettings,
    TournamentKey,
)
from turnir.domain.ratings.report import RatingReport
from turnir.errors import ConflictError, UserError

_Ratings = dict[PlayerKey, tuple[int, int | None]]
"""Player -> (professional, Warlock or ``None`` before the first tournament), in hundredths."""
_OrderKey = tuple[Any, bool, TournamentKey]
"""``(ended_at, id is a str, id)``: the order of R-6 (the flag keeps int and str ids apart)."""
_NEWCOMER_ENTRY: tuple[int, int | None] = (NEWCOMER, None)
DEFAULT_SETTINGS = RatingSettings()
"""The defaults of every **Decided** rating setting."""


def _order_key(tournament: RatedTournament) -> _OrderKey:
    return (tournament.ended_at, isinstance(tournament.id, str), tournament.id)


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """One player's current ratings, as in the book, an export or an import."""

    player: PlayerKey
    """The player."""
    professional: Decimal
    """The professional rating, at least 100, to 0.01 (R-1, R-3, R-6)."""
    warlock: Decimal | None = None
    """The Warlock rating, ``None`` before the player's first rated tournament (R-5)."""


@dataclass(frozen=True, slots=True)
class RatingDiff:
    """A player whose current ratings differ after a correction (R-6)."""

    player: PlayerKey
    """The player."""
    old_professional: Decimal
    """The professional rating before the correction."""
    new_professional: Decimal
    """The professional rating after the correction."""
    old_warlock: Decimal | None
    """The Warlock rating before the correction."""
    new_warlock: Decimal | None
    """The Warlock rating after the correction."""

    @property
    def professional_change(self) -> Decimal:
        """How much the correction moved the professional rating."""
        return self.new_professional - self.old_professional


class RatingBook:
    """Every player's current ratings (база турнирного рейтинга); immutable.

    A player who never played is a newcomer: professional 100.00, no Warlock rating. The book
    also remembers the last tournament applied, so that a tournament is never applied twice
    or out of order (R-6).
    """

    __slots__ = ("_last", "_ratings")
    _ratings: _Ratings
    _last: _OrderKey | None

    def __init__(self) -> None:
        """An empty book: everyone is a newcomer."""
        self._ratings = {}
        self._last = None

    @classmethod
    def from_entries(cls, entries: Iterable[PlayerRating]) -> RatingBook:
        """A book loaded from an existing rating list (an import); nothing applied yet."""
        ratings: _Ratings = {}
        for entry in entries:
            if entry.player in ratings:
                raise UserError("player {player} is listed twice", code="duplicate_player",
                                player=entry.player)
            professional = _hundredths(entry.professional)
            warlock = None if entry.warlock is None else _hundredths(entry.warlock)
            if professional < NEWCOMER or (warlock is not None and warlock < NEWCOMER):
                raise UserError("player {player}: no rating is below 100 (R-3)",
                                code="bad_rating", player=entry.player)
            ratings[entry.player] = (professional, warlock)
        return _book(ratings, None)

    def professional(self, player: PlayerKey) -> Decimal:
        """The professional rating; 100.00 for a newcomer (R-1)."""
        return to_rating(self._ratings.get(player, _NEWCOMER_ENTRY)[0])

    def warlock(self, player: PlayerKey) -> Decimal | None:
        """The Warlock rating; ``None`` before the player's first tournament (R-5)."""
        return optional_rating(self._ratings.get(player, _NEWCOMER_ENTRY)[1])

    def rating(self, player: PlayerKey) -> PlayerRating:
        """Both ratings of one player."""
        professional, warlock = self._ratings.get(player, _NEWCOMER_ENTRY)
        return PlayerRating(player, to_rating(professional), optional_rating(warlock))

    def entries(self) -> tuple[PlayerRating, ...]:
        """Every known player's ratings, in the order players first appeared (an export)."""
        return tuple(self.rating(player) for player in self._ratings)

    def players(self) -> tuple[PlayerKey, ...]:
        """Every known player, in the order they first appeared."""
        return tuple(self._ratings)

    @property
    def last_applied(self) -> TournamentKey | None:
        """The id of the last tournament applied, ``None`` if none was."""
        return None if self._last is None else self._last[2]

    def __contains__(self, player: object) -> bool:
        return player in self._ratings

    def __len__(self) -> int:
        return len(self._ratings)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RatingBook):
            return NotImplemented
        return self._ratings == other._ratings and self._last == other._last

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"RatingBook({len(self._ratings)} players, last applied {self.last_applied!r})"


def _book(ratings: _Ratings, last: _OrderKey | None) -> RatingBook:
    """A book owning ``ratings``, which nobody may change afterwards."""
    book = object.__new__(RatingBook)
    book._ratings = ratings
    book._last = last
    return book


def _check_order(last: _OrderKey | None, tournament: RatedTournament) -> None:
    if last is None:
        return
    key = _order_key(tournament)
    if key == last:
        raise ConflictError("tournament {tournament} is already applied",
                            tournament=tournament.id)
    if key < last:
        raise ConflictError("tournament {tournament} ended before tournament {last}, "
                            "the last one applied; replay the history from it (R-6)",
                            tournament=tournament.id, last=last[2])


def _rate(ratings: _Ratings, tournament: RatedTournament, settings: RatingSettings,
          *, report: bool) -> RatingReport | None:
    """Apply one tournament to ``ratings`` in place; describe it when ``report`` is set."""
    before = [ratings.get(player, _NEWCOMER_ENTRY) for player in tournament.players]
    warlock_k = warlock_coefficient(tournament.format, tournament.size, settings)
    pro = professional_rows([entry[0] for entry in before], tournament.disqualified,
                            tournament.professional_k)
    war = warlock_rows([entry[1] for entry in before], tournament.disqualified, warlock_k,
                       settings)
    for player, pro_row, war_row in zip(tournament.players, pro, war, strict=True):
        ratings[player] = (pro_row[3], war_row[3])
    if not report:
        return None
    return _report(tournament, warlock_k, before, pro, war)


def _report(tournament: RatedTournament, warlock_k: Fraction,
            before: Sequence[tuple[int, int | None]],
            pro: Sequence[ProfessionalRow], war: Sequence[WarlockRow]) -> RatingReport:
    u = tournament.size
    return RatingReport(
        tournament=tournament.id, participants=u, professional_k=tournament.professional_k,
        warlock_k=warlock_k,
        professional_rt=Fraction(sum(entry[0] for entry in before), 100 * u),
        warlock_rt=Fraction(sum(row[0] for row in war), 100 * u),
        rows=tuple(zip(tournament.participants, (entry[0] for entry in before), pro, war,
                       strict=True)),
    )


def preview(book: RatingBook, tournament: RatedTournament, *,
            settings: RatingSettings = DEFAULT_SETTINGS) -> RatingReport:
    """What ``apply_tournament`` would do to every participant, without applying it.

    Refused like ``apply_tournament`` when the tournament is already applied or ended before
    the last one applied (then the changes come from ``replay_from``).
    """
    _check_order(book._last, tournament)
    known = book._ratings
    ratings = {player: known.get(player, _NEWCOMER_ENTRY) for player in tournament.players}
    report = _rate(ratings, tournament, settings, report=True)
    assert report is not None
    return report


def apply_tournament(book: RatingBook, tournament: RatedTournament, *,
                     settings: RatingSettings = DEFAULT_SETTINGS
                     ) -> tuple[RatingBook, RatingReport]:
    """Apply one tournament: the new book (``book`` is unchanged) and its rating report."""
    _check_order(book._last, tournament)
    ratings = dict(book._ratings)
    report = _rate(ratings, tournament, settings, report=True)
    assert report is not None
    return _book(ratings, _order_key(tournament)), report


def _in_order(tournaments: Iterable[RatedTournament], last: _OrderKey | None
              ) -> list[RatedTournament]:
    ordered = sorted(tournaments, key=_order_key)
    if ordered:
        _check_order(last, ordered[0])
    return ordered


def _ids_unique(tournaments: Sequence[RatedTournament]) -> None:
    seen: set[TournamentKey] = set()
    for tournament in tournaments:
        if tournament.id in seen:
            raise UserError("tournament {tournament} appears twice in the history",
                            code="duplicate_tournament", tournament=tournament.id)
        seen.add(tournament.id)


def replay(tournaments: Iterable[RatedTournament], *, start: RatingBook | None = None,
           settings: RatingSettings = DEFAULT_SETTINGS) -> RatingBook:
    """Apply a history in the order of end (R-6), from ``start`` (default: nobody rated)."""
    return _replay(tournaments, start, settings, report=False)[0]


def replay_changes(tournaments: Iterable[RatedTournament], *, start: RatingBook | None = None,
                   settings: RatingSettings = DEFAULT_SETTINGS
                   ) -> tuple[RatingBook, tuple[RatingReport, ...]]:
    """Like ``replay``, with every tournament's rating report in the order applied."""
    return _replay(tournaments, start, settings, report=True)


def _replay(tournaments: Iterable[RatedTournament], start: RatingBook | None,
            settings: RatingSettings, *, report: bool
            ) -> tuple[RatingBook, tuple[RatingReport, ...]]:
    """``replay`` and ``replay_changes``: the reports are collected when ``report`` is set."""
    base = start if start is not None else RatingBook()
    history = list(tournaments)
    _ids_unique(history)
    ordered = _in_order(history, base._last)
    ratings = dict(base._ratings)
    reports = []
    for tournament in ordered:
        described = _rate(ratings, tournament, settings, report=report)
        if described is not None:
            reports.append(described)
    book = _book(ratings, _order_key(ordered[-1]) if ordered else base._last)
    return book, tuple(reports)


def replay_from(history: Iterable[RatedTournament], corrected: RatedTournament, *,
                start: RatingBook | None = None, settings: RatingSettings = DEFAULT_SETTINGS
                ) -> tuple[RatingBook, tuple[RatingDiff, ...]]:
    """Correct one tournament of an applied history and replay from it on (R-6).

    ``corrected`` replaces the tournament with the same id in ``history`` (its places, flags,
    K or end may change), or is inserted when the history lacks it (a late submission).
    Tournaments before the earlier of its old and new positions are replayed once; the rest
    is replayed both ways. Returns the corrected book and every player whose ratings differ,
    in the order they first appear in the replayed part.
    """
    base = start if start is not None else RatingBook()
    old_history = list(history)
    _ids_unique(old_history)
    old = _in_order(old_history, base._last)
    new = _in_order([t for t in old_history if t.id != corrected.id] + [corrected], base._last)
    shared = 0
    while shared < min(len(old), len(new)) and old[shared] is new[shared]:
        shared += 1
    prefix = dict(base._ratings)
    for tournament in old[:shared]:
        _rate(prefix, tournament, settings, report=False)
    old_ratings, new_ratings = dict(prefix), prefix
    touched: dict[PlayerKey, None] = {}
    for tournament in old[shared:]:
        _rate(old_ratings, tournament, settings, report=False)
        touched.update(dict.fromkeys(tournament.players))
    for tournament in new[shared:]:
        _rate(new_ratings, tournament, settings, report=False)
        touched.update(dict.fromkeys(tournament.players))
    diffs = []
    for player in touched:
        was = old_ratings.get(player, _NEWCOMER_ENTRY)
        now = new_ratings.get(player, _NEWCOMER_ENTRY)
        if was != now:
            diffs.append(RatingDiff(
                player=player,
                old_professional=to_rating(was[0]),
                new_professional=to_rating(now[0]),
                old_warlock=optional_rating(was[1]),
                new_warlock=optional_rating(now[1]),
            ))
    return _book(new_ratings, _order_key(new[-1])), tuple(diffs)


def ended_before(tournament: RatedTournament, other: RatedTournament) -> bool:
    """Whether ``tournament`` comes before ``other`` in the order of R-6."""
    return _order_key(tournament) < _order_key(other)


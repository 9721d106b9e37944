"""Where a penalty loss lands: carry-over to the next game or match, applied to a result (J-3).

Terms (Russian in brackets):

- *slot* (место партии): game ``game`` of the player's match in round ``round``.
- *carry* (перенесённое поражение): a game loss or a match loss waiting for the result it
  applies to. A game loss given during game N is a loss of that game, or of the next game when
  the judge defers it; given between games N and N+1 it is a loss of game N+1; given between
  matches it is a loss of the first game of the player's next match (000 Appendix 1). A match
  loss given during a match is the loss of that match, or of the next match when deferred;
  given between matches it is the loss of the next match. A disqualification's match loss
  (J-2) lands the same way.
- *reported result* (результат, заявленный за столом): the result as the players reported it,
  before the penalty losses were applied to it (``ReportedResult``).
- *next game* (следующая партия): the next game the player actually plays: a bye, an
  intentional draw or a match lost by penalty has no games, so a game loss waits past it; a
  game loss that finds the match already decided waits for the next match.

**Decided**: two game losses of one player land on two successive games; when both players
carry a game loss into the same game, both lose it at once: a drawn game (002 603.1 а). When
both players carry a match loss into one match, it is a double loss. A match lost by penalty
keeps the counts of the games played before the penalty (usually 0-0); its outcome and ending
say what happened.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from turnir.domain.games import GameRecord, Side, match_from_games
from turnir.domain.model import PlayerId
from turnir.domain.penalties.ladder import Penalty
from turnir.domain.penalties.records import Moment, PenaltyRecord
from turnir.domain.results import GameReason, MatchEnding, MatchOutcome, MatchResult
from turnir.errors import InvariantError, UserError


@dataclass(frozen=True, slots=True, order=True)
class Slot:
    """Game ``game`` of the match in round ``round``; slots compare in play order."""

    round: int
    """The round number (1, 2, …)."""
    game: int
    """The game of that round's match (1, 2, …)."""


@dataclass(frozen=True, slots=True)
class ReportedResult:
    """A match result as the players reported it at the table, before any penalty loss (J-3):
    what a correction or an appeal applies the losses to again. (A player's report of a
    result, confirmed by the opponent, is ``services.reports``; the penalties section of the
    tournament's report is ``services.penalty_document``.)"""

    result: MatchResult
    games: tuple[GameRecord, ...] | None
    """The games one by one when they were reported so."""


@dataclass(frozen=True, slots=True)
class Carry:
    """A penalty loss waiting for its result (J-3)."""

    penalty_id: int
    """The penalty record it comes from."""
    player: PlayerId
    """The penalised player."""
    loss: Penalty
    """``GAME_LOSS`` or ``MATCH_LOSS``."""
    applies_from: Slot
    """The earliest slot it lands on; a match loss lands on the first match from that round."""

    def __post_init__(self) -> None:
        if self.loss not in (Penalty.GAME_LOSS, Penalty.MATCH_LOSS):
            raise InvariantError(f"only a game or match loss is carried, not {self.loss}")


def carry_of(record: PenaltyRecord) -> Carry | None:
    """The loss ``record`` puts on a result, or ``None`` (a remark, a warning, withdrawn)."""
    if not record.active:
        return None
    losses = [e for e in record.effects if e in (Penalty.GAME_LOSS, Penalty.MATCH_LOSS)]
    if not losses:
        return None
    loss = losses[0]
    at = record.given_at
    shift = 1 if record.deferred else 0
    if at.moment is Moment.BETWEEN_MATCHES:
        slot = Slot(at.round + 1, 1)
    elif loss is Penalty.MATCH_LOSS:
        slot = Slot(at.round + shift, 1)
    elif at.moment is Moment.DURING_GAME:
        slot = Slot(at.round, at.game + shift)
    else:
        slot = Slot(at.round, at.game + 1)
    return Carry(record.id, record.player, loss, slot)


def pending_carries(
    records: Iterable[PenaltyRecord], *, applied: Collection[int] = ()
) -> tuple[Carry, ...]:
    """The carries of ``records`` not yet applied (``applied``: penalty ids already used)."""
    carries = (carry_of(r) for r in records if r.id not in applied)
    return tuple(sorted((c for c in carries if c is not None),
                        key=lambda c: (c.applies_from, c.penalty_id)))


@dataclass(frozen=True, slots=True)
class AppliedMatch:
    """A match result with the carried penalty losses applied to it (J-3)."""

    result: MatchResult
    """The match result to record."""
    games: tuple[GameRecord, ...]
    """Every game in order, penalty games included (empty for a match lost by penalty)."""
    applied: tuple[int, ...]
    """The penalty ids whose losses this match took; the others stay pending."""


def apply_carries(
    played: Sequence[GameRecord], carries: Iterable[Carry], *, round: int, a: PlayerId,
    b: PlayerId, best_of: int, elimination: bool,
) -> AppliedMatch:
    """The result of ``a`` v ``b`` in ``round`` from the games played at the table (in order,
    without the games lost by penalty) and the players' pending carries (J-3).

    A due match loss decides the match (both: a double loss). Otherwise each due game loss is a
    penalty game at its slot, and the played games fill the other slots; a played game left
    after the match was decided is refused.
    """
    side_of = {a: Side.A, b: Side.B}
    due = [c for c in carries if c.player in side_of and c.applies_from.round <= round]
    match_losses = {side: [c for c in due if side_of[c.player] is side
                           and c.loss is Penalty.MATCH_LOSS] for side in Side}
    if match_losses[Side.A] or match_losses[Side.B]:
        return _lost_by_penalty(played, match_losses, best_of=best_of, elimination=elimination)
    queues = {side: sorted((c for c in due if side_of[c.player] is side),
                           key=lambda c: (c.applies_from, c.penalty_id)) for side in Side}
    needed = best_of // 2 + 1
    games: list[GameRecord] = []
    applied: list[int] = []
    wins = {Side.A: 0, Side.B: 0}
    remaining = list(played)
    while max(wins.values()) < needed:
        slot = Slot(round, len(games) + 1)
        losers = [side for side in Side if queues[side] and queues[side][0].applies_from <= slot]
        if losers:
            applied.extend(queues[side].pop(0).penalty_id for side in losers)
            winner = None if len(losers) == 2 else losers[0].other
            game = GameRecord(winner, GameReason.PENALTY)
        elif remaining:
            game = remaining.pop(0)
        else:
            break
        games.append(game)
        if game.winner is not None:
            wins[game.winner] += 1
    if remaining:
        raise UserError(
            "with the penalty losses the match was decided after game {game}; games that "
            "cannot have been played: {count} (J-3)",
            code="bad_result", game=len(games), count=len(remaining),
        )
    result = match_from_games(games, best_of=best_of, elimination=elimination)
    return AppliedMatch(result, tuple(games), tuple(sorted(applied)))


def _lost_by_penalty(
    played: Sequence[GameRecord], match_losses: dict[Side, list[Carry]], *, best_of: int,
    elimination: bool,
) -> AppliedMatch:
    wins = {side: sum(g.winner is side for g in played) for side in Side}
    draws = sum(g.winner is None for g in played)
    a_lost, b_lost = bool(match_losses[Side.A]), bool(match_losses[Side.B])
    outcome = (MatchOutcome.DOUBLE_LOSS if a_lost and b_lost
               else MatchOutcome.B_WINS if a_lost else MatchOutcome.A_WINS)
    result = MatchResult(wins[Side.A], wins[Side.B], draws, outcome, MatchEnding.PENALTY)
    result.validate(best_of=best_of, elimination=elimination)
    applied = sorted(min(cs, key=lambda c: (c.applies_from, c.penalty_id)).penalty_id
                     for cs in match_losses.values() if cs)
    return AppliedMatch(result, tuple(played), tuple(applied))


def apply_carries_to_result(
    result: MatchResult, carries: Iterable[Carry], *, round: int, a: PlayerId, b: PlayerId,
    best_of: int, elimination: bool,
) -> AppliedMatch:
    """``apply_carries`` for a result reported as a score of the games played at the table.

    E.g. A carries a game loss from the last round and the players report ``2-0`` for the two
    games they played: the result is ``2-1`` (game 1 a penalty loss of A). A due match loss
    overrides any result. Game losses land only on played matches (not on an intentional draw
    or a conceded match); a game loss due at a later game of this very match needs the games
    in order (``apply_carries``).
    """
    carries = list(carries)
    side_of = {a: Side.A, b: Side.B}
    due = [c for c in carries if c.player in side_of and c.applies_from.round <= round]
    if result.ending is not MatchEnding.PLAYED:
        if not any(c.loss is Penalty.MATCH_LOSS for c in due):
            return AppliedMatch(result, (), ())
        return apply_carries((), due, round=round, a=a, b=b, best_of=best_of,
                             elimination=elimination)
    if any(c.loss is Penalty.GAME_LOSS and c.applies_from > Slot(round, 1) for c in due):
        raise UserError(
            "a game loss lands on a later game of this match; report the games one by one",
            code="games_needed",
        )
    penalty_wins = {side: sum(c.loss is Penalty.GAME_LOSS and side_of[c.player] is not side
                              for c in due) for side in Side}
    totals = {Side.A: result.wins_a + penalty_wins[Side.A],
              Side.B: result.wins_b + penalty_wins[Side.B]}
    last = Side.A if totals[Side.A] >= totals[Side.B] else Side.B
    # The side ahead wins its played games last: the one order in which no played game comes
    # after the match was decided, whenever such an order exists.
    played_wins = {Side.A: result.wins_a, Side.B: result.wins_b}
    order = ([GameRecord.draw()] * result.draws + [GameRecord.win(last.other)] *
             played_wins[last.other] + [GameRecord.win(last)] * played_wins[last])
    return apply_carries(order, due, round=round, a=a, b=b, best_of=best_of,
                         elimination=elimination)

"""Penalty losses on match results (J-3) and accumulation at the end of a match (J-6): the hook
``services.results`` calls while it records a result.

When a match result is recorded (``record_result``, or a penalty service re-applying a loss),
``apply_penalty_losses`` takes the result *as reported at the table* and applies the players'
pending game and match losses that are due by this round (``domain.penalties.apply_carries``):
a game loss carried from between rounds becomes the opponent's win of the first game, a match
loss decides the match. The losses this very match took before (a correction) are applied
again, so the reported result is always the input. ``settle_penalty_losses`` then marks which
penalties the result took (``penalties.applied_round``), keeps the reported result when it was
changed (``reported_results``), and, at the end of the match, gives the automatic penalties of
three of a strength (J-6); an automatic disqualification drops the player at once (J-4).

The common case costs one indexed look-up: players without penalties change nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from turnir.domain.model import Pairing, Settings, Stage
from turnir.domain.penalties import (
    ACCUMULATION,
    GameRecord,
    PenaltyRecord,
    ReportedResult,
    accumulate,
    apply_carries,
    apply_carries_to_result,
    pending_carries,
)
from turnir.domain.results import MatchResult
from turnir.errors import InvariantError
from turnir.services.common import Tx
from turnir.services.players import drop_in
from turnir.storage.mappers import tournament_row
from turnir.storage.penalty_rows import (
    insert_penalty,
    load_catalogue,
    next_seq,
    record_json,
    store_report,
    stored_report,
)
from turnir.storage.repositories import Change, entry_by_ref
from turnir.storage.results_repo import MatchPenalty, match_penalties, set_applied_round


@dataclass(frozen=True, slots=True)
class PenaltyLosses:
    """A reported result and what the players' penalty losses make of it (J-3)."""

    tournament_id: int
    round: int
    pairing_id: int
    pairing: Pairing
    report: ReportedResult
    """The result as reported at the table."""
    result: MatchResult
    """The result to record: the report with the due penalty losses applied."""
    games: tuple[GameRecord, ...] | None
    """The games to record (penalty games included) when losses were applied or the games
    were reported one by one."""
    applied: tuple[int, ...] = ()
    """The penalties (``seq``) whose losses this result takes."""
    previously: tuple[int, ...] = ()
    """The penalties this match's result took before (a correction)."""
    rows: tuple[MatchPenalty, ...] = ()
    """The penalties of both players; empty when neither has any."""

    @property
    def changed(self) -> bool:
        """The losses changed the reported result."""
        return bool(self.applied)


def apply_penalty_losses(
    conn: Tx, tournament_id: int, round_number: int, pairing_id: int, pairing: Pairing,
    *, stage: Stage, settings: Settings, result: MatchResult,
    games: Sequence[GameRecord] | None,
) -> PenaltyLosses:
    """The result to record at ``pairing`` from the reported ``result`` (and ``games``)."""
    if pairing.b is None:
        raise InvariantError("a bye has no result to apply penalty losses to")
    played = None if games is None else tuple(games)
    report = ReportedResult(result, played)
    plain = PenaltyLosses(tournament_id, round_number, pairing_id, pairing, report, result,
                          played)
    rows = match_penalties(conn, tournament_id, pairing.a, pairing.b)
    if not rows:
        return plain
    previously = tuple(r.seq for r in rows if r.applied_round == round_number)
    elsewhere = {r.seq for r in rows if r.applied_round not in (None, round_number)}
    carries = pending_carries((r.record for r in rows), applied=elsewhere)
    plain = PenaltyLosses(tournament_id, round_number, pairing_id, pairing, report, result,
                          played, (), previously, rows)
    if not carries:
        return plain
    elimination = stage is Stage.TOP
    best_of = settings.top_best_of if elimination else settings.best_of
    if played is not None:
        done = apply_carries(played, carries, round=round_number, a=pairing.a, b=pairing.b,
                             best_of=best_of, elimination=elimination)
    else:
        done = apply_carries_to_result(result, carries, round=round_number, a=pairing.a,
                                       b=pairing.b, best_of=best_of, elimination=elimination)
    if not done.applied:
        return plain
    return PenaltyLosses(tournament_id, round_number, pairing_id, pairing, report, done.result,
                         done.games, done.applied, previously, rows)


def settle_penalty_losses(conn: Tx, losses: PenaltyLosses, *, actor: str, at: datetime,
                          match_ended: bool) -> None:
    """After the result is stored: mark the penalties it took, keep the reported result, and
    at the end of the match (``match_ended``) add up three of a strength (J-6)."""
    if not losses.rows:
        return
    change = Change(conn, actor, at)
    tid, number = losses.tournament_id, losses.round
    by_seq = {r.seq: r for r in losses.rows}
    for seq in sorted(set(losses.applied) ^ set(losses.previously)):
        taken = seq in losses.applied
        set_applied_round(conn, by_seq[seq].id, number if taken else None)
        change.log(tid, "penalty.apply" if taken else "penalty.unapply", "penalty", seq,
                   {"applied_round": by_seq[seq].applied_round},
                   {"applied_round": number if taken else None,
                    "pairing": f"{number}.{losses.pairing.table}"})
    wanted = losses.report if losses.applied else None
    if stored_report(conn, losses.pairing_id) != wanted:
        store_report(conn, losses.pairing_id, wanted)
    if match_ended:
        _accumulate(change, tid, number, losses)


def _accumulate(change: Change, tournament_id: int, round_number: int,
                losses: PenaltyLosses) -> None:
    """J-6: three of one strength for different reasons give the next strength now, at the
    end of the match; an automatic disqualification drops the player at once (J-4)."""
    conn = change.conn
    records = [r.record for r in losses.rows]
    catalogue = None
    for player in losses.pairing.players:
        own = [r for r in records if r.player == player]
        if len(own) < 3:
            continue
        if catalogue is None:
            catalogue = load_catalogue(conn, tournament_id)
        new = accumulate(own, player=player, after_round=round_number,
                         next_id=next_seq(conn, tournament_id), catalogue=catalogue)
        for record in new:
            insert_penalty(conn, tournament_id, record, reason_name=catalogue.name(ACCUMULATION),
                           judge_id=None, confirmed_by="", at=change.at, actor=change.actor)
            change.log(tournament_id, "penalty.accumulate", "penalty", record.id, None,
                       record_json(record))
        if any(r.penalty.is_disqualification for r in new):
            disqualify_player(change, tournament_id, new[-1])


def disqualify_player(change: Change, tournament_id: int, record: PenaltyRecord) -> None:
    """J-4: the disqualified player leaves at once (the drop service), keeping points and
    place; nothing happens when they have already left."""
    conn = change.conn
    entry = entry_by_ref(conn, tournament_id, record.player)
    if entry["dropped_after"] is not None:
        return
    drop_in(change, tournament_id, tournament_row(conn, tournament_id), entry,
            reason=f"disqualified (penalty #{record.id}): {record.explanation.en}"[:500])

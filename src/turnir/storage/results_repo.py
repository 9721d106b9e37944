"""The statements of the result path (``turnir.services.results``, ``services.reports``,
``services.penalty_losses``): the one read of a table's slot, the versioned update of its
result, its games, the players' pending penalties (the round clock: ``storage.clock_repo``).

The hot path runs prepared statements (``turnir.storage.direct``): recording one result reads
its slot in one statement (the tournament's settings, the round, the pairing, the last round)
once the tournament's lock is held (``turnir.storage.database.lock_tournament``), updates the
pairing on its version and appends the audit record. Like every repository, nothing here
commits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, bindparam, delete, func, insert, or_, select, update

from turnir.domain.games import GameRecord
from turnir.domain.model import Pairing, PairingKind, PlayerId, Settings, Stage, Status
from turnir.domain.penalties import PenaltyRecord
from turnir.domain.results import MatchResult, PointsTable
from turnir.storage.database import Tx
from turnir.storage.direct import DirectStatement
from turnir.storage.penalty_rows import penalty_rows, record_from_row
from turnir.storage.tables import entries, games, pairings, rounds, stages, tournaments
from turnir.storage.tables_penalties import penalties


@dataclass(frozen=True, slots=True)
class ResultSlot:
    """Everything recording one result needs, read in one statement: the tournament's status,
    name and settings, the round (``None`` fields when it or its table does not exist), the
    pairing with its version, and the number of the tournament's last round."""

    status: Status
    name: str
    settings: Settings
    last_round: int
    round_id: int | None
    stage: Stage | None
    pairing_id: int | None
    pairing: Pairing | None
    version: int


_LAST_ROUND = rounds.alias("later")
_SLOT = DirectStatement(
    select(
        tournaments.c.status, tournaments.c.name, tournaments.c.points_win,
        tournaments.c.points_draw, tournaments.c.points_loss, tournaments.c.points_bye,
        tournaments.c.best_of, tournaments.c.top_best_of, tournaments.c.swiss_rounds,
        tournaments.c.top_size,
        select(func.max(_LAST_ROUND.c.number))
        .where(_LAST_ROUND.c.tournament_id == tournaments.c.id)
        .scalar_subquery().label("last_round"),
        rounds.c.id.label("round_id"), stages.c.kind.label("stage"),
        pairings.c.id.label("pairing_id"), pairings.c.table_no, pairings.c.a, pairings.c.b,
        pairings.c.kind, pairings.c.wins_a, pairings.c.wins_b, pairings.c.draws,
        pairings.c.outcome, pairings.c.ending, pairings.c.version,
    )
    .select_from(tournaments)
    .outerjoin(rounds, and_(rounds.c.tournament_id == tournaments.c.id,
                            rounds.c.number == bindparam("round_number")))
    .outerjoin(stages, stages.c.id == rounds.c.stage_id)
    .outerjoin(pairings, and_(pairings.c.round_id == rounds.c.id,
                              pairings.c.table_no == bindparam("table_no"),
                              pairings.c.kind == PairingKind.MATCH.value))
    .where(tournaments.c.id == bindparam("tournament_id"))
)


def result_slot(tx: Tx, tournament_id: int, round_number: int, table: int) -> ResultSlot | None:
    """The slot of ``table`` in round ``round_number``; ``None`` when there is no such
    tournament. Read it once the tournament's lock is held: a ``FOR UPDATE`` that waited
    returns the locked row fresh but rows joined to it from an older snapshot."""
    row = _SLOT.execute(tx, {"tournament_id": tournament_id, "round_number": round_number,
                             "table_no": table}).fetchone()
    if row is None:
        return None
    (status, name, win, draw, loss, bye, best_of, top_best_of, swiss_rounds, top_size, last,
     round_id, stage, pairing_id, table_no, a, b, kind, wins_a, wins_b, draws, outcome, ending,
     version) = row
    settings = Settings(PointsTable(win, draw, loss, bye), best_of, top_best_of, swiss_rounds,
                        top_size)
    pairing = None
    if pairing_id is not None:
        result = None if outcome is None else MatchResult.from_values(
            wins_a, wins_b, draws, outcome, ending)
        pairing = Pairing(table_no, a, b, PairingKind(kind), result)
    return ResultSlot(Status(status), name, settings, int(last or 0), round_id,
                      None if stage is None else Stage(stage), pairing_id, pairing,
                      int(version or 0))


_UPDATE_RESULT = DirectStatement(
    update(pairings)
    .where(pairings.c.id == bindparam("pairing_id"),
           pairings.c.version == bindparam("old_version"))
    .values(version=bindparam("new_version"), updated_by=bindparam("actor"),
            updated_at=bindparam("at"), wins_a=bindparam("new_wins_a"),
            wins_b=bindparam("new_wins_b"), draws=bindparam("new_draws"),
            outcome=bindparam("new_outcome"), ending=bindparam("new_ending"))
)


def update_result(tx: Tx, pairing_id: int, version: int, result: MatchResult, *, actor: str,
                  at: datetime) -> bool:
    """Store ``result`` at the pairing when it is still at ``version`` (its version goes up by
    one); ``False`` when someone changed it meanwhile."""
    done = _UPDATE_RESULT.execute(tx, {
        "pairing_id": pairing_id, "old_version": version, "new_version": version + 1,
        "actor": actor, "at": at,
        **{f"new_{key}": value for key, value in result.to_columns().items()},
    })
    return bool(done.rowcount == 1)


def stored_games(tx: Tx, pairing_id: int) -> list[GameRecord]:
    """The games stored for a pairing, in order."""
    return [
        GameRecord(winner, reason)  # the record takes the stored texts
        for winner, reason in tx.execute(
            select(games.c.winner, games.c.reason).where(games.c.pairing_id == pairing_id)
            .order_by(games.c.number))
    ]


def replace_games(tx: Tx, pairing_id: int, played: Sequence[GameRecord], *,
                  had_games: bool) -> None:
    """The pairing's games become ``played`` (``had_games``: some are stored now)."""
    if had_games:
        tx.execute(delete(games).where(games.c.pairing_id == pairing_id))
    if played:
        tx.execute(insert(games), [
            {"pairing_id": pairing_id, "number": number, **game.to_json()}
            for number, game in enumerate(played, start=1)
        ])


def pairing_versions(tx: Tx, round_id: int) -> dict[int, int]:
    """table → the version of the match there, for a round."""
    return {table: version for table, version in tx.execute(
        select(pairings.c.table_no, pairings.c.version)
        .where(pairings.c.round_id == round_id, pairings.c.kind == PairingKind.MATCH.value))}


def entry_numbers(tx: Tx, tournament_id: int, person_id: int) -> list[int]:
    """The entry numbers a person has in a tournament (normally one)."""
    return [n for (n,) in tx.execute(
        select(entries.c.number).where(entries.c.tournament_id == tournament_id,
                                       entries.c.person_id == person_id))]


# ----- the players' penalties on a match (J-3, J-6) -----------------------------------------


@dataclass(frozen=True, slots=True)
class MatchPenalty:
    """A penalty of one of a match's players, with the round whose result took its loss."""

    id: int
    """The row's id (``set_applied_round``)."""
    seq: int
    """The penalty's number in the tournament."""
    applied_round: int | None
    record: PenaltyRecord


_ANY_PENALTY = DirectStatement(
    select(penalties.c.id)
    .where(penalties.c.tournament_id == bindparam("tournament_id"),
           or_(penalties.c.number == bindparam("a"), penalties.c.number == bindparam("b")))
    .limit(1)
)


def match_penalties(tx: Tx, tournament_id: int, a: PlayerId,
                    b: PlayerId) -> tuple[MatchPenalty, ...]:
    """The penalties of players ``a`` and ``b``; one indexed look-up when they have none."""
    if _ANY_PENALTY.execute(tx, {"tournament_id": tournament_id, "a": a,
                                 "b": b}).fetchone() is None:
        return ()
    return tuple(MatchPenalty(r["id"], r["seq"], r["applied_round"], record_from_row(r))
                 for r in penalty_rows(tx, tournament_id, (a, b)))


def set_applied_round(tx: Tx, penalty_id: int, round_number: int | None) -> None:
    """Mark the round whose result took the penalty's loss (``None``: none)."""
    tx.execute(update(penalties).where(penalties.c.id == penalty_id)
               .values(applied_round=round_number))


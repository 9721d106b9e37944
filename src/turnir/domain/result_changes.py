"""May a result be recorded at a match now (S-2, S-3, S-6)? One line's rule, apart from the
tournament aggregate so that storage can apply it without loading the whole tournament."""

from __future__ import annotations

from turnir.domain.model import Pairing, Settings, Stage
from turnir.domain.results import MatchEnding, MatchResult
from turnir.errors import ConflictError, InvariantError


def check_result_change(
    pairing: Pairing, result: MatchResult, *, round_number: int, stage: Stage,
    settings: Settings, last_round: int, correction: bool, games_differ: bool = False,
    by_player: bool = False,
) -> bool:
    """May ``result`` be recorded at ``pairing`` now? ``False``: it is already there (a no-op).

    The S-6 rule in one place, for one line, so that storage can apply it without loading the
    whole tournament: the result must be possible (S-2, S-3); a different result (or the same
    result with other games, ``games_differ``) needs ``correction`` (a judge's action), and a
    correction is refused once a later round exists. A player's own report (``by_player``) is
    never a correction and is taken only in the last round.
    """
    table = pairing.table
    if by_player and round_number != last_round:
        raise ConflictError("round {round} is closed; ask a judge", code="round_closed",
                            round=round_number)
    elimination_match = stage is Stage.TOP
    best_of = settings.top_best_of if elimination_match else settings.best_of
    result.validate(best_of=best_of, elimination=elimination_match)
    if by_player:
        result.validate_report()
    if pairing.result == result and not games_differ:
        return False
    if pairing.result is not None and by_player:
        raise ConflictError(
            "round {round} table {table} already has the result {score}; ask a judge to "
            "correct it", code="result_exists", round=round_number, table=table,
            score=pairing.result.score)
    if pairing.result is not None and not correction:
        if pairing.result == result:
            raise ConflictError(
                "round {round} table {table} already has the result with other games; "
                "correcting it is a judge's correction",
                code="result_exists", round=round_number, table=table)
        raise ConflictError(
            "round {round} table {table} already has the result {score}; correcting it is a "
            "judge's correction",
            code="result_exists", round=round_number, table=table, score=pairing.result.score,
        )
    if pairing.result is not None and round_number != last_round:
        raise ConflictError(
            "round {round} table {table}: a later round was already paired from this result; "
            "undo that round first",
            code="result_locked", round=round_number, table=table,
        )
    if result.ending is MatchEnding.INTENTIONAL_DRAW and elimination_match:
        raise InvariantError("validate() lets no intentional draw into the top")
    return True

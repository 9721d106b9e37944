"""Technical results by crystal count (S-8) and claims after time-out (S-9).

Both happen when the round's time is up, so the game ruled on is the last game of the match:
the ruling is stored (``game_rulings``) and, when it decides the game, the match result is
recorded at once from the games played before it and the ruled game, each with its reason
(S-1; the results service applies any pending penalty losses, J-3). A refused claim records
only the ruling: play goes on to the crystal count.

Only the head judge records a technical result (002 604.2); any judge of the tournament
decides a claim. A floor judge's ruling on a claim can be taken to the head judge, who decides
the claim again with ``correction=True``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from turnir.domain.games import GameRecord, Side
from turnir.domain.penalties import (
    Claim,
    ClaimKind,
    CrystalCount,
    RulingKind,
    Text,
    decide_claim,
    technical_result,
)
from turnir.domain.results import MatchResult
from turnir.domain.text import NOTE_LEN, clean_text
from turnir.errors import Term, UserError
from turnir.services.common import Database, Tx, changing, reading, refuse_when_finished
from turnir.services.judging import ActingJudge, acting_judge
from turnir.services.results import GameReport, RecordedResult, record_result_in
from turnir.storage.mappers import tournament_row
from turnir.storage.penalties_repo import GameRulingView as GameRulingView
from turnir.storage.penalties_repo import insert_ruling, ruling_views
from turnir.storage.penalty_rows import judging_settings_of
from turnir.storage.repositories import Change, entry_by_ref, match_row, round_row


def rulings_in(conn: Tx, tournament_id: int) -> list[GameRulingView]:
    return ruling_views(conn, tournament_id)


def list_rulings(db: Database, tournament_id: int) -> list[GameRulingView]:
    with reading(db) as conn:
        tournament_row(conn, tournament_id)
        return rulings_in(conn, tournament_id)


@dataclass(frozen=True, slots=True)
class RulingOutcome:
    ruling: GameRulingView
    result: RecordedResult | None
    """The match result recorded with the ruled game; ``None`` for a refused claim."""


def _line(conn: Tx, tournament_id: int, round_number: int, table: int) -> Mapping[Any, Any]:
    rnd = round_row(conn, tournament_id, round_number)
    return match_row(conn, rnd["id"], round_number, table)


def _record_match(change: Change, tournament_id: int, round_number: int, table: int,
                  before: Sequence[GameReport], game: GameRecord,
                  correction: bool) -> RecordedResult:
    reported = [*before, game]
    wins_a = sum(g.winner == "a" for g in reported)
    wins_b = sum(g.winner == "b" for g in reported)
    draws = sum(g.winner is None for g in reported)
    return record_result_in(change.conn, tournament_id, round_number, table,
                            MatchResult.played(wins_a, wins_b, draws), actor=change.actor,
                            correction=correction, games_played=reported)


def _store(change: Change, tournament_id: int, round_number: int, table: int, game: int,
           acting: ActingJudge, explanation: Text, note: str, **values: Any) -> GameRulingView:
    conn = change.conn
    view = insert_ruling(
        conn, tournament_id=tournament_id, round=round_number, table_no=table, game=game,
        judge_id=acting.id, judge_name=acting.name, explanation_ru=explanation.ru[:500],
        explanation_en=explanation.en[:500],
        note=clean_text(note, field="note", max_len=NOTE_LEN), at=change.at,
        actor=change.actor, **values)
    change.log(tournament_id, f"game.{view.kind}", "pairing", f"{round_number}.{table}", None,
               view.as_json())
    return view


def record_technical_result(
    db: Database, tournament_id: int, round_number: int, table: int, *,
    crystals_a: CrystalCount, crystals_b: CrystalCount, actor: str, judge: str | None = None,
    games_before: Sequence[GameReport] = (), correction: bool = False, note: str = "",
    account_id: int | None = None,
) -> RulingOutcome:
    """The head judge counts the crystals when time is up and both players can still win
    (S-8): the larger total wins by the tournament's margin, else a technical draw; the match
    result is recorded with ``games_before`` and the technical game. ``account_id``: the web
    account acting (its staff row in the tournament, never a name; issue 10 item 1)."""
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        row = tournament_row(conn, tournament_id)
        refuse_when_finished(row)
        acting = acting_judge(conn, tournament_id, judge or actor,
                              what=Term("record a technical result"), account_id=account_id)
        _line(conn, tournament_id, round_number, table)
        margin = judging_settings_of(conn, tournament_id, row["rules_level"]).technical_margin
        tech = technical_result(crystals_a, crystals_b, judge=acting.judge, margin=margin)
        recorded = _record_match(change, tournament_id, round_number, table, games_before,
                                 tech.game, correction)
        view = _store(change, tournament_id, round_number, table, len(games_before) + 1,
                      acting, tech.explanation, note, kind=RulingKind.TECHNICAL,
                      crystals_a=tech.totals[0], crystals_b=tech.totals[1], margin=tech.margin,
                      winner=None if tech.game.winner is None else tech.game.winner.value,
                      reason=tech.game.reason.value)
        return RulingOutcome(view, recorded)


def decide_time_out_claim(
    db: Database, tournament_id: int, round_number: int, table: int, *, claimant: str | int,
    kind: ClaimKind, granted: bool, actor: str, judge: str | None = None,
    games_before: Sequence[GameReport] = (), correction: bool = False, note: str = "",
    account_id: int | None = None,
) -> RulingOutcome:
    """A judge decides a claim after time-out (S-9): a clean victory by decisive advantage,
    or a draw when neither can win. Granted, the match result is recorded with
    ``games_before`` and the claimed game; refused, play goes on (to the crystal count).
    ``account_id``: the web account acting, as in ``record_technical_result``."""
    with changing(db, tournament_id, actor) as change:
        conn = change.conn
        row = tournament_row(conn, tournament_id)
        refuse_when_finished(row)
        acting = acting_judge(conn, tournament_id, judge or actor, what=Term("decide claims"),
                              account_id=account_id)
        line = _line(conn, tournament_id, round_number, table)
        number = entry_by_ref(conn, tournament_id, claimant)["number"]
        if number not in (line["a"], line["b"]):
            raise UserError("player #{number} does not play at round {round} table {table}",
                            code="bad_claim", number=number, round=round_number, table=table)
        side = Side.A if number == line["a"] else Side.B
        ruling = decide_claim(Claim(side, kind), granted=granted, judge=acting.judge, note=note)
        recorded = None
        if ruling.game is not None:
            recorded = _record_match(change, tournament_id, round_number, table, games_before,
                                     ruling.game, correction)
        what = (Text("чистая победа", "a clean victory") if kind is ClaimKind.CLEAN_VICTORY
                else Text("ничья", "a draw"))
        verdict = Text("удовлетворено", "granted") if granted else Text("отклонено", "refused")
        explanation = Text(f"игрок {side.value.upper()} требует: {what.ru}; {verdict.ru}",
                           f"player {side.value.upper()} claims {what.en}: {verdict.en}")
        view = _store(change, tournament_id, round_number, table, len(games_before) + 1,
                      acting, explanation, ruling.note, kind=RulingKind.CLAIM, claim=kind.value,
                      claimant=side.value, granted=granted,
                      winner=None if ruling.game is None or ruling.game.winner is None
                      else ruling.game.winner.value,
                      reason=None if ruling.game is None else ruling.game.reason.value)
        return RulingOutcome(view, recorded)

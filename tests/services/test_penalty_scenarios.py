"""The scenarios of issue 5 through the services, on SQLite and PostgreSQL: the guide's
swearing example, three warnings adding up at the end of a match, a game loss between rounds
landing on the next match's first game, a disqualified player keeping their points and no
longer paired, the head judge as a player, and the standings following the penalties (T-6)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from tests.services.builders import ORGANIZER, snapshot
from tests.services.penalty_builders import (
    FLOOR,
    HEAD,
    finish_round,
    give,
    judged_event,
    line_of,
    report,
)
from turnir.domain.penalties import Penalty
from turnir.domain.results import GameReason, MatchEnding, MatchOutcome
from turnir.domain.standings import PenaltyCounts
from turnir.errors import UserError
from turnir.formats.players_csv import PlayerLine
from turnir.services.common import RulesLevel
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.penalties import list_penalties
from turnir.services.penalty_document import penalty_document, render_penalty_document
from turnir.services.players import drop_player, register_player, register_players
from turnir.services.queries import audit_log, get_standings
from turnir.services.results import GameReport
from turnir.services.rounds import start_round
from turnir.services.tournaments import create_tournament, get_tournament
from turnir.storage.database import Database
from turnir.storage.tables import games, pairings, rounds


def _games(db: Database, tid: int, round_number: int, table: int) -> list[GameReport]:
    with db.read() as conn:
        rows = conn.execute(
            select(games.c.winner, games.c.reason)
            .join(pairings, pairings.c.id == games.c.pairing_id)
            .join(rounds, rounds.c.id == pairings.c.round_id)
            .where(rounds.c.tournament_id == tid, rounds.c.number == round_number,
                   pairings.c.table_no == table).order_by(games.c.number)).all()
    return [GameReport(w, GameReason(r)) for w, r in rows]


def test_rule_J6_scenario_guide_example_swearing_remark_warning_game_loss(db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    player = line_of(db, tid, 1).a
    first = give(db, tid, player, "unsporting_minor").penalty
    second = give(db, tid, player, "unsporting_minor").penalty
    third = give(db, tid, player, "unsporting_minor").penalty
    assert [first.penalty, second.penalty, third.penalty] == [
        Penalty.REMARK, Penalty.WARNING, Penalty.GAME_LOSS]
    assert "raised from remark to warning" in second.explanation.en
    assert "повышено с замечания до предупреждения" in second.explanation.ru
    assert "third offence for unsporting conduct: raised from warning to game loss" in \
        third.explanation.en
    assert (third.given_at.round, third.given_at.moment.value) == (1, "during_game")
    assert third.pending_loss
    # The game in progress is lost; the players report the two games played after it.
    line = line_of(db, tid, player)
    done = report(db, tid, player, 1, 1)
    assert (done.result.wins_a, done.result.wins_b) == ((1, 2) if line.a == player else (2, 1))
    assert done.result.outcome is (MatchOutcome.B_WINS if line.a == player
                                   else MatchOutcome.A_WINS)
    stored = _games(db, tid, 1, line.table)
    assert stored[0].reason is GameReason.PENALTY and len(stored) == 3
    after = {v.seq: v for v in list_penalties(db, tid, player)}
    assert after[third.seq].applied_round == 1 and not after[third.seq].pending_loss


def test_rule_J6_scenario_three_warnings_for_different_reasons_give_a_game_loss_at_match_end(
        db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    player = 1
    give(db, tid, player, "slow_play")
    finish_round(db, tid)
    start_round(db, tid, actor=ORGANIZER)
    give(db, tid, player, "game_rule_error")
    give(db, tid, player, "looking_at_extra_cards")
    assert [v.penalty for v in list_penalties(db, tid, player)] == [Penalty.WARNING] * 3
    report(db, tid, player, 2, 0)                      # the end of the round-2 match
    automatic = list_penalties(db, tid, player)[-1]
    assert automatic.automatic and automatic.penalty is Penalty.GAME_LOSS
    assert automatic.sources == (1, 2, 3)
    assert "three warnings for different reasons" in automatic.explanation.en
    assert (automatic.given_at.round, automatic.given_at.moment.value) == (2, "between_matches")
    assert automatic.pending_loss
    finish_round(db, tid)
    start_round(db, tid, actor=ORGANIZER)
    done = report(db, tid, player, 2, 0)               # round 3: the player starts 0-1
    own, other = ((done.result.wins_a, done.result.wins_b) if line_of(db, tid, player).a
                  == player else (done.result.wins_b, done.result.wins_a))
    assert (own, other) == (2, 1)
    counts = get_tournament(db, tid).tournament.penalties[player]
    assert counts == PenaltyCounts(match_losses=0, game_losses=1, penalty_points=5, warnings=4)
    assert [e.action for e in audit_log(db, tid, action="penalty.accumulate")] == \
        ["penalty.accumulate"]


def test_rule_J3_scenario_game_loss_between_rounds_lands_on_next_matchs_first_game(
        db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    finish_round(db, tid)
    late = give(db, tid, 3, "tardiness").penalty      # Professional: tardiness is a game loss
    assert late.penalty is Penalty.GAME_LOSS
    assert (late.given_at.round, late.given_at.moment.value) == (1, "between_matches")
    start_round(db, tid, actor=ORGANIZER)
    line = line_of(db, tid, 3)
    before = snapshot(db)
    with pytest.raises(UserError, match="decided"):
        report(db, tid, 3, 2, 1)                       # 2-1 played + the penalty game: 2-2
    assert snapshot(db) == before
    done = report(db, tid, 3, 2, 0)                    # the two games played at the table
    own = done.result.wins_a if line.a == 3 else done.result.wins_b
    other = done.result.wins_b if line.a == 3 else done.result.wins_a
    assert (own, other) == (2, 1)
    stored = _games(db, tid, 2, line.table)
    assert stored[0].reason is GameReason.PENALTY
    assert stored[0].winner == ("b" if line.a == 3 else "a")
    assert list_penalties(db, tid, 3)[0].applied_round == 2
    assert [e.action for e in audit_log(db, tid, action="penalty.apply")] == ["penalty.apply"]
    # Reporting the same again changes nothing; the loss is not applied twice.
    before = snapshot(db)
    again = report(db, tid, 3, 2, 0)
    assert again.status.value == "unchanged" and again.result == done.result
    assert snapshot(db) == before


def test_rule_J4_scenario_disqualified_player_keeps_points_and_is_not_paired(
        db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    cheat = line_of(db, tid, 1).a
    report(db, tid, cheat, 2, 0)
    finish_round(db, tid)
    points = get_standings(db, tid).standings.row_of(cheat).points
    assert points == 3
    done = give(db, tid, cheat, "cheating")       # Professional: without prizes
    assert done.penalty.penalty is Penalty.DISQUALIFICATION_WITHOUT_PRIZES
    assert done.dropped_after == 1
    view = start_round(db, tid, actor=ORGANIZER)
    assert view.round.pairing_of(cheat) is None
    standings = get_standings(db, tid).standings
    assert standings.row_of(cheat).points == 3
    assert get_standings(db, tid).tournament.penalties[cheat].match_losses == 1
    found = penalty_document(db, tid)
    assert found.without_prizes == {cheat}
    [line] = found.disqualifications
    assert (line.player, line.prize_eligible, line.rating_reset) == (cheat, False, True)
    assert "rating resets to the newcomer value" in render_penalty_document(found, lang="en")


def test_rule_J4_disqualification_during_a_match_decides_it_at_once(db: Database) -> None:
    tid = judged_event(db, 8, level=RulesLevel.AMATEUR)
    start_round(db, tid, actor=ORGANIZER)
    line = line_of(db, tid, 2)
    done = give(db, tid, 2, "cheating")               # Amateur: a plain disqualification
    assert done.penalty.penalty is Penalty.DISQUALIFICATION and done.dropped_after == 1
    [recorded] = done.results
    assert recorded.result.ending is MatchEnding.PENALTY
    assert recorded.result.outcome is (MatchOutcome.B_WINS if line.a == 2 else MatchOutcome.A_WINS)
    finish_round(db, tid)
    assert start_round(db, tid, actor=ORGANIZER).round.pairing_of(2) is None
    assert penalty_document(db, tid).without_prizes == frozenset()
    assert penalty_document(db, tid).disqualifications[0].prize_eligible


def test_rule_J8_scenario_head_judge_may_play_only_at_amateur_with_fewer_than_12(
        db: Database) -> None:
    pro = judged_event(db, 4, name="Профи")
    before = snapshot(db)
    with pytest.raises(UserError, match="only at Amateur level"):
        register_player(db, pro, name=HEAD, actor=ORGANIZER)
    assert snapshot(db) == before

    amateur = judged_event(db, 10, level=RulesLevel.AMATEUR, name="Любители")
    register_player(db, amateur, name=HEAD, actor=ORGANIZER)          # 11 participants
    with pytest.raises(UserError, match="fewer than 12 participants; there would be 12"):
        register_player(db, amateur, name="Двенадцатый", actor=ORGANIZER)



def test_rule_J8_head_judge_is_checked_when_round_1_starts(db: Database) -> None:
    # The head judge is appointed after the players registered: 12 participants with them.
    tid = create_tournament(db, name="Клуб", actor=ORGANIZER, rules_level=RulesLevel.AMATEUR,
                            seed=3).id
    register_players(db, tid, [PlayerLine(f"Игрок {i}") for i in range(1, 12)] +
                     [PlayerLine("Борис Судья")], actor=ORGANIZER)
    add_judge(db, tid, name="Борис Судья", role=JudgeRole.HEAD_JUDGE, actor=ORGANIZER)
    before = snapshot(db)
    with pytest.raises(UserError, match=r"starting round 1: Борис Судья .* is the head judge"):
        start_round(db, tid, actor=ORGANIZER)
    assert snapshot(db) == before
    drop_player(db, tid, 1, actor=ORGANIZER, reason="ушёл")          # 11 left: allowed
    assert start_round(db, tid, actor=ORGANIZER).round.pairing_of(12) is not None


def test_rule_T6_standings_follow_recorded_penalties(db: Database) -> None:
    tid = judged_event(db, 4, rounds=2)
    start_round(db, tid, actor=ORGANIZER)
    finish_round(db, tid, "2-0")
    order = get_standings(db, tid).standings.order()
    first, second = order[0], order[1]                 # two winners tied until T-6 and lot
    assert get_standings(db, tid).standings.row_of(second).points == 3
    give(db, tid, first, "slow_play")                   # a warning
    after = get_standings(db, tid).standings.order()
    assert after[:2] == [second, first]
    assert get_tournament(db, tid).tournament.penalties[first] == PenaltyCounts(
        penalty_points=1, warnings=1)
    assert FLOOR in {e.actor for e in audit_log(db, tid, action="penalty.give")}

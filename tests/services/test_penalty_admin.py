"""The infraction catalogue and the judging settings (J-5, J-7, T-6), technical results and
claims (S-8, S-9), the report's penalties section and a person's penalty history, through the
services on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from tests.services.builders import ORGANIZER, offline_event, snapshot
from tests.services.penalty_builders import FLOOR, HEAD, finish_round, give, judged_event, line_of
from turnir.domain.penalties import (
    DEFAULT_CATALOGUE,
    AppealOutcome,
    ClaimKind,
    CrystalCount,
    Infraction,
    Penalty,
    PenaltyPoints,
    RulesLevel,
    Side,
    Text,
)
from turnir.domain.results import GameReason, MatchOutcome
from turnir.domain.standings import PenaltyCounts
from turnir.errors import ConflictError, UserError
from turnir.formats.tournament_file import dump_tournament, parse_tournament
from turnir.services.common import RulesLevel as Level
from turnir.services.game_rulings import (
    decide_time_out_claim,
    list_rulings,
    record_technical_result,
)
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.penalties import person_history
from turnir.services.penalty_appeals import decide_appeal
from turnir.services.penalty_catalogue import (
    get_catalogue,
    get_judging_settings,
    remove_infraction,
    set_default,
    set_infraction,
    set_judging_settings,
)
from turnir.services.penalty_document import penalty_document, render_penalty_document
from turnir.services.players import list_players
from turnir.services.queries import audit_log
from turnir.services.results import GameReport
from turnir.services.rounds import start_round
from turnir.services.tournaments import get_tournament
from turnir.services.transfer import export_tournament, import_tournament
from turnir.storage.database import Database

LATE_DECK = Infraction("late_deck_list", Text("Поздняя сдача деклиста", "Late deck list"),
                       Penalty.REMARK, Penalty.WARNING, Penalty.GAME_LOSS)


def test_catalogue_is_shipped_in_russian_and_english(db: Database) -> None:
    tid = judged_event(db, 0)
    view = get_catalogue(db, tid)
    assert view.catalogue == DEFAULT_CATALOGUE and not view.customised
    assert view.level is RulesLevel.PROFESSIONAL
    slow = view.catalogue.get("slow_play")
    assert (slow.name.ru, slow.name.en, slow.default(view.level)) == (
        "Затягивание игры", "Slow play", Penalty.WARNING)


def test_catalogue_is_edited_by_the_organizer_before_the_tournament(db: Database) -> None:
    tid = judged_event(db, 8)
    with pytest.raises(UserError, match="only the organizer or head judge may edit"):
        set_default(db, tid, "slow_play", RulesLevel.PROFESSIONAL, Penalty.GAME_LOSS,
                    actor=FLOOR)
    set_default(db, tid, "slow_play", RulesLevel.PROFESSIONAL, Penalty.REMARK, actor=ORGANIZER)
    set_infraction(db, tid, LATE_DECK, actor=HEAD)
    removed = remove_infraction(db, tid, "marked_cards", actor=ORGANIZER)
    assert removed.customised and "marked_cards" not in removed.catalogue
    assert [e.entity_id for e in audit_log(db, tid, action="catalogue")] == [
        "slow_play", "late_deck_list", "marked_cards"]
    start_round(db, tid, actor=ORGANIZER)
    assert give(db, tid, 1, "slow_play").penalty.penalty is Penalty.REMARK
    late = give(db, tid, 2, "late_deck_list").penalty
    assert (late.penalty, late.reason_name.ru) == (Penalty.WARNING, "Поздняя сдача деклиста")
    before = snapshot(db)
    with pytest.raises(ConflictError, match="only new infractions can be added"):
        set_default(db, tid, "slow_play", RulesLevel.PROFESSIONAL, Penalty.WARNING,
                    actor=ORGANIZER)
    assert snapshot(db) == before
    newer = Infraction("phone_use", Text("Телефон за столом", "Phone at the table"),
                       Penalty.REMARK, Penalty.REMARK, Penalty.WARNING)
    assert "phone_use" in set_infraction(db, tid, newer, actor=ORGANIZER).catalogue
    with pytest.raises(UserError, match="a suspension cannot be a default"):
        Infraction("x_y", Text("x", "x"), Penalty.SUSPENSION, Penalty.WARNING, Penalty.WARNING)


def test_rule_T6_penalty_point_weights_are_a_setting(db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    give(db, tid, 1, "slow_play")
    assert get_tournament(db, tid).tournament.penalties[1].penalty_points == 1
    weights = PenaltyPoints(warning=3)
    with pytest.raises(UserError, match="only the organizer or head judge"):
        set_judging_settings(db, tid, actor=FLOOR, penalty_points=weights)
    settings = set_judging_settings(db, tid, actor=HEAD, penalty_points=weights,
                                    technical_margin=2)
    assert (settings.points, settings.technical_margin, settings.official) == (weights, 2, True)
    assert get_tournament(db, tid).tournament.penalties[1] == PenaltyCounts(
        penalty_points=3, warnings=1)
    with pytest.raises(ConflictError, match="since you loaded it"):
        set_judging_settings(db, tid, actor=HEAD, official=False, expected_version=1)
    assert get_judging_settings(db, tid).version == 2
    assert not set_judging_settings(db, tid, actor=HEAD, official=False,
                                    expected_version=2).official


def test_rule_S8_technical_result_by_crystal_count_is_the_head_judges(db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    line = line_of(db, tid, 1)
    before = snapshot(db)
    with pytest.raises(UserError, match="only the head judge records a technical result"):
        record_technical_result(db, tid, 1, line.table, crystals_a=CrystalCount(14),
                                crystals_b=CrystalCount(9, 2), actor=FLOOR)
    assert snapshot(db) == before
    done = record_technical_result(db, tid, 1, line.table, crystals_a=CrystalCount(10, 4),
                                   crystals_b=CrystalCount(9, 2), actor=HEAD,
                                   games_before=[GameReport("a", GameReason.LETHAL_DAMAGE)])
    assert done.result is not None and done.result.result.outcome is MatchOutcome.A_WINS
    assert (done.ruling.crystals, done.ruling.game, done.ruling.winner) == ((14, 11), 2, Side.A)
    assert done.ruling.explanation.en == \
        "technical win for player A: 14 crystals against 11 (margin 1)"
    other = line_of(db, tid, _other_table(db, tid, 1))
    set_judging_settings(db, tid, actor=HEAD, technical_margin=5)
    draw = record_technical_result(db, tid, 1, other.table, crystals_a=CrystalCount(14),
                                   crystals_b=CrystalCount(11), actor=HEAD,
                                   games_before=[GameReport("a"), GameReport("b")])
    assert draw.ruling.winner is None and draw.ruling.reason is GameReason.TECHNICAL
    assert draw.result is not None and draw.result.result.score == "1-1-1"
    assert [r.kind for r in list_rulings(db, tid)] == ["technical", "technical"]
    assert [e.action for e in audit_log(db, tid, action="game.")] == ["game.technical"] * 2


def _other_table(db: Database, tid: int, player: int) -> int:
    """A player of another table than ``player``'s."""
    line = line_of(db, tid, player)
    for candidate in range(1, 9):
        if candidate not in line.players:
            return candidate
    raise AssertionError


def test_rule_S9_claims_after_time_out_are_decided_by_a_judge(db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    line = line_of(db, tid, 1)
    refused = decide_time_out_claim(db, tid, 1, line.table, claimant=1,
                                    kind=ClaimKind.CLEAN_VICTORY, granted=False, actor=FLOOR,
                                    note="у соперника есть защитник")
    assert refused.result is None and refused.ruling.granted is False
    assert line_of(db, tid, 1).result is None
    granted = decide_time_out_claim(db, tid, 1, line.table, claimant=1,
                                    kind=ClaimKind.CLEAN_VICTORY, granted=True, actor=FLOOR)
    assert granted.result is not None
    winner = MatchOutcome.A_WINS if line.a == 1 else MatchOutcome.B_WINS
    assert granted.result.result.outcome is winner
    assert granted.ruling.reason is GameReason.DECISIVE_ADVANTAGE
    other = line_of(db, tid, _other_table(db, tid, 1))
    draw = decide_time_out_claim(db, tid, 1, other.table, claimant=other.a,
                                 kind=ClaimKind.DRAW, granted=True, actor=HEAD,
                                 games_before=[GameReport("b")])
    assert draw.result is not None and draw.result.result.outcome is MatchOutcome.B_WINS
    assert draw.ruling.reason is GameReason.NO_WIN_POSSIBLE
    with pytest.raises(UserError, match="does not play at round 1"):
        decide_time_out_claim(db, tid, 1, line.table, claimant=other.a,
                              kind=ClaimKind.DRAW, granted=True, actor=FLOOR)


def test_report_penalties_section_in_russian_and_english(db: Database) -> None:
    tid = judged_event(db, 8, official_head=True)
    lines = start_round(db, tid, actor=ORGANIZER).round.pairings
    (p1, p2), (p3, p4), third = lines[0].players, lines[1].players, lines[2]
    give(db, tid, p1, "slow_play", note="думал | долго")
    give(db, tid, p2, "cheating")
    appealed = give(db, tid, p3, "game_rule_error").penalty
    decide_appeal(db, tid, appealed.seq, outcome=AppealOutcome.WITHDRAWN, actor=HEAD)
    give(db, tid, p4, "aggressive_behaviour", penalty=Penalty.SUSPENSION, judge=HEAD)
    record_technical_result(db, tid, 1, third.table, crystals_a=CrystalCount(3),
                            crystals_b=CrystalCount(8), actor=HEAD)
    found = penalty_document(db, tid)
    assert (found.head_judge, found.official, found.rules_level) == (
        HEAD, True, RulesLevel.PROFESSIONAL)
    assert [d.player for d in found.disqualifications] == [p2, p4]
    assert found.without_prizes == {p2, p4}
    assert [a.outcome for a in found.appeals] == [AppealOutcome.WITHDRAWN]
    assert len(found.suspensions) == 1 and len(found.rulings) == 1
    assert found.counts[p1] == PenaltyCounts(penalty_points=1, warnings=1)
    assert p3 not in found.counts
    ru = render_penalty_document(found, lang="ru")
    en = render_penalty_document(found, lang="en")
    for heading in ("## Пенальти: Кубок судей", "### Выданные пенальти", "### Дисквалификации",
                    "### Апелляции", "### Приостановления членства",
                    "### Технические результаты и требования", "### Итог по игрокам (T-6)"):
        assert heading in ru
    assert "без призов; рейтинг сбрасывается" in ru
    assert "| снято |" in ru and "| withdrawn |" in en
    assert "### Technical results and claims" in en and "term to be set by the coordinator" in en
    assert "Slow play" in en and "Затягивание игры" in ru
    assert found.as_json()["without_prizes"] == sorted([p2, p4])


def test_a_persons_penalty_history_across_tournaments(db: Database) -> None:
    first = judged_event(db, 4, name="Первый", level=Level.AMATEUR)
    second = judged_event(db, 4, name="Второй", level=Level.AMATEUR)
    give(db, first, 1, "slow_play")
    give(db, second, 1, "tardiness", note="опоздал на 5 минут")
    person = list_players(db, first)[0].person_id
    assert person is not None and person == list_players(db, second)[0].person_id
    history = person_history(db, person)
    assert [(h.tournament, h.penalty.reason, h.penalty.penalty) for h in history] == [
        ("Первый", "slow_play", Penalty.REMARK), ("Второй", "tardiness", Penalty.WARNING)]
    assert history[1].penalty.note == "опоздал на 5 минут"
    assert history[0].penalty.explanation.ru.startswith("Затягивание игры: замечание")


def test_every_penalty_change_is_audited(db: Database) -> None:
    tid = judged_event(db, 8)
    start_round(db, tid, actor=ORGANIZER)
    warned = give(db, tid, 1, "slow_play").penalty
    decide_appeal(db, tid, warned.seq, outcome=AppealOutcome.CHANGED,
                  changed_to=Penalty.REMARK, actor=HEAD)
    give(db, tid, 2, "no_show")
    finish_round(db, tid)
    actions = [e.action for e in audit_log(db, tid) if e.action.startswith(("penalty", "result"))]
    assert actions[:4] == ["penalty.give", "penalty.appeal", "penalty.give", "result.record"]
    assert "penalty.apply" in actions
    info = get_tournament(db, tid).info
    assert info.version > 1


def test_rule_T6_imported_counts_and_recorded_penalties_add_up(db: Database) -> None:
    tid = import_tournament(db, dump_tournament(offline_event()), actor=ORGANIZER).id
    add_judge(db, tid, name=FLOOR, role=JudgeRole.FLOOR_JUDGE, actor=ORGANIZER)
    assert get_tournament(db, tid).tournament.penalties[3] == PenaltyCounts(warnings=2)
    give(db, tid, 3, "deck_error")                    # Amateur: a warning
    assert get_tournament(db, tid).tournament.penalties[3] == PenaltyCounts(
        penalty_points=1, warnings=3)
    exported = parse_tournament(export_tournament(db, tid))
    assert exported.penalties[3] == PenaltyCounts(penalty_points=1, warnings=3)

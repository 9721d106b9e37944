"""A whole tournament through the services: create, register, check in, pair (P-2..P-5), drop
and late entry (P-7), the top, finish; the stored tournament always passes the domain's
consistency check."""

from __future__ import annotations

import pytest

from tests.services.builders import JUDGE, ORGANIZER, event, play_round
from turnir.domain.consistency import check_tournament
from turnir.domain.model import PairingKind, Settings, Stage
from turnir.domain.results import parse_result
from turnir.domain.tournament import Phase
from turnir.errors import ConflictError, UserError
from turnir.services.common import RulesLevel, Status, TournamentFormat
from turnir.services.judges import JudgeRole, add_judge, list_judges
from turnir.services.players import (
    check_in,
    drop_player,
    late_entry,
    list_players,
    register_player,
)
from turnir.services.queries import get_standings
from turnir.services.results import record_result
from turnir.services.rounds import build_top, current_round, start_round, swap_seats, undo_round
from turnir.services.tournaments import (
    create_tournament,
    find_tournament,
    finish_tournament,
    get_tournament,
    list_tournaments,
)
from turnir.storage.database import Database


def test_create_find_and_list(db: Database) -> None:
    info = create_tournament(db, name="  Кубок   весны ", actor=ORGANIZER, seed=42,
                             format=TournamentFormat.CONSTRUCTED,
                             rules_level=RulesLevel.PROFESSIONAL,
                             settings=Settings(best_of=5, swiss_rounds=4, top_size=8))
    assert info.name == "Кубок весны"
    assert (info.status, info.seed, info.players, info.rounds) == (Status.REGISTRATION, 42, 0, 0)
    assert info.settings.best_of == 5 and info.settings.top_size == 8
    assert info.format is TournamentFormat.CONSTRUCTED
    assert info.rules_level is RulesLevel.PROFESSIONAL
    assert find_tournament(db, "кубок ВЕСНЫ").id == info.id
    assert find_tournament(db, str(info.id)).id == info.id
    other = create_tournament(db, name="Другой", actor=ORGANIZER)
    assert [t.id for t in list_tournaments(db)] == [other.id, info.id]
    assert [t.id for t in list_tournaments(db, status=Status.REGISTRATION)] == [other.id,
                                                                               info.id]
    create_tournament(db, name="Другой", actor=ORGANIZER)
    with pytest.raises(UserError, match="several tournaments"):
        find_tournament(db, "другой")


def test_register_check_in_and_drop_the_absent(db: Database) -> None:
    tid = event(db, 0, rounds=2)
    for name in ("Анна", "Борис", "Вера", "Глеб"):
        register_player(db, tid, name=name, actor=ORGANIZER, city="Тула")
    for name in ("Анна", "Борис", "Вера"):
        assert check_in(db, tid, name, actor=JUDGE).checked_in
    view = start_round(db, tid, actor=ORGANIZER, drop_absent_players=True)
    paired = {pid for line in view.round.pairings for pid in line.players}
    numbers = {p.name: p.number for p in list_players(db, tid)}
    assert numbers["Глеб"] not in paired
    assert paired == {numbers["Анна"], numbers["Борис"], numbers["Вера"]}
    dropped = {p.name: p.dropped_after for p in list_players(db, tid)}
    assert dropped["Глеб"] == 0 and dropped["Анна"] is None


def test_whole_event_with_drop_late_entry_swap_top_and_finish(db: Database) -> None:
    tid = event(db, 9, rounds=3, top=4)
    add_judge(db, tid, name="Главный Судья", role=JudgeRole.HEAD_JUDGE, actor=ORGANIZER,
              official_representative=True)
    add_judge(db, tid, name=ORGANIZER, role=JudgeRole.ORGANIZER, actor=ORGANIZER)
    with pytest.raises(UserError, match="already the head judge"):
        add_judge(db, tid, name="Другой", role=JudgeRole.HEAD_JUDGE, actor=ORGANIZER)
    assert [j.role for j in list_judges(db, tid)] == [JudgeRole.HEAD_JUDGE, JudgeRole.ORGANIZER]

    first = play_round(db, tid, seed=1)
    assert sum(1 for line in first.round.pairings if line.kind is PairingKind.BYE) == 1
    drop_player(db, tid, "Игрок 03", actor=JUDGE, reason="уехал")
    late = late_entry(db, tid, name="Поздний", actor=ORGANIZER, byes_for_missed_rounds=True)
    assert (late.number, late.joined_round, late.granted_byes) == (10, 2, (1,))

    second = start_round(db, tid, actor=ORGANIZER)
    assert 3 not in {pid for line in second.round.pairings for pid in line.players}
    matches = [line for line in second.round.pairings if line.b is not None]
    x, y = matches[0].a, matches[1].a
    swapped = swap_seats(db, tid, 2, x, y, actor=JUDGE, note="просьба")
    assert swapped.round.edits == (f"swap #{x} and #{y}: просьба",)
    for line in swapped.round.pairings:
        if line.b is not None:
            record_result(db, tid, 2, line.table, parse_result("2-0"), actor=JUDGE)
    play_round(db, tid, seed=3)
    with pytest.raises(ConflictError, match="rounds remain"):
        finish_tournament(db, tid, actor=ORGANIZER)
    top = build_top(db, tid, actor=ORGANIZER)
    assert top.round.stage is Stage.TOP and len(top.round.pairings) == 2
    with pytest.raises(ConflictError, match="already built"):
        build_top(db, tid, actor=ORGANIZER)
    for line in top.round.pairings:
        record_result(db, tid, top.round.number, line.table, parse_result("2-1"), actor=JUDGE)
    final = play_round(db, tid, "0-2")
    assert len(final.round.pairings) == 1

    details = get_tournament(db, tid)
    check_tournament(details.tournament)
    assert details.tournament.phase is Phase.FINISHED
    finished = finish_tournament(db, tid, actor=ORGANIZER)
    assert finished.status is Status.FINISHED and finished.finished_at is not None
    places = details.tournament.final_places()
    assert places[0] == final.round.pairings[0].b
    assert len(get_standings(db, tid).standings.rows) == 10
    with pytest.raises(ConflictError, match="finished"):
        start_round(db, tid, actor=ORGANIZER)
    with pytest.raises(ConflictError, match="finished"):
        register_player(db, tid, name="Новый", actor=ORGANIZER)


def test_build_top_is_refused_before_the_swiss_part_is_over(db: Database) -> None:
    tid = event(db, 8, rounds=2, top=4)
    play_round(db, tid)
    with pytest.raises(ConflictError, match="after Swiss round 2"):
        build_top(db, tid, actor=ORGANIZER)
    no_top = event(db, 4, rounds=1, name="Без топа")
    with pytest.raises(ConflictError, match="no top"):
        build_top(db, no_top, actor=ORGANIZER)


def test_undo_a_round_without_results_and_pair_again(db: Database) -> None:
    tid = event(db, 8, rounds=3)
    play_round(db, tid)
    second = start_round(db, tid, actor=ORGANIZER)
    after = undo_round(db, tid, actor=ORGANIZER)
    assert after is not None and after.round.number == 1
    again = start_round(db, tid, actor=ORGANIZER)
    assert again.round.number == 2
    assert again.round.lot != second.round.lot
    assert get_tournament(db, tid).tournament.undone == (2,)
    record_result(db, tid, 2, 1, parse_result("2-0"), actor=JUDGE)
    with pytest.raises(ConflictError, match="already has results"):
        undo_round(db, tid, actor=ORGANIZER)
    assert current_round(db, tid).round.number == 2


def test_undo_the_only_round_returns_to_registration(db: Database) -> None:
    tid = event(db, 4, rounds=2)
    start_round(db, tid, actor=ORGANIZER)
    assert undo_round(db, tid, actor=ORGANIZER) is None
    assert find_tournament(db, tid).status is Status.REGISTRATION
    with pytest.raises(ConflictError, match="no round"):
        undo_round(db, tid, actor=ORGANIZER)


def test_finish_early_needs_the_flag_and_a_finished_round(db: Database) -> None:
    tid = event(db, 6, rounds=3)
    with pytest.raises(ConflictError, match="no round"):
        finish_tournament(db, tid, actor=ORGANIZER)
    start_round(db, tid, actor=ORGANIZER)
    with pytest.raises(ConflictError, match="not finished"):
        finish_tournament(db, tid, actor=ORGANIZER, early=True)
    undo_round(db, tid, actor=ORGANIZER)
    play_round(db, tid)
    info = finish_tournament(db, tid, actor=ORGANIZER, early=True)
    assert info.status is Status.FINISHED
    with pytest.raises(ConflictError, match="already finished"):
        finish_tournament(db, tid, actor=ORGANIZER, early=True)

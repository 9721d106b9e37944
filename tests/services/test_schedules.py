"""The daily schedule of starter constructed (C-1, C-2; 004: 9:15, 15:15 and 19:15 Moscow time),
run with an injected clock on both databases: registration opens, the event starts with 4
(round 1 paired) or is cancelled with 3 (the message), later passes pair the next round and
finish it, a second pass does nothing twice, and the ratings refuse the starter event."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest

from tests.services.test_game_age import a_format, player_account
from turnir.domain.results import parse_result
from turnir.domain.schedule import ScheduleSettings
from turnir.errors import UserError
from turnir.formats.players_csv import PlayerLine
from turnir.i18n import error_text
from turnir.services.deck_formats import tournament_format
from turnir.services.players import register_player, register_players
from turnir.services.ratings import preview_tournament
from turnir.services.results import record_result
from turnir.services.rounds import current_round
from turnir.services.schedules import (
    add_schedule,
    list_schedules,
    run_schedules,
    scheduled_event,
    upcoming_events,
    update_schedule,
)
from turnir.services.tournaments import get_tournament, list_tournaments
from turnir.storage.database import Database

ORG = "Организатор Орлов"
DAILY = ("09:15", "15:15", "19:15")


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


OPENS = utc("2026-12-02 05:15")  # 08:15 in Moscow: registration of the 9:15 event opens
STARTS = utc("2026-12-02 06:15")  # 09:15 in Moscow


def starter_schedule(db: Database, *, online: bool = False, rounds: int | None = 2) -> int:
    fmt = a_format(db, starter=True)
    info = add_schedule(db, name="Стартовый конструктед", times=DAILY, actor=ORG, format=fmt,
                        settings=ScheduleSettings(best_of=1, swiss_rounds=rounds,
                                                  online=online))
    return info.id


def opened(db: Database) -> int:
    run = run_schedules(db, now=OPENS)
    [step] = run.of("opened")
    assert step.tournament_id is not None
    return step.tournament_id


def players(db: Database, tid: int, n: int) -> None:
    register_players(db, tid, [PlayerLine(f"Игрок {i:02d}", "Москва")
                               for i in range(1, n + 1)], actor=ORG)


def test_c2_the_daily_moscow_schedule_opens_the_9_15_event_an_hour_before(db: Database) -> None:
    starter_schedule(db)
    [info] = list_schedules(db, now=utc("2026-12-01 20:00"))
    assert info.times == DAILY and info.schedule.zone == "Europe/Moscow"
    assert info.next_starts == (STARTS, utc("2026-12-02 12:15"), utc("2026-12-02 16:15"))
    assert run_schedules(db, now=OPENS - timedelta(minutes=1)).steps == ()
    tid = opened(db)
    details = get_tournament(db, tid)
    assert details.info.name == "Стартовый конструктед 02.12.2026 09:15"
    assert details.info.status == "registration" and details.info.settings.best_of == 1
    fmt = tournament_format(db, tid)
    assert fmt is not None and fmt.starter and fmt.starts_at == STARTS


def test_a_second_pass_creates_nothing_twice(db: Database) -> None:
    starter_schedule(db)
    opened(db)
    assert run_schedules(db, now=OPENS).steps == ()
    assert run_schedules(db, now=OPENS + timedelta(minutes=30)).steps == ()
    assert len(list_tournaments(db)) == 1
    later = run_schedules(db, now=utc("2026-12-02 11:15"))  # the 15:15 event opens
    assert [s.action for s in later.steps] == ["opened", "cancelled"]  # 9:15 had nobody
    assert len(list_tournaments(db)) == 2


def test_c1_three_players_cancel_the_event_with_the_message(db: Database) -> None:
    starter_schedule(db)
    tid = opened(db)
    players(db, tid, 3)
    run = run_schedules(db, now=STARTS)
    [step] = run.of("cancelled")
    assert step.tournament_id == tid
    event = scheduled_event(db, tid)
    assert event is not None and event.state == "cancelled" and event.message is not None
    assert error_text(event.message, "ru") == ("Турнир отменён: зарегистрировались 3 игрока, "
                                               "нужно не меньше 4")
    details = get_tournament(db, tid)
    assert details.info.status == "finished" and details.info.rounds == 0
    with pytest.raises(UserError):  # closed: no more players
        register_player(db, tid, name="Опоздавший Игрок", actor=ORG)
    assert run_schedules(db, now=STARTS + timedelta(minutes=1)).steps == ()


def test_c1_four_players_start_it_with_round_1_paired(db: Database) -> None:
    starter_schedule(db)
    tid = opened(db)
    players(db, tid, 4)
    assert run_schedules(db, now=STARTS - timedelta(minutes=1)).steps == ()
    run = run_schedules(db, now=STARTS)
    [step] = run.of("started")
    assert step.round == 1
    view = current_round(db, tid)
    assert view.round.number == 1 and len(view.round.pairings) == 2
    event = scheduled_event(db, tid)
    assert event is not None and event.state == "started"
    assert run_schedules(db, now=STARTS + timedelta(minutes=1)).steps == ()  # results not in


def _play(db: Database, tid: int) -> int:
    rnd = current_round(db, tid).round
    for line in rnd.pairings:
        if line.b is not None:
            record_result(db, tid, rnd.number, line.table, parse_result("1-0"), actor=ORG)
    return rnd.number


def test_the_next_round_is_paired_when_the_results_are_in_and_then_it_finishes(
        db: Database) -> None:
    starter_schedule(db, rounds=2)
    tid = opened(db)
    players(db, tid, 5)
    run_schedules(db, now=STARTS)
    assert _play(db, tid) == 1
    second = run_schedules(db, now=STARTS + timedelta(minutes=40))
    assert [(s.action, s.round) for s in second.steps] == [("paired", 2)]
    assert run_schedules(db, now=STARTS + timedelta(minutes=41)).steps == ()
    assert _play(db, tid) == 2
    last = run_schedules(db, now=STARTS + timedelta(minutes=80))
    assert [s.action for s in last.steps] == ["finished"]
    assert get_tournament(db, tid).info.status == "finished"
    assert run_schedules(db, now=STARTS + timedelta(minutes=81)).steps == ()


def test_c2_the_ratings_refuse_a_scheduled_starter_event(db: Database) -> None:
    starter_schedule(db, rounds=1)
    tid = opened(db)
    players(db, tid, 4)
    run_schedules(db, now=STARTS)
    _play(db, tid)
    run_schedules(db, now=STARTS + timedelta(minutes=40))
    with pytest.raises(UserError) as refused:
        preview_tournament(db, tid)
    assert refused.value.code == "unrated_tournament"
    assert "starter constructed" in refused.value.message
    assert "стартовый конструктед" in error_text(refused.value, "ru").casefold()


def test_c2_an_online_scheduled_event_checks_the_game_age(db: Database) -> None:
    starter_schedule(db, online=True)
    tid = opened(db)
    fmt = tournament_format(db, tid)
    assert fmt is not None and fmt.online
    young = player_account(db, "young", "Юный Воин", 12)
    register_player(db, tid, name="Юный Воин", person_id=young, actor=ORG)
    with pytest.raises(UserError, match="under 18 game years"):
        players(db, tid, 1)


def test_a_deactivated_schedule_opens_nothing_and_upcoming_lists_the_plan(db: Database) -> None:
    sid = starter_schedule(db)
    before = upcoming_events(db, now=utc("2026-12-01 20:00"), limit=5)
    assert [e.state for e in before] == ["planned"] * 3
    update_schedule(db, sid, actor=ORG, active=False)
    assert run_schedules(db, now=OPENS).steps == ()
    assert upcoming_events(db, now=utc("2026-12-01 20:00")) == []


def test_a_schedule_refuses_a_bad_zone_an_unknown_format_and_a_second_name(db: Database) -> None:
    with pytest.raises(UserError, match="time zone"):
        add_schedule(db, name="Старт", times=DAILY, actor=ORG, zone="Moscow/Kremlin")
    with pytest.raises(UserError, match="no format"):
        add_schedule(db, name="Старт", times=DAILY, actor=ORG, format="Нет такого")
    add_schedule(db, name="Старт", times=DAILY, actor=ORG, zone="Europe/Berlin")
    with pytest.raises(UserError, match="exists already"):
        add_schedule(db, name="старт", times=DAILY, actor=ORG)


def test_two_runners_at_the_same_moment_create_one_tournament_and_pair_once(
        db: Database) -> None:
    starter_schedule(db)
    barrier = threading.Barrier(2)

    def run_at(moment: datetime) -> None:
        barrier.wait()
        run_schedules(db, now=moment)

    for moment in (OPENS, None, STARTS):
        if moment is None:
            [tid] = [t.id for t in list_tournaments(db)]
            players(db, tid, 4)
            continue
        workers = [threading.Thread(target=run_at, args=(moment,)) for _ in range(2)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    assert len(list_tournaments(db)) == 1
    assert get_tournament(db, tid).info.rounds == 1


def test_a_schedule_reports_every_problem_at_once_each_naming_its_field(db: Database) -> None:
    from turnir.services.schedules import ScheduleProblems

    with pytest.raises(ScheduleProblems) as raised:
        add_schedule(db, name="Старт", times=("25:00", "09:15", "9.15"), actor=ORG,
                     zone="Moscow", min_players=2)
    russian = [error_text(p, "ru") for p in raised.value.problems]
    assert russian == [
        "время начала указывается как ЧЧ:ММ в 24-часовом формате, например 09:15, а не «25:00»",
        "время начала указывается как ЧЧ:ММ в 24-часовом формате, например 09:15, а не «9.15»",
        "неизвестный часовой пояс «Moscow»",
        "наименьшее число игроков: нужно целое число от 4 до 10000, а не 2"]
    assert all(p in error_text(raised.value, "ru") for p in russian)  # the CLI's one message
    assert list_schedules(db) == []
    with pytest.raises(UserError, match="time zone") as one:  # one problem: itself
        add_schedule(db, name="Старт", times=DAILY, actor=ORG, zone="мск")
    assert not isinstance(one.value, ScheduleProblems)
    add_schedule(db, name="Старт", times=DAILY, actor=ORG, zone="America/Sao_Paulo")  # any IANA

"""The schedule's local start times (C-2; 004: starter constructed daily at 9:15, 15:15 and 19:15
Moscow time): next starts in a time zone, across daylight saving, and what is due at a moment."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest

from turnir.domain.schedule import (
    ScheduleSettings,
    StartDecision,
    cancel_from_text,
    cancel_message,
    decide_start,
    event_name,
    new_schedule,
    next_starts,
    parse_times,
    starts_between,
    starts_opening,
)
from turnir.errors import UserError

DAILY = ("09:15", "15:15", "19:15")


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def test_c2_the_three_daily_moscow_times_are_06_15_12_15_16_15_utc() -> None:
    starter = new_schedule("Стартовый конструктед", DAILY)
    assert starter.zone == "Europe/Moscow"
    found = next_starts(starter, utc("2026-12-01 20:00"), 4)
    assert found == [utc("2026-12-02 06:15"), utc("2026-12-02 12:15"),
                     utc("2026-12-02 16:15"), utc("2026-12-03 06:15")]


def test_next_start_is_strictly_after_the_moment() -> None:
    starter = new_schedule("Старт", DAILY)
    assert next_starts(starter, utc("2026-12-02 06:15"), 1) == [utc("2026-12-02 12:15")]


def test_a_dst_zone_keeps_the_wall_clock_time_across_the_change() -> None:
    berlin = new_schedule("Berlin", ("09:15",), zone="Europe/Berlin")
    # 2026-03-29: Europe/Berlin goes from CET (+1) to CEST (+2) at 02:00.
    found = next_starts(berlin, utc("2026-03-27 12:00"), 3)
    assert found == [utc("2026-03-28 08:15"), utc("2026-03-29 07:15"), utc("2026-03-30 07:15")]
    # 2026-10-25: back to CET.
    autumn = next_starts(berlin, utc("2026-10-24 12:00"), 2)
    assert autumn == [utc("2026-10-25 08:15"), utc("2026-10-26 08:15")]


def test_a_time_skipped_by_spring_forward_starts_after_the_jump_and_a_doubled_one_once() -> None:
    night = new_schedule("Night", ("02:30",), zone="Europe/Berlin")
    spring = starts_between(night, utc("2026-03-28 12:00"), utc("2026-03-29 12:00"))
    assert spring == [utc("2026-03-29 01:30")]  # 03:30 CEST, the clock jumped 02:00 -> 03:00
    autumn = starts_between(night, utc("2026-10-24 12:00"), utc("2026-10-25 12:00"))
    assert autumn == [utc("2026-10-25 00:30")]  # the first 02:30 (CEST), once


def test_registration_opens_the_window_before_the_start() -> None:
    starter = new_schedule("Старт", DAILY, settings=ScheduleSettings(registration_minutes=60))
    assert starts_opening(starter, utc("2026-12-02 05:14")) == []
    assert starts_opening(starter, utc("2026-12-02 05:15")) == [utc("2026-12-02 06:15")]
    assert starts_opening(starter, utc("2026-12-02 06:14")) == [utc("2026-12-02 06:15")]
    assert starts_opening(starter, utc("2026-12-02 06:15")) == []  # the start: too late
    inactive = new_schedule("Старт", DAILY, active=False)
    assert starts_opening(inactive, utc("2026-12-02 05:30")) == []


def test_c1_a_start_needs_at_least_four_and_the_cancel_message_counts() -> None:
    assert decide_start(4, 4).start
    three = decide_start(3, 4)
    assert not three.start
    message = cancel_message(three)
    assert message.message == "Tournament cancelled: 3 players registered, at least 4 needed"
    assert cancel_from_text(message.message) is not None
    for n in (0, 1, 2, 5, 11, 21):
        again = cancel_from_text(cancel_message(StartDecision(False, n, 30)).message)
        assert again is not None and again.params.get("registered", 0) == n
    assert cancel_from_text("something else") is None


def test_times_are_checked_sorted_and_once() -> None:
    assert parse_times(["19:15", "9:15", "09:15", "15:15"]) == (time(9, 15), time(15, 15),
                                                              time(19, 15))
    for bad in (["25:00"], ["9.15"], ["09:60"], [""], ["12:00:00"]):
        with pytest.raises(UserError):
            parse_times(bad)


@pytest.mark.parametrize("zone", ["Mars/Olympus", "", "../etc/passwd", "x" * 100])
def test_an_unknown_time_zone_is_refused(zone: str) -> None:
    with pytest.raises(UserError, match="time zone"):
        new_schedule("Старт", DAILY, zone=zone)


def test_settings_and_min_players_are_bounded() -> None:
    with pytest.raises(UserError):
        new_schedule("Старт", DAILY, min_players=3)  # C-1: at least 4
    for bad in (ScheduleSettings(best_of=2), ScheduleSettings(swiss_rounds=0),
                ScheduleSettings(registration_minutes=0),
                ScheduleSettings(registration_minutes=24 * 60 + 1)):
        with pytest.raises(UserError):
            new_schedule("Старт", DAILY, settings=bad)
    settings = ScheduleSettings(best_of=1, swiss_rounds=3, registration_minutes=30,
                                organizer="org")
    assert ScheduleSettings.from_json(settings.to_json()) == settings


def test_event_name_uses_the_local_day_and_time() -> None:
    start = utc("2026-12-01 21:15")  # 00:15 on 2 December in Moscow
    assert event_name("Старт", start, "Europe/Moscow") == "Старт 02.12.2026 00:15"


def test_a_moment_without_a_zone_is_refused() -> None:
    starter = new_schedule("Старт", DAILY)
    with pytest.raises(UserError):
        next_starts(starter, datetime(2026, 12, 1, 12, 0), 1)
    assert next_starts(starter, utc("2026-12-01 12:00") + timedelta(0), 1)

"""``turnir schedule``: add the daily Moscow schedule, list it, run one pass at a given moment
(opens the 9:15 event, then cancels it with the message when too few registered)."""

from __future__ import annotations

from tests.cli.test_db_cli import env, ok, run  # noqa: F401 - env is a fixture
from tests.services.test_game_age import a_format
from turnir.storage.database import Database


def test_schedule_add_list_and_run_with_a_given_moment(db: Database,
                                                       env: dict[str, str]) -> None:  # noqa: F811
    a_format(db, starter=True, name="Стартовый")
    out = ok(env, "schedule", "add", "Старт", "--at", "09:15", "--at", "15:15", "--at", "19:15",
             "--format", "стартовый", "--offline")
    assert "daily at 09:15, 15:15, 19:15 (Europe/Moscow)" in out
    listed = ok(env, "schedule", "list")
    assert "#1 Старт [active]" in listed and "format Стартовый" in listed
    opened = ok(env, "schedule", "run", "--now", "2026-12-02T08:15+03:00")
    assert "opened: Старт 2026-12-02T06:15:00+00:00 tournament #1" in opened
    assert "nothing due" in ok(env, "schedule", "run", "--now", "2026-12-02T08:20+03:00")
    ok(env, "player", "add", "1", "Игрок Один")
    cancelled = ok(env, "schedule", "run", "--now", "2026-12-02T09:15+03:00")
    assert ("cancelled: Старт 2026-12-02T06:15:00+00:00 tournament #1: Tournament cancelled: "
            "1 player registered, at least 4 needed") in cancelled
    assert "off" in ok(env, "schedule", "off", "Старт")


def test_schedule_refuses_a_bad_time_zone_and_a_bad_moment(db: Database,
                                                           env: dict[str, str]) -> None:  # noqa: F811
    code, out = run(env, "schedule", "add", "Старт", "--at", "09:15", "--tz", "Mars/Base")
    assert code == 2 and "unknown time zone" in out
    code, out = run(env, "schedule", "run", "--now", "yesterday")
    assert code == 2 and "ISO" in out

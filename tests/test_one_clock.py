"""One clock: no module of turnir reads the time of day but ``turnir/clock.py``; every page,
service, CLI command and the robot take "now" from an injected clock (``Database.clock``), so a
test passes the time in and no result depends on the day the suite runs."""

from __future__ import annotations

import ast
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import turnir
from turnir.clock import ManualClock, SystemClock
from turnir.errors import InvariantError

PACKAGE = Path(turnir.__file__).parent
CLOCK_READS = {("datetime", "now"), ("datetime", "utcnow"), ("datetime", "today"),
               ("date", "today"), ("time", "time"), ("time", "time_ns"),
               ("time", "localtime"), ("time", "gmtime"), ("time", "ctime")}
"""Calls that read the time of day (``time.monotonic`` measures durations and is allowed)."""


def clock_reads(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            name = owner.attr if isinstance(owner, ast.Attribute) else \
                owner.id if isinstance(owner, ast.Name) else None
            if (name, node.func.attr) in CLOCK_READS:
                found.append((node.lineno, f"{name}.{node.func.attr}()"))
    return found


def test_only_the_clock_module_reads_the_time_of_day() -> None:
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 100
    bad = [f"{path.relative_to(PACKAGE)}:{line}: {call}"
           for path in files if path != PACKAGE / "clock.py"
           for line, call in clock_reads(ast.parse(path.read_text(encoding="utf-8")))]
    assert bad == []


def test_the_check_finds_every_kind_of_clock_read() -> None:
    source = ("import datetime as dt, time\nfrom datetime import date, datetime\n"
              "a = datetime.now(UTC)\nb = dt.datetime.now()\nc = date.today()\n"
              "d = time.time()\ne = time.monotonic()\nf = time.time_ns()\n")
    assert [call for _, call in clock_reads(ast.parse(source))] == [
        "datetime.now()", "datetime.now()", "date.today()", "time.time()", "time.time_ns()"]


def test_a_manual_clock_moves_only_forward_and_agrees_with_itself() -> None:
    start = datetime(2027, 2, 28, 21, 30, tzinfo=UTC)
    clock = ManualClock(start)
    assert clock.now() == start and clock.now().tzinfo is not None
    assert clock.now_ms() == int(start.timestamp() * 1000)
    clock.advance(timedelta(minutes=90))
    assert clock.now() == datetime(2027, 2, 28, 23, 0, tzinfo=UTC)
    clock.advance(500)
    assert clock.now() == datetime(2027, 2, 28, 23, 0, 0, 500_000, tzinfo=UTC)
    with pytest.raises(InvariantError):
        clock.set(start)
    with pytest.raises(InvariantError):
        ManualClock(datetime(2027, 1, 1))  # a moment without its zone


def test_the_system_clock_is_aware_and_in_milliseconds() -> None:
    clock = SystemClock()
    now, ms = clock.now(), clock.now_ms()
    assert now.tzinfo is UTC
    assert abs(ms - now.timestamp() * 1000) < 60_000

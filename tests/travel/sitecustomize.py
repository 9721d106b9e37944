"""The time of day of this Python process moved by ``TURNIR_TEST_TRAVEL_S`` seconds, ticking
(``scripts/test-dates.sh``, ``make test-dates``: the whole suite at other dates).

``test-dates.sh`` puts this folder on ``PYTHONPATH``, so every Python process of the run loads
it: pytest, its workers, and the servers, CLI commands and robot workers the tests start. Each
moves its clock by the same offset, so they all agree on "now". ``time-machine`` moves only the
time of day (``time.time``, ``datetime.now``, ``date.today``…), never the monotonic clock that
waits and timeouts use. Chromium and PostgreSQL keep the machine's time (turnir never asks
either for the time of day)."""

import os

_offset = os.environ.get("TURNIR_TEST_TRAVEL_S", "").strip()
if _offset:
    import time

    import time_machine

    time_machine.travel(time.time() + float(_offset), tick=True).start()

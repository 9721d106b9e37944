#!/usr/bin/env bash
# The whole suite with the machine's clock moved (`make test-dates`): no test may depend on the
# day it runs. Debian's faketime (libfaketime, LD_PRELOAD) moves the time of day of every
# process of the run (pytest, its workers, the servers, PostgreSQL, Chromium) to each date
# below and lets it tick from there. The monotonic clock is moved by the same offset (it still
# measures durations right): left alone, libfaketime 0.9.10 makes Python's time.sleep fail with
# EINVAL (its absolute-time clock_nanosleep). Each date is one whole run; the script fails when
# any run fails.
#
#   scripts/test-dates.sh                   the four dates below
#   scripts/test-dates.sh "2030-01-01 00:00:00" [pytest arguments…]   one date of your own
set -euo pipefail
cd "$(dirname "$0")/.."
DATES=(
  "2027-02-28 21:30:00"  # 00:30 on 1 March 2027 in Moscow: the day and the month differ by zone
  "2028-02-29 23:59:00"  # the last minute of a leap day, UTC
  "2026-12-31 21:30:00"  # still 2026 in UTC, already 2027 in Moscow
  "2027-07-15 09:00:00"  # summer: the European zones on summer time
)
if [ $# -gt 0 ]; then DATES=("$1"); shift; fi
command -v faketime >/dev/null || bash scripts/system-deps.sh

# libfaketime must let Python wait: Debian 12's 0.9.10 does not. With the monotonic clock moved,
# a lock or condition wait with a timeout never returns (SQLAlchemy's pool timeout, every
# threading wait: the first run hung there); with it left alone (FAKETIME_DONT_FAKE_MONOTONIC),
# time.sleep fails with EINVAL (absolute clock_nanosleep). Refuse with the reason rather than
# hang for hours or fail hundreds of tests for the tool's sake.
probe='import threading, time
time.sleep(0.01)
lock = threading.Lock(); lock.acquire(); lock.acquire(timeout=0.05)
print("waits work")'
if ! TZ=UTC timeout 20 faketime "${DATES[0]}" .venv/bin/python -c "$probe" >/dev/null 2>&1; then
  echo "make test-dates: this faketime ($(dpkg-query -W -f='${Version}' libfaketime 2>/dev/null \
|| echo unknown)) breaks Python's timed waits (time.sleep fails, or a lock wait with a timeout \
never returns), so the suite cannot run under it here; see docs/architecture.md, One clock" >&2
  exit 2
fi
PYTEST=(.venv/bin/pytest -n "${TEST_WORKERS:-2}" --dist loadfile -p no:cacheprovider "$@")
failed=()
for moment in "${DATES[@]}"; do
  echo "=== the suite at $moment UTC"
  started=$SECONDS
  if TZ=UTC faketime "$moment" "${PYTEST[@]}"; then
    echo "=== $moment UTC: passed in $((SECONDS - started)) s"
  else
    echo "=== $moment UTC: FAILED after $((SECONDS - started)) s"
    failed+=("$moment")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  printf 'the suite failed at: %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "the suite passed at every date"

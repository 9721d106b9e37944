#!/usr/bin/env bash
# The whole suite with the time of day moved (`make test-dates`): no test may depend on the day
# it runs. Every Python process of the run (pytest, its workers, the servers and commands the
# tests start) moves its clock by the same offset with `time-machine`
# (tests/travel/sitecustomize.py): the run starts at each date below and ticks from there; the
# monotonic clock, which waits and timeouts use, is left alone. Each date is one whole run; the
# script fails when any run fails.
#
# (Debian's faketime was tried first: its libfaketime 0.9.10 breaks Python's timed waits: with
# the monotonic clock moved a lock wait with a timeout never returns, without it time.sleep
# fails with EINVAL.)
#
#   scripts/test-dates.sh                                        the four dates below
#   scripts/test-dates.sh "2030-01-01 00:00:00" [pytest arguments…]   one date (UTC) of your own
set -euo pipefail
cd "$(dirname "$0")/.."
DATES=(
  "2027-02-28 21:30:00"  # 00:30 on 1 March 2027 in Moscow: the day and the month differ by zone
  "2028-02-29 23:59:00"  # the last minute of a leap day, UTC
  "2026-12-31 21:30:00"  # still 2026 in UTC, already 2027 in Moscow
  "2027-07-15 09:00:00"  # summer: the European zones on summer time
)
if [ $# -gt 0 ]; then DATES=("$1"); shift; fi
PYTEST=(.venv/bin/pytest -n "${TEST_WORKERS:-2}" --dist loadfile -p no:cacheprovider "$@")
failed=()
for moment in "${DATES[@]}"; do
  echo "=== the suite from $moment UTC"
  started=$SECONDS
  offset=$(( $(date -u -d "$moment" +%s) - $(date -u +%s) ))
  if TURNIR_TEST_TRAVEL_S="$offset" PYTHONPATH="$PWD/tests/travel${PYTHONPATH:+:$PYTHONPATH}" \
      "${PYTEST[@]}"; then
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

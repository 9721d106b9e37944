#!/usr/bin/env bash
# The tests most exposed to timing, run again and again on a busy machine (`make test-repeat`):
# the fault tests, every browser test and the concurrency and crash tests, RUNS times in a row
# (default 5) on the suite's workers while a CPU-heavy process of the same size runs beside
# them. Every run must pass: a test that needs a wait waits for a condition, not for a time.
#
#   scripts/test-repeat.sh                 5 runs, with the CPU hog
#   RUNS=2 HOG=0 scripts/test-repeat.sh    2 runs, no hog
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-5}"
HOG="${HOG:-$(nproc)}"
PYTEST=(.venv/bin/pytest -n "${TEST_WORKERS:-2}" --dist loadfile -p no:cacheprovider
        tests/faults tests/services/test_concurrency.py tests/services/test_crash.py tests/web
        -m "browser or faults or concurrency" "$@")
hogs=()
stop_hogs() { for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap stop_hogs EXIT
for _ in $(seq 1 "$HOG"); do
  .venv/bin/python -c "while True: sum(i * i for i in range(10_000))" &
  hogs+=($!)
done
passed=0
for run in $(seq 1 "$RUNS"); do
  echo "=== run $run of $RUNS (CPU hogs: $HOG)"
  started=$SECONDS
  if "${PYTEST[@]}"; then
    passed=$((passed + 1))
    echo "=== run $run: passed in $((SECONDS - started)) s"
  else
    echo "=== run $run: FAILED after $((SECONDS - started)) s"
  fi
done
echo "$passed of $RUNS runs passed"
[ "$passed" = "$RUNS" ]

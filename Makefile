# The two commands a new user runs: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-dates test-repeat lint typecheck unit bench system-deps clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/turnir serve --demo

system-deps:
	bash scripts/system-deps.sh

lint: $(STAMP)
	$(BIN)/ruff check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

# The suite runs on TEST_WORKERS pytest-xdist workers (one per core here; `make unit
# TEST_WORKERS=0` runs it in one process). Whole files go to one worker (module fixtures stay
# shared); the PostgreSQL test server is started once for all of them.
TEST_WORKERS ?= 2

# The suite starts a few hundred Python processes (its workers, `turnir serve` and its uvicorn
# workers, the crash and CLI tests' commands). With PYTHONDONTWRITEBYTECODE set (some shells and
# images set it) each of them compiles turnir from source again (about 1 s each) and pytest
# rewrites every test module again in each worker: the tests write their bytecode (into the
# ignored __pycache__ folders) whatever the caller's environment says.
unit test-repeat test-dates: export PYTHONDONTWRITEBYTECODE :=

unit: $(STAMP) system-deps
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile

# mypy runs on one core (about 30 s on a fresh clone): beside the suite rather than before it,
# its report printed after the suite's. Either failing fails `make test`.
test: lint $(STAMP)
	@{ $(BIN)/mypy --strict src > .typecheck.log 2>&1; echo $$? > .typecheck.rc; } & \
	$(MAKE) --no-print-directory unit; unit=$$?; wait; \
	echo "$(BIN)/mypy --strict src"; cat .typecheck.log; typecheck=$$(cat .typecheck.rc); \
	rm -f .typecheck.log .typecheck.rc; [ $$unit = 0 ] && [ $$typecheck = 0 ]

# The whole suite again at four other dates (faketime moves every process's clock): proof that
# no test depends on the day it runs. Not part of `make test`; about four suites' time.
test-dates: $(STAMP) system-deps
	TEST_WORKERS=$(TEST_WORKERS) bash scripts/test-dates.sh

# The fault, browser and concurrency tests 5 times in a row beside a CPU-heavy process: proof
# that they wait for conditions, not for times. Not part of `make test`.
test-repeat: $(STAMP) system-deps
	TEST_WORKERS=$(TEST_WORKERS) bash scripts/test-repeat.sh

bench: $(STAMP)
	for b in bench/*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis

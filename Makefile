# taikai: `make run` serves the app; `make test` runs every test (SQLite, then PostgreSQL when reachable).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# mypy --strict: the rules, the card data and every service module (STYLE 7)
TYPED := src/taikai/core src/taikai/cards src/taikai/events/services src/taikai/judging/services \
	src/taikai/decks/services.py src/taikai/decks/lock.py src/taikai/api/services.py \
	src/taikai/db/rows.py src/taikai/db/heavy.py src/taikai/events/reads.py

.PHONY: run test check bench install clean-venv test-sqlite test-postgres messages

$(STAMP): pyproject.toml constraints.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade "pip>=24"
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e ".[dev]"
	@touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/taikai serve

check: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/mypy $(TYPED)
	$(BIN)/lint-imports
	$(BIN)/python scripts/import_circles.py

test: $(STAMP)
	@scripts/test.sh

bench: $(STAMP)
	@command -v wrk >/dev/null || (apt-get install -y -qq wrk >/dev/null 2>&1 || echo "wrk not installed: page loads come from Python threads")
	$(BIN)/python -m taikai.bench $(BENCH)

messages: $(STAMP)
	scripts/messages.sh

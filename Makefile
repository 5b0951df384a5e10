# taikai: `make run` serves the app; `make test` runs every test (SQLite, then PostgreSQL when reachable).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# mypy --strict over every module and the tests (STYLE 7; pyproject.toml says what tests relax)
TYPED := src/taikai tests

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
	$(BIN)/python scripts/code_shape.py
	$(BIN)/python scripts/repeated_shapes.py

test: $(STAMP)
	@BIN=$(BIN) STAMP=$(STAMP) scripts/test.sh

# One database only, after the static checks (make test runs both).
test-sqlite: $(STAMP)
	@BIN=$(BIN) STAMP=$(STAMP) scripts/test.sh sqlite

test-postgres: $(STAMP)
	@BIN=$(BIN) STAMP=$(STAMP) scripts/test.sh postgres

clean-venv:
	rm -rf $(VENV)

bench: $(STAMP)
	@command -v wrk >/dev/null || (apt-get install -y -qq wrk >/dev/null 2>&1 || echo "wrk not installed: page loads come from Python threads")
	$(BIN)/python -m taikai.bench $(BENCH)

messages: $(STAMP)
	scripts/messages.sh

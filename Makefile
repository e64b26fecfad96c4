# Two entry points, both safe to run on a fresh machine with Python 3.11+ and make:
#   make run   - create .venv, install the companion, start it (pass ARGS="score ...")
#   make test  - create .venv, install the companion with its dev tools, run every check
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,notebooks]'
	touch $@

run: $(BIN)/.installed
	$(BIN)/companion $(ARGS)

test: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict scorers companion
	$(BIN)/pytest

# Two entry points, both safe to run on a fresh machine with Python 3.11+ and make:
#   make run   - create .venv, install the companion with its web page, start it (pass ARGS="score ...")
#   make test  - create .venv, install the companion with its dev tools, run every check
#   make quick - the same install, then only the tests not marked slow (pytest -m "not slow")
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check

.PHONY: run test quick

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Running needs only the package and its notebook extras.
$(BIN)/.installed-run: pyproject.toml | $(BIN)/python
	$(PIP) -e '.[notebooks]'
	touch $@

# The tests need everything.
$(BIN)/.installed: pyproject.toml | $(BIN)/python
	$(PIP) -e '.[dev,notebooks]'
	touch $@ $(BIN)/.installed-run

# The hint goes to standard error, before the program starts: the menu then fills the screen.
run: $(BIN)/.installed-run
	@echo 'companion is installed in $(VENV). To type "companion" in a new shell: source $(VENV)/bin/activate' >&2
	@echo '(or install it for your user: pipx install ".[notebooks]", or uv tool install ".[notebooks]")' >&2
	$(BIN)/companion $(ARGS)

test: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict scorers companion
	$(BIN)/pytest

# The quick loop: everything but the slow tests (browser, terminal, fuzz, multi-second).
quick: $(BIN)/.installed
	$(BIN)/pytest -m "not slow"

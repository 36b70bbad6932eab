# tablebox: the two commands that matter are `make serve` and `make test`.
# Both create .venv and install what they need, so a fresh clone needs nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
PYTEST_ARGS ?=

.PHONY: serve test lint typecheck check bench chaos demo clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,kiosk]'
	rm -f $(VENV)/.installed-*
	touch $@

serve: $(STAMP)
	$(BIN)/tablebox serve $(SERVE_ARGS)

demo: $(STAMP)
	$(BIN)/tablebox selfplay sequence --players 2 --ai normal,easy --games 1 --show

test: $(STAMP)
	$(BIN)/python -m pytest -m "not slow" $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check engine hostd clients tablebox tests bench
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m bench

chaos: $(STAMP)
	$(BIN)/python -m pytest -m slow $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

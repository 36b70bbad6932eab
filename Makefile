# tablebox: the two commands that matter are `make serve` and `make test`.
# Both create .venv and install what they need, so a fresh clone needs nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
PYTEST_ARGS ?=
# Most tests wait on processes, sockets and a browser rather than compute, so two workers
# (pytest-xdist) on a 2-core machine nearly halve make test's wall time; 0 runs them in one.
TEST_WORKERS ?= 2
BENCH_ARGS ?=

.PHONY: serve test lint typecheck check bench chaos demo clean fuse

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,kiosk]'
	rm -f $(VENV)/.installed-*
	touch $@

# The power-cut tests mount a FUSE filesystem of their own (mfusepy, from the test extra, over
# Debian's libfuse3: package fuse3). As root with apt, `make test` installs fuse3 itself;
# otherwise it says what to install (the tests are then skipped, but never in CI).
fuse:
	@dpkg-query -W -f='$${Status}' fuse3 2>/dev/null | grep -q "install ok installed" || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get install -y -qq --no-install-recommends fuse3 >/dev/null 2>&1 || \
	    { apt-get update -qq && apt-get install -y -qq --no-install-recommends fuse3; }; \
	  else echo "make: the power-cut tests need Debian's fuse3: sudo apt-get install fuse3"; fi; }

serve: $(STAMP)
	$(BIN)/tablebox serve $(SERVE_ARGS)

demo: $(STAMP)
	$(BIN)/tablebox selfplay sequence --players 2 --ai normal,easy --games 1 --show

test: $(STAMP) fuse
	$(BIN)/python -m pytest -m "not slow" -n $(TEST_WORKERS) $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check engine hostd clients tablebox tests bench
	$(BIN)/mypy

# `make bench BENCH_ARGS="--only compare"`: the daemon against the floor and the disk only.
bench: $(STAMP)
	$(BIN)/python -m bench $(BENCH_ARGS)

chaos: $(STAMP) fuse
	$(BIN)/python -m pytest -m slow $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# The commands a newcomer needs. Each creates .venv on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test demo bench bench-ai bench-shards soak lint goldens clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/pip install -q -c constraints.txt -e '.[dev]'
	touch $@

run: $(VENV)/.installed
	$(BIN)/python -m bot

# One test process per core (pytest-xdist); each starts its own PostgreSQL server.
PYTEST := $(BIN)/python -m pytest -n auto --dist worksteal

test: $(VENV)/.installed
	$(PYTEST)

soak: $(VENV)/.installed
	$(PYTEST) --runslow -m slow

demo: $(VENV)/.installed
	$(BIN)/python -m bot.demo

bench: $(VENV)/.installed
	$(BIN)/python -m bot.bench

bench-ai: $(VENV)/.installed
	$(BIN)/python -m bot.bench_ai $(BENCH_AI_ARGS)

bench-shards: $(VENV)/.installed
	$(BIN)/python -m bot.bench_shards

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/mypy engines renderers bot cogs tools

goldens: $(VENV)/.installed
	$(BIN)/python -m tests.renderers.regenerate

clean:
	rm -rf $(VENV) demo .pytest_cache

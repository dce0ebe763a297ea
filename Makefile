# The two commands of the README: `make run` and `make test`. Both set up everything they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test venv lint format bench clean

venv: $(VENV)/.installed

$(VENV)/.installed: requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check -r requirements.txt
	touch $@

run: venv
	bash scripts/run.sh

test: venv
	bash scripts/test.sh $(ARGS)

lint: venv
	$(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/lint-imports --no-cache

format: venv
	$(BIN)/ruff check --fix . && $(BIN)/ruff format .

bench: venv
	bash scripts/test.sh --bench $(ARGS)

clean:
	rm -rf var/db.sqlite3 var/broker var/results var/staticfiles

# The two commands of the README: `make demo` and `make test`. Each sets up what it needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-python test-client setup

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

demo: $(STAMP)
	$(BIN)/scorelens score samples/mt/news.hyp.en -r samples/mt/news.ref.en -r samples/mt/news.ref2.en
	$(BIN)/scorelens check samples/mt/news.hyp.en -r samples/mt/news.ref.en -r samples/mt/news.ref2.en --min-bleu 20 | tail -n 15

test: test-python

test-python: $(STAMP)
	$(BIN)/python -m pytest

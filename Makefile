# The two commands of the README: `make demo` and `make test`. Each sets up what it needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-python test-client test-e2e setup

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

demo: $(STAMP)
	$(BIN)/scorelens score samples/mt/news.hyp.en -r samples/mt/news.ref.en -r samples/mt/news.ref2.en
	$(BIN)/scorelens check samples/mt/news.hyp.en --min-bleu 20 | tail -n 15
	$(BIN)/scorelens compare samples/mt/news.hyp.en samples/mt/news.sys2.en --segments 1
	$(BIN)/scorelens check samples/lm/call.hyp.txt --metrics ppl --lm samples/lm/asr.arpa | grep -v lm.oov

# Every suite runs even when an earlier one fails; the target fails if any did.
# test-e2e installs its parts into .cache/vscode-e2e on first use; without network it is skipped
# with the reason printed, except under CI=true (.ci/run sets it), where that is a failure.
test: $(STAMP)
	@status=0; \
	$(MAKE) --no-print-directory test-python || status=1; \
	$(MAKE) --no-print-directory test-client || status=1; \
	$(MAKE) --no-print-directory test-e2e || status=1; \
	exit $$status

test-python: $(STAMP)
	@tests/install-perl.sh || true
	$(BIN)/python -m pytest

test-client:
	client-vscode/scripts/unit.sh

test-e2e: $(STAMP)
	client-vscode/scripts/e2e.sh

"""The commands the README and the docs show are run as written (from the checkout's top), so a
user who copies one gets what the page says: no error, and for a `check` at most a crossed
threshold."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from cli_support import ROOT

PAGES = ["README.md", "docs/formats.md", "docs/cli.md", "docs/qa.md"]
# what a page shows that is not for a test to run: a synopsis (HYP, REF, FILE), a server, a cluster,
# files the reader must have, shell pipes
NOT_RUN = re.compile(r"\b(HYP|REF|BASELINE|MODEL|FILE)\b|\bserve\b|--dask|predictions\.|<\(|\bcat\b|\|")


def commands(page: str) -> list[str]:
    text = (ROOT / page).read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"```(?:sh|console)\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = line.removeprefix("$ ").split("  #")[0].strip()
            if line.startswith("scorelens ") and not NOT_RUN.search(line):
                found.append(line)
    return found


CASES = [(page, c) for page in PAGES for c in commands(page)]


def test_the_pages_show_commands():
    assert {page for page, _ in CASES} == set(PAGES)


@pytest.mark.parametrize("page, command", CASES, ids=[f"{p}: {c}" for p, c in CASES])
def test_a_command_a_page_shows_runs(run, monkeypatch, page, command):
    monkeypatch.chdir(ROOT)
    r = run(*shlex.split(command)[1:])
    assert r.code in ((0, 1) if shlex.split(command)[1] == "check" else (0,)), r.err

"""The examples of docs/api.md and docs/qa.md run, and print what the pages say they print."""

from __future__ import annotations

import doctest
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGE = DOCS / "api.md"


def test_the_api_page_examples_run():
    failures, tried = doctest.testfile(str(PAGE), module_relative=False, optionflags=doctest.ELLIPSIS, raise_on_error=False)
    assert tried > 20
    assert failures == 0


def test_the_qa_page_example_runs():
    failures, tried = doctest.testfile(str(DOCS / "qa.md"), module_relative=False, optionflags=doctest.ELLIPSIS, raise_on_error=False)
    assert tried >= 4
    assert failures == 0

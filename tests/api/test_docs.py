"""The examples of docs/api.md run, and print what the page says they print."""

from __future__ import annotations

import doctest
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_the_api_page_examples_run():
    failures, tried = doctest.testfile(str(PAGE), module_relative=False, optionflags=doctest.ELLIPSIS, raise_on_error=False)
    assert tried > 20
    assert failures == 0

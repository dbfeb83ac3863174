"""What the compat tests share: the core tests' text strategies and ../shared/data."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from peer_suites import ROOT, SHARED

# the core tests' strategies (tests/core/texts.py: lines full of every tokenizer's traps), drawn
# here too rather than written twice
sys.path.insert(0, str(ROOT / "tests" / "core"))


@pytest.fixture(scope="session")
def shared():
    """``shared("compare-mt", "ted.ref.eng")`` -> that path, or a skip saying where it looked."""

    def path(*parts: str) -> Path:
        found = SHARED.joinpath(*parts)
        if not found.exists():
            pytest.skip(f"shared test data not found at {found} (expected ../shared/data next to the repository)")
        return found

    return path

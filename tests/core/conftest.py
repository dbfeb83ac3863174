"""Shared-data location for the core tests.

The real corpora and golden values live outside the repository, in ``../shared/data``
relative to its root; tests that need them skip, saying where they looked, when it is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"


def shared_path(*parts: str) -> Path:
    """A path under ``../shared/data``; skips the calling test when it does not exist."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared test data not found at {path} (expected ../shared/data next to the repository)")
    return path


@pytest.fixture(scope="session")
def shared():
    """``shared("compare-mt", "ted.ref.eng")`` -> that path, or a skip with the reason."""
    return shared_path

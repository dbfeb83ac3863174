"""The peers' tests that cannot pass against the compat modules (``peer_exceptions.toml``), and
their list as docs/compat.md shows it (``python tests/compat/peer_exceptions.py`` prints it)."""

from __future__ import annotations

import tomllib
from pathlib import Path

FILE = Path(__file__).with_name("peer_exceptions.toml")
CATEGORIES = {
    "download": "needs a download (test sets, NLTK models)",
    "outside-scoring": "a feature around scoring, not scoring (reading and writing files)",
    "internal": "calls a private helper of the peer",
    "missing-data": "reads test data that neither the peer's source distribution nor ../shared/data has",
}
DOCS_START = "<!-- peer-exceptions:start (generated from tests/compat/peer_exceptions.toml) -->"
DOCS_END = "<!-- peer-exceptions:end -->"


def load() -> dict[str, dict[str, dict[str, str]]]:
    """Per peer (import name): test id -> ``{"category": ..., "reason": ...}``."""
    with FILE.open("rb") as f:
        return tomllib.load(f)


def markdown(exceptions: dict[str, dict[str, dict[str, str]]]) -> str:
    """The list for docs/compat.md: per peer, a table of test, category and reason."""
    lines = [DOCS_START]
    for peer, tests in exceptions.items():
        lines += ["", f"**{peer}** ({len(tests)})", "", "| test | category | reason |", "| --- | --- | --- |"]
        lines += [f"| `{test}` | {e['category']} | {e['reason']} |" for test, e in tests.items()]
    lines += ["", DOCS_END]
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown(load()))
